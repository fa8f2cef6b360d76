"""Paired significance tests between methods across datasets (Vec2vec paper).

The paper assumes Gaussian scores and runs Student's paired t-test of Vec2vec
against each method over the datasets, reporting H (1 = significant at level
alpha) and the two-sided p-value, with alpha = 0.1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import ArgumentValueError

__all__ = ["paired_ttest", "ttests_against"]


def paired_ttest(a, b, alpha=0.1) -> dict:
    """Two-sided paired t-test of ``a`` against ``b``.

    Parameters
    ----------
    a, b : array-like of shape (n_pairs,)
        Scores of two methods on the same datasets.
    alpha : float, default=0.1
        Significance level for H.

    Returns
    -------
    dict
        ``t``, ``p`` (NaN with fewer than 2 pairs or zero variance of the
        differences), ``H`` (1 if p < alpha, 0 otherwise, also when p is NaN),
        ``n_pairs`` and ``mean_difference`` (mean of a - b).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ArgumentValueError(f"`a` and `b` must be 1-d of equal length, got {a.shape} and "
                                 f"{b.shape}", ("a", "b"))
    if not 0 < alpha < 1:
        raise ArgumentValueError(f"`alpha` must be in (0, 1), got {alpha}", "alpha")
    diff = a - b
    if a.size < 2 or np.allclose(diff, diff[0]):
        t, p = float("nan"), float("nan")
    else:
        result = stats.ttest_rel(a, b)
        t, p = float(result.statistic), float(result.pvalue)
    return {"t": t, "p": p, "H": int(bool(p < alpha)), "n_pairs": int(a.size),
            "mean_difference": float(diff.mean()) if a.size else float("nan")}


def ttests_against(scores: pd.DataFrame, reference="vec2vec", alpha=0.1) -> pd.DataFrame:
    """Paired t-test of ``reference`` against every other method.

    Parameters
    ----------
    scores : DataFrame
        One row per dataset, one column per method (e.g. mean accuracy).
        Datasets missing a score for either method are left out of that pair.
    reference : str
        Column tested against the others.
    alpha : float

    Returns
    -------
    DataFrame
        One row per other method: ``method``, ``t``, ``p``, ``H``, ``n_pairs``,
        ``mean_difference`` (reference minus method).
    """
    if reference not in scores.columns:
        raise ArgumentValueError(f"`reference` {reference!r} is not a column of `scores` "
                                 f"({list(scores.columns)})", "reference")
    rows = []
    for method in scores.columns:
        if method == reference:
            continue
        pair = scores[[reference, method]].dropna()
        rows.append({"method": method, **paired_ttest(pair[reference], pair[method], alpha)})
    return pd.DataFrame(rows, columns=["method", "t", "p", "H", "n_pairs", "mean_difference"])
