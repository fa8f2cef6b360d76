"""Compiled kernels of the co-occurrence SGNS solver of Vec2vec.

Three steps, each a function of arrays and scalars only, so each can be tested
on its own:

1. :func:`cooccurrence_counts`: the window co-occurrences of a set of walks,
   counted sparse (CSR), in integer units of ``1 / window``.
2. :func:`alias_table` / :func:`alias_draw`: Walker's alias method (Vose's
   construction), to draw a pair in proportion to its count, or a negative
   node in proportion to its unigram^0.75 weight, in O(1).
3. :func:`sgns_updates`: skip-gram with negative sampling on sampled pairs,
   Hogwild over threads, with a linearly decaying learning rate.

Conventions: walks are int32 of shape (n_walks, walk_length); the counts are
CSR with int64 ``indptr``, int32 ``indices`` and int32 ``data``; alias tables
are a uint32 ``threshold`` (acceptance probability times 2**32) and an int32
``alias``. Randomness comes from the SplitMix64 stream of
:mod:`lowdim.embedding._kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._kernels import _GOLDEN, _splitmix64

__all__ = ["node_positions", "cooccurrence_counts", "alias_table", "alias_draw",
           "alias_samples", "pair_alias_tables", "sample_pairs", "sgns_updates"]

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_TWO32 = 4294967296.0
#: Nodes per task of the counting kernels: bounds each task's scratch to one
#: dense row of length n while leaving enough tasks to balance the threads.
_ROW_BLOCK = 256


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
    flat = walks.ravel()
    starts = np.zeros(n_nodes + 1, dtype=np.int64)
    for p in range(flat.size):
        starts[flat[p] + 1] += 1
    for u in range(n_nodes):
        starts[u + 1] += starts[u]
    fill = starts[:-1].copy()
    positions = np.empty(flat.size, dtype=np.int64)
    for p in range(flat.size):
        u = flat[p]
        positions[fill[u]] = p
        fill[u] += 1
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


@njit(cache=True)
def _vose(scaled, threshold, alias, work):
    """Fill ``threshold`` and ``alias`` from ``scaled`` (weights scaled to mean 1).

    ``scaled`` is overwritten; ``work`` is scratch of the same length. Alias
    entries are offsets into these arrays; full slots alias themselves.
    """
    m = scaled.size
    n_small = 0
    n_large = 0
    # One work array: small slots stack up from the front, large ones from the back.
    for k in range(m):
        alias[k] = k
        if scaled[k] < 1.0:
            work[n_small] = k
            n_small += 1
        else:
            n_large += 1
            work[m - n_large] = k
    while n_small > 0 and n_large > 0:
        n_small -= 1
        s = work[n_small]
        large = work[m - n_large]
        threshold[s] = np.uint32(min(scaled[s] * _TWO32, _TWO32 - 1.0))
        alias[s] = large
        scaled[large] = (scaled[large] + scaled[s]) - 1.0
        if scaled[large] < 1.0:
            # The large slot became small: move it from the back stack to the front.
            n_large -= 1
            work[n_small] = large
            n_small += 1
    # What is left is full, up to rounding.
    for t in range(n_small):
        threshold[work[t]] = np.uint32(_TWO32 - 1.0)
    for t in range(n_large):
        threshold[work[m - 1 - t]] = np.uint32(_TWO32 - 1.0)


@njit(cache=True)
def alias_table(weights):
    """Walker's alias table of ``weights`` (Vose's construction, O(m)).

    Parameters
    ----------
    weights : ndarray of float64 of shape (m,)
        Non-negative, with a positive sum; m < 2**31.

    Returns
    -------
    threshold : ndarray of uint32 of shape (m,)
        Slot ``k`` keeps ``k`` when 32 random bits fall below ``threshold[k]``...
    alias : ndarray of int32 of shape (m,)
        ... and gives ``alias[k]`` otherwise.
    """
    m = weights.size
    scaled = weights * (m / weights.sum())
    threshold = np.empty(m, dtype=np.uint32)
    alias = np.empty(m, dtype=np.int32)
    _vose(scaled, threshold, alias, np.empty(m, dtype=np.int32))
    return threshold, alias


@njit(cache=True, parallel=True)
def pair_alias_tables(indptr, indices, data, keep):
    """Alias tables to draw an unordered pair in proportion to its weight.

    The weight of the stored pair (u, v), ``v >= u``, is the count of both of
    its directions times the downsampling keep probabilities,
    ``data * keep[u] * keep[v] * (2 if v != u else 1)``. A pair is drawn in two
    steps: row ``u`` in proportion to its total (``row_weight``, an alias table
    over the nodes), then a slot of that row from its own alias table.

    Parameters
    ----------
    indptr, indices, data : upper-triangle counts of :func:`cooccurrence_counts`
    keep : ndarray of float64 of shape (n_nodes,)
        Probability that gensim keeps an occurrence of each node (1 without
        downsampling).

    Returns
    -------
    row_weight : ndarray of float64 of shape (n_nodes,)
    threshold : ndarray of uint32 of shape (nnz,)
    alias : ndarray of int32 of shape (nnz,)
        Offsets within the row: slot ``indptr[u] + alias[k]``.
    """
    n = indptr.size - 1
    nnz = indices.size
    threshold = np.empty(nnz, dtype=np.uint32)
    alias = np.empty(nnz, dtype=np.int32)
    row_weight = np.zeros(n, dtype=np.float64)
    n_blocks = -(-n // _ROW_BLOCK)
    for b in prange(n_blocks):
        lo_u = b * _ROW_BLOCK
        hi_u = min(lo_u + _ROW_BLOCK, n)
        longest = 0
        for u in range(lo_u, hi_u):
            longest = max(longest, indptr[u + 1] - indptr[u])
        scaled = np.empty(longest, dtype=np.float64)
        work = np.empty(longest, dtype=np.int32)
        for u in range(lo_u, hi_u):
            lo = indptr[u]
            m = indptr[u + 1] - lo
            total = 0.0
            for t in range(m):
                v = indices[lo + t]
                w = data[lo + t] * keep[u] * keep[v]
                if v != u:
                    w *= 2.0
                scaled[t] = w
                total += w
            row_weight[u] = total
            if total <= 0.0:
                continue
            for t in range(m):
                scaled[t] *= m / total
            _vose(scaled[:m], threshold[lo:lo + m], alias[lo:lo + m], work[:m])
    return row_weight, threshold, alias


@njit(cache=True, inline="always")
def alias_draw(bits, threshold, alias):
    """Slot drawn by 64 random ``bits``: high 32 pick the slot, low 32 the coin."""
    m = np.uint64(threshold.size)
    k = np.int64(((bits >> _S32) * m) >> _S32)
    if np.uint32(bits & _LOW32) < threshold[k]:
        return k
    return np.int64(alias[k])


@njit(cache=True, inline="always")
def _sgns_pair(u, v, syn0, syn1, work, neg_threshold, neg_alias, negative, lr, state):
    """One skip-gram update of input ``u`` against output ``v`` and ``negative`` noise nodes.

    As gensim's ``fast_sentence_sg_neg``: a negative equal to ``v`` is skipped;
    the input vector is updated once, after the outputs.
    """
    dim = syn0.shape[1]
    for c in range(dim):
        work[c] = 0.0
    for s in range(negative + 1):
        if s == 0:
            target = v
            label = np.float32(1.0)
        else:
            state, bits = _splitmix64(state)
            target = alias_draw(bits, neg_threshold, neg_alias)
            if target == v:
                continue
            label = np.float32(0.0)
        f = np.float32(0.0)
        for c in range(dim):
            f += syn0[u, c] * syn1[target, c]
        g = (label - np.float32(1.0) / (np.float32(1.0) + np.exp(-f))) * lr
        for c in range(dim):
            work[c] += g * syn1[target, c]
            syn1[target, c] += g * syn0[u, c]
    for c in range(dim):
        syn0[u, c] += work[c]
    return state


@njit(cache=True, inline="always")
def _draw_pair(state, row_threshold, row_alias, indptr, indices, pair_threshold, pair_alias):
    """A (input, output) pair in proportion to its count; returns (state, u, v)."""
    state, bits = _splitmix64(state)
    u = alias_draw(bits, row_threshold, row_alias)
    lo = indptr[u]
    state, bits = _splitmix64(state)
    m = np.uint64(indptr[u + 1] - lo)
    t = np.int64(((bits >> _S32) * m) >> _S32)
    if np.uint32(bits & _LOW32) >= pair_threshold[lo + t]:
        t = pair_alias[lo + t]
    v = np.int64(indices[lo + t])
    state, bits = _splitmix64(state)
    if bits >> np.uint64(63):  # either direction of an unordered pair
        return state, v, u
    return state, u, v


@njit(cache=True, inline="always")
def _update_state(seed, i, negative):
    """Stream state of update ``i``: three numbers for its pair, one per negative.

    SplitMix64's state is a counter, so this jumps straight to update i's numbers.
    """
    return np.uint64(seed) + np.uint64(i) * (np.uint64(negative + 3) * _GOLDEN)


@njit(cache=True, parallel=True)
def sample_pairs(indptr, indices, row_threshold, row_alias, pair_threshold, pair_alias,
                 n_draws, negative, seed, n_threads):
    """The (input, output) pairs that :func:`sgns_updates` with the same arguments draws.

    Returns
    -------
    pairs : ndarray of int64 of shape (n_draws, 2)
    """
    pairs = np.empty((n_draws, 2), dtype=np.int64)
    for t in prange(n_threads):
        for i in range(t, n_draws, n_threads):
            state = _update_state(seed, i, negative)
            state, u, v = _draw_pair(state, row_threshold, row_alias, indptr, indices,
                                     pair_threshold, pair_alias)
            pairs[i, 0] = u
            pairs[i, 1] = v
    return pairs


@njit(cache=True)
def alias_samples(threshold, alias, n_draws, seed):
    """``n_draws`` slots drawn from an alias table with the SplitMix64 stream of ``seed``."""
    out = np.empty(n_draws, dtype=np.int64)
    state = np.uint64(seed)
    for i in range(n_draws):
        state, bits = _splitmix64(state)
        out[i] = alias_draw(bits, threshold, alias)
    return out


@njit(cache=True, parallel=True)
def sgns_updates(indptr, indices, row_threshold, row_alias, pair_threshold, pair_alias,
                 neg_threshold, neg_alias, syn0, syn1, n_updates, negative, alpha, min_alpha,
                 seed, n_threads):
    """``n_updates`` SGNS updates on pairs drawn in proportion to their counts.

    Update ``i`` uses the numbers ``i * (negative + 3)`` onwards of the
    SplitMix64 stream of ``seed`` (three for the pair, one per negative) and
    the learning rate ``alpha - (alpha - min_alpha) * i / n_updates``. Thread
    ``t`` runs updates ``t, t + n_threads, ...``, so the threads move through
    the schedule together; they share ``syn0`` and ``syn1`` without locks
    (Hogwild). With ``n_threads == 1`` the result is deterministic, and the
    drawn pairs never depend on ``n_threads``.

    Parameters
    ----------
    indptr, indices : upper-triangle pair structure of :func:`cooccurrence_counts`
    row_threshold, row_alias : alias table over the rows (``row_weight``)
    pair_threshold, pair_alias : per-row alias tables of :func:`pair_alias_tables`
    neg_threshold, neg_alias : alias table over the nodes (noise distribution)
    syn0, syn1 : ndarray of float32 of shape (n_nodes, dim)
        Input and output vectors, updated in place.
    n_updates, negative : int
    alpha, min_alpha : float
        Start and end learning rates.
    seed : uint64
    n_threads : int
    """
    dim = syn0.shape[1]
    decay = (alpha - min_alpha) / max(n_updates, 1)
    for t in prange(n_threads):
        work = np.empty(dim, dtype=np.float32)
        for i in range(t, n_updates, n_threads):
            state = _update_state(seed, i, negative)
            state, u, v = _draw_pair(state, row_threshold, row_alias, indptr, indices,
                                     pair_threshold, pair_alias)
            lr = np.float32(alpha - decay * i)
            _sgns_pair(u, v, syn0, syn1, work, neg_threshold, neg_alias, negative, lr, state)
