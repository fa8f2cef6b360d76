"""Form a whole similarity matrix from an oracle, block by block."""

from __future__ import annotations

import numpy as np

from .._validation import ArgumentValueError
from ..progress import Progress

__all__ = ["full_matrix"]


def full_matrix(oracle, block_rows=256):
    """Evaluate every entry of ``oracle``'s matrix and return it dense.

    A symmetric oracle is asked only for the upper triangle (each entry once,
    so ``oracle.evaluations`` grows by ``n (n + 1) / 2``), which is then
    mirrored. Blocks of ``block_rows`` rows keep the index bookkeeping at
    ``O(n * block_rows)`` memory beyond the result.

    Parameters
    ----------
    oracle : SimilarityOracle
        The oracle to evaluate in full.
    block_rows : int, default=256
        Rows asked for at a time.

    Returns
    -------
    K : ndarray of shape (n, n), float64
        The whole matrix.

    Examples
    --------
    >>> from lowdim.similarity import KernelOracle, full_matrix
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    >>> oracle = KernelOracle(X, "linear")
    >>> full_matrix(oracle)
    array([[0., 0., 0.],
           [0., 1., 0.],
           [0., 0., 4.]])
    >>> oracle.evaluations  # the upper triangle: n (n + 1) / 2
    6
    """
    n = oracle.n
    if not isinstance(block_rows, (int, np.integer)) or block_rows < 1:
        raise ArgumentValueError(f"`block_rows` must be a positive integer, got {block_rows!r}",
                                 "block_rows")
    K = np.empty((n, n), dtype=np.float64)
    total = n * (n + 1) // 2 if oracle.symmetric else n * n
    with Progress(f"full {n}x{n} matrix", total=total, unit="entries") as progress:
        for start in range(0, n, block_rows):
            stop = min(start + block_rows, n)
            rows = np.arange(start, stop)
            if oracle.symmetric:
                cols = np.arange(start, n)
                block = oracle(rows, cols)
                K[start:stop, start:] = block
                K[start:, start:stop] = block.T
                b = stop - start  # the block's lower triangle repeats entries already counted
                progress.update(b * (n - start) - b * (b - 1) // 2)
            else:
                K[start:stop] = oracle(rows, np.arange(n))
                progress.update((stop - start) * n)
    return K
