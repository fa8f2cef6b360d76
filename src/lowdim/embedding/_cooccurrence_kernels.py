"""Compiled kernels that count the window co-occurrences of a set of walks.

:func:`cooccurrence_counts` defines the co-occurrence solver's objective (its
pair weights, :func:`lowdim.embedding.cooccurrence.window_cooccurrences`); the
solver itself never builds it, it draws the same pairs from the walks
(:mod:`lowdim.embedding._sgns_kernels`). :func:`node_positions` is the inverted
index of the walks that both use.

Conventions: walks are int32 of shape (n_walks, walk_length); the counts are
CSR with int64 ``indptr``, int32 ``indices`` and float32 ``data``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["occurrence_starts", "fill_positions", "fill_walk_steps", "node_positions",
           "cooccurrence_counts"]

#: Nodes per task of the counting kernels: bounds each task's scratch to one
#: dense row of length n while leaving enough tasks to balance the threads.
_ROW_BLOCK = 256


@njit(cache=True)
def occurrence_starts(walks, n_nodes):
    """``starts`` of :func:`node_positions`: ``u`` occurs at ``starts[u]:starts[u + 1]``."""
    flat = walks.ravel()
    starts = np.zeros(n_nodes + 1, dtype=np.int64)
    for p in range(flat.size):
        starts[flat[p] + 1] += 1
    for u in range(n_nodes):
        starts[u + 1] += starts[u]
    return starts


@njit(cache=True)
def fill_positions(walks, starts, positions):
    """Write into ``positions`` the flat positions of every node's occurrences, increasing."""
    flat = walks.ravel()
    fill = starts[:-1].copy()
    for p in range(flat.size):
        u = flat[p]
        positions[fill[u]] = p
        fill[u] += 1


@njit(cache=True)
def fill_walk_steps(walks, starts, out, step_bits):
    """As :func:`fill_positions`, each occurrence written as ``walk << step_bits | step``.

    With ``2**step_bits >= walk_length`` the step is read with a mask, not a division.
    """
    length = walks.shape[1]
    fill = starts[:-1].copy()
    for w in range(walks.shape[0]):
        for s in range(length):
            u = walks[w, s]
            out[fill[u]] = (w << step_bits) | s
            fill[u] += 1


@njit(cache=True)
def node_positions(walks, n_nodes):
    """Where each node occurs in ``walks``: an inverted index in CSR form.

    Returns
    -------
    starts : ndarray of int64 of shape (n_nodes + 1,)
    positions : ndarray of int64 of shape (walks.size,)
        Flat positions (``walk * walk_length + step``) of node ``u`` are
        ``positions[starts[u]:starts[u + 1]]``, increasing.
    """
    starts = occurrence_starts(walks, n_nodes)
    positions = np.empty(walks.size, dtype=np.int64)
    fill_positions(walks, starts, positions)
    return starts, positions


@njit(cache=True)
def _count_row(u, walks, starts, positions, window, acc, touched):
    """Accumulate row ``u`` (contexts ``v >= u`` only) into ``acc``; return its size.

    The context at distance ``d`` adds ``window - d + 1``: gensim draws a
    reduced window uniformly from 1..window per centre, so a context at
    distance ``d`` is used with probability ``(window - d + 1) / window``.
    """
    length = walks.shape[1]
    n_touched = 0
    for q in range(starts[u], starts[u + 1]):
        p = positions[q]
        w = p // length
        i = p - w * length
        for j in range(max(0, i - window), min(length, i + window + 1)):
            v = walks[w, j]
            if j == i or v < u:
                continue
            if acc[v] == 0:
                touched[n_touched] = v
                n_touched += 1
            acc[v] += window - abs(i - j) + 1
    return n_touched


@njit(cache=True, parallel=True)
def _row_sizes(walks, starts, positions, n_nodes, window):
    sizes = np.zeros(n_nodes, dtype=np.int64)
    n_blocks = -(-n_nodes // _ROW_BLOCK)
    for b in prange(n_blocks):
        acc = np.zeros(n_nodes, dtype=np.int64)
        touched = np.empty(n_nodes, dtype=np.int32)
        for u in range(b * _ROW_BLOCK, min((b + 1) * _ROW_BLOCK, n_nodes)):
            k = _count_row(u, walks, starts, positions, window, acc, touched)
            sizes[u] = k
            for t in range(k):
                acc[touched[t]] = 0
    return sizes


@njit(cache=True, parallel=True)
def _fill_rows(walks, starts, positions, n_nodes, window, indptr, indices, data):
    n_blocks = -(-n_nodes // _ROW_BLOCK)
    for b in prange(n_blocks):
        acc = np.zeros(n_nodes, dtype=np.int64)
        touched = np.empty(n_nodes, dtype=np.int32)
        for u in range(b * _ROW_BLOCK, min((b + 1) * _ROW_BLOCK, n_nodes)):
            k = _count_row(u, walks, starts, positions, window, acc, touched)
            row = touched[:k].copy()
            row.sort()
            lo = indptr[u]
            for t in range(k):
                v = row[t]
                indices[lo + t] = v
                data[lo + t] = acc[v]
                acc[v] = 0


@njit(cache=True)
def cooccurrence_counts(walks, n_nodes, window):
    """Window-weighted co-occurrence counts of ``walks``: upper triangle, CSR.

    The full count of (u, v) is the sum, over every occurrence of ``u`` at
    step ``i`` of a walk and every step ``j != i`` of the same walk with
    ``|i - j| <= window`` and node ``v``, of ``window - |i - j| + 1``. Divided
    by ``window``, this is the expected number of times gensim's skip-gram
    trains the pair (u, v) in one epoch (before frequent-node downsampling).
    The full matrix is symmetric, so only entries with ``v >= u`` are stored.

    Two passes over the walks (sizes, then values), one dense scratch row per
    task, so memory is O(nnz + n_threads * n_nodes), never O(n_nodes**2).

    Parameters
    ----------
    walks : ndarray of int32 of shape (n_walks, walk_length)
        Node ids in ``range(n_nodes)``.
    n_nodes : int
    window : int
        At least 1.

    Returns
    -------
    indptr : ndarray of int64 of shape (n_nodes + 1,)
    indices : ndarray of int32 of shape (nnz,)
        Column ``v >= u`` of row ``u``, sorted within each row.
    data : ndarray of float32 of shape (nnz,)
        Counts in units of ``1 / window``: integers, exact below 2**24.
    """
    starts, positions = node_positions(walks, n_nodes)
    sizes = _row_sizes(walks, starts, positions, n_nodes, window)
    indptr = np.zeros(n_nodes + 1, dtype=np.int64)
    for u in range(n_nodes):
        indptr[u + 1] = indptr[u] + sizes[u]
    nnz = indptr[n_nodes]
    indices = np.empty(nnz, dtype=np.int32)
    data = np.empty(nnz, dtype=np.float32)
    _fill_rows(walks, starts, positions, n_nodes, window, indptr, indices, data)
    return indptr, indices, data
