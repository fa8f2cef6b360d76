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
3. :func:`partition_bounds` and :func:`noise_tables`: ``n_parts`` contiguous
   node ranges of sizes differing by at most one, and in each the alias table
   of its nodes' noise weights, with the partition's share of the noise.
4. :func:`draw_block`: the positive pairs of one block of the schedule, one
   task per input partition, each from its own random stream, sorted by output
   partition and, within it, by input node. Only positive pairs are stored.
5. :func:`train_block`: SGNS bucket by bucket. In round ``r`` the buckets
   (input partition ``i``, output partition ``(i + r) % n_parts``) touch
   disjoint rows of both vector tables, so they run in parallel without locks
   and without races: the result does not depend on the number of threads (as
   PyTorch-BigGraph's buckets). A bucket trains its positive pairs and draws
   its noise nodes as it goes, from its output partition's table: input ``u``,
   which owes ``negative`` noise nodes per positive pair it drew in the block,
   takes a share of them in each output partition proportional to the
   partition's noise mass, rounded by one uniform per node and block
   (systematic sampling), so each bucket's count has the right expectation
   and every node gets exactly its total.

Conventions: walks are int32 of shape (n_walks, walk_length); alias tables are
packed in uint64 (acceptance threshold times 2**32 in the high 32 bits, alias
in the low 32). Node ``u`` is in partition ``u * n_parts // n_nodes``. A pair
is written as input ``u`` and output ``t``, a noise output as ``-t - 1``.
Randomness comes from SplitMix64 streams (:mod:`lowdim.embedding._kernels`):
one per block and input partition for the positive pairs, one per block and
bucket for the noise nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._kernels import _GOLDEN, _TWO_M53, _splitmix64

__all__ = ["alias_table", "alias_draw", "pack_alias", "step_tables",
           "sigmoid_table", "node_phases", "partition_bounds", "noise_tables",
           "partition_capacities", "draw_block", "train_block", "sgns_blocks",
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
    _pack_into(packed, 0, threshold, alias)
    return packed


@njit(cache=True, inline="always")
def _pack_into(packed, start, threshold, alias):
    """:func:`pack_alias` into ``packed[start:start + threshold.size]``, slot by slot: a
    slice assignment would compile numba's shape-mismatch error path (about 2 CPU s on an
    empty cache)."""
    for k in range(threshold.size):
        packed[start + k] = (np.uint64(threshold[k]) << _S32) | np.uint64(alias[k])


@njit(cache=True, inline="always")
def _packed_draw(bits, packed):
    """:func:`alias_draw` on a packed table."""
    k = np.int64(((bits >> _S32) * np.uint64(packed.size)) >> _S32)
    entry = packed[k]
    if (bits & _LOW32) < (entry >> _S32):
        return k
    return np.int64(entry & _LOW32)


@njit(cache=True, inline="always")
def _branchless_draw(bits, packed, size):
    """:func:`_packed_draw` without a branch: the coin is an unpredictable 50/50 branch that
    stalls the training that follows a draw, where a select costs nothing."""
    k = np.int64(((bits >> _S32) * size) >> _S32)
    entry = packed[k]
    alias = np.int64(entry & _LOW32)
    return k + (alias - k) * np.int64((bits & _LOW32) >= (entry >> _S32))


@njit(cache=True)
def _alias_samples(packed, n_draws, seed):
    """``n_draws`` slots drawn from a packed alias table with the SplitMix64 stream of ``seed``."""
    out = np.empty(n_draws, dtype=np.int64)
    state = np.uint64(seed)
    for i in range(n_draws):
        state, bits = _splitmix64(state)
        out[i] = _packed_draw(bits, packed)
    return out


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
    # Plain NumPy, called once per fit on a walk_length x 2 window table: compiling it
    # cost about 4 CPU s on every empty numba cache for microseconds of work.
    window = int(window)
    distance = np.concatenate([np.arange(-window, 0), np.arange(1, window + 1)])
    step = np.arange(int(walk_length))[:, None]
    inside = (step + distance >= 0) & (step + distance < walk_length)
    weights = np.where(inside, (window - np.abs(distance) + 1).astype(np.float64), 0.0)
    total = weights.sum(axis=1)
    offsets = np.zeros(weights.shape, dtype=np.uint64)
    for s in np.flatnonzero(total > 0):
        offsets[s] = pack_alias(*alias_table(weights[s]))
    keep = np.rint(total / total.max() * _TWO32).astype(np.uint64)
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
def partition_bounds(n_nodes, n_parts):
    """Start of each of ``n_parts`` contiguous partitions of ``range(n_nodes)``; last entry n.

    ``bounds[i] = ceil(i * n_nodes / n_parts)``, so that node ``u`` is in
    partition ``u * n_parts // n_nodes`` and sizes differ by at most one.
    """
    bounds = np.empty(n_parts + 1, dtype=np.int64)
    for i in range(n_parts + 1):
        bounds[i] = (i * n_nodes + n_parts - 1) // n_parts
    return bounds


@njit(cache=True, inline="always")
def _part(u, n_parts, n_nodes):
    return (np.int64(u) * n_parts) // n_nodes


@njit(cache=True)
def noise_tables(weights, bounds):
    """The noise distribution split by output partition.

    Parameters
    ----------
    weights : ndarray of float64 of shape (n_nodes,)
        Noise weight of each node (count^0.75), positive.
    bounds : from :func:`partition_bounds`

    Returns
    -------
    packed : ndarray of uint64 of shape (n_nodes,)
        ``packed[bounds[j]:bounds[j + 1]]`` is the packed alias table of
        partition ``j``'s nodes (slot ``k`` is node ``bounds[j] + k``).
    share : ndarray of float64 of shape (n_parts + 1,)
        Noise mass of the partitions before ``j``: ``share[0] = 0``,
        ``share[n_parts] = 1``.
    """
    n_parts = bounds.size - 1
    packed = np.empty(weights.size, dtype=np.uint64)
    share = np.zeros(n_parts + 1, dtype=np.float64)
    total = weights.sum()
    for j in range(n_parts):
        part = weights[bounds[j]:bounds[j + 1]]
        threshold, alias = alias_table(part)
        _pack_into(packed, bounds[j], threshold, alias)
        share[j + 1] = share[j] + part.sum() / total
    share[n_parts] = 1.0
    return packed, share


@njit(cache=True)
def partition_capacities(rates, bounds):
    """Start of each input partition's region in the pair buffers; the last entry is their size.

    Each node of partition ``i`` draws at most ``ceil(rate)`` positive pairs per block.
    """
    n_parts = bounds.size - 1
    base = np.zeros(n_parts + 1, dtype=np.int64)
    for i in range(n_parts):
        cap = 0
        for u in range(bounds[i], bounds[i + 1]):
            cap += np.int64(np.ceil(rates[u]))
        base[i + 1] = base[i] + cap
    return base


@njit(cache=True)
def _draw_partition(lo_u, hi_u, b, flat, walk_length, step_bits, window, starts, positions,
                    offsets, step_keep, keep, rates, phases, state, out_u, out_t, at, kept,
                    noise_phase):
    """Positive pairs of nodes ``lo_u..hi_u - 1`` in block ``b``, written from ``at``.

    Each node first draws where its contexts are (an occurrence, kept in
    proportion to its step's weight, and an offset), then reads them from the
    walks: those reads are random accesses into the walks, and done in a row
    they overlap (one at a time, each waited for its occurrence's draw; 0.7x
    the draw time on 20,000 blobs). Records each node's kept pairs in ``kept``
    and draws its noise phase (the uniform that rounds its noise counts in
    :func:`_bucket`); returns the end.
    """
    q = at
    step_mask = (1 << step_bits) - 1
    slots = np.uint64(offsets.shape[1])
    spots = np.empty(np.int64(np.ceil(rates[lo_u:hi_u].max())) + 1, dtype=np.int64)
    for u in range(lo_u, hi_u):
        first = starts[u]
        n_occ = np.uint64(starts[u + 1] - first)
        n_attempts = _attempts(rates[u], phases[u], b)
        for a in range(n_attempts):
            while True:  # an occurrence of u, kept in proportion to its step's weight
                state, bits = _splitmix64(state)
                code = np.int64(positions[first + np.int64(((bits >> _S32) * n_occ) >> _S32)])
                s = code & step_mask
                if (bits & _LOW32) < step_keep[s]:
                    break
            state, bits = _splitmix64(state)
            k = _branchless_draw(bits, offsets[s], slots)  # slot k: offset k - window (+1)
            spots[a] = (code >> step_bits) * walk_length + s + k - window + (k >= window)
        q_u = q
        for a in range(n_attempts):
            v = flat[spots[a]]
            if keep[v] < 1.0:  # gensim's downsampling, as a weight on the pair
                state, bits = _splitmix64(state)
                if np.float64(bits >> np.uint64(11)) * _TWO_M53 >= keep[v]:
                    continue
            out_u[q] = u
            out_t[q] = v
            q += 1
        kept[u] = q - q_u
        state, bits = _splitmix64(state)
        noise_phase[u] = np.float64(bits >> np.uint64(11)) * _TWO_M53
    return q


@njit(cache=True)
def _sort_by_output_partition(raw_u, raw_t, lo, hi, n_parts, n_nodes, out_u, out_t, bounds):
    """Stable counting sort of pairs ``lo..hi - 1`` by output partition into ``bounds``."""
    counts = np.zeros(n_parts + 1, dtype=np.int64)
    for q in range(lo, hi):
        counts[_part(raw_t[q], n_parts, n_nodes) + 1] += 1
    bounds[0] = lo
    for j in range(n_parts):
        bounds[j + 1] = bounds[j] + counts[j + 1]
    fill = bounds[:-1].copy()
    for q in range(lo, hi):
        j = _part(raw_t[q], n_parts, n_nodes)
        out_u[fill[j]] = raw_u[q]
        out_t[fill[j]] = raw_t[q]
        fill[j] += 1


@njit(cache=True, parallel=True)
def draw_block(b, walks, starts, positions, offsets, step_keep, keep, rates, phases, seed,
               part_bounds, base, raw_u, raw_t, out_u, out_t, bounds, kept, noise_phase):
    """Draw block ``b``'s positive pairs, one task per input partition, and sort them into buckets.

    Partition ``i`` uses the stream ``(seed, b * n_parts + i)`` and writes
    into ``base[i]:base[i + 1]`` of the buffers, so the pairs do not depend on
    the number of threads. Node ``u`` draws ``_attempts(rates[u], phases[u],
    b)`` positive pairs in this block (fewer are kept under downsampling).

    Parameters
    ----------
    b : int
    walks : ndarray of int32 of shape (n_walks, walk_length)
    starts, positions : inverted index of the walks (``occurrence_starts``,
        ``fill_walk_steps`` with ``step_bits`` the bit length of ``walk_length - 1``)
    offsets, step_keep : from :func:`step_tables`
    keep : ndarray of float64 of shape (n_nodes,)
        gensim's keep probability of each node (1: no downsampling).
    rates, phases : ndarray of float64 of shape (n_nodes,)
        Positive draws per block of each node, and :func:`node_phases`.
    seed : int
    part_bounds : from :func:`partition_bounds`
    base : from :func:`partition_capacities`
    raw_u, raw_t, out_u, out_t : ndarray of int32 of shape (base[-1],)
        Scratch, and the pairs sorted by (input partition, output partition,
        input node).
    bounds : ndarray of int64 of shape (n_parts, n_parts + 1)
        Bucket (i, j) is ``out_*[bounds[i, j]:bounds[i, j + 1]]``.
    kept : ndarray of int64 of shape (n_nodes,)
        Receives each node's positive pairs in the block.
    noise_phase : ndarray of float64 of shape (n_nodes,)
        Receives each node's uniform of the block, for :func:`train_block`.
    """
    n = rates.size
    n_parts = part_bounds.size - 1
    window = offsets.shape[1] // 2
    length = walks.shape[1]
    step_bits = _bit_length(length - 1)
    flat = walks.ravel()
    for i in prange(n_parts):
        end = _draw_partition(part_bounds[i], part_bounds[i + 1], b, flat, length, step_bits,
                              window, starts, positions, offsets, step_keep, keep, rates,
                              phases, _stream(seed, b * n_parts + i), raw_u, raw_t, base[i],
                              kept, noise_phase)
        _sort_by_output_partition(raw_u, raw_t, base[i], end, n_parts, n, out_u, out_t,
                                  bounds[i])


@njit(cache=True)
def _bit_length(x):
    """Bits needed to write ``x >= 0`` (0 for 0)."""
    bits = 0
    while (1 << bits) <= x:
        bits += 1
    return bits


@njit(cache=True, inline="always")
def _sgns_update(u, t, label, syn0, syn1, lr, sigmoid, work):
    """One SGNS step on (u, t), as gensim's ``fast_sentence_sg_neg``: ``syn1[t]`` now,
    ``syn0[u]``'s step added to ``work``. A score with ``|f| >= MAX_EXP`` is skipped."""
    dim = syn0.shape[1]
    f = np.float32(0.0)
    for c in range(dim):
        f += syn0[u, c] * syn1[t, c]
    if -_F32_MAX_EXP < f < _F32_MAX_EXP:
        slot = min(np.int64((f + _F32_MAX_EXP) * _TABLE_SCALE), _TABLE_SIZE - 1)
        g = (label - sigmoid[slot]) * lr
        for c in range(dim):
            work[c] += g * syn1[t, c]
            syn1[t, c] += g * syn0[u, c]


@njit(cache=True)
def _bucket(us, ts, lo, hi, lo_u, hi_u, noise, lo_t, share_lo, share_hi, kept, noise_phase,
            negative, state, syn0, syn1, lr, sigmoid, flush, work, targets, record_u, record_t,
            at):
    """Bucket (i, j): its positive pairs ``lo..hi - 1`` and its noise nodes, input by input.

    Input ``u`` of partition i (``lo_u..hi_u - 1``) trains its positive
    pairs with outputs in partition j, then ``floor(N * share_hi + U) -
    floor(N * share_lo + U)`` noise nodes drawn from ``noise`` (partition j's
    table, slot ``k`` is node ``lo_t + k``), where ``N = negative *
    kept[u]`` and ``U = noise_phase[u]``. Its outputs are gathered in
    ``targets`` first (noise as ``-t - 1``), so the training loop's reads do
    not wait on the draws. The input vector takes the accumulated step every
    ``flush`` updates and at the end of its turn.

    With ``record_u.size > 0`` nothing is trained: the pairs are written to
    ``record_u``/``record_t`` from ``at``, for tests. Returns the end of the record.
    """
    size = np.uint64(noise.size)
    q = lo
    for u in range(lo_u, hi_u):
        if kept[u] == 0:
            continue
        m = 0
        while q < hi and us[q] == u:
            targets[m] = ts[q]
            m += 1
            q += 1
        owed = np.float64(negative * kept[u])
        n_noise = np.int64(np.floor(owed * share_hi + noise_phase[u])
                           - np.floor(owed * share_lo + noise_phase[u]))
        for _noise in range(n_noise):
            state, bits = _splitmix64(state)
            targets[m] = -(lo_t + _branchless_draw(bits, noise, size)) - 1
            m += 1
        if record_u.size:
            for k in range(m):   # not a slice assignment: see _pack_into
                record_u[at + k] = u
                record_t[at + k] = targets[k]
            at += m
        elif m:
            _train_input(u, targets, m, syn0, syn1, lr, sigmoid, flush, work)
    return at


@njit(cache=True, inline="always")
def _train_input(u, targets, m, syn0, syn1, lr, sigmoid, flush, work):
    """SGNS on (u, targets[k]) for k < m (label 1, or 0 for a noise output ``-t - 1``)."""
    dim = syn0.shape[1]
    for c in range(dim):
        work[c] = 0.0
    pending = 0
    for k in range(m):
        t = targets[k]
        if t >= 0:
            _sgns_update(u, t, np.float32(1.0), syn0, syn1, lr, sigmoid, work)
        else:
            _sgns_update(u, -t - 1, np.float32(0.0), syn0, syn1, lr, sigmoid, work)
        pending += 1
        if pending == flush:
            for c in range(dim):
                syn0[u, c] += work[c]
                work[c] = 0.0
            pending = 0
    for c in range(dim):
        syn0[u, c] += work[c]


@njit(cache=True, inline="always")
def _run_bucket(i, j, b, out_u, out_t, bounds, part_bounds, noise, share, kept, noise_phase,
                negative, seed, syn0, syn1, lr, sigmoid, flush, work, targets, record_u, record_t,
                at):
    n_parts = part_bounds.size - 1
    lo_t, hi_t = part_bounds[j], part_bounds[j + 1]
    return _bucket(out_u, out_t, bounds[i, j], bounds[i, j + 1], part_bounds[i],
                   part_bounds[i + 1], noise[lo_t:hi_t], lo_t, share[j], share[j + 1], kept,
                   noise_phase, negative, _stream(seed, (b * n_parts + i) * n_parts + j),
                   syn0, syn1, lr, sigmoid, flush, work, targets, record_u, record_t, at)


@njit(cache=True, parallel=True)
def train_block(b, out_u, out_t, bounds, part_bounds, noise, share, kept, noise_phase,
                negative, seed, syn0, syn1, lr, sigmoid, flush, work, targets):
    """SGNS on block ``b``'s buckets: ``n_parts`` rounds, the buckets of a round in parallel.

    Round ``r`` trains buckets ``(i, (i + r) % n_parts)`` for every ``i``:
    input rows of partition ``i``, output rows of partition ``(i + r) %
    n_parts``, so no two tasks of a round write the same row. Bucket (i, j)
    draws its noise nodes from the stream ``(seed, (b * n_parts + i) * n_parts
    + j)``. ``work`` (float32, (n_parts, dim)) and ``targets`` (int32, (n_parts,
    at least (negative + 1) * max(ceil(rates)) + 1)) are scratch.
    """
    n_parts = part_bounds.size - 1
    none = np.empty(0, dtype=np.int32)
    for r in range(n_parts):
        for i in prange(n_parts):
            _run_bucket(i, (i + r) % n_parts, b, out_u, out_t, bounds, part_bounds, noise,
                        share, kept, noise_phase, negative, seed, syn0, syn1, np.float32(lr),
                        sigmoid, flush, work[i], targets[i], none, none, 0)


@njit(cache=True)
def _buffers(rates, part_bounds, dim, negative):
    n_parts = part_bounds.size - 1
    base = partition_capacities(rates, part_bounds)
    size = base[-1]
    most = (negative + 1) * np.int64(np.ceil(rates.max())) + 1  # an input's outputs in a bucket
    return (base, np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32),
            np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32),
            np.empty((n_parts, n_parts + 1), dtype=np.int64),
            np.zeros(rates.size, dtype=np.int64), np.zeros(rates.size, dtype=np.float64),
            np.empty((n_parts, dim), dtype=np.float32), np.empty((n_parts, most), dtype=np.int32))


@njit(cache=True)
def sgns_blocks(walks, starts, positions, offsets, step_keep, keep, noise, share, rates, phases,
                syn0, syn1, n_blocks, negative, alpha, min_alpha, seed, noise_seed, part_bounds):
    """The solver's SGD: ``n_blocks`` blocks of :func:`draw_block` then :func:`train_block`.

    Block ``b`` trains at the learning rate ``alpha - (alpha - min_alpha) * b
    / n_blocks``. ``syn0`` and ``syn1`` (float32, (n_nodes, dim)) are updated
    in place; the result depends on the partitions (``part_bounds``) but not
    on the number of threads.
    """
    base, raw_u, raw_t, out_u, out_t, bounds, kept, noise_phase, work, targets = _buffers(
        rates, part_bounds, syn0.shape[1], negative)
    sigmoid = sigmoid_table()
    for b in range(n_blocks):
        draw_block(b, walks, starts, positions, offsets, step_keep, keep, rates, phases, seed,
                   part_bounds, base, raw_u, raw_t, out_u, out_t, bounds, kept, noise_phase)
        lr = alpha - (alpha - min_alpha) * b / n_blocks
        train_block(b, out_u, out_t, bounds, part_bounds, noise, share, kept, noise_phase,
                    negative, noise_seed, syn0, syn1, lr, sigmoid, negative + 1, work, targets)


@njit(cache=True)
def _drawn_pairs(walks, starts, positions, offsets, step_keep, keep, noise, share, rates, phases,
                 n_blocks, negative, seed, noise_seed, part_bounds):
    """Every pair :func:`sgns_blocks` with the same arguments trains, in training order.

    Returns
    -------
    inputs, outputs : ndarray of int32 of shape (n_pairs,)
        Noise outputs are written ``-t - 1``.
    """
    base, raw_u, raw_t, out_u, out_t, bounds, kept, noise_phase, work, targets = _buffers(
        rates, part_bounds, 1, negative)
    n_parts = part_bounds.size - 1
    syn = np.zeros((1, 1), dtype=np.float32)
    sigmoid = sigmoid_table()
    inputs = []
    outputs = []
    for b in range(n_blocks):
        draw_block(b, walks, starts, positions, offsets, step_keep, keep, rates, phases, seed,
                   part_bounds, base, raw_u, raw_t, out_u, out_t, bounds, kept, noise_phase)
        # a bucket writes its positive pairs and at most negative * kept + 1 noise nodes per input
        size = base[-1] * (negative + 1) + rates.size
        record_u = np.empty(size, dtype=np.int32)
        record_t = np.empty(size, dtype=np.int32)
        for r in range(n_parts):
            for i in range(n_parts):
                end = _run_bucket(i, (i + r) % n_parts, b, out_u, out_t, bounds, part_bounds,
                                  noise, share, kept, noise_phase, negative, noise_seed, syn,
                                  syn, np.float32(0.0), sigmoid, 1, work[0], targets[0],
                                  record_u, record_t, 0)
                for q in range(end):
                    inputs.append(record_u[q])
                    outputs.append(record_t[q])
    return np.array(inputs, dtype=np.int32), np.array(outputs, dtype=np.int32)
