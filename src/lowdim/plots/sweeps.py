"""The figure of a parameter sweep: the chosen metric against the swept value, per method."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .style import fit_layout, legend_below, method_style, panel_grid, suptitle_fitted, use_style

__all__ = ["error_bars", "sweep_figure"]


def error_bars(tidy: pd.DataFrame) -> str:
    """What the error bars of a sweep's figure show (``error bars: mean ± 2 sd over 4
    folds``), or that there are none and what one point is, from its tidy table.

    Examples
    --------
    >>> from lowdim.plots.sweeps import error_bars
    >>> error_bars(pd.DataFrame({"spread": [0.01, 0.02], "summary": "mean ± 2 sd over 4 folds"}))
    'error bars: mean ± 2 sd over 4 folds'
    """
    summary = tidy["summary"].iloc[0]  # one per sweep (lowdim.sweeps.sweep_tidy)
    has_bars = np.isfinite(tidy["spread"].to_numpy(dtype=float)).any()
    return f"{'error bars' if has_bars else 'no error bars'}: {summary}"


def _positions(tidy: pd.DataFrame):
    """x positions and tick labels: the values themselves when all are numbers (on a log
    axis when positive and spread over a decade or more), else their order."""
    values = tidy.drop_duplicates("order").sort_values("order", kind="stable")
    numbers = values["numeric_value"].to_numpy(dtype=float)
    labels = values["value"].astype(str).tolist()
    if np.isfinite(numbers).all() and len(set(numbers)) == len(numbers):
        log = bool((numbers > 0).all() and numbers.max() >= 10 * numbers.min())
        return dict(zip(values["order"], numbers)), numbers, labels, log
    order = values["order"].to_numpy(dtype=float)
    return dict(zip(values["order"], order)), order, labels, False


def sweep_figure(tidy: pd.DataFrame, label: str = "", profile: str = "", ncols: int = 3):
    """One panel per dataset (or matrix): ``score`` against the swept value, one line per
    method, with error bars where the tidy table has a ``spread`` (2 std over folds). The
    y axis says what the error bars show, or that there are none (``error_bars``).

    Parameters
    ----------
    tidy : DataFrame
        :func:`lowdim.sweeps.sweep_tidy` output, one sweep.
    label : str
        The metric, for the y axis (with its unit).
    profile : str
        Shown in the title.
    ncols : int, default=3

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.plots.sweeps import sweep_figure
    >>> fig = sweep_figure(reg_sweep, label="in-sample PCC")
    >>> print(fig.axes[0].get_xlabel()); print(fig.axes[0].get_ylabel())
    cca.reg
    in-sample PCC
    (no error bars: the mean of 1 seeded run per value (cca.n_seeds; ± 2 sd with several))
    >>> plt.close(fig)
    """
    use_style()
    x_of, ticks, tick_labels, log = _positions(tidy)
    datasets = list(dict.fromkeys(tidy["dataset"]))
    fig, axes = panel_grid(len(datasets), ncols, 3.4, 2.8)
    for ax, dataset in zip(axes, datasets):
        part = tidy[tidy["dataset"] == dataset].sort_values("order", kind="stable")
        for method, rows in part.groupby("method", sort=False):
            x = rows["order"].map(x_of).to_numpy()
            spread = rows["spread"].to_numpy(dtype=float)
            ax.errorbar(x, rows["score"], yerr=spread if np.isfinite(spread).any() else None,
                        linestyle="-", capsize=2, **method_style(method))
        if log:
            ax.set_xscale("log")
        ax.set_xticks(ticks, tick_labels, rotation=30 if max(map(len, tick_labels)) > 6 else 0)
        ax.minorticks_off()
        ax.set_xlabel(tidy["key"].iloc[0])
        ax.set_ylabel(f"{label or tidy['metric'].iloc[0]}\n({error_bars(tidy)})",
                      fontsize="small")
        ax.set_title(dataset)
    handles = {}
    for ax in axes:
        for handle, name in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(name, handle)
    bottom = legend_below(fig, list(handles.values()), list(handles), max_cols=5)
    top = suptitle_fitted(fig, f"sweep {tidy['sweep'].iloc[0]}" + (f" ({profile})" if profile else ""))
    fit_layout(fig, bottom, top)
    return fig
