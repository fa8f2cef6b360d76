"""Row selections shared by the tables and the report summary."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["rows_nearest"]


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
