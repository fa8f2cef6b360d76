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
def sparse_step(indptr, indices, data, rows, R, T, G, scale):
    """``T -= scale · A[rows]ᵀR`` on the support of ``A[rows]``, and ``G`` kept ``TᵀT``.

    The update is scattered one non-zero at a time, in place: row ``col`` of T
    moves by ``d = scale · v · R[r]`` and ``G`` by ``(t − d)ᵀ(t − d) − tᵀt``.
    These changes telescope, so repeated columns need no deduplication (no
    work space of size p, and T's rows are still in cache from the residual
    ``A[rows] T`` computed just before).

    Parameters
    ----------
    indptr, indices, data : CSR arrays of A, shape (n, p)
    rows : int array (b,)
    R : ndarray (b, k)
        The minibatch residual.
    T : ndarray (p, k)
        Updated in place on the rows in the support only.
    G : ndarray (k, k)
        ``TᵀT``, updated in place.
    scale : float

    Returns
    -------
    updates : int
        Non-zeros scattered (row updates of T, repeated columns counted each time).
    """
    k = T.shape[1]
    dG = np.zeros((k, k))
    d = np.empty(k)
    updates = 0
    for r in range(rows.size):
        i = rows[r]
        for j in range(indptr[i], indptr[i + 1]):
            col = indices[j]
            v = scale * data[j]
            for a in range(k):
                d[a] = v * R[r, a]
            for a in range(k):
                ta, da = T[col, a], d[a]
                for c in range(a, k):  # upper triangle; mirrored below
                    dG[a, c] += da * d[c] - ta * d[c] - da * T[col, c]
            for a in range(k):
                T[col, a] -= d[a]
            updates += 1
    for a in range(k):
        for c in range(a, k):
            G[a, c] += dG[a, c]
            if c != a:
                G[c, a] += dG[a, c]
    return updates
