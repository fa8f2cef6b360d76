"""Skip-gram with negative sampling on the window co-occurrences of the walks.

Vec2vec's ``solver="cooccurrence"``. Skip-gram with a window slides over the
walks and trains every (node, context) pair it meets, epoch after epoch; the
same pairs come back many times. Its objective is a sum over distinct pairs,
each weighted by how often it occurs (:func:`window_cooccurrences`, gensim's
shrinking window). This solver runs SGNS updates on pairs drawn in proportion
to those weights, with gensim's unigram^0.75 noise, initialisation, sigmoid
table and linearly decaying learning rate: the same expected objective, with
fewer, better-spread updates.

The weights are never built: a pair is drawn straight from the walks (an
occurrence of the input node, then a context step at distance ``d`` with
probability ``(window - d + 1) / window``), which costs one read of the walks
instead of an n x n sparse matrix, its alias tables and their cache misses.
The schedule is deterministic at any thread count: nodes fall into
``n_parts`` contiguous partitions, and each block of updates is trained bucket
by bucket (input partition i, output partition j), the buckets of a round
touching disjoint rows (:mod:`lowdim.embedding._sgns_kernels`). Only the
positive pairs are drawn ahead and sorted into buckets; a bucket draws its
noise nodes as it trains, from its output partition's share of the noise
distribution, so that each input still gets ``negative`` noise nodes per
positive pair, spread over the partitions in proportion to their noise mass.

The input vectors start from ``init`` (Vec2vec passes the graph's spectral
embedding, :mod:`lowdim.embedding.spectral`) or gensim's random vectors; the
output vectors from zero, as gensim's.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import scipy.sparse as sp

from .._validation import ArgumentValueError, check_number
from ._cooccurrence_kernels import cooccurrence_counts, fill_walk_steps, occurrence_starts
from ._sgns_kernels import (node_phases, noise_tables, partition_bounds, sgns_blocks,
                            step_tables)
from .walks import numba_threads

__all__ = ["window_cooccurrences", "keep_probabilities", "cooccurrence_sgns",
           "UPDATES_PER_NODE", "UPDATES_PER_BLOCK", "partition_count"]

logger = logging.getLogger("lowdim")

#: Default number of SGD updates per node, the knee of the accuracy against
#: time with the spectral start (``benchmarks/vec2vec_vs_umap.md``, case
#: ``updates``, two seeds): 10,000 MNIST-shaped images score kNN 0.929 with
#: 500 and 1,000 and 0.933 with 2,000 (the former default, from a random start:
#: 0.931); blobs and digits are flat from 250; 10,000 GloVe words keep gaining
#: neighbour preservation (0.334, 0.390, 0.423, 0.438 at 500 to 4,000), each
#: doubling for twice the SGD time.
UPDATES_PER_NODE = 1000

#: Positive pairs per node in one block of the schedule (on average; in
#: proportion to the node's co-occurrence weight). The learning rate is
#: constant within a block, so this is also the resolution of its decay. 4
#: gave the same kNN accuracy on 20,000 blobs (0.9516 against 0.9518) at 1.36x
#: the CPU time (``benchmarks/vec2vec_vs_umap.md``, interpretation).
UPDATES_PER_BLOCK = 16

#: Bytes of output vectors in one partition that the schedule aims at, so that
#: a bucket's rows stay in cache. Partitions cost: every bucket visits each of
#: its input nodes (70,000 images at 500 updates per node, the solver's CPU
#: time: 10.4 s with 8 partitions of 350 KB, 11.4 s with 16, 13.9 s with 32).
PARTITION_BYTES = 1024 * 1024

#: Fewest partitions. A round trains ``n_parts`` buckets of about equal work in
#: parallel, so the threads balance when the count is a multiple of theirs. The
#: count never depends on ``n_jobs`` (the result would): 8 is 4 buckets per
#: thread on 2 threads. On one thread more partitions cost more (20,000 blobs,
#: whole solver's CPU time: 2.34 s with 4, 2.48 with 8, 2.57 with 16, 3.27 with
#: 32; ``benchmarks/vec2vec_vs_umap.md``).
MIN_PARTITIONS = 8

#: The partition count is a multiple of this (then of 1, 2 and 4 threads).
PARTITION_MULTIPLE = 4


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
        Node ids, each in ``range(n_nodes)``.
    n_nodes : int
        Number of nodes: the matrix's side.
    window : int
        Largest distance ``|i - j|`` (in steps of a walk) of a counted pair.
    n_jobs : int
        Threads.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_nodes, n_nodes), float64
        Never built as a dense array.

    Examples
    --------
    >>> from lowdim.embedding import window_cooccurrences
    >>> C = window_cooccurrences(np.array([[0, 1, 2]]), n_nodes=3, window=2)
    >>> C.toarray()
    array([[0. , 1. , 0.5],
           [1. , 0. , 1. ],
           [0.5, 1. , 0. ]])
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

    Examples
    --------
    >>> from lowdim.embedding.cooccurrence import keep_probabilities
    >>> keep_probabilities(np.array([1000, 10, 10]), sample=0.001).round(3)
    array([0.033, 0.421, 0.421])
    >>> keep_probabilities(np.array([1000, 10, 10]), sample=0)
    array([1., 1., 1.])
    """
    counts = np.asarray(counts, dtype=np.float64)
    if sample <= 0:
        return np.ones_like(counts)
    threshold = sample * counts.sum()
    with np.errstate(divide="ignore"):
        keep = (np.sqrt(counts / threshold) + 1.0) * threshold / counts
    return np.minimum(keep, 1.0)


def partition_count(n_nodes, n_components):
    """Partitions of the SGD schedule: contiguous node ranges whose sizes differ by at most one.

    At least :data:`MIN_PARTITIONS`, enough that one partition's output
    vectors (float32) take at most about ``PARTITION_BYTES``, rounded up to a
    multiple of :data:`PARTITION_MULTIPLE`; at most one per node. It depends on
    the problem's size only, never on the number of threads.

    Parameters
    ----------
    n_nodes : int
        Nodes whose output vectors are partitioned.
    n_components : int
        Length of each vector.

    Returns
    -------
    int
        The number of partitions, between 1 and ``n_nodes``.

    Examples
    --------
    >>> from lowdim.embedding.cooccurrence import partition_count
    >>> partition_count(20_000, 10)  # 8 partitions of 2,500 nodes (100 KB of vectors each)
    8
    >>> partition_count(1_000_000, 100)  # 384 partitions of 2,604-2,605 nodes (1 MB each)
    384
    >>> partition_count(5, 2)  # one node each
    5
    """
    parts = max(MIN_PARTITIONS, -(-int(n_nodes) * int(n_components) * 4 // PARTITION_BYTES))
    parts = -(-parts // PARTITION_MULTIPLE) * PARTITION_MULTIPLE
    return min(parts, int(n_nodes))


def _pair_weights(walks, n_nodes, step_total, keep):
    """Each node's total window weight as an input, times its keep probability."""
    weight = np.zeros(n_nodes, dtype=np.float64)
    for s, total in enumerate(step_total):
        weight += total * np.bincount(walks[:, s], minlength=n_nodes)
    return weight * keep


def cooccurrence_sgns(walks, n_nodes, n_components, *, window=10, negative=5, sample=1e-3,
                      updates_per_node=UPDATES_PER_NODE, alpha=0.025, min_alpha=1e-4, seed=0,
                      init=None, n_jobs=1, timings=None):
    """SGNS node vectors from the window co-occurrences of ``walks``.

    Maximises, by SGD on pairs drawn in proportion to :math:`C_{uv}` (from
    :func:`window_cooccurrences`, times gensim's keep probabilities of ``u``
    and ``v``),

    .. math:: \\sum_{u, v} C_{uv} \\Big[\\log \\sigma(z_u^T \\theta_v)
              + \\sum_{k=1}^{K} \\mathbb{E}_{v' \\sim P_n} \\log \\sigma(-z_u^T \\theta_{v'})\\Big]

    with the noise distribution :math:`P_n \\propto \\text{count}^{3/4}` over
    the nodes' walk occurrences: the objective gensim's skip-gram samples
    epoch by epoch. As in gensim, :math:`\\sigma` comes from a 1,000-entry
    table on (-6, 6) and a pair whose score is outside it is not updated.
    Downsampling is applied as a weight on the pairs (gensim drops tokens
    before windowing, which also brings farther tokens closer; that
    second-order effect is not modelled). gensim skips a noise node equal to
    the pair's context; here noise nodes are drawn apart from the pairs, so
    none is skipped (a difference of about one noise node in ``n_nodes``).

    Parameters
    ----------
    walks : ndarray of int of shape (n_walks, walk_length)
        Every node in ``range(n_nodes)`` must occur.
    n_nodes : int
        Number of nodes: the rows of the result.
    n_components : int
        Dimension of the vectors: the columns of the result.
    window : int, default=10
        Largest distance, in steps of a walk, between a node and a context it
        trains with (as :class:`~lowdim.embedding.Vec2Vec`'s ``window``).
    negative : int, default=5
        Noise nodes per positive pair.
    sample : float, default=1e-3
        gensim's downsampling threshold of frequent nodes (0 keeps every node).
    updates_per_node : float, default=UPDATES_PER_NODE
        Positive pairs drawn per node, on average (a node draws in proportion
        to its co-occurrence weight): ``updates_per_node * n_nodes`` in all,
        each with ``negative`` noise nodes.
    alpha, min_alpha : float
        Learning rate, decayed linearly from ``alpha`` to ``min_alpha``
        (gensim's defaults) over blocks of :data:`UPDATES_PER_BLOCK` updates
        per node.
    seed : int
        Seeds the initial vectors and the update stream.
    init : ndarray of shape (n_nodes, n_components), optional
        Initial input vectors (converted to float32); None: gensim's uniform
        on [-0.5, 0.5) / n_components.
    n_jobs : int
        Threads. The result does not depend on them: it is the same bit for
        bit at any ``n_jobs`` for a given seed.
    timings : dict, optional
        Receives the wall seconds of "tables" (the walks' inverted index and
        the alias tables) and "sgd".

    Returns
    -------
    embedding : ndarray of float64 of shape (n_nodes, n_components)
        Input vectors :math:`z_u`.

    Examples
    --------
    >>> from lowdim.embedding import cooccurrence_sgns
    >>> walks = np.array([[0, 1, 2, 0, 2, 1, 0, 1]] * 10    # two communities of walks:
    ...                  + [[3, 4, 5, 3, 5, 4, 3, 4]] * 10)  # 0, 1, 2 and 3, 4, 5
    >>> Z = cooccurrence_sgns(walks, 6, 2, window=2, sample=0, seed=0)
    >>> Z.shape
    (6, 2)
    >>> cosine = Z @ Z.T / np.outer(np.linalg.norm(Z, axis=1), np.linalg.norm(Z, axis=1))
    >>> bool(cosine[0, [1, 2]].min() > cosine[0, [3, 4, 5]].max())
    True
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
    update_seed, phase_seed, noise_seed = (int(v) for v in rng.integers(0, 2**63, size=3))
    syn0 = _initial_vectors(init, n_nodes, n_components, rng)
    syn1 = np.zeros((n_nodes, n_components), dtype=np.float32)
    n_blocks = max(1, int(round(float(updates_per_node) / UPDATES_PER_BLOCK)))
    n_parts = partition_count(n_nodes, n_components)
    with numba_threads(n_jobs):
        start = time.perf_counter()
        starts = occurrence_starts(walks, int(n_nodes))
        step_bits = int(walks.shape[1] - 1).bit_length()
        positions = np.empty(walks.size, dtype=np.int32 if walks.shape[0] << step_bits < 2**31
                             else np.int64)
        fill_walk_steps(walks, starts, positions, step_bits)
        offsets, step_keep, step_total = step_tables(walks.shape[1], int(window))
        keep = keep_probabilities(occurrences, sample)
        weight = _pair_weights(walks, n_nodes, step_total, keep)
        rates = weight * (float(updates_per_node) * n_nodes / weight.sum() / n_blocks)
        part_bounds = partition_bounds(int(n_nodes), n_parts)
        noise, share = noise_tables(occurrences.astype(np.float64) ** 0.75, part_bounds)
        phases = node_phases(int(n_nodes), np.uint64(phase_seed))
        timings["tables"] = time.perf_counter() - start
        start = time.perf_counter()
        sgns_blocks(walks, starts, positions, offsets, step_keep, keep, noise, share, rates,
                    phases, syn0, syn1, n_blocks, int(negative), float(alpha), float(min_alpha),
                    np.uint64(update_seed), np.uint64(noise_seed), part_bounds)
        timings["sgd"] = time.perf_counter() - start
    logger.info("co-occurrence SGNS: %d blocks of %d partitions, %.0f positive pairs",
                n_blocks, n_parts, float(updates_per_node) * n_nodes)
    return syn0.astype(np.float64)


def _initial_vectors(init, n_nodes, n_components, rng):
    """Input vectors to start from, float32: ``init``, or gensim's uniform in [-0.5, 0.5) / d."""
    if init is None:
        return ((rng.random((n_nodes, n_components), dtype=np.float32) - np.float32(0.5))
                / np.float32(n_components))
    array = np.asarray(init)
    if array.shape != (n_nodes, n_components) or not np.issubdtype(array.dtype, np.number) \
            or not np.all(np.isfinite(array)):
        raise ArgumentValueError("`init` must be a finite array of shape (n_nodes, "
                                 f"n_components) = ({n_nodes}, {n_components}), got "
                                 f"{'shape ' + str(array.shape) if array.ndim else repr(init)}",
                                 "init")
    return np.array(array, dtype=np.float32, order="C")
