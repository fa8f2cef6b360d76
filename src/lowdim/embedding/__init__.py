"""Vec2vec dimensionality reduction and the paper's baselines.

- :class:`Vec2Vec`: top-k cosine graph -> weighted random walks -> skip-gram.
- Baselines with the same interface: :class:`PCAEmbedding`,
  :class:`MDSEmbedding` (SMACOF, the paper's MDS), :class:`ClassicalMDS`, :class:`IsomapEmbedding`, :class:`LLEEmbedding`,
  :class:`LaplacianEigenmaps`, :class:`UMAPEmbedding`; build any by name with
  :func:`make_embedder`.
- Building blocks: :func:`cosine_knn_graph`, :func:`random_walks`,
  :func:`skipgram_embedding`, :func:`window_cooccurrences`,
  :func:`cooccurrence_sgns`, :func:`classical_mds`.
"""

from .baselines import (METHODS, NEIGHBOR_PARAMETER, IsomapEmbedding, LaplacianEigenmaps,
                        LLEEmbedding, PCAEmbedding, UMAPEmbedding, isometric_dense_rows,
                        make_embedder)
from .graph import CSRGraph, add_self_loops_to_isolated, as_csr_graph, cosine_knn_graph
from .cooccurrence import cooccurrence_sgns, window_cooccurrences
from .mds import ClassicalMDS, MDSEmbedding, classical_mds
from .skipgram import skipgram_embedding
from .vec2vec import IsolatedSamplesWarning, Vec2Vec
from .walks import random_walks

__all__ = ["METHODS", "NEIGHBOR_PARAMETER", "CSRGraph", "ClassicalMDS", "IsolatedSamplesWarning",
           "IsomapEmbedding", "LLEEmbedding", "LaplacianEigenmaps", "MDSEmbedding",
           "PCAEmbedding", "UMAPEmbedding", "Vec2Vec", "add_self_loops_to_isolated",
           "as_csr_graph", "classical_mds", "cooccurrence_sgns", "cosine_knn_graph",
           "isometric_dense_rows", "make_embedder", "random_walks", "skipgram_embedding",
           "window_cooccurrences"]
