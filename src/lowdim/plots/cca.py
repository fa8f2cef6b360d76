"""Figures 1 and 2 of the AppGrad paper, drawn from tidy CSVs only."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import ArgumentValueError
from .style import (fit_layout, legend_below, method_style, panel_grid, published_label,
                    published_style, use_style)

__all__ = ["figure_pcc", "figure_tcc_flops", "published_flops", "seed_summary"]

_SAMPLES = {"in": ("pcc_in", "-", "in-sample"), "out": ("pcc_out", "--", "out-of-sample")}


def figure_pcc(trace: pd.DataFrame, datasets=None, title_suffix: str = "",
               published: pd.DataFrame | None = None):
    """Figure 1: PCC (%) against log(FLOP), in- and out-of-sample, one panel per dataset.

    A method run with several seeds is drawn as their mean, their range as a band.

    Parameters
    ----------
    trace : DataFrame
        Tidy rows with ``dataset``, ``method`` (appgrad, sappgrad), ``iteration``,
        ``flops``, ``log_flops``, ``pcc_in``, ``pcc_out`` (fractions), and ``seed`` (the
        replicate) when a method ran several times.
    datasets : list of str, optional
        Panel order; defaults to the order of first appearance.
    title_suffix : str
        Appended to each panel title (e.g. the profile).
    published : DataFrame, optional
        Published in-sample PCC (:func:`lowdim.report.published.figure_points`):
        ``dataset``, ``method``, ``iteration``, ``published`` (fraction), ``comparable``.
        Each is a hollow marker at the FLOPs of its iteration (:func:`published_flops`).

    Returns
    -------
    fig : matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.cca.experiments import Views, add_pcc, run_appgrad, run_exact
    >>> from lowdim.plots.cca import figure_pcc
    >>> X, Y = two_views
    >>> views = Views(X[:400], Y[:400], X[400:], Y[400:])
    >>> trace = pd.concat([run_appgrad(views, method=m, n_components=2, reg=0.005, step_size="auto",
    ...                                max_iter=200, checkpoints=[1, 10, 100, 200], batch_size=50)
    ...                    for m in ("appgrad", "sappgrad")]).assign(dataset="toy")
    >>> exact = pd.DataFrame([run_exact(views, n_components=2, reg=0.005)]).assign(dataset="toy")
    >>> fig = figure_pcc(add_pcc(trace, exact))
    >>> [ax.get_xlabel() for ax in fig.axes if ax.get_xlabel()]
    ['log(FLOP) (natural log)']
    >>> plt.close(fig)
    """
    use_style()
    datasets = list(dict.fromkeys(trace["dataset"])) if datasets is None else list(datasets)
    fig, axes = panel_grid(len(datasets), len(datasets), 3.2, 2.6)
    for ax, name in zip(axes, datasets):
        rows = trace[trace["dataset"] == name]
        for method, part in rows.groupby("method", sort=False):
            style = method_style(method)
            for column, linestyle, label in _SAMPLES.values():
                curve = seed_summary(part, ["iteration"], column)
                values = 100.0 * curve["mean"].to_numpy(dtype=float)
                if np.all(np.isnan(values)):
                    continue
                ax.plot(curve["log_flops"], values, linestyle=linestyle, marker=style["marker"],
                        color=style["color"], markersize=3, label=f"{style['label']}, {label}")
                _seed_band(ax, curve, 100.0, style["color"])
        if published is not None and len(published):
            _published_pcc(ax, rows, published[published["dataset"] == name])
        ax.set_title(f"{name}{title_suffix}{_seeds_note(rows)}")
        ax.set_xlabel("log(FLOP) (natural log)")
        ax.set_ylabel("PCC (%)")
    # One legend below the panels, so that no curve is hidden behind it.
    handles = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    fit_layout(fig, bottom=legend_below(fig, list(handles.values()), list(handles), max_cols=4))
    return fig


def seed_summary(rows: pd.DataFrame, by, column: str) -> pd.DataFrame:
    """Mean, least and greatest ``column`` over a method's replicate runs (``seed``), per
    value of ``by``, in order of ``log_flops``.

    Rows without a ``seed`` column are one run. FLOPs do not depend on the seed (a fixed
    count per iteration), so ``log_flops`` is the replicates' mean, their common value.

    Returns
    -------
    DataFrame
        ``by`` columns, ``log_flops``, ``mean``, ``low``, ``high`` and ``n_seeds``.

    Examples
    --------
    >>> from lowdim.plots.cca import seed_summary
    >>> rows = pd.DataFrame({"seed": [0, 0, 1, 1], "iteration": [1, 10, 1, 10],
    ...                      "log_flops": [1.0, 2.0, 1.0, 2.0], "tcc_in": [1.0, 3.0, 2.0, 5.0]})
    >>> seed_summary(rows, ["iteration"], "tcc_in").to_dict("records")
    [{'iteration': 1, 'log_flops': 1.0, 'mean': 1.5, 'low': 1.0, 'high': 2.0, 'n_seeds': 2}, {'iteration': 10, 'log_flops': 2.0, 'mean': 4.0, 'low': 3.0, 'high': 5.0, 'n_seeds': 2}]
    """
    rows = rows if "seed" in rows else rows.assign(seed=0)
    grouped = rows.groupby(list(by), sort=False, dropna=False)
    summary = grouped.agg(log_flops=("log_flops", "mean"), mean=(column, "mean"),
                          low=(column, "min"), high=(column, "max"),
                          n_seeds=("seed", "nunique")).reset_index()
    return summary.sort_values("log_flops", kind="stable").reset_index(drop=True)


def _seeds_note(rows) -> str:
    """A panel title's note of the replicates drawn: their mean, their range shaded."""
    n = rows["seed"].nunique() if "seed" in rows else 1
    return f"\nmean of {n} seeds, range shaded" if n > 1 else ""


def _seed_band(ax, summary, scale, color) -> None:
    """The replicates' range as a band around their mean (nothing for one run)."""
    if len(summary) and summary["n_seeds"].max() > 1:
        ax.fill_between(summary["log_flops"], scale * summary["low"], scale * summary["high"],
                        color=color, alpha=0.2, linewidth=0)


def published_flops(trace: pd.DataFrame, iterations) -> np.ndarray:
    """FLOPs of one method's run at ``iterations``, as its trace counts them.

    The trace's ``flops`` follow the authors' formulas (:mod:`lowdim.cca.flops`), a
    fixed count per iteration; the published iterations may lie beyond the run's.

    Parameters
    ----------
    trace : DataFrame
        One dataset's and method's rows with ``iteration`` and ``flops``.
    iterations : array-like of int

    Returns
    -------
    flops : ndarray of shape (len(iterations),)

    Examples
    --------
    >>> from lowdim.plots.cca import published_flops
    >>> trace = pd.DataFrame({"iteration": [1, 10, 100], "flops": [2e6, 2e7, 2e8]})
    >>> published_flops(trace, [100, 1000])       # a fixed count per iteration, extrapolated
    array([2.e+08, 2.e+09])
    """
    rows = trace[trace["iteration"] > 0]
    per_iteration = (rows["flops"] / rows["iteration"]).to_numpy(dtype=float)
    if per_iteration.size == 0:
        raise ArgumentValueError("`trace` has no checkpoint after iteration 0 to count FLOPs "
                                 "from", "trace")
    if not np.allclose(per_iteration, per_iteration[0], rtol=1e-9):
        raise ArgumentValueError("`trace` counts different FLOPs per iteration "
                                 f"({per_iteration.min():.4g} to {per_iteration.max():.4g}); "
                                 "expected the authors' fixed count per iteration", "trace")
    return per_iteration[0] * np.asarray(iterations, dtype=float)


def _published_pcc(ax, rows, points):
    """Published in-sample PCC of one dataset: each method's hollow marker at its FLOPs."""
    for method, part in points.groupby("method", sort=False):
        run = rows[rows["method"] == method]
        if run.empty:
            continue
        style = method_style(method)
        x = np.log(published_flops(run, part["iteration"]))
        comparable = bool(part["comparable"].iloc[0])
        ax.plot(x, 100.0 * part["published"].to_numpy(dtype=float),
                label=published_label(comparable, style["label"]),
                **published_style(comparable, style["color"], style["marker"]))


def figure_tcc_flops(points: pd.DataFrame, dataset, title_suffix: str = ""):
    """Figure 2: in-sample TCC against log(FLOP) on a large dataset (one panel each).

    Stochastic AppGrad is a curve (its checkpoints); each heuristic setting is a
    point, PCA-CCA settings (m) joined in order of cost. Several seeds: their mean, their
    range as a band (AppGrad) or an error bar (a heuristic).

    Parameters
    ----------
    points : DataFrame
        Tidy rows with ``dataset``, ``method``, ``setting``, ``log_flops``, ``tcc_in``,
        and ``seed`` (the replicate) when a method ran several times.
    dataset : str or list of str

    Returns
    -------
    fig : matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.plots.cca import figure_tcc_flops
    >>> points = pd.DataFrame({
    ...     "dataset": "sparse_two_view", "method": ["sappgrad"] * 3 + ["nw_cca", "pca_cca", "pca_cca"],
    ...     "setting": ["", "", "", "", "m=20", "m=50"],
    ...     "log_flops": [15.0, 17.0, 19.0, 18.0, 18.5, 19.5], "tcc_in": [2.0, 6.0, 9.0, 5.0, 3.0, 4.0]})
    >>> fig = figure_tcc_flops(points, "sparse_two_view")
    >>> fig.axes[0].get_ylabel()
    'TCC (sum of k canonical correlations)'
    >>> plt.close(fig)
    """
    use_style()
    datasets = [dataset] if isinstance(dataset, str) else list(dataset)
    fig, axes = panel_grid(len(datasets), 2, 4.6, 3.2)
    for ax, name in zip(axes, datasets):
        rows = points[points["dataset"] == name]
        _tcc_panel(ax, rows, f"{name}{title_suffix}{_seeds_note(rows)}")
    fig.tight_layout()
    return fig


def _tcc_panel(ax, rows, title):
    """One dataset's panel of Figure 2."""
    for method, part in rows.groupby("method", sort=False):
        style = method_style(method)
        keys = [key for key in ("setting", "iteration") if key in part]
        points = seed_summary(part, keys, "tcc_in")
        line = "-" if len(points) > 1 else "none"
        if method == "sappgrad" or points["n_seeds"].max() == 1:
            ax.plot(points["log_flops"], points["mean"], marker=style["marker"],
                    color=style["color"], markersize=4, linestyle=line, label=style["label"])
            _seed_band(ax, points, 1.0, style["color"])
        else:  # a heuristic's point per setting, the replicates' range as an error bar
            ax.errorbar(points["log_flops"], points["mean"],
                        yerr=[points["mean"] - points["low"], points["high"] - points["mean"]],
                        marker=style["marker"], color=style["color"], markersize=4,
                        linestyle=line, capsize=2, label=style["label"])
        if method == "pca_cca":
            for _, row in points.iterrows():
                ax.annotate(str(row["setting"]), (row["log_flops"], row["mean"]),
                            textcoords="offset points", xytext=(3, -8), fontsize=6)
    ax.set_title(title)
    ax.set_xlabel("log(FLOP) (natural log)")
    ax.set_ylabel("TCC (sum of k canonical correlations)")
    ax.legend(loc="best", frameon=False)
