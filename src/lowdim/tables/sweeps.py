"""The table of a parameter sweep: one row per swept value, one column per dataset and method."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..methods import method_label

__all__ = ["sweep_caption", "sweep_table"]


def _cell(score: float, spread: float, digits: int) -> str:
    if not np.isfinite(score):
        return "–"
    text = f"{score:.{digits}f}"
    return f"{text} ± {spread:.{digits}f}" if np.isfinite(spread) else text


def sweep_caption(tidy: pd.DataFrame, caption: str) -> str:
    """Append what a cell is to ``caption`` (``Cells: mean ± 2 sd over 4 folds.``).

    Examples
    --------
    >>> from lowdim.tables.sweeps import sweep_caption
    >>> tidy = pd.DataFrame({"score": [0.97, 0.99], "summary": "mean ± 2 sd over 4 folds"})
    >>> sweep_caption(tidy, "kNN accuracy against the number of neighbours.")
    'kNN accuracy against the number of neighbours. Cells: mean ± 2 sd over 4 folds.'
    """
    return f"{caption} Cells: {tidy['summary'].iloc[0]}."


def sweep_table(tidy: pd.DataFrame, higher_is_better: bool = True,
                digits: int = 4) -> pd.DataFrame:
    """Scores against the swept value; the best score of each column is in bold (the
    highest, or the lowest for a metric where lower is better, such as ``error``).

    Parameters
    ----------
    tidy : DataFrame
        :func:`lowdim.sweeps.sweep_tidy` output, one sweep.
    higher_is_better : bool, default=True
        Whether the highest score is the best (the sweep's
        ``lowdim.sweeps.Metric.higher_is_better``).
    digits : int, default=4

    Returns
    -------
    DataFrame
        A ``<key>`` column with the values in sweep order, then one
        ``<dataset>: <method label>`` column per dataset and method.

    Examples
    --------
    >>> from lowdim.tables.sweeps import sweep_table
    >>> print(sweep_table(reg_sweep, digits=2).to_string(index=False))
    cca.reg digits_halves: AppGrad digits_halves: Stochastic AppGrad
      0.001                   0.97                              0.95
       0.01               **0.99**                          **0.96**
    """
    key = tidy["key"].iloc[0]
    values = tidy.drop_duplicates("order").sort_values("order", kind="stable")
    table = pd.DataFrame({key: values["value"].to_numpy()})
    for (dataset, method), rows in tidy.groupby(["dataset", "method"], sort=False):
        # aligned on the values' order, not on row positions: a value with no rows at all
        # (no score kept) has no table row, and the values after it stay on their own rows
        rows = rows.set_index("order").reindex(values["order"])
        cells = [_cell(s, e, digits) for s, e in zip(rows["score"], rows["spread"])]
        scores = rows["score"].to_numpy(dtype=float)
        if np.isfinite(scores).any() and len(table) > 1:
            best = int(np.nanargmax(scores) if higher_is_better else np.nanargmin(scores))
            cells[best] = f"**{cells[best]}**"
        table[f"{dataset}: {method_label(method)}"] = cells
    return table
