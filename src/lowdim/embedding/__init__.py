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

import importlib

# Submodule of each public name. The names load on first use (PEP 562), so that the
# workflow's start-up, which reads `lowdim.embedding.timing`, does not import scikit-learn
# and umap through the estimators: every cluster job starts Snakemake twice.
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
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name):
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_MODULE_OF[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_MODULE_OF))


__all__ = ["METHODS", "METHOD_NAMES", "NEIGHBOR_PARAMETER", "CSRGraph", "ClassicalMDS", "IsolatedSamplesWarning",
           "IsomapEmbedding", "LLEEmbedding", "LaplacianEigenmaps", "MDSEmbedding",
           "PCAEmbedding", "UMAPEmbedding", "Vec2Vec", "add_self_loops_to_isolated",
           "as_csr_graph", "classical_mds", "cooccurrence_sgns", "cosine_knn_graph",
           "isometric_dense_rows", "make_embedder", "random_walks", "skipgram_embedding",
           "window_cooccurrences"]
