"""The embedding part's choices from its scores: Figure 4's and Table 3's settings, t-tests.

Kept apart from :mod:`lowdim.embedding.experiments` (which re-exports them) so that the
job making these tidy files loads pandas and SciPy's statistics, not the estimators.
"""

from __future__ import annotations

import pandas as pd

from ..evaluate.stats import ttests_against

__all__ = ["select_best", "significance_tests"]


def select_best(scores: pd.DataFrame):
    """The chosen setting per (dataset, method), for Figure 4 and Table 3.

    Parameters
    ----------
    scores : DataFrame
        :func:`~lowdim.embedding.experiments.score_sweep` rows with ``dataset`` and
        ``method`` columns added.

    Returns
    -------
    classification : DataFrame
        The "accuracy_selected" fold rows (``dataset, method, setting, fold,
        accuracy, best_k``): setting and k chosen inside each outer fold.
    clustering : DataFrame
        One row per (dataset, method): ``setting``, ``gamma`` and ``ari`` of the
        highest ARI over settings and gammas (the paper's protocol).
    """
    scores = scores.reset_index(drop=True)
    acc = scores[scores["metric"] == "accuracy_selected"]
    classification = acc.rename(columns={"value": "accuracy"})[
        ["dataset", "method", "setting", "fold", "accuracy", "best_k"]]
    ari = scores[(scores["metric"] == "ari") & scores["value"].notna()]
    top = ari.loc[ari.groupby(["dataset", "method"], sort=False)["value"].idxmax()]
    clustering = top.rename(columns={"value": "ari"})[["dataset", "method", "setting", "gamma",
                                                       "ari"]]
    return classification.reset_index(drop=True), clustering.reset_index(drop=True)


def significance_tests(classification, clustering, reference="vec2vec", alpha=0.1):
    """Paired t-tests of ``reference`` against each method across datasets.

    Returns
    -------
    DataFrame
        Rows (task, method, t, p, H, alpha, n_pairs, mean_difference, reason) for task
        "classification" (mean accuracy per dataset) and "clustering" (best ARI); ``reason``
        says why a test was not computed (its t, p and H are NaN), else is empty.
    """
    tables = []
    mean_accuracy = classification.groupby(["dataset", "method"])["accuracy"].mean().unstack()
    best_ari = clustering.set_index(["dataset", "method"])["ari"].unstack()
    for task, scores in (("classification", mean_accuracy), ("clustering", best_ari)):
        if reference not in scores.columns:
            continue
        table = ttests_against(scores, reference=reference, alpha=alpha)
        tables.append(table.assign(task=task, alpha=alpha))
    columns = ["task", "method", "t", "p", "H", "alpha", "n_pairs", "mean_difference", "reason"]
    if not tables:
        return pd.DataFrame(columns=columns)
    return pd.concat(tables, ignore_index=True)[columns]
