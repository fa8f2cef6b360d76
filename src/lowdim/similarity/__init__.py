"""Similarity oracles: similarity matrices evaluated lazily, block by block.

An oracle stands for an ``n x n`` similarity matrix ``K`` whose entries are
expensive. ``oracle(rows, cols)`` returns the dense block ``K[rows, cols]``;
entries already computed are served from a cache and counted once
(``oracle.evaluations``); new entries are computed over ``n_jobs`` cores.

- :class:`DenseOracle`: a matrix the user already has.
- :class:`WMDOracle`: word mover's distance kernel ``exp(-gamma * WMD)``.
- :class:`PairwiseMLPOracle`: a learned similarity on ``[a, b, a * b]``
  (:class:`PairwiseMLP`), symmetrised.
- :class:`CrossEncoderOracle`: a transformer cross-encoder (optional extra
  ``crossencoder``).
- :class:`KernelOracle`: a scikit-learn pairwise kernel (RBF, polynomial, ...)
  over the rows of a dense or sparse matrix; :func:`median_gamma` sets its width.

The MLP, cross-encoder and kernel modules are imported on first use, so WMD worker
processes start without scikit-learn or torch.
"""

import importlib

from ._oracle import SimilarityOracle, check_n_jobs
from .dense import DenseOracle
from .full import full_matrix
from .wmd import WMDOracle, in_vocabulary_counts, wmd_pairs

_LAZY = {
    "PairwiseMLP": ".mlp",
    "PairwiseMLPOracle": ".mlp",
    "pair_features": ".mlp",
    "sample_label_pairs": ".mlp",
    "CrossEncoderOracle": ".crossencoder",
    "KernelOracle": ".kernel",
    "median_gamma": ".kernel",
}

__all__ = ["CrossEncoderOracle", "DenseOracle", "KernelOracle", "PairwiseMLP", "PairwiseMLPOracle",
           "SimilarityOracle", "WMDOracle", "check_n_jobs", "full_matrix",
           "in_vocabulary_counts", "median_gamma", "pair_features", "sample_label_pairs", "wmd_pairs"]


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
