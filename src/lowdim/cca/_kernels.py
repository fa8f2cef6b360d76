"""Compiled kernels for stochastic AppGrad on sparse views: products and updates on a few rows.

Every function takes only arrays and scalars, so each can be tested on its
own. A view is CSR as :func:`lowdim.cca._validation.check_view` leaves it:
``indptr`` (n + 1,) and ``indices`` (nnz,) integers (int32 or int64),
``data`` (nnz,) float64, indices sorted within a row. Dense operands are
C-contiguous float64. The work of each call is proportional to the
non-zeros of the rows it is given, never to the number of columns p:
SciPy's row slicing would cost little more in arithmetic but several
object constructions per call, which dominate a step of a few hundred
non-zeros.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["rows_nnz", "rows_times", "sparse_step"]


@njit(cache=True)
def rows_nnz(indptr, rows):
    """Non-zeros in the given rows of a CSR matrix."""
    total = 0
    for r in range(rows.size):
        total += indptr[rows[r] + 1] - indptr[rows[r]]
    return total


@njit(cache=True)
def rows_times(indptr, indices, data, rows, T):
    """``A[rows] @ T`` for CSR ``A``, shape (len(rows), k), without slicing ``A``."""
    k = T.shape[1]
    out = np.zeros((rows.size, k))
    for r in range(rows.size):
        i = rows[r]
        for j in range(indptr[i], indptr[i + 1]):
            col, v = indices[j], data[j]
            for a in range(k):
                out[r, a] += v * T[col, a]
    return out


@njit(cache=True)
def sparse_step(indptr, indices, data, rows, R, T, G, scale, slot):
    """``T[S] -= scale · (A[rows]ᵀR)[S]`` on the support S of ``A[rows]``, and ``G`` kept ``TᵀT``.

    Parameters
    ----------
    indptr, indices, data : CSR arrays of A, shape (n, p)
    rows : int array (b,)
    R : ndarray (b, k)
        The minibatch residual.
    T : ndarray (p, k)
        Updated in place on the rows in S only.
    G : ndarray (k, k)
        ``TᵀT``, updated in place by ``newᵀnew − oldᵀold`` over the changed rows.
    scale : float
    slot : int64 array (p,)
        Work space, all -1 on entry and on return (maps a column to its row
        of the gradient buffer).

    Returns
    -------
    touched : int
        |S|, the rows of T that changed.
    """
    k = T.shape[1]
    cap = 0
    for r in range(rows.size):
        cap += indptr[rows[r] + 1] - indptr[rows[r]]
    cols = np.empty(cap, dtype=np.int64)
    grad = np.zeros((cap, k))
    touched = 0
    for r in range(rows.size):
        i = rows[r]
        for j in range(indptr[i], indptr[i + 1]):
            col = indices[j]
            s = slot[col]
            if s < 0:
                s = touched
                slot[col] = s
                cols[s] = col
                touched += 1
            v = data[j]
            for a in range(k):
                grad[s, a] += v * R[r, a]
    old = np.empty(k)
    for s in range(touched):
        col = cols[s]
        for a in range(k):
            old[a] = T[col, a]
            T[col, a] = old[a] - scale * grad[s, a]
        for a in range(k):
            for c in range(k):
                G[a, c] += T[col, a] * T[col, c] - old[a] * old[c]
        slot[col] = -1
    return touched
