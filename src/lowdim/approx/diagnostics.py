"""Why Nyström fails on indefinite matrices: spectra and conditioning of submatrices.

The SMS-Nyström paper's argument (its Figure 2): a near-PSD ``K`` has few,
small negative eigenvalues, but its random principal submatrices ``K[S, S]``
have eigenvalues near zero that ``pinv(K[S, S])`` blows up; and
``lambda_min(K[S, S])`` rises towards 0 as ``|S|`` shrinks, which is why a
shift estimated from a submatrix twice the size of ``S1`` suffices.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.linalg

from .._validation import ArgumentValueError
from ._linalg import check_random_state

__all__ = ["spectrum_summary", "spectrum_tables", "submatrix_eigenvalues", "zero_tolerance"]


def zero_tolerance(eigenvalues) -> float:
    """``n * eps * max|lambda|``: eigenvalues within it of 0 are numerically zero.

    Parameters
    ----------
    eigenvalues : ndarray of shape (n,)
        Eigenvalues of an n x n symmetric matrix.

    Returns
    -------
    tolerance : float
        ``n * eps * max|lambda|``.

    Examples
    --------
    >>> from lowdim.approx.diagnostics import zero_tolerance
    >>> bool(zero_tolerance(np.array([2.0, -1.0, 1e-17])) == 3 * np.finfo(float).eps * 2.0)
    True
    """
    w = np.asarray(eigenvalues, dtype=np.float64)
    return w.size * np.finfo(np.float64).eps * np.abs(w).max(initial=0.0)


def spectrum_summary(eigenvalues) -> dict:
    """Negative part of a spectrum.

    Parameters
    ----------
    eigenvalues : array-like of shape (n,)
        All eigenvalues of a symmetric matrix.

    Returns
    -------
    summary : dict
        ``n``; ``n_negative`` (eigenvalues below ``-n * eps * max|lambda|``);
        ``negative_mass`` = ``sum |lambda < 0| / sum |lambda|``; ``lambda_min``;
        ``lambda_max``.

    Examples
    --------
    >>> from lowdim.approx import spectrum_summary
    >>> summary = spectrum_summary([3.0, 1.0, -1.0, 0.0])
    >>> summary["n_negative"], round(summary["negative_mass"], 3), summary["lambda_min"]
    (1, 0.2, -1.0)
    """
    w = np.asarray(eigenvalues, dtype=np.float64)
    if w.ndim != 1 or w.size == 0:
        raise ArgumentValueError("`eigenvalues` must be a non-empty 1-D array, got shape "
                                 f"{w.shape}", "eigenvalues")
    scale = np.abs(w).max()
    negative = w < -zero_tolerance(w)
    return {
        "n": int(w.size),
        "n_negative": int(negative.sum()),
        "negative_mass": float(np.abs(w[negative]).sum() / np.abs(w).sum()) if scale > 0 else 0.0,
        "lambda_min": float(w.min()),
        "lambda_max": float(w.max()),
    }


def submatrix_eigenvalues(K, sizes, n_draws=10, random_state=None) -> pd.DataFrame:
    """Extreme eigenvalues of random principal submatrices ``K[S, S]``.

    Parameters
    ----------
    K : ndarray of shape (n, n), symmetric
        The matrix.
    sizes : sequence of int
        Submatrix sizes ``|S|``, each in ``[1, n]``.
    n_draws : int, default=10
        Independent uniform draws of ``S`` per size.
    random_state : int, RandomState or None
        Seeds the draws.

    Returns
    -------
    table : DataFrame
        One row per draw: ``size``, ``draw``, ``lambda_min``, ``min_abs_eig``
        (the eigenvalue closest to zero, what ``pinv`` inverts) and
        ``condition`` (``max|lambda| / min|lambda|``).

    Examples
    --------
    >>> from lowdim.approx import submatrix_eigenvalues
    >>> K = np.diag([3.0, 2.0, 1.0, -1.0])
    >>> table = submatrix_eigenvalues(K, [4], n_draws=1, random_state=0)
    >>> table[["size", "lambda_min", "min_abs_eig", "condition"]].to_numpy().tolist()
    [[4.0, -1.0, 1.0, 3.0]]
    """
    K = np.asarray(K, dtype=np.float64)
    n = K.shape[0]
    rng = check_random_state(random_state)
    rows = []
    for size in sizes:
        if not 1 <= int(size) <= n:
            raise ArgumentValueError(f"`sizes` entries must be in [1, n = {n}], got {size}",
                                     "sizes")
        for draw in range(n_draws):
            S = rng.choice(n, int(size), replace=False)
            w = scipy.linalg.eigvalsh(K[np.ix_(S, S)])
            smallest = np.abs(w).min()
            condition = float(np.abs(w).max() / smallest) if smallest > 0 else np.inf
            rows.append({"size": int(size), "draw": draw, "lambda_min": float(w[0]),
                         "min_abs_eig": float(smallest), "condition": condition})
    return pd.DataFrame(rows)


def spectrum_tables(K, size_fractions, n_draws, random_state, matrix):
    """Tidy tables for the spectra figure: eigenvalues of ``K`` and of its submatrices.

    Parameters
    ----------
    K : ndarray of shape (n, n), symmetric
        The matrix.
    size_fractions : sequence of float
        Submatrix sizes as fractions of ``n`` (rounded, at least 2, at most n).
    n_draws : int
        Draws of the submatrix per size.
    random_state : int, RandomState or None
        Seeds the draws.
    matrix : str
        Name written in the ``matrix`` column.

    Returns
    -------
    eigenvalues : DataFrame
        ``matrix, rank, eigenvalue`` (rank 1 = largest), one row per eigenvalue.
    submatrices : DataFrame
        :func:`submatrix_eigenvalues` rows plus ``matrix``, ``size/n`` and
        ``lambda_min_K``.

    Examples
    --------
    >>> from lowdim.approx import spectrum_tables
    >>> K = np.diag([3.0, 2.0, 1.0, -1.0])
    >>> eigenvalues, submatrices = spectrum_tables(K, [0.5, 1.0], n_draws=2, random_state=0,
    ...                                            matrix="toy")
    >>> eigenvalues.eigenvalue.tolist()
    [3.0, 2.0, 1.0, -1.0]
    >>> submatrices[["size", "size/n", "lambda_min_K"]].drop_duplicates().to_numpy().tolist()
    [[2.0, 0.5, -1.0], [4.0, 1.0, -1.0]]
    """
    K = np.asarray(K, dtype=np.float64)
    n = K.shape[0]
    w = scipy.linalg.eigvalsh(K)[::-1]
    eigenvalues = pd.DataFrame({"matrix": matrix, "rank": np.arange(1, n + 1), "eigenvalue": w})
    sizes = sorted({min(n, max(2, int(round(f * n)))) for f in size_fractions})
    subs = submatrix_eigenvalues(K, sizes, n_draws=n_draws, random_state=random_state)
    subs.insert(0, "matrix", matrix)
    subs["size/n"] = subs["size"] / n
    subs["lambda_min_K"] = float(w[-1])
    return eigenvalues, subs
