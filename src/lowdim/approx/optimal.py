"""The optimal rank-s approximation: a ceiling that needs the whole matrix."""

from __future__ import annotations

import numpy as np
import scipy.linalg

from ..similarity import full_matrix
from ._linalg import as_oracle, check_sample_size, require_symmetric
from ._lowrank import LowRankApprox

__all__ = ["optimal"]


def optimal(oracle, s, random_state=None, *, eigenpairs=None):
    """Best rank-``s`` approximation in Frobenius norm: the ``s`` largest-``|lambda|`` eigenpairs.

    For a symmetric (possibly indefinite) ``K = V diag(lambda) V^T`` the
    truncated eigendecomposition keeping the ``s`` largest ``|lambda|`` is the
    optimal rank-``s`` approximation (Eckart-Young). It reads all of ``K``.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
        The symmetric matrix, formed whole.
    s : int
        Rank, ``1 <= s < n``.
    random_state : None
        Unused (the result is deterministic); accepted so every method has
        the same signature.
    eigenpairs : tuple (w, V), optional
        ``scipy.linalg.eigh(K)`` if already computed; saves recomputing it
        when sweeping ``s``.

    Returns
    -------
    LowRankApprox
        ``left = V_s``, ``core = diag(lambda_s)``, ``right = V_s.T``; charged
        ``n (n + 1) / 2`` evaluations.

    Examples
    --------
    >>> from lowdim.approx import optimal, relative_frobenius_error
    >>> K = np.diag([4.0, -3.0, 1.0, 0.5])
    >>> approx = optimal(K, 2)
    >>> np.allclose(approx.to_dense(), np.diag([4.0, -3.0, 0.0, 0.0]))  # the two largest |lambda|
    True
    >>> round(relative_frobenius_error(approx, K), 3)
    0.218
    """
    oracle = as_oracle(oracle)
    require_symmetric(oracle, "optimal")
    n = oracle.n
    s = check_sample_size(s, n)
    start = oracle.evaluations
    if eigenpairs is None:
        eigenpairs = scipy.linalg.eigh(full_matrix(oracle))
    w, V = eigenpairs
    top = np.sort(np.argsort(-np.abs(w), kind="stable")[:s])
    evaluations = max(oracle.evaluations - start, n * (n + 1) // 2)
    info = {"eigenvalues": w[top]}
    return LowRankApprox(V[:, top], np.diag(w[top]), V[:, top].T, evaluations,
                         np.empty(0, dtype=np.int64), "optimal", True, info)
