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

    Examples
    --------
    >>> import pandas as pd
    >>> from lowdim.tables.select import rows_nearest
    >>> table = pd.DataFrame({"s/n": [0.05, 0.098, 0.098, 0.2], "error": [0.9, 0.5, 0.6, 0.3]})
    >>> closest, rows = rows_nearest(table, "s/n", 0.1)
    >>> closest, rows.error.tolist()
    (0.098, [0.5, 0.6])
    """
    values = table[column].to_numpy(dtype=float)
    closest = float(values[np.argmin(np.abs(values - target))])
    return closest, table[np.isclose(values, closest)]
