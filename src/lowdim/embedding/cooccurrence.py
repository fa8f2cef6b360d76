"""Skip-gram with negative sampling on the counted co-occurrences of the walks.

Vec2vec's ``solver="cooccurrence"``. Skip-gram with a window slides over the
walks and trains every (node, context) pair it meets, epoch after epoch; the
same pairs come back many times. Its objective is a sum over distinct pairs,
each weighted by how often it occurs. This solver counts the pairs once
(sparse, window-weighted as gensim's shrinking window weights them) and then
runs SGNS updates on pairs drawn in proportion to their counts, with gensim's
unigram^0.75 noise, initialisation and linearly decaying learning rate. It
optimises the same expected objective with fewer, better-spread updates.

The compiled kernels are in :mod:`lowdim.embedding._sgns_kernels`.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import scipy.sparse as sp

from .._validation import ArgumentValueError, check_number
from ._sgns_kernels import (alias_table, cooccurrence_counts, pair_alias_tables,
                            sgns_updates)
from .walks import numba_threads

__all__ = ["window_cooccurrences", "keep_probabilities", "cooccurrence_sgns",
           "UPDATES_PER_NODE"]

logger = logging.getLogger("lowdim")

#: Default number of SGD updates per node; see ``benchmarks/vec2vec_vs_umap.md``
#: for the measurement behind it.
UPDATES_PER_NODE = 500


def _check_walks(walks, n_nodes):
    """``walks`` as C-contiguous int32 of shape (n_walks, walk_length >= 2), ids < n_nodes."""
    n_nodes = check_number(n_nodes, "n_nodes", integer=True, minimum=1)
    array = np.asarray(walks) if not sp.issparse(walks) else None
    if (array is None or array.ndim != 2 or array.shape[1] < 2
            or not np.issubdtype(array.dtype, np.integer)):
        what = (f"{type(walks).__name__} of shape {array.shape} and dtype {array.dtype}"
                if array is not None else type(walks).__name__)
        raise ArgumentValueError("`walks` must be an integer array of shape (n_walks, "
                                 f"walk_length >= 2), got a {what}", "walks")
    if array.size and (array.min() < 0 or array.max() >= n_nodes):
        raise ArgumentValueError("`walks` must hold node ids in range(n_nodes) = "
                                 f"range({n_nodes}), got ids from {array.min()} to {array.max()}",
                                 ("walks", "n_nodes"))
    return np.ascontiguousarray(array, dtype=np.int32)


def _check_sgns_arguments(n_nodes, n_components, window, negative, sample, updates_per_node,
                          alpha, min_alpha, n_jobs):
    check_number(n_nodes, "n_nodes", integer=True, minimum=1)
    check_number(n_components, "n_components", integer=True, minimum=1)
    check_number(window, "window", integer=True, minimum=1)
    check_number(negative, "negative", integer=True, minimum=1)
    check_number(sample, "sample", minimum=0.0)
    check_number(updates_per_node, "updates_per_node", minimum=0.0, strict_minimum=True)
    check_number(alpha, "alpha", minimum=0.0, strict_minimum=True)
    check_number(min_alpha, "min_alpha", minimum=0.0, maximum=alpha)
    check_number(n_jobs, "n_jobs", integer=True, minimum=1)


def _n_ordered_pairs(indptr, indices):
    """Non-zeros of the full symmetric matrix stored as its upper triangle."""
    filled = np.flatnonzero(np.diff(indptr) > 0)
    # Rows are sorted and start at v >= u, so a diagonal entry comes first.
    n_diagonal = int(np.count_nonzero(indices[indptr[filled]] == filled))
    return 2 * indices.size - n_diagonal


def window_cooccurrences(walks, n_nodes, window, n_jobs=1):
    """Window-weighted co-occurrence matrix of ``walks`` (symmetric, sparse).

    .. math:: C_{uv} = \\sum_{\\text{walks}} \\sum_{i \\ne j,\\ |i-j| \\le w}
              [x_i = u][x_j = v]\\ \\frac{w - |i - j| + 1}{w}

    the expected number of times gensim's skip-gram, with its window shrunk
    uniformly at random to 1..w at every centre, trains the pair (u, v) in one
    epoch (without frequent-node downsampling).

    Parameters
    ----------
    walks : ndarray of int of shape (n_walks, walk_length)
    n_nodes : int
    window : int
    n_jobs : int
        Threads.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_nodes, n_nodes), float64
        Never built as a dense array.
    """
    walks = _check_walks(walks, n_nodes)
    window = check_number(window, "window", integer=True, minimum=1)
    n_jobs = check_number(n_jobs, "n_jobs", integer=True, minimum=1)
    with numba_threads(n_jobs):
        indptr, indices, data = cooccurrence_counts(walks, int(n_nodes), int(window))
    upper = sp.csr_matrix((data.astype(np.float64) / window, indices, indptr),
                          shape=(n_nodes, n_nodes))
    return (upper + sp.triu(upper, k=1, format="csr").T).tocsr()


def keep_probabilities(counts, sample):
    """gensim's probability of keeping an occurrence of each node (``sample`` downsampling).

    Parameters
    ----------
    counts : ndarray of int of shape (n_nodes,)
        Occurrences of each node in the walks.
    sample : float
        gensim's ``sample``; 0 keeps everything.

    Returns
    -------
    ndarray of float64 of shape (n_nodes,)
        ``min(1, (sqrt(c / t) + 1) * t / c)`` with ``t = sample * sum(counts)``.
    """
    counts = np.asarray(counts, dtype=np.float64)
    if sample <= 0:
        return np.ones_like(counts)
    threshold = sample * counts.sum()
    with np.errstate(divide="ignore"):
        keep = (np.sqrt(counts / threshold) + 1.0) * threshold / counts
    return np.minimum(keep, 1.0)


def cooccurrence_sgns(walks, n_nodes, n_components, *, window=10, negative=5, sample=1e-3,
                      updates_per_node=UPDATES_PER_NODE, alpha=0.025, min_alpha=1e-4, seed=0,
                      n_jobs=1, timings=None):
    """SGNS node vectors from the counted window co-occurrences of ``walks``.

    Maximises, by SGD on pairs drawn in proportion to :math:`C_{uv}` (from
    :func:`window_cooccurrences`, times gensim's keep probabilities of ``u``
    and ``v``),

    .. math:: \\sum_{u, v} C_{uv} \\Big[\\log \\sigma(z_u^T \\theta_v)
              + \\sum_{k=1}^{K} \\mathbb{E}_{v' \\sim P_n} \\log \\sigma(-z_u^T \\theta_{v'})\\Big]

    with the noise distribution :math:`P_n \\propto \\text{count}^{3/4}` over
    the nodes' walk occurrences: the objective gensim's skip-gram samples
    epoch by epoch. Downsampling is applied as a weight on the pairs (gensim
    drops tokens before windowing, which also brings farther tokens closer;
    that second-order effect is not modelled).

    Parameters
    ----------
    walks : ndarray of int of shape (n_walks, walk_length)
        Every node in ``range(n_nodes)`` must occur.
    n_nodes, n_components : int
    window, negative, sample : as in :class:`~lowdim.embedding.Vec2Vec`
    updates_per_node : float, default=UPDATES_PER_NODE
        SGD updates (one drawn pair and its ``negative`` noise nodes each) per
        node: ``round(updates_per_node * n_nodes)`` in all.
    alpha, min_alpha : float
        Learning rate, decayed linearly from ``alpha`` to ``min_alpha``
        (gensim's defaults).
    seed : int
        Seeds the initial vectors and the update stream.
    n_jobs : int
        Threads of the counting and of the Hogwild SGD; with 1 the result is
        reproducible bit for bit.
    timings : dict, optional
        Receives the wall seconds of "counting" and "sgd".

    Returns
    -------
    embedding : ndarray of float64 of shape (n_nodes, n_components)
        Input vectors :math:`z_u`.
    """
    timings = {} if timings is None else timings
    _check_sgns_arguments(n_nodes, n_components, window, negative, sample, updates_per_node,
                          alpha, min_alpha, n_jobs)
    walks = _check_walks(walks, n_nodes)
    occurrences = np.bincount(walks.ravel(), minlength=n_nodes)
    if np.any(occurrences == 0):
        raise ArgumentValueError("`walks` must visit every node of range(n_nodes) = "
                                 f"range({n_nodes}) at least once; "
                                 f"{int(np.sum(occurrences == 0))} never occur",
                                 ("walks", "n_nodes"))
    rng = np.random.default_rng(int(seed))
    update_seed = int(rng.integers(0, 2**63))
    # gensim's initialisation: inputs uniform in [-0.5, 0.5) / d, outputs zero.
    syn0 = ((rng.random((n_nodes, n_components), dtype=np.float32) - np.float32(0.5))
            / np.float32(n_components))
    syn1 = np.zeros((n_nodes, n_components), dtype=np.float32)
    with numba_threads(n_jobs):
        start = time.perf_counter()
        indptr, indices, data = cooccurrence_counts(walks, int(n_nodes), int(window))
        row_weight, pair_threshold, pair_alias = pair_alias_tables(
            indptr, indices, data, keep_probabilities(occurrences, sample))
        del data
        row_threshold, row_alias = alias_table(row_weight)
        neg_threshold, neg_alias = alias_table(occurrences.astype(np.float64) ** 0.75)
        n_pairs = _n_ordered_pairs(indptr, indices)
        n_updates = max(1, int(round(float(updates_per_node) * n_nodes)))
        timings["counting"] = time.perf_counter() - start
        start = time.perf_counter()
        sgns_updates(indptr, indices, row_threshold, row_alias, pair_threshold, pair_alias,
                     neg_threshold, neg_alias, syn0, syn1, n_updates, int(negative),
                     float(alpha), float(min_alpha), np.uint64(update_seed), int(n_jobs))
        timings["sgd"] = time.perf_counter() - start
    logger.info("co-occurrence SGNS: %d distinct pairs, %d updates", n_pairs, n_updates)
    return syn0.astype(np.float64)
