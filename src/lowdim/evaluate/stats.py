"""Paired significance tests between methods across datasets (Vec2vec paper).

The paper assumes Gaussian scores and runs Student's paired t-test of Vec2vec
against each method over the datasets, reporting H (1 = significant at level
alpha) and the two-sided p-value, with alpha = 0.1. A test that cannot be computed (fewer
than 2 datasets, or the same difference on every one) has NaN t, p and H and says why.
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
        ``t``, ``p``, ``H`` (1 if p < alpha, else 0), ``n_pairs``,
        ``mean_difference`` (mean of a - b) and ``reason``: empty when the test
        was computed; otherwise why not (fewer than 2 pairs, or differences
        that are all equal, so with zero variance), and ``t``, ``p`` and ``H``
        are NaN: a test that was not run is neither significant nor not.

    Examples
    --------
    >>> from lowdim.evaluate.stats import paired_ttest
    >>> result = paired_ttest([0.90, 0.80, 0.75, 0.95], [0.85, 0.78, 0.70, 0.93])
    >>> round(result["t"], 3), round(result["p"], 4), result["H"], result["n_pairs"]
    (4.041, 0.0273, 1, 4)
    >>> result = paired_ttest([0.9], [0.8])
    >>> result["p"], result["H"], result["reason"]
    (nan, nan, 'not computed: 1 pair(s); a paired t-test needs at least 2')
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ArgumentValueError(f"`a` and `b` must be 1-d of equal length, got {a.shape} and "
                                 f"{b.shape}", ("a", "b"))
    if not 0 < alpha < 1:
        raise ArgumentValueError(f"`alpha` must be in (0, 1), got {alpha}", "alpha")
    diff = a - b
    result = {"t": np.nan, "p": np.nan, "H": np.nan, "n_pairs": int(a.size),
              "mean_difference": float(diff.mean()) if a.size else np.nan,
              "reason": _not_computed(diff)}
    if result["reason"]:
        return result
    test = stats.ttest_rel(a, b)
    t, p = float(test.statistic), float(test.pvalue)
    if not np.isfinite(p):
        result["reason"] = f"not computed: scipy's t-test gave p = {p} (t = {t})"
        return result
    return {**result, "t": t, "p": p, "H": int(p < alpha)}


def _not_computed(diff) -> str:
    """Why a paired t-test of differences ``diff`` cannot be computed ('' if it can)."""
    if diff.size < 2:
        return f"not computed: {diff.size} pair(s); a paired t-test needs at least 2"
    if not np.isfinite(diff).all():
        return "not computed: a difference is not finite"
    if np.allclose(diff, diff[0]):
        return (f"not computed: all {diff.size} differences equal {diff[0]:.4g}, so their "
                f"variance is zero")
    return ""


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
        Significance level of each test.

    Returns
    -------
    DataFrame
        One row per other method: ``method``, ``t``, ``p``, ``H``, ``n_pairs``,
        ``mean_difference`` (reference minus method), ``reason`` (why a test was not
        computed, else empty; see :func:`paired_ttest`).

    Examples
    --------
    >>> from lowdim.evaluate.stats import ttests_against
    >>> scores = pd.DataFrame({"vec2vec": [0.90, 0.80, 0.75], "pca": [0.85, 0.78, 0.70],
    ...                        "umap": [0.91, 0.82, 0.74], "lle": [0.80, 0.70, 0.65]},
    ...                       index=["a", "b", "c"])
    >>> tests = ttests_against(scores)
    >>> tests.drop(columns="reason").round(3)
      method      t      p    H  n_pairs  mean_difference
    0    pca  4.000  0.057  1.0        3            0.040
    1   umap -0.756  0.529  0.0        3           -0.007
    2    lle    NaN    NaN  NaN        3            0.100
    >>> tests.loc[2, "reason"]
    'not computed: all 3 differences equal 0.1, so their variance is zero'
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
    return pd.DataFrame(rows, columns=["method", "t", "p", "H", "n_pairs", "mean_difference",
                                       "reason"])
