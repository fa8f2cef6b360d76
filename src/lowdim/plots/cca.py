"""Figures 1 and 2 of the AppGrad paper, drawn from tidy CSVs only."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .style import method_style, panel_grid, use_style

__all__ = ["figure_pcc", "figure_tcc_flops"]

_SAMPLES = {"in": ("pcc_in", "-", "in-sample"), "out": ("pcc_out", "--", "out-of-sample")}


def figure_pcc(trace: pd.DataFrame, datasets=None, title_suffix: str = ""):
    """Figure 1: PCC (%) against log(FLOP), in- and out-of-sample, one panel per dataset.

    Parameters
    ----------
    trace : DataFrame
        Tidy rows with ``dataset``, ``method`` (appgrad, sappgrad), ``log_flops``,
        ``pcc_in``, ``pcc_out`` (fractions).
    datasets : list of str, optional
        Panel order; defaults to the order of first appearance.
    title_suffix : str
        Appended to each panel title (e.g. the profile).

    Returns
    -------
    fig : matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> import pandas as pd
    >>> from lowdim.cca.experiments import Views, add_pcc, run_appgrad, run_exact
    >>> from lowdim.plots.cca import figure_pcc
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.standard_normal((600, 2))
    >>> X = np.hstack([Z, rng.standard_normal((600, 3))])
    >>> Y = np.hstack([Z + 0.5 * rng.standard_normal((600, 2)), rng.standard_normal((600, 2))])
    >>> views = Views(X[:500], Y[:500], X[500:], Y[500:])
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
            part = part.sort_values("log_flops")
            for column, linestyle, label in _SAMPLES.values():
                values = 100.0 * part[column].to_numpy(dtype=float)
                if np.all(np.isnan(values)):
                    continue
                ax.plot(part["log_flops"], values, linestyle=linestyle, marker=style["marker"],
                        color=style["color"], markersize=3, label=f"{style['label']}, {label}")
        ax.set_title(f"{name}{title_suffix}")
        ax.set_xlabel("log(FLOP) (natural log)")
        ax.set_ylabel("PCC (%)")
    # One legend below the panels, so that no curve is hidden behind it.
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(4, max(len(labels), 1)),
               bbox_to_anchor=(0.5, -0.01), frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


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
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> import pandas as pd
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
        part = part.sort_values("log_flops")
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
