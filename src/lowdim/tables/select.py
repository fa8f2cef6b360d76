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
    """
    keys = [k for k in ("corpus", "method", "split") if k in rows.columns]
    within = rows[(rows["rank"] <= max_rank) | (rows["method"] == "wmd_kernel")]
    ordered = within.sort_values(keys + ["cv_accuracy", "rank"],
                                 ascending=[True] * len(keys) + [False, True], kind="stable")
    return ordered.groupby(keys, sort=False).head(1).reset_index(drop=True)
