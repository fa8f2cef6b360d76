"""Compiled kernels for Vec2vec: weighted first-order random walks on a CSR graph.

Every function here takes only arrays and scalars so it can be tested on its
own. The graph uses the one CSR convention of :mod:`lowdim.embedding.graph`:
``indptr`` int64 (n + 1,), ``indices`` int32 (nnz,), ``data`` float64 (nnz,)
with positive weights and no empty row.

Random numbers come from a SplitMix64 stream per task (block of start nodes),
seeded by the caller. The stream lives in a local variable, so a block gives
the same walks whichever thread runs it and however many threads there are;
NumPy's and numba's global generators are never touched.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["row_cumsum", "walk_block", "random_walks_kernel", "splitmix64_uniforms"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO_M53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _splitmix64(state):
    """Advance a SplitMix64 state; return (new_state, 64 random bits)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@njit(cache=True, inline="always")
def _uniform(state):
    """Advance ``state``; return (new_state, u) with u uniform on [0, 1)."""
    state, z = _splitmix64(state)
    return state, np.float64(z >> _S11) * _TWO_M53


@njit(cache=True)
def splitmix64_uniforms(seed, size):
    """``size`` uniforms on [0, 1) from the stream seeded by ``seed`` (for tests)."""
    out = np.empty(size, dtype=np.float64)
    state = np.uint64(seed)
    for i in range(size):
        state, out[i] = _uniform(state)
    return out


@njit(cache=True)
def row_cumsum(indptr, data):
    """Cumulative edge weights restarted at each row of a CSR graph.

    Returns ``cumw`` of shape (nnz,) with ``cumw[indptr[i]:indptr[i+1]]`` the
    running sum of row ``i``'s weights, so the last entry is the row total.
    """
    cumw = np.empty(data.size, dtype=np.float64)
    for i in range(indptr.size - 1):
        total = 0.0
        for j in range(indptr[i], indptr[i + 1]):
            total += data[j]
            cumw[j] = total
    return cumw


@njit(cache=True)
def walk_block(indptr, indices, cumw, starts, walk_length, seed, out):
    """Walk from each node of ``starts``; write the walks into ``out``.

    The next node is drawn with probability proportional to the edge weight,
    :math:`P(v \\to u) = w_{vu} / \\sum_{u'} w_{vu'}`, by inverting the row's
    cumulative weights with a binary search.

    Parameters
    ----------
    indptr, indices : ndarray of int64 / int32
        CSR structure of the graph; every row has at least one entry.
    cumw : ndarray of float64 of shape (nnz,)
        Output of :func:`row_cumsum`.
    starts : ndarray of int64 of shape (m,)
        Start node of each walk.
    walk_length : int
        Number of nodes per walk, start included (>= 1).
    seed : uint64
        Seed of this block's random stream.
    out : ndarray of int32 of shape (m, walk_length)
    """
    state = np.uint64(seed)
    for w in range(starts.size):
        node = starts[w]
        out[w, 0] = node
        for step in range(1, walk_length):
            lo = indptr[node]
            hi = indptr[node + 1]
            state, u = _uniform(state)
            target = u * cumw[hi - 1]
            j = lo + np.searchsorted(cumw[lo:hi], target, side="right")
            if j >= hi:  # u * total rounded up to total: take the last edge
                j = hi - 1
            node = indices[j]
            out[w, step] = node


@njit(cache=True, parallel=True)
def random_walks_kernel(indptr, indices, cumw, starts, walk_length, block_size, seeds):
    """All walks, one task per block of ``block_size`` consecutive starts.

    Block ``b`` covers ``starts[b*block_size:(b+1)*block_size]`` and uses
    ``seeds[b]``; blocks run in parallel (numba ``prange``). The result does
    not depend on the number of threads.

    Returns
    -------
    walks : ndarray of int32 of shape (len(starts), walk_length)
    """
    n_walks = starts.size
    out = np.empty((n_walks, walk_length), dtype=np.int32)
    for b in prange(seeds.size):
        lo = b * block_size
        hi = min(lo + block_size, n_walks)
        walk_block(indptr, indices, cumw, starts[lo:hi], walk_length, seeds[b], out[lo:hi])
    return out
