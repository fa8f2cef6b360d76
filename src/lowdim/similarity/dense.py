"""An oracle over a similarity matrix the user already has."""

from __future__ import annotations

import numpy as np

from ._oracle import SimilarityOracle

__all__ = ["DenseOracle"]


def _dense_pairs(K, i, j):
    return K[i, j]


class DenseOracle(SimilarityOracle):
    """Serve entries of a precomputed matrix, counting them like a costly oracle.

    Useful to run the approximation methods on a matrix computed elsewhere,
    and to measure how many entries a method would have needed.

    Parameters
    ----------
    K : array-like of shape (n, n)
        The similarity matrix; must be square and finite.
    symmetrize : bool, default=False
        Use ``(K + K.T) / 2``. Without it, a ``K`` that is not symmetric (to
        ``rtol=1e-10`` of its largest entry) gives an oracle with
        ``symmetric=False``, which the Nyström methods refuse.
    n_jobs, cache, chunk_size
        See :class:`~lowdim.similarity.SimilarityOracle`. Lookups are cheap,
        so ``n_jobs`` has no effect here.

    Attributes
    ----------
    K : ndarray of shape (n, n), float64
        The matrix served (symmetrised if asked).
    symmetric : bool

    Examples
    --------
    >>> import numpy as np
    >>> oracle = DenseOracle(np.eye(3))
    >>> oracle([0, 1], [1, 2]).shape, oracle.evaluations
    ((2, 2), 4)
    """

    def __init__(self, K, symmetrize=False, n_jobs=1, cache=True, chunk_size=1 << 20):
        super().__init__(n_jobs=n_jobs, cache=cache, chunk_size=chunk_size)
        K = np.asarray(K, dtype=np.float64)
        if K.ndim != 2 or K.shape[0] != K.shape[1]:
            raise ValueError(f"`K` must be a square matrix, got shape {K.shape}")
        if not np.all(np.isfinite(K)):
            bad = np.argwhere(~np.isfinite(K))[0]
            raise ValueError(f"`K` contains non-finite values, first K[{bad[0]}, {bad[1]}] = "
                             f"{K[bad[0], bad[1]]}")
        if symmetrize:
            K = (K + K.T) / 2.0
        scale = float(np.abs(K).max()) if K.size else 0.0
        self.symmetric = bool(np.allclose(K, K.T, rtol=0.0, atol=1e-10 * max(scale, 1e-300)))
        self.K = K
        self._n = K.shape[0]

    def _pair_task(self):
        return _dense_pairs, (self.K,)
