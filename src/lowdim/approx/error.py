"""Approximation error, computed without forming the approximation."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import ArgumentTypeError, ArgumentValueError, check_matrix, check_number
from ._lowrank import LowRankApprox

__all__ = ["relative_frobenius_error"]


def relative_frobenius_error(approx, oracle, block_rows=256) -> float:
    """``||K - K~||_F / ||K||_F``, accumulated over blocks of rows.

    Only ``block_rows`` rows of ``K`` and of ``K~`` exist at a time, so the
    memory beyond ``K`` itself (when ``oracle`` holds it) is
    ``O(n * block_rows)``. Entries read from an oracle are neither cached nor
    counted (``record=False``): measuring the error is not charged to the
    approximation.

    Parameters
    ----------
    approx : LowRankApprox
        The approximation ``K~``.
    oracle : SimilarityOracle, ndarray or scipy.sparse matrix of shape (n, n)
        The exact matrix.
    block_rows : int, default=256
        Rows compared at a time.

    Returns
    -------
    error : float
        The relative error, 0 for an exact approximation.

    Examples
    --------
    >>> from lowdim.approx import nystrom, relative_frobenius_error
    >>> X = rng.standard_normal((100, 20))
    >>> K = X @ X.T
    >>> errors = [relative_frobenius_error(nystrom(K, s, random_state=0), K) for s in (5, 10, 20)]
    >>> np.round(errors, 3)
    array([0.813, 0.586, 0.   ])
    """
    from ..similarity import DenseOracle, SimilarityOracle
    from ._linalg import as_oracle

    if not isinstance(approx, LowRankApprox):
        raise ArgumentTypeError("`approx` must be a LowRankApprox (what nystrom, sms_nystrom, "
                                f"sicur, ... return), got {type(approx).__name__}; the arguments "
                                "are (approx, oracle)", "approx")
    if isinstance(oracle, DenseOracle) and not sp.issparse(oracle.K):
        oracle = oracle.K  # slicing the array beats indexing through the oracle
    elif not isinstance(oracle, SimilarityOracle):
        # An array is read in place (a DenseOracle would copy it to check symmetry).
        oracle = as_oracle(oracle) if sp.issparse(oracle) else check_matrix(oracle, "oracle",
                                                                             square=True)
    block_rows = check_number(block_rows, "block_rows", integer=True, minimum=1)
    n = approx.n
    if oracle.shape != (n, n):
        raise ArgumentValueError(f"`oracle` has shape {oracle.shape} but `approx` is {n}x{n}",
                                 "oracle")
    cols = np.arange(n)
    residual = total = 0.0
    for start in range(0, n, block_rows):
        rows = np.arange(start, min(start + block_rows, n))
        if isinstance(oracle, np.ndarray):
            exact = oracle[start:rows[-1] + 1]
        else:
            exact = oracle.evaluate(rows, cols, record=False)
        residual += float(np.sum((exact - approx.rows(rows)) ** 2))
        total += float(np.sum(exact ** 2))
    if total == 0.0:
        raise ArgumentValueError("`oracle` is the zero matrix: the relative error is undefined",
                                 "oracle")
    return float(np.sqrt(residual / total))
