"""SMS-Nyström paper figures: approximation error against sample size, and spectra.

Both read tidy tables (see ``workflow/rules/similarity.smk``):

- errors: ``matrix, method, s, s/n, seed, error, evaluations, seconds``;
- eigenvalues: ``matrix, rank, eigenvalue``;
- submatrices: ``matrix, size, size/n, draw, lambda_min, min_abs_eig, lambda_min_K``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import LogLocator

from ..approx.diagnostics import spectrum_summary, zero_tolerance
from ..methods import METHOD_STYLES
from .style import (fit_layout, legend_below, method_style, panel_grid,
                    suptitle_fitted, use_style)

__all__ = ["error_curves_figure", "matrix_labels", "spectra_figure"]


def _ordered(values, preferred=()):
    """Unique values in first-seen order, those in ``preferred`` first in its order."""
    seen = list(dict.fromkeys(values))
    return [v for v in preferred if v in seen] + [v for v in seen if v not in preferred]


def _band(ax, table, x, y, style, label=True):
    """Median line with markers and an interquartile band of ``y`` grouped by ``x``."""
    grouped = table.groupby(x)[y]
    median = grouped.median()
    ax.fill_between(median.index, grouped.quantile(0.25), grouped.quantile(0.75),
                    color=style["color"], alpha=0.18, linewidth=0)
    ax.plot(median.index, median.values, color=style["color"], marker=style["marker"],
            markersize=3.5, linewidth=1.2, label=style["label"] if label else None)


def _log_y(ax):
    """A log y axis with minor ticks at 2 and 5 only: when less than a decade is shown,
    matplotlib labels the minor ticks, and all eight crowd a short panel."""
    ax.set_yscale("log")
    ax.yaxis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))


def matrix_labels(matrices, eigenvalues):
    """``matrices`` (``matrix, kind, n, ...``) with each matrix's ``negative_mass`` added.

    Examples
    --------
    >>> from lowdim.plots.similarity import matrix_labels
    >>> matrices = pd.DataFrame({"matrix": ["toy"], "kind": ["mlp"], "n": [4]})
    >>> eigenvalues = pd.DataFrame({"matrix": "toy", "rank": [1, 2, 3, 4],
    ...                             "eigenvalue": [3.0, 1.0, 0.5, -0.5]})
    >>> matrix_labels(matrices, eigenvalues).to_dict("records")
    [{'matrix': 'toy', 'kind': 'mlp', 'n': 4, 'negative_mass': 0.1}]
    """
    mass = {name: spectrum_summary(group["eigenvalue"].to_numpy())["negative_mass"]
            for name, group in eigenvalues.groupby("matrix")}
    return matrices.assign(negative_mass=matrices["matrix"].map(mass))


def error_curves_figure(errors, matrices=None, profile="", ncols=3):
    """Relative error against sample fraction, one panel per matrix (the paper's Figure 1).

    Parameters
    ----------
    errors : DataFrame
        Tidy errors (one row per matrix, method, s and seed).
    matrices : DataFrame, optional
        One row per matrix with ``matrix``, ``kind``, ``n``, ``negative_mass``;
        shown in the panel titles.
    profile : str
        Workflow profile, shown in the title.
    ncols : int, default=3

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.approx import error_curve
    >>> from lowdim.plots.similarity import error_curves_figure
    >>> X = rng.standard_normal((100, 10))
    >>> K = np.tanh(X @ X.T / 5 + 1)
    >>> errors = pd.concat([error_curve(K, method, [0.1, 0.2, 0.3], 3, 0, "tanh")
    ...                     for method in ("nystrom", "sms_nystrom")])
    >>> fig = error_curves_figure(errors, profile="example")
    >>> ax = fig.axes[0]
    >>> ax.get_title(), ax.get_xlabel(), [line.get_label() for line in ax.get_lines()]
    ('tanh', 'sample fraction s/n', ['SMS-Nyström', 'Nyström'])
    >>> plt.close(fig)
    """
    use_style()
    names = _ordered(errors["matrix"])
    methods = _ordered(errors["method"], preferred=list(METHOD_STYLES))
    info = {} if matrices is None else matrices.set_index("matrix").to_dict("index")
    fig, axes = panel_grid(len(names), ncols, 3.3, 2.5)
    for ax, name in zip(axes, names):
        table = errors[errors["matrix"] == name]
        for method in methods:
            rows = table[table["method"] == method]
            if len(rows):
                _band(ax, rows, "s/n", "error", method_style(method))
        _log_y(ax)
        ax.set_xlabel("sample fraction s/n")
        ax.set_ylabel(r"$\|K-\tilde K\|_F\,/\,\|K\|_F$")
        meta = info.get(name, {})
        detail = (f"\n{meta['kind']}, n = {meta['n']}, neg. mass {meta['negative_mass']:.2f}"
                  if {"kind", "n", "negative_mass"} <= set(meta) else "")
        ax.set_title(f"{name}{detail}")
    handles = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    bottom = legend_below(fig, list(handles.values()), list(handles), max_cols=6)
    seeds = errors.groupby(["matrix", "method", "s"]).size().max()
    top = suptitle_fitted(fig, f"Approximation error: median and interquartile range over {seeds} "
                               "seeds" + (f" (profile {profile})" if profile else ""))
    fit_layout(fig, bottom, top)
    return fig


def spectra_figure(eigenvalues, submatrices, profile=""):
    """Spectra and submatrix conditioning, one row per matrix (the paper's Figure 2).

    Columns: eigenvalue magnitudes of ``K`` by rank, negative ones in
    colour (log scale); the smallest
    eigenvalue of random principal submatrices ``K[S, S]`` against ``|S|/n``
    with ``lambda_min(K)`` dashed; and the eigenvalue of ``K[S, S]`` closest to
    zero (what the pseudo-inverse of classic Nyström inverts), log scale.

    Parameters
    ----------
    eigenvalues, submatrices : DataFrame
        Tidy tables (see the module docstring).
    profile : str

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.approx import spectrum_tables
    >>> from lowdim.plots.similarity import spectra_figure
    >>> X = rng.standard_normal((60, 10))
    >>> eigenvalues, submatrices = spectrum_tables(np.tanh(X @ X.T / 5 + 1), [0.1, 0.5, 1.0],
    ...                                            n_draws=3, random_state=0, matrix="tanh")
    >>> fig = spectra_figure(eigenvalues, submatrices)
    >>> len(fig.axes)
    3
    >>> plt.close(fig)
    """
    use_style()
    names = _ordered(eigenvalues["matrix"])
    fig, axes = plt.subplots(len(names), 3, figsize=(9.6, 2.3 * len(names)), squeeze=False)
    colour = method_style("nystrom")["color"]
    for row, name in zip(axes, names):
        w = eigenvalues.loc[eigenvalues["matrix"] == name].sort_values("rank", kind="stable")
        n = len(w)
        summary = spectrum_summary(w["eigenvalue"].to_numpy())
        tol = zero_tolerance(w["eigenvalue"])
        ax = row[0]
        for sign, label, color in ((1, r"$\lambda > 0$", "black"),
                                   (-1, r"$\lambda < 0$", "#D55E00")):
            part = w[sign * w["eigenvalue"] > tol]
            ax.plot(part["rank"] / n, np.abs(part["eigenvalue"]), ".", markersize=2,
                    color=color, label=label)
        _log_y(ax)
        ax.set_xlabel("eigenvalue rank / n (descending λ)")
        ax.set_ylabel(r"$|\lambda_i(K)|$")
        ax.legend(loc="upper right", markerscale=4)
        ax.set_title(f"{name}: n = {n}, {summary['n_negative']} negative, "
                     f"mass {summary['negative_mass']:.2f}")
        subs = submatrices[submatrices["matrix"] == name]
        style = {"color": colour, "marker": "o", "label": "random K[S, S]"}
        _band(row[1], subs, "size/n", "lambda_min", style)
        row[1].axhline(subs["lambda_min_K"].iloc[0], color="black", linestyle="--",
                       linewidth=0.9, label=r"$\lambda_{\min}(K)$")
        row[1].axhline(0.0, color="grey", linewidth=0.6)
        row[1].set_xlabel("submatrix size |S| / n")
        row[1].set_ylabel(r"$\lambda_{\min}(K[S,S])$")
        row[1].legend(loc="best")
        _band(row[2], subs, "size/n", "min_abs_eig", style)
        _log_y(row[2])
        row[2].set_xlabel("submatrix size |S| / n")
        row[2].set_ylabel(r"$\min_i |\lambda_i(K[S,S])|$")
    top = suptitle_fitted(fig, "Spectra and conditioning of principal submatrices (median, "
                               "interquartile range)" + (f", profile {profile}" if profile else ""))
    fit_layout(fig, top=top)
    return fig
