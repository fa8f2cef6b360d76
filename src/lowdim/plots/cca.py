"""Figures 1 and 2 of the AppGrad paper, drawn from tidy CSVs only."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import ArgumentValueError
from .style import (fit_layout, legend_below, method_style, panel_grid, published_label,
                    published_style, use_style)

__all__ = ["figure_pcc", "figure_tcc_flops", "published_flops"]

_SAMPLES = {"in": ("pcc_in", "-", "in-sample"), "out": ("pcc_out", "--", "out-of-sample")}


def figure_pcc(trace: pd.DataFrame, datasets=None, title_suffix: str = "",
               published: pd.DataFrame | None = None):
    """Figure 1: PCC (%) against log(FLOP), in- and out-of-sample, one panel per dataset.

    Parameters
    ----------
    trace : DataFrame
        Tidy rows with ``dataset``, ``method`` (appgrad, sappgrad), ``iteration``,
        ``flops``, ``log_flops``, ``pcc_in``, ``pcc_out`` (fractions).
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
            part = part.sort_values("log_flops", kind="stable")
            for column, linestyle, label in _SAMPLES.values():
                values = 100.0 * part[column].to_numpy(dtype=float)
                if np.all(np.isnan(values)):
                    continue
                ax.plot(part["log_flops"], values, linestyle=linestyle, marker=style["marker"],
                        color=style["color"], markersize=3, label=f"{style['label']}, {label}")
        if published is not None and len(published):
            _published_pcc(ax, rows, published[published["dataset"] == name])
        ax.set_title(f"{name}{title_suffix}")
        ax.set_xlabel("log(FLOP) (natural log)")
        ax.set_ylabel("PCC (%)")
    # One legend below the panels, so that no curve is hidden behind it.
    handles = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    fit_layout(fig, bottom=legend_below(fig, list(handles.values()), list(handles), max_cols=4))
    return fig


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
    point, PCA-CCA settings (m) joined in order of cost.

    Parameters
    ----------
    points : DataFrame
        Tidy rows with ``dataset``, ``method``, ``setting``, ``log_flops``, ``tcc_in``.
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
        _tcc_panel(ax, points[points["dataset"] == name], f"{name}{title_suffix}")
    fig.tight_layout()
    return fig


def _tcc_panel(ax, rows, title):
    """One dataset's panel of Figure 2."""
    for method, part in rows.groupby("method", sort=False):
        style = method_style(method)
        part = part.sort_values("log_flops", kind="stable")
        ax.plot(part["log_flops"], part["tcc_in"], marker=style["marker"], color=style["color"],
                markersize=4, label=style["label"],
                linestyle="-" if len(part) > 1 else "none")
        if method == "pca_cca":
            for _, row in part.iterrows():
                ax.annotate(str(row["setting"]), (row["log_flops"], row["tcc_in"]),
                            textcoords="offset points", xytext=(3, -8), fontsize=6)
    ax.set_title(title)
    ax.set_xlabel("log(FLOP) (natural log)")
    ax.set_ylabel("TCC (sum of k canonical correlations)")
    ax.legend(loc="best", frameon=False)
