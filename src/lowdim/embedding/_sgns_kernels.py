"""Compiled kernels of the co-occurrence SGNS solver of Vec2vec.

The solver trains skip-gram with negative sampling on (input, output) pairs
drawn in proportion to their window co-occurrence counts. It never builds the
counts: a pair is drawn straight from the walks, as an occurrence of the input
node and a context step of its walk at distance ``d`` drawn with probability
``(window - d + 1) / window``, gensim's shrinking window. Each function here
takes arrays and scalars only, so each can be tested on its own:

1. :func:`alias_table` / :func:`pack_alias`: Walker's alias method (Vose's
   construction), to draw a noise node in proportion to its unigram^0.75
   weight, or a context offset in proportion to its window weight, in O(1).
2. :func:`step_tables`: per walk step, the alias table of its context offsets
   and the probability of keeping an occurrence at that step (steps near the
   ends of a walk have fewer contexts).
3. :func:`draw_block`: the pairs of one block of the schedule, in
   ``n_parts`` input partitions (contiguous node ranges), each from its own
   random stream, sorted by output partition and, within it, by input node.
4. :func:`train_block`: SGNS on those pairs, bucket by bucket. In round
   ``r`` the buckets (input partition ``i``, output partition
   ``(i + r) % n_parts``) touch disjoint rows of both vector tables, so they
   run in parallel without locks and without races: the result does not
   depend on the number of threads (as PyTorch-BigGraph's buckets).

Conventions: walks are int32 of shape (n_walks, walk_length); alias tables are
packed in uint64 (acceptance threshold times 2**32 in the high 32 bits, alias
in the low 32). A drawn pair is stored as input ``u`` and output ``t``, with a
negative (noise) output stored as ``-t - 1``. Randomness comes from SplitMix64
streams (:mod:`lowdim.embedding._kernels`), one per block and input partition.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._kernels import _GOLDEN, _splitmix64

__all__ = ["alias_table", "alias_draw", "pack_alias", "step_tables", "sigmoid_table",
           "node_phases", "partition_capacities", "draw_block", "train_block", "sgns_blocks",
           "MAX_EXP"]

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_TWO32 = 4294967296.0

#: gensim's sigmoid table: EXP_TABLE_SIZE entries over (-MAX_EXP, MAX_EXP); a
#: pair whose score f = z_u . theta_t has |f| >= MAX_EXP is not updated.
MAX_EXP = 6.0
_TABLE_SIZE = 1000
_TABLE_SCALE = np.float32(_TABLE_SIZE / MAX_EXP / 2.0)
_F32_MAX_EXP = np.float32(MAX_EXP)


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


@njit(cache=True, inline="always")
def alias_draw(bits, threshold, alias):
    """Slot drawn by 64 random ``bits``: high 32 pick the slot, low 32 the coin."""
    m = np.uint64(threshold.size)
    k = np.int64(((bits >> _S32) * m) >> _S32)
    if np.uint32(bits & _LOW32) < threshold[k]:
        return k
    return np.int64(alias[k])


@njit(cache=True)
def pack_alias(threshold, alias):
    """One uint64 per slot, ``threshold << 32 | alias``: a draw reads one word, not two."""
    packed = np.empty(threshold.size, dtype=np.uint64)
    for k in range(threshold.size):
        packed[k] = (np.uint64(threshold[k]) << _S32) | np.uint64(alias[k])
    return packed


@njit(cache=True, inline="always")
def _packed_draw(bits, packed):
    """:func:`alias_draw` on a packed table."""
    k = np.int64(((bits >> _S32) * np.uint64(packed.size)) >> _S32)
    entry = packed[k]
    if (bits & _LOW32) < (entry >> _S32):
        return k
    return np.int64(entry & _LOW32)


@njit(cache=True)
def _alias_samples(packed, n_draws, seed):
    """``n_draws`` slots drawn from a packed alias table with the SplitMix64 stream of ``seed``."""
    out = np.empty(n_draws, dtype=np.int64)
    state = np.uint64(seed)
    for i in range(n_draws):
        state, bits = _splitmix64(state)
        out[i] = _packed_draw(bits, packed)
    return out


@njit(cache=True)
def step_tables(walk_length, window):
    """How a context is drawn for an occurrence at each step of a walk.

    A context at distance ``d`` (1 <= d <= window, either side, inside the
    walk) has weight ``window - d + 1``. Step ``s``'s total weight ``T_s`` is
    smaller near the ends of a walk, so an occurrence at step ``s`` is kept
    with probability ``T_s / max(T)`` and then its context offset is drawn in
    proportion to its weight: a pair comes out with probability proportional
    to its window weight.

    Returns
    -------
    offsets : ndarray of uint64 of shape (walk_length, 2 * window)
        Packed alias table of each step over the slots ``-window..-1,
        1..window`` (slot ``k`` is offset ``k - window`` below ``window``,
        ``k - window + 1`` from there).
    keep : ndarray of uint64 of shape (walk_length,)
        ``T_s / max(T)`` times 2**32: keep an occurrence when 32 random bits
        fall below it.
    total : ndarray of float64 of shape (walk_length,)
        ``T_s``.
    """
    m = 2 * window
    offsets = np.zeros((walk_length, m), dtype=np.uint64)
    total = np.zeros(walk_length, dtype=np.float64)
    weights = np.zeros(m, dtype=np.float64)
    for s in range(walk_length):
        for k in range(m):
            d = k - window if k < window else k - window + 1
            inside = 0 <= s + d < walk_length
            weights[k] = (window - abs(d) + 1) if inside else 0.0
        total[s] = weights.sum()
        if total[s] > 0:
            threshold, alias = alias_table(weights)
            offsets[s] = pack_alias(threshold, alias)
    keep = np.empty(walk_length, dtype=np.uint64)
    for s in range(walk_length):
        keep[s] = np.uint64(round(total[s] / total.max() * _TWO32))
    return offsets, keep, total


@njit(cache=True)
def sigmoid_table():
    """gensim's ``EXP_TABLE``: sigma(f) at ``f = (k / 1000 * 2 - 1) * 6``, k = 0..999, float32."""
    table = np.empty(_TABLE_SIZE, dtype=np.float32)
    for k in range(_TABLE_SIZE):
        e = np.float32(np.exp((k / _TABLE_SIZE * 2.0 - 1.0) * MAX_EXP))
        table[k] = np.float32(e / (e + np.float32(1.0)))
    return table


@njit(cache=True, inline="always")
def _stream(seed, key):
    """Start of an independent SplitMix64 stream for ``key`` (a block and partition)."""
    _, state = _splitmix64(np.uint64(seed) + np.uint64(key) * _GOLDEN)
    return state


@njit(cache=True)
def node_phases(n_nodes, seed):
    """A phase in [0, 1) per node, from its own stream: offsets of its update schedule."""
    phases = np.empty(n_nodes, dtype=np.float64)
    for u in range(n_nodes):
        _, bits = _splitmix64(_stream(seed, u))
        phases[u] = np.float64(bits >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    return phases


@njit(cache=True, inline="always")
def _attempts(rate, phase, b):
    """Node's pair draws in block ``b``: ``rate`` per block, rounded so the blocks sum exactly."""
    return np.int64(np.floor((b + 1) * rate + phase) - np.floor(b * rate + phase))


@njit(cache=True)
def partition_capacities(rates, shift, negative):
    """Start of each input partition's region in the pair buffers; the last entry is their size.

    Partition ``i`` holds nodes ``i << shift .. ((i + 1) << shift) - 1`` (node
    ``u`` is in partition ``u >> shift``: no division); each of its nodes draws
    at most ``ceil(rate)`` pairs per block, each with at most ``negative``
    noise nodes.
    """
    n = rates.size
    size = 1 << shift
    n_parts = ((n - 1) >> shift) + 1
    base = np.zeros(n_parts + 1, dtype=np.int64)
    for i in range(n_parts):
        cap = 0
        for u in range(i * size, min(n, (i + 1) * size)):
            cap += np.int64(np.ceil(rates[u]))
        base[i + 1] = base[i] + cap * (negative + 1)
    return base


@njit(cache=True)
def _draw_partition(lo_u, hi_u, b, flat, walk_length, step_bits, window, starts, positions,
                    offsets, step_keep, keep, neg_packed, rates, phases, negative, state, out_u,
                    out_t, at):
    """Pairs of nodes ``lo_u..hi_u - 1`` in block ``b``, written from ``at``; returns the end."""
    q = at
    step_mask = (1 << step_bits) - 1
    for u in range(lo_u, hi_u):
        first = starts[u]
        n_occ = np.uint64(starts[u + 1] - first)
        for _attempt in range(_attempts(rates[u], phases[u], b)):
            while True:  # an occurrence of u, kept in proportion to its step's weight
                state, bits = _splitmix64(state)
                code = np.int64(positions[first + np.int64(((bits >> _S32) * n_occ) >> _S32)])
                s = code & step_mask
                if (bits & _LOW32) < step_keep[s]:
                    break
            p = (code >> step_bits) * walk_length + s
            state, bits = _splitmix64(state)
            k = _packed_draw(bits, offsets[s])
            v = flat[p + (k - window if k < window else k - window + 1)]
            if keep[v] < 1.0:  # gensim's downsampling, as a weight on the pair
                state, bits = _splitmix64(state)
                if np.float64(bits >> np.uint64(11)) * (1.0 / 9007199254740992.0) >= keep[v]:
                    continue
            out_u[q] = u
            out_t[q] = v
            q += 1
            for _noise in range(negative):
                state, bits = _splitmix64(state)
                t = _packed_draw(bits, neg_packed)
                if t == v:  # as gensim: a noise node equal to the context is skipped
                    continue
                out_u[q] = u
                out_t[q] = -t - 1
                q += 1
    return q


@njit(cache=True)
def _sort_by_output_partition(raw_u, raw_t, lo, hi, shift, n_parts, out_u, out_t, bounds):
    """Stable counting sort of pairs ``lo..hi - 1`` by output partition into ``bounds``."""
    counts = np.zeros(n_parts + 1, dtype=np.int64)
    for q in range(lo, hi):
        t = raw_t[q]
        counts[((t if t >= 0 else -t - 1) >> shift) + 1] += 1
    bounds[0] = lo
    for j in range(n_parts):
        bounds[j + 1] = bounds[j] + counts[j + 1]
    fill = bounds[:-1].copy()
    for q in range(lo, hi):
        t = raw_t[q]
        j = (t if t >= 0 else -t - 1) >> shift
        out_u[fill[j]] = raw_u[q]
        out_t[fill[j]] = t
        fill[j] += 1


@njit(cache=True, parallel=True)
def draw_block(b, walks, starts, positions, offsets, step_keep, keep, neg_packed, rates,
               phases, negative, seed, shift, base, raw_u, raw_t, out_u, out_t, bounds):
    """Draw block ``b``'s pairs, one task per input partition, and sort them into buckets.

    Partition ``i`` (nodes ``u`` with ``u >> shift == i``) uses the stream
    ``(seed, b * n_parts + i)`` and writes
    into ``base[i]:base[i + 1]`` of the buffers, so the pairs do not depend on
    the number of threads. Node ``u`` draws ``_attempts(rates[u], phases[u],
    b)`` positive pairs in this block (fewer are kept under downsampling),
    each followed by ``negative`` noise nodes from ``neg_packed``.

    Parameters
    ----------
    b : int
    walks : ndarray of int32 of shape (n_walks, walk_length)
    starts, positions : inverted index of the walks (``occurrence_starts``,
        ``fill_walk_steps`` with ``step_bits`` the bit length of ``walk_length - 1``)
    offsets, step_keep : from :func:`step_tables`
    keep : ndarray of float64 of shape (n_nodes,)
        gensim's keep probability of each node (1: no downsampling).
    neg_packed : packed alias table of the noise distribution
    rates, phases : ndarray of float64 of shape (n_nodes,)
        Positive draws per block of each node, and :func:`node_phases`.
    negative, seed, shift : int
    base : from :func:`partition_capacities`
    raw_u, raw_t, out_u, out_t : ndarray of int32 of shape (base[-1],)
        Scratch, and the pairs sorted by (input partition, output partition,
        input node).
    bounds : ndarray of int64 of shape (n_parts, n_parts + 1)
        Bucket (i, j) is ``out_*[bounds[i, j]:bounds[i, j + 1]]``.
    """
    n = rates.size
    n_parts = base.size - 1
    window = offsets.shape[1] // 2
    length = walks.shape[1]
    step_bits = _bit_length(length - 1)
    flat = walks.ravel()
    for i in prange(n_parts):
        lo_u = i << shift
        end = _draw_partition(lo_u, min(n, lo_u + (1 << shift)), b, flat, length, step_bits,
                              window, starts, positions, offsets, step_keep, keep, neg_packed,
                              rates, phases, negative, _stream(seed, b * n_parts + i), raw_u,
                              raw_t, base[i])
        _sort_by_output_partition(raw_u, raw_t, base[i], end, shift, n_parts, out_u, out_t,
                                  bounds[i])


@njit(cache=True)
def _bit_length(x):
    """Bits needed to write ``x >= 0`` (0 for 0)."""
    bits = 0
    while (1 << bits) <= x:
        bits += 1
    return bits


@njit(cache=True)
def _train_bucket(us, ts, lo, hi, syn0, syn1, lr, sigmoid, flush, work):
    """SGNS on pairs ``lo..hi - 1`` (sorted by input node), as gensim's ``fast_sentence_sg_neg``.

    The score ``f = z_u . theta_t`` goes through gensim's sigmoid table, and
    a pair with ``|f| >= MAX_EXP`` is skipped. Each output vector is updated
    at once; the input vector every ``flush`` pairs of the same input and at
    the end of its run (gensim: after one context and its noise nodes).
    """
    dim = syn0.shape[1]
    q = lo
    while q < hi:
        u = us[q]
        for c in range(dim):
            work[c] = 0.0
        pending = 0
        while q < hi and us[q] == u:
            t = ts[q]
            label = np.float32(1.0)
            if t < 0:
                t = -t - 1
                label = np.float32(0.0)
            q += 1
            f = np.float32(0.0)
            for c in range(dim):
                f += syn0[u, c] * syn1[t, c]
            if -_F32_MAX_EXP < f < _F32_MAX_EXP:
                slot = min(np.int64((f + _F32_MAX_EXP) * _TABLE_SCALE), _TABLE_SIZE - 1)
                g = (label - sigmoid[slot]) * lr
                for c in range(dim):
                    work[c] += g * syn1[t, c]
                    syn1[t, c] += g * syn0[u, c]
            pending += 1
            if pending == flush:
                for c in range(dim):
                    syn0[u, c] += work[c]
                    work[c] = 0.0
                pending = 0
        for c in range(dim):
            syn0[u, c] += work[c]


@njit(cache=True, parallel=True)
def train_block(out_u, out_t, bounds, syn0, syn1, lr, sigmoid, flush):
    """SGNS on a block's buckets: ``n_parts`` rounds, the buckets of a round in parallel.

    Round ``r`` trains buckets ``(i, (i + r) % n_parts)`` for every ``i``:
    input rows of partition ``i``, output rows of partition ``(i + r) %
    n_parts``, so no two tasks of a round write the same row.
    """
    n_parts = bounds.shape[0]
    dim = syn0.shape[1]
    for r in range(n_parts):
        for i in prange(n_parts):
            j = (i + r) % n_parts
            work = np.empty(dim, dtype=np.float32)
            _train_bucket(out_u, out_t, bounds[i, j], bounds[i, j + 1], syn0, syn1,
                          np.float32(lr), sigmoid, flush, work)


@njit(cache=True)
def _buffers(rates, shift, negative):
    base = partition_capacities(rates, shift, negative)
    n_parts = base.size - 1
    size = base[-1]
    return (base, np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32),
            np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32),
            np.empty((n_parts, n_parts + 1), dtype=np.int64))


@njit(cache=True)
def sgns_blocks(walks, starts, positions, offsets, step_keep, keep, neg_packed, rates, phases,
                syn0, syn1, n_blocks, negative, alpha, min_alpha, seed, shift):
    """The solver's SGD: ``n_blocks`` blocks of :func:`draw_block` then :func:`train_block`.

    Block ``b`` trains at the learning rate ``alpha - (alpha - min_alpha) * b
    / n_blocks``. ``syn0`` and ``syn1`` (float32, (n_nodes, dim)) are updated
    in place; the result depends on the partitions (``shift``) but not on the
    number of threads.
    """
    base, raw_u, raw_t, out_u, out_t, bounds = _buffers(rates, shift, negative)
    sigmoid = sigmoid_table()
    for b in range(n_blocks):
        draw_block(b, walks, starts, positions, offsets, step_keep, keep, neg_packed, rates,
                   phases, negative, seed, shift, base, raw_u, raw_t, out_u, out_t, bounds)
        lr = alpha - (alpha - min_alpha) * b / n_blocks
        train_block(out_u, out_t, bounds, syn0, syn1, lr, sigmoid, negative + 1)


@njit(cache=True)
def _drawn_pairs(walks, starts, positions, offsets, step_keep, keep, neg_packed, rates, phases,
                n_blocks, negative, seed, shift):
    """Every pair :func:`sgns_blocks` with the same arguments trains, in training order.

    Returns
    -------
    inputs, outputs : ndarray of int32 of shape (n_pairs,)
        Noise outputs are stored as ``-t - 1``.
    """
    base, raw_u, raw_t, out_u, out_t, bounds = _buffers(rates, shift, negative)
    n_parts = base.size - 1
    inputs = []
    outputs = []
    for b in range(n_blocks):
        draw_block(b, walks, starts, positions, offsets, step_keep, keep, neg_packed, rates,
                   phases, negative, seed, shift, base, raw_u, raw_t, out_u, out_t, bounds)
        for r in range(n_parts):
            for i in range(n_parts):
                j = (i + r) % n_parts
                for q in range(bounds[i, j], bounds[i, j + 1]):
                    inputs.append(out_u[q])
                    outputs.append(out_t[q])
    return np.array(inputs, dtype=np.int32), np.array(outputs, dtype=np.int32)
