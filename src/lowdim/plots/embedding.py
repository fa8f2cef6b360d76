"""Figures of the Vec2vec paper, each drawn from one tidy table.

- :func:`timing_figure` (Figure 3): fit time after a warm-up against number of
  points and against input dimensionality.
- :func:`accuracy_figure` (Figure 4): kNN accuracy per method and dataset,
  mean with 2 x std error bars.
- :func:`sensitivity_figure` (Figure 5): Vec2vec accuracy against d and topk.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from .style import method_label, method_style, panel_grid, use_style

__all__ = ["timing_figure", "accuracy_figure", "sensitivity_figure"]

_AXIS_LABELS = {"n_samples": "number of points n", "n_features": "input dimensionality D"}
_PARAMETER_LABELS = {"n_components": "target dimensionality d", "topk": "topk neighbours"}


def timing_figure(timing: pd.DataFrame, profile: str = "", max_samples=None):
    """Figure 3: fit time of each method against n and against D, after a warm-up.

    Parameters
    ----------
    timing : DataFrame
        Columns ``axis`` ("n_samples" or "n_features"), ``value``, ``method``,
        ``fit_seconds`` (wall seconds of the fit after the warm-up) and
        ``compile_seconds`` (the job's one-off compilation, shown in the legend).
    profile : str
        Shown in the title.
    max_samples : dict, optional
        method -> largest n it was timed at; shown in its legend entry.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
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
            rows = rows.groupby("value")["fit_seconds"].mean().sort_index()
            ax.plot(rows.index, rows.values, linestyle="-", **style)
        ax.set_xscale("log")
        ax.set_yscale("log")
        values = sorted(part["value"].unique())
        ax.set_xticks(values, [f"{v:,}" for v in values])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(_AXIS_LABELS.get(axis, axis))
        ax.set_ylabel("fit wall time after warm-up (s)")
        fixed = part["fixed"].iloc[0] if "fixed" in part and len(part) else ""
        ax.set_title(f"({'ab'[axes_names.index(axis)]}) {fixed}".strip())
        # Below the panel: the legend names each job's compilation time, so it is long.
        ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2,
                  fontsize=6, title="method (one-off compilation)", title_fontsize=6)
    if profile:
        fig.suptitle(f"Vec2vec Figure 3, timing ({profile} profile)", fontsize=9)
    fig.tight_layout()
    return fig


def _timing_label(label, rows, cap):
    """Legend entry: the method, its one-off compilation time and its cap on n."""
    compile_seconds = rows["compile_seconds"].mean() if "compile_seconds" in rows else np.nan
    notes = [] if np.isnan(compile_seconds) else [f"{compile_seconds:.1f} s"]
    if cap is not None:
        notes.append(f"n ≤ {int(cap):,}")
    return f"{label} ({', '.join(notes)})" if notes else label


def accuracy_figure(classification: pd.DataFrame, profile: str = "", methods=None):
    """Figure 4: kNN accuracy per method, one panel per dataset.

    Parameters
    ----------
    classification : DataFrame
        Fold rows with columns ``dataset``, ``method``, ``accuracy`` (fraction).
        Bars show the mean over folds, error bars 2 x std (ddof=0).
    profile : str
    methods : list of str, optional
        Order of the bars; default: order of appearance.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> from lowdim.plots.embedding import accuracy_figure
    >>> folds = pd.DataFrame({"dataset": "digits", "method": ["vec2vec"] * 2 + ["pca"] * 2,
    ...                       "fold": [0, 1, 0, 1], "accuracy": [0.98, 0.96, 0.95, 0.93]})
    >>> fig = accuracy_figure(folds, profile="offline")
    >>> len(fig.axes), fig.axes[0].get_ylabel()
    (1, 'kNN accuracy (fraction)')
    >>> plt.close(fig)
    """
    use_style()
    datasets = list(dict.fromkeys(classification["dataset"]))
    methods = methods or list(dict.fromkeys(classification["method"]))
    fig, axes = panel_grid(len(datasets), 4, 2.6, 2.4)
    stats = classification.groupby(["dataset", "method"])["accuracy"].agg(
        mean="mean", two_std=lambda a: 2.0 * np.std(a))
    for ax, dataset in zip(axes, datasets):
        present = [m for m in methods if (dataset, m) in stats.index]
        means = [stats.loc[(dataset, m), "mean"] for m in present]
        errors = [stats.loc[(dataset, m), "two_std"] for m in present]
        colors = [method_style(m)["color"] for m in present]
        ax.bar(range(len(present)), means, yerr=errors, color=colors, capsize=3,
               error_kw={"elinewidth": 0.8, "ecolor": "0.55"})
        ax.set_xticks(range(len(present)), [method_label(m) for m in present],
                      rotation=45, ha="right")
        low = max(0.0, min(np.subtract(means, errors)) - 0.05) if means else 0.0
        ax.set_ylim(low, min(1.0, max(np.add(means, errors)) + 0.03) if means else 1.0)
        ax.set_title(dataset)
        ax.set_ylabel("kNN accuracy (fraction)")
    if profile:
        fig.suptitle(f"Vec2vec Figure 4, kNN accuracy, mean ± 2 std over 4 folds "
                     f"({profile} profile)", fontsize=9)
    fig.tight_layout()
    return fig


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
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
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
    if profile:
        fig.suptitle(f"Vec2vec Figure 5, sensitivity ({profile} profile)", fontsize=9)
    fig.tight_layout()
    return fig
