"""An oracle over a similarity matrix the user already has."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import check_matrix
from ._oracle import SimilarityOracle

__all__ = ["DenseOracle"]


def _dense_pairs(K, i, j):
    return K[i, j]


def _sparse_pairs(K, i, j):
    return np.asarray(K[i, j]).ravel()


class DenseOracle(SimilarityOracle):
    """Serve entries of a precomputed matrix, counting them like a costly oracle.

    Useful to run the approximation methods on a matrix computed elsewhere,
    and to measure how many entries a method would have needed.

    Parameters
    ----------
    K : array-like or scipy.sparse matrix of shape (n, n)
        The similarity matrix; must be square and finite. A sparse matrix is
        kept sparse (CSR; entries not stored are 0).
    symmetrize : bool, default=False
        Use ``(K + K.T) / 2``. Without it, a ``K`` that is not symmetric (to
        ``rtol=1e-10`` of its largest entry) gives an oracle with
        ``symmetric=False``, which the Nyström methods refuse.
    n_jobs, cache, chunk_size
        See :class:`~lowdim.similarity.SimilarityOracle`. Lookups are cheap,
        so ``n_jobs`` has no effect here.

    Attributes
    ----------
    K : ndarray or scipy.sparse.csr_matrix of shape (n, n), float64
        The matrix served (symmetrised if asked).
    symmetric : bool

    Examples
    --------
    >>> oracle = DenseOracle(np.eye(3))
    >>> oracle([0, 1], [1, 2]).shape, oracle.evaluations
    ((2, 2), 4)
    """

    def __init__(self, K, symmetrize=False, n_jobs=1, cache=True, chunk_size=1 << 20):
        super().__init__(n_jobs=n_jobs, cache=cache, chunk_size=chunk_size)
        K = check_matrix(K, "K", square=True)
        if symmetrize:
            K = (K + K.T) / 2.0
        if sp.issparse(K):
            K = sp.csr_matrix(K)
            scale = float(abs(K).max()) if K.nnz else 0.0
            gap = float(abs(K - K.T).max()) if K.nnz else 0.0
        else:
            scale = float(np.abs(K).max())
            gap = float(np.abs(K - K.T).max())
        self.symmetric = gap <= 1e-10 * max(scale, 1e-300)
        self.K = K
        self._n = K.shape[0]

    def _pair_task(self):
        return (_sparse_pairs if sp.issparse(self.K) else _dense_pairs), (self.K,)
