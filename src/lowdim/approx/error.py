"""Approximation error, computed without forming the approximation."""

from __future__ import annotations

import numpy as np

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
    oracle : SimilarityOracle or ndarray of shape (n, n)
        The exact matrix.
    block_rows : int, default=256

    Returns
    -------
    error : float
    """
    n = approx.n
    if oracle.shape != (n, n):
        raise ValueError(f"`oracle` has shape {oracle.shape} but `approx` is {n}x{n}")
    if not isinstance(block_rows, (int, np.integer)) or block_rows < 1:
        raise ValueError(f"`block_rows` must be a positive integer, got {block_rows!r}")
    from ..similarity import DenseOracle

    if isinstance(oracle, DenseOracle):
        oracle = oracle.K  # slicing the array beats indexing through the oracle
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
        raise ValueError("`oracle` is the zero matrix: the relative error is undefined")
    return float(np.sqrt(residual / total))
