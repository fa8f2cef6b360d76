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

from .._lazy import lazy_exports

# Submodule of each public name, loaded on first use (lowdim._lazy): the workflow's
# start-up reads `lowdim.embedding.timing` and `.methods` and must not import
# scikit-learn and umap for them.
_EXPORTS = {
    "baselines": ["METHODS", "IsomapEmbedding", "LaplacianEigenmaps",
                  "LLEEmbedding", "PCAEmbedding", "UMAPEmbedding", "isometric_dense_rows",
                  "make_embedder"],
    "graph": ["CSRGraph", "add_self_loops_to_isolated", "as_csr_graph", "cosine_knn_graph"],
    "cooccurrence": ["cooccurrence_sgns", "window_cooccurrences"],
    "mds": ["ClassicalMDS", "MDSEmbedding", "classical_mds"],
    "methods": ["METHOD_NAMES", "NEIGHBOR_PARAMETER"],
    "skipgram": ["skipgram_embedding"],
    "vec2vec": ["IsolatedSamplesWarning", "Vec2Vec"],
    "walks": ["random_walks"],
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["METHODS", "METHOD_NAMES", "NEIGHBOR_PARAMETER", "CSRGraph", "ClassicalMDS",
           "IsolatedSamplesWarning", "IsomapEmbedding", "LLEEmbedding", "LaplacianEigenmaps",
           "MDSEmbedding", "PCAEmbedding", "UMAPEmbedding", "Vec2Vec", "add_self_loops_to_isolated",
           "as_csr_graph", "classical_mds", "cooccurrence_sgns", "cosine_knn_graph",
           "isometric_dense_rows", "make_embedder", "random_walks", "skipgram_embedding",
           "window_cooccurrences"]
