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
from sklearn.utils import check_random_state

__all__ = ["spectrum_summary", "submatrix_eigenvalues"]


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
    """
    w = np.asarray(eigenvalues, dtype=np.float64)
    if w.ndim != 1 or w.size == 0:
        raise ValueError(f"`eigenvalues` must be a non-empty 1-D array, got shape {w.shape}")
    scale = np.abs(w).max()
    tol = w.size * np.finfo(np.float64).eps * scale
    negative = w < -tol
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
    sizes : sequence of int
        Submatrix sizes ``|S|``, each in ``[1, n]``.
    n_draws : int, default=10
        Independent uniform draws of ``S`` per size.
    random_state : int, RandomState or None

    Returns
    -------
    table : DataFrame
        One row per draw: ``size``, ``draw``, ``lambda_min``, ``min_abs_eig``
        (the eigenvalue closest to zero, what ``pinv`` inverts) and
        ``condition`` (``max|lambda| / min|lambda|``).
    """
    K = np.asarray(K, dtype=np.float64)
    n = K.shape[0]
    rng = check_random_state(random_state)
    rows = []
    for size in sizes:
        if not 1 <= int(size) <= n:
            raise ValueError(f"`sizes` entries must be in [1, n = {n}], got {size}")
        for draw in range(n_draws):
            S = rng.choice(n, int(size), replace=False)
            w = scipy.linalg.eigvalsh(K[np.ix_(S, S)])
            smallest = np.abs(w).min()
            rows.append({"size": int(size), "draw": draw, "lambda_min": float(w[0]),
                         "min_abs_eig": float(smallest),
                         "condition": float(np.abs(w).max() / smallest) if smallest > 0 else np.inf})
    return pd.DataFrame(rows)
