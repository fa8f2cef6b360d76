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

    Examples
    --------
    >>> from lowdim.embedding.selection import select_best
    >>> scores = pd.DataFrame({
    ...     "dataset": "toy", "method": "isomap",
    ...     "setting": ["n_neighbors=5", "n_neighbors=5", "n_neighbors=5", "n_neighbors=10"],
    ...     "metric": ["accuracy_selected", "accuracy_selected", "ari", "ari"],
    ...     "fold": [0, 1, None, None], "gamma": [None, None, 0.1, 0.1],
    ...     "value": [0.9, 0.8, 0.5, 0.7], "best_k": [3, 5, None, None]})
    >>> classification, clustering = select_best(scores)
    >>> classification[["setting", "fold", "accuracy"]].to_numpy().tolist()
    [['n_neighbors=5', 0.0, 0.9], ['n_neighbors=5', 1.0, 0.8]]
    >>> clustering[["setting", "gamma", "ari"]].to_numpy().tolist()
    [['n_neighbors=10', 0.1, 0.7]]
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

    Parameters
    ----------
    classification : DataFrame
        Selected kNN accuracies, one row per dataset, method and fold
        (:func:`select_best`).
    clustering : DataFrame
        Selected ARIs, one row per dataset and method.
    reference : str, default="vec2vec"
        The method tested against the others.
    alpha : float, default=0.1
        Significance level of the tests (the paper's).

    Returns
    -------
    tests : DataFrame
        Rows (task, method, t, p, H, alpha, n_pairs, mean_difference, reason) for task
        "classification" (mean accuracy per dataset) and "clustering" (best ARI); ``reason``
        says why a test was not computed (its t, p and H are NaN), else is empty.

    Examples
    --------
    >>> from lowdim.embedding.selection import significance_tests
    >>> classification = pd.DataFrame({
    ...     "dataset": ["a", "a", "b", "b", "c", "c"] * 2,
    ...     "method": ["vec2vec"] * 6 + ["pca"] * 6, "fold": [0, 1] * 6,
    ...     "accuracy": [0.9, 0.92, 0.8, 0.82, 0.7, 0.74, 0.85, 0.87, 0.76, 0.78, 0.69, 0.71]})
    >>> clustering = pd.DataFrame({"dataset": ["a", "b", "c"] * 2,
    ...                            "method": ["vec2vec"] * 3 + ["pca"] * 3,
    ...                            "ari": [0.7, 0.6, 0.5, 0.6, 0.55, 0.5]})
    >>> tests = significance_tests(classification, clustering)
    >>> tests[["task", "method", "n_pairs", "H"]].to_numpy().tolist()
    [['classification', 'pca', 3, 1], ['clustering', 'pca', 3, 0]]
    >>> tests.p.round(3).tolist()
    [0.053, 0.225]
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
