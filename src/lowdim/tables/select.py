"""Row selections shared by the tables and the report summary."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["best_rank_rows", "rows_nearest"]


def rows_nearest(table: pd.DataFrame, column: str, target: float):
    """The rows whose ``column`` holds the value closest to ``target``.

    Returns
    -------
    closest : float
        That value (one that was run, e.g. the sample fraction nearest 0.1).
    rows : DataFrame
        Every row with it.

    Examples
    --------
    >>> from lowdim.tables.select import rows_nearest
    >>> table = pd.DataFrame({"s/n": [0.05, 0.098, 0.098, 0.2], "error": [0.9, 0.5, 0.6, 0.3]})
    >>> closest, rows = rows_nearest(table, "s/n", 0.1)
    >>> closest, rows.error.tolist()
    (0.098, [0.5, 0.6])
    """
    values = table[column].to_numpy(dtype=float)
    closest = float(values[np.argmin(np.abs(values - target))])
    return closest, table[np.isclose(values, closest)]


def best_rank_rows(rows, max_rank) -> pd.DataFrame:
    """Per method and split, the row of the best rank ``<= max_rank`` by CV accuracy.

    Ties go to the smaller rank. Only training data informs the choice.

    Parameters
    ----------
    rows : DataFrame
        Tidy rows of :func:`lowdim.tasks.wmd_classification.classify_documents` (any
        number of corpora and methods).
    max_rank : int

    Returns
    -------
    chosen : DataFrame
        One row per (corpus, method, split) that has a rank ``<= max_rank``.

    Examples
    --------
    >>> from lowdim.tables.select import best_rank_rows
    >>> rows = pd.DataFrame({"corpus": "toy", "method": "nystrom", "split": [0, 0, 0],
    ...                      "rank": [16, 64, 256], "cv_accuracy": [0.7, 0.8, 0.9],
    ...                      "test_accuracy": [0.68, 0.79, 0.91]})
    >>> best_rank_rows(rows, max_rank=100)[["rank", "test_accuracy"]].to_numpy().tolist()
    [[64.0, 0.79]]
    """
    keys = [k for k in ("corpus", "method", "split") if k in rows.columns]
    within = rows[(rows["rank"] <= max_rank) | (rows["method"] == "wmd_kernel")]
    ordered = within.sort_values(keys + ["cv_accuracy", "rank"],
                                 ascending=[True] * len(keys) + [False, True], kind="stable")
    return ordered.groupby(keys, sort=False).head(1).reset_index(drop=True)
