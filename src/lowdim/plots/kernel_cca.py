"""The kernel CCA figure: held-out TCC against landmarks and similarity evaluations."""

from __future__ import annotations

import pandas as pd
from matplotlib.ticker import NullFormatter

from .style import fit_layout, legend_below, method_style, panel_grid, use_style

__all__ = ["figure_kernel_cca"]

#: Rows of the figure: (x column, axis label, log base).
_AXES = (("n_landmarks", "landmarks s (per view)", 2),
         ("evaluations", "similarity evaluations\n(both views, fit + held-out)", 10))


def _reference_lines(ax, rows, x):
    """Linear CCA as a dashed line; exact kernel CCA as a dotted line and a point at its cost."""
    for method, linestyle in (("linear_cca", "--"), ("exact_kernel_cca", ":")):
        part = rows[rows["method"] == method]
        if part.empty:
            continue
        style = method_style(method)
        level = float(part["tcc_out"].median())
        ax.axhline(level, color=style["color"], linestyle=linestyle, linewidth=1,
                   label=style["label"])
        if method == "exact_kernel_cca":
            ax.plot(part[x], part["tcc_out"], linestyle="none", marker=style["marker"],
                    color=style["color"], markersize=7)


def _panel(ax, rows, x, base):
    for method, part in rows[rows["method"].str.startswith("kernel_cca")].groupby("method",
                                                                                  sort=False):
        style = method_style(method)
        stats = part.groupby(x)["tcc_out"].agg(["median", "min", "max"]).sort_index()
        ax.plot(stats.index, stats["median"], marker=style["marker"], color=style["color"],
                markersize=4, label=style["label"])
        ax.fill_between(stats.index, stats["min"], stats["max"], color=style["color"], alpha=0.15,
                        linewidth=0)
    _reference_lines(ax, rows, x)
    ax.set_xscale("log", base=base)
    ax.xaxis.set_minor_formatter(NullFormatter())
    if x == "n_landmarks":  # label the values run, the exact reference's n included
        ticks = sorted(set(rows.loc[rows["method"] != "linear_cca", x].astype(int)))
        ax.set_xticks(ticks, [str(t) for t in ticks])


def figure_kernel_cca(tidy: pd.DataFrame, settings=None, title_suffix: str = ""):
    """Held-out TCC of kernel CCA against landmarks (top row) and evaluations (bottom row).

    One column per setting. Kernel CCA runs are the median over landmark draws
    with their range shaded; linear CCA (dashed) and exact kernel CCA (dotted,
    with a star at its number of training rows and of evaluations) are
    references.

    Parameters
    ----------
    tidy : DataFrame
        Rows of :func:`lowdim.cca.kernel_experiments.kernel_cca_experiment`:
        ``setting``, ``dataset``, ``similarity``, ``method``, ``n_landmarks``,
        ``evaluations``, ``tcc_out``, ``n_components``.
    settings : list of str, optional
        Column order; defaults to the order of first appearance.
    title_suffix : str
        Appended to each column title (e.g. the profile).

    Returns
    -------
    fig : matplotlib.figure.Figure

    Examples
    --------
    >>> from lowdim.plots.kernel_cca import figure_kernel_cca
    >>> fig = figure_kernel_cca(kernel_cca_tidy)
    >>> len(fig.axes), "landmarks" in fig.axes[0].get_xlabel()   # TCC against s, evaluations
    (2, True)
    >>> plt.close(fig)
    """
    use_style()
    settings = list(dict.fromkeys(tidy["setting"])) if settings is None else list(settings)
    ncols = max(len(settings), 1)
    fig, axes = panel_grid(2 * ncols, ncols, 3.3, 2.6)
    for column, name in enumerate(settings):
        rows = tidy[tidy["setting"] == name]
        first = rows.iloc[0]
        for row, (x, label, base) in enumerate(_AXES):
            ax = axes[row * ncols + column]
            _panel(ax, rows, x, base)
            ax.set_xlabel(label)
            ax.set_ylabel(f"held-out TCC (k = {int(first['n_components'])})")
            if row == 0:
                ax.set_title(f"{name}{title_suffix}\n{first['dataset']}, {first['similarity']}")
    handles = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    labels = sorted(handles, key=lambda label: label.startswith(("Linear", "Exact")))
    fit_layout(fig, bottom=legend_below(fig, [handles[label] for label in labels], labels))
    return fig
