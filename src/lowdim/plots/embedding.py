"""Figures of the Vec2vec paper, each drawn from one tidy table.

- :func:`timing_figure` (Figure 3): fit time after a warm-up against number of
  points and against input dimensionality, the median of the repeated fits and their range.
- :func:`accuracy_figure` (Figure 4): kNN accuracy per method and dataset,
  mean with 2 x std error bars.
- :func:`sensitivity_figure` (Figure 5): Vec2vec accuracy against d and topk.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
from matplotlib.transforms import offset_copy

from ..methods import method_label
from .style import (fit_layout, legend_below, method_style, panel_grid,
                    published_label, published_style, suptitle_fitted, use_style)

__all__ = ["timing_figure", "accuracy_figure", "sensitivity_figure"]

_AXIS_LABELS = {"n_samples": "number of points n", "n_features": "input dimensionality D"}
_PARAMETER_LABELS = {"n_components": "target dimensionality d", "topk": "topk neighbours"}


def timing_figure(timing: pd.DataFrame, profile: str = "", max_samples=None):
    """Figure 3: fit time of each method against n and against D, after a warm-up.

    Each point is the median of the fits of its size (``repeat``), the band around the
    line their range (drawn where the fits differ).

    Parameters
    ----------
    timing : DataFrame
        Columns ``axis`` ("n_samples" or "n_features"), ``value``, ``method``,
        ``fit_seconds`` (wall seconds of one fit after the warm-up) and
        ``compile_seconds`` (the job's one-off compilation, shown in the legend);
        ``repeat`` (the fits of a size), if present, is counted in the axis label, and
        ``n_jobs`` (threads of the fits) shown in the title.
    profile : str
        Shown in the title.
    max_samples : dict, optional
        method -> largest n it was timed at; shown in its legend entry.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.embedding.timing import timing_sweep
    >>> from lowdim.plots.embedding import timing_figure
    >>> runs = [timing_sweep(axis, values, "pca", fixed=fixed, n_components=2, n_neighbors=5,
    ...                      warmup_samples=50)
    ...         for axis, values, fixed in (("n_samples", [100, 200], 16),
    ...                                     ("n_features", [100, 1000], 100))]
    >>> fig = timing_figure(pd.DataFrame([r for run in runs for r in run]), profile="offline")
    >>> [ax.get_xlabel() for ax in fig.axes if ax.get_xlabel()]
    ['number of points n', 'input dimensionality D']
    >>> plt.close(fig)
    """
    use_style()
    max_samples = max_samples or {}
    axes_names = [a for a in ("n_samples", "n_features") if a in set(timing["axis"])]
    fig, axes = panel_grid(len(axes_names), len(axes_names), 3.6, 3.4)
    for ax, axis in zip(axes, axes_names):
        part = timing[timing["axis"] == axis]
        for method, rows in part.groupby("method", sort=False):
            style = method_style(method)
            style["label"] = _timing_label(style["label"], rows, max_samples.get(method))
            fits = rows.groupby("value")["fit_seconds"].agg(["median", "min", "max"])
            fits = fits.sort_index()
            ax.plot(fits.index, fits["median"], linestyle="-", **style)
            if (fits["max"] > fits["min"]).any():
                ax.fill_between(fits.index, fits["min"], fits["max"], color=style["color"],
                                alpha=0.15, linewidth=0)
        _log_axes(ax, sorted(part["value"].unique()), part["fit_seconds"])
        ax.set_xlabel(_AXIS_LABELS.get(axis, axis))
        ax.set_ylabel(f"fit wall time after warm-up (s){_median_of(part)}")
        fixed = part["fixed"].iloc[0] if "fixed" in part and len(part) else ""
        ax.set_title(f"({'ab'[axes_names.index(axis)]}) {fixed}".strip())
        # Below the panel (0.5 in under it: past the tick and axis labels): the legend
        # names each job's compilation time, so it is long.
        ax.legend(frameon=False, loc="upper center", ncol=2, fontsize=6,
                  bbox_to_anchor=(0.5, 0.0),
                  bbox_transform=offset_copy(ax.transAxes, fig, y=-0.5, units="inches"),
                  title="method (one-off compilation)", title_fontsize=6)
    fig.set_size_inches(fig.get_size_inches() + (0.0, 0.13 * len(set(timing["method"]))))
    threads = sorted(set(timing["n_jobs"])) if "n_jobs" in timing else []
    run = ", ".join(([f"{profile} profile"] if profile else [])
                    + ([f"{'/'.join(map(str, threads))} thread(s)"] if threads else []))
    top = suptitle_fitted(fig, f"Vec2vec Figure 3, timing ({run})") if run else 0.0
    fit_layout(fig, top=top)
    return fig


def _spaced_labels(values, most: int = 5) -> list[str]:
    """Tick labels of ``values`` (a log axis), empty where a label would crowd the one before:
    labelled values are at least 1/``most`` of the axis' decades apart."""
    logs = np.log10(np.asarray(values, dtype=float))
    gap = 0.9 * (logs[-1] - logs[0]) / most if len(logs) > 1 else 0.0
    labels, last = [], -np.inf
    for value, log in zip(values, logs):
        shown = log - last >= gap
        labels.append(f"{value:,}" if shown else "")
        last = log if shown else last
    return labels


def _log_axes(ax, values, seconds):
    """Log axes with the values run as x ticks and 1-2-5 (or per-decade) second ticks."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(values, _spaced_labels(values))
    ax.xaxis.set_minor_formatter(NullFormatter())
    positive = seconds[seconds > 0]
    decades = np.log10(positive.max() / positive.min()) if len(positive) else 0.0
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2.5
                                          else (1.0,)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _median_of(part):
    """``, median of r fits`` when every size was fitted r > 1 times, else nothing."""
    if "repeat" not in part:
        return ""
    counts = part.groupby(["method", "value"]).size().unique()
    return f", median of {counts[0]} fits" if len(counts) == 1 and counts[0] > 1 else ""


def _timing_label(label, rows, cap):
    """Legend entry: the method, its one-off compilation time and its cap on n."""
    compile_seconds = rows["compile_seconds"].mean() if "compile_seconds" in rows else np.nan
    notes = [] if np.isnan(compile_seconds) else [f"{compile_seconds:.1f} s"]
    if cap is not None:
        notes.append(f"n ≤ {int(cap):,}")
    return f"{label} ({', '.join(notes)})" if notes else label


def accuracy_figure(classification: pd.DataFrame, profile: str = "", methods=None,
                    published: pd.DataFrame | None = None):
    """Figure 4: kNN accuracy per method, one panel of horizontal bars per dataset.

    Methods share one order and one axis of names down each row of panels; panels
    grow with the number of methods, rows with the number of datasets.

    Parameters
    ----------
    classification : DataFrame
        Fold rows with columns ``dataset``, ``method``, ``accuracy`` (fraction).
        Bars show the mean over folds, error bars 2 x std (ddof=0).
    profile : str
    methods : list of str, optional
        Order of the bars, top to bottom; default: order of appearance.
    published : DataFrame, optional
        Published accuracies (:func:`lowdim.report.published.figure_points`):
        ``dataset``, ``method``, ``published`` (fraction), ``comparable``; a hollow
        marker on each bar that has one.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.plots.embedding import accuracy_figure
    >>> folds = pd.DataFrame({"dataset": "digits", "method": ["vec2vec"] * 2 + ["pca"] * 2,
    ...                       "fold": [0, 1, 0, 1], "accuracy": [0.98, 0.96, 0.95, 0.93]})
    >>> fig = accuracy_figure(folds, profile="offline")
    >>> ax = fig.axes[0]
    >>> len(fig.axes), "kNN accuracy" in ax.get_xlabel() + ax.get_ylabel()
    (1, True)
    >>> plt.close(fig)
    """
    use_style()
    datasets = list(dict.fromkeys(classification["dataset"]))
    methods = list(methods or dict.fromkeys(classification["method"]))
    stats = classification.groupby(["dataset", "method"])["accuracy"].agg(
        mean="mean", two_std=lambda a: 2.0 * np.std(a))
    points = _points_by_bar(published)
    ncols = min(len(datasets), 3)
    labels = [method_label(m) for m in methods]
    fig, axes = panel_grid(len(datasets), ncols, 2.3, 1.0 + 0.24 * len(methods), sharey=True)
    # room for the method names left of the first column (about 0.065 in a character)
    fig.set_size_inches(fig.get_size_inches() + (0.3 + 0.065 * max(map(len, labels)), 0.0))
    for ax, dataset in zip(axes, datasets):
        _accuracy_panel(ax, dataset, methods, stats, points)
    axes[0].set_yticks(range(len(methods)), labels)
    axes[0].invert_yaxis()  # the first method on top (the axes share y)
    for ax in axes[max(0, len(datasets) - ncols):len(datasets)]:  # the lowest of each column
        ax.set_xlabel("kNN accuracy (fraction)")
    bottom = 0.0
    if points:
        comparable = next(iter(points.values()))[1]
        handle = Line2D([], [], **published_style(comparable))
        bottom = legend_below(fig, [handle], [published_label(comparable)], max_cols=1)
    top = 0.0
    if profile:
        top = suptitle_fitted(fig, "Vec2vec Figure 4, kNN accuracy, mean ± 2 std over 4 folds "
                                   f"({profile} profile)")
    fit_layout(fig, bottom, top)
    return fig


def _points_by_bar(published) -> dict:
    """{(dataset, method): (published accuracy, comparable)} of a published-points frame."""
    if published is None or published.empty:
        return {}
    return {(row.dataset, row.method): (float(row.published), bool(row.comparable))
            for row in published.itertuples()}


def _accuracy_panel(ax, dataset, methods, stats, points):
    """One dataset's horizontal bars (methods not run are left empty), published markers."""
    shown = [(i, m) for i, m in enumerate(methods) if (dataset, m) in stats.index]
    means = np.array([stats.loc[(dataset, m), "mean"] for _, m in shown])
    errors = np.array([stats.loc[(dataset, m), "two_std"] for _, m in shown])
    ax.barh([i for i, _ in shown], means, xerr=errors, height=0.7,
            color=[method_style(m)["color"] for _, m in shown], capsize=2,
            error_kw={"elinewidth": 0.8, "ecolor": "0.45"})
    marks = [(i, *points[(dataset, m)]) for i, m in enumerate(methods) if (dataset, m) in points]
    for i, value, comparable in marks:
        ax.plot([value], [i], **published_style(comparable))
    values = [*(means - errors), *(means + errors), *(value for _, value, _ in marks)]
    if values:
        ax.set_xlim(max(0.0, min(values) - 0.05), min(1.0, max(values) + 0.03))
    ax.set_title(dataset)
    ax.grid(axis="y", visible=False)


def sensitivity_figure(sensitivity: pd.DataFrame, profile: str = ""):
    """Figure 5: Vec2vec kNN accuracy against each varied parameter.

    Parameters
    ----------
    sensitivity : DataFrame
        Fold rows with columns ``dataset``, ``parameter``, ``value``, ``accuracy``;
        points are means over folds, error bars 2 x std.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.plots.embedding import sensitivity_figure
    >>> rows = pd.DataFrame({"dataset": "digits", "parameter": ["n_components"] * 4 + ["topk"] * 4,
    ...                      "value": [2, 2, 10, 10, 5, 5, 10, 10], "fold": [0, 1] * 4,
    ...                      "accuracy": [0.7, 0.72, 0.97, 0.96, 0.95, 0.96, 0.97, 0.97]})
    >>> fig = sensitivity_figure(rows)
    >>> sorted(ax.get_xlabel() for ax in fig.axes if ax.get_xlabel())
    ['target dimensionality d', 'topk neighbours']
    >>> plt.close(fig)
    """
    use_style()
    parameters = list(dict.fromkeys(sensitivity["parameter"]))
    fig, axes = panel_grid(len(parameters), len(parameters), 3.3, 2.8)
    for ax, parameter in zip(axes, parameters):
        part = sensitivity[sensitivity["parameter"] == parameter]
        for i, (dataset, rows) in enumerate(part.groupby("dataset", sort=False)):
            stats = rows.groupby("value")["accuracy"].agg(
                mean="mean", two_std=lambda a: 2.0 * np.std(a)).sort_index()
            ax.errorbar(stats.index, stats["mean"], yerr=stats["two_std"],
                        marker="os^Dv"[i % 5], capsize=2, label=dataset)
        ax.set_xlabel(_PARAMETER_LABELS.get(parameter, parameter))
        ax.set_ylabel("kNN accuracy (fraction)")
        ax.legend(frameon=False)
    top = suptitle_fitted(fig, f"Vec2vec Figure 5, sensitivity ({profile} profile)") if profile else 0.0
    fit_layout(fig, top=top)
    return fig
