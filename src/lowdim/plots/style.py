"""Shared figure style: fixed colours and markers per method, PDF + PNG output.

Each method's label, colour and marker come from :data:`lowdim.methods.METHOD_STYLES`
(add a method there once; every figure and table then shows it the same way).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # figures are files; never open a window
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import patheffects  # noqa: E402

from ..io import atomic_path  # noqa: E402
from ..methods import METHOD_STYLES, method_label  # noqa: E402

__all__ = ["fit_layout", "legend_below", "method_style",
           "panel_grid", "published_label", "published_style", "save_figure", "suptitle_fitted",
           "use_style"]

# Colour-blind-safe palette (Okabe-Ito + Tol) so methods stay distinguishable.
_PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
            "#F0E442", "#000000", "#882255", "#44AA99", "#999933", "#AA4499"]

def method_style(method: str) -> dict:
    """Return matplotlib keyword arguments (label, color, marker) for ``method``.

    Unknown methods get a stable colour from the palette derived from the name,
    so a new method is still drawn consistently across figures.

    Examples
    --------
    >>> from lowdim.plots import method_style
    >>> style = method_style("sms_nystrom")
    >>> sorted(style), style["label"]
    (['color', 'label', 'marker'], 'SMS-Nyström')
    >>> method_style("my_method") == method_style("my_method")   # a stable colour
    True
    """
    if method in METHOD_STYLES:
        label, color, marker = METHOD_STYLES[method]
    else:
        index = sum(map(ord, method)) % len(_PALETTE)
        label, color, marker = method, _PALETTE[index], "o"
    return {"label": label, "color": color, "marker": marker}


#: Edge colour of published points drawn on a rehearsal's replicas (not comparable).
REPLICA_GREY = "0.62"


def published_style(comparable: bool, color: str = "black", marker: str = "D") -> dict:
    """``ax.plot`` keywords for published numbers: hollow markers, greyed when not comparable.

    Parameters
    ----------
    comparable : bool
        False for a rehearsal's replica data: the edge is grey whatever ``color``.
    color, marker : str
        Edge colour and marker shape (e.g. the method's, so that a point names its curve).

    Examples
    --------
    >>> from lowdim.plots.style import published_style
    >>> published_style(True, color="C1")["markeredgecolor"], published_style(False, color="C1")["markeredgecolor"]
    ('C1', '0.62')
    """
    return {"linestyle": "none", "marker": marker, "markersize": 6.5, "markerfacecolor": "none",
            "markeredgecolor": color if comparable else REPLICA_GREY, "markeredgewidth": 1.4,
            "zorder": 5,  # a white halo keeps the marker visible on a bar or a curve of any colour
            "path_effects": [patheffects.withStroke(linewidth=3.2, foreground="white")]}


def published_label(comparable: bool, what: str = "") -> str:
    """Legend entry of published points: ``"<what>, published"``, marked when not comparable.

    Examples
    --------
    >>> from lowdim.plots.style import published_label
    >>> published_label(True, "Vec2vec"), published_label(False, "Vec2vec")
    ('Vec2vec, published', 'Vec2vec, published (replica data: not comparable)')
    """
    label = f"{what}, published" if what else "published"
    return label if comparable else f"{label} (replica data: not comparable)"


def _grow(fig, inches: float) -> None:
    """Make ``fig`` taller by ``inches``, so that its axes keep their size."""
    width, height = fig.get_size_inches()
    fig.set_size_inches(width, height + inches)


def legend_below(fig, handles, labels, max_cols: int = 4) -> float:
    """A figure legend centred below the axes, in as many columns as fit the figure's width.

    The figure grows by the legend's height (and, when one column is still too wide,
    to the legend's width), so that the axes keep their size.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    handles, labels : list
    max_cols : int, default=4

    Returns
    -------
    height : float
        Inches the legend takes at the bottom (the ``bottom`` of :func:`fit_layout`).

    Examples
    --------
    >>> from lowdim.plots.style import legend_below
    >>> fig, ax = plt.subplots(figsize=(4, 3))
    >>> lines = [ax.plot([0, 1], [0, i])[0] for i in range(6)]
    >>> height = legend_below(fig, lines, [f"method {i}" for i in range(6)], max_cols=3)
    >>> bool(height > 0), bool(fig.get_figheight() > 3)   # the figure grew by the legend
    (True, True)
    >>> plt.close(fig)
    """
    renderer = fig.canvas.get_renderer()
    for ncol in range(max(1, min(max_cols, len(labels))), 0, -1):
        legend = fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.0),
                            ncol=ncol, frameon=False)
        box = legend.get_window_extent(renderer)
        if box.width <= 0.98 * fig.bbox.width:
            break
        if ncol == 1:  # widen the figure: a legend never runs off the canvas
            fig.set_size_inches(box.width / 0.95 / fig.dpi, fig.get_size_inches()[1])
            break
        legend.remove()
    height = (box.height + 4.0) / fig.dpi
    _grow(fig, height)
    return height


def suptitle_fitted(fig, text: str, fontsize: float = 9) -> float:
    """``fig.suptitle(text)`` on as many lines as the figure's width needs.

    The figure grows by the title's height, so that the axes keep their size.

    Returns
    -------
    height : float
        Inches the title takes at the top (the ``top`` of :func:`fit_layout`).

    Examples
    --------
    >>> from lowdim.plots.style import suptitle_fitted
    >>> fig, ax = plt.subplots(figsize=(3, 2))
    >>> height = suptitle_fitted(fig, "A title long enough to need more than one line on a narrow figure")
    >>> "\\n" in fig.get_suptitle(), bool(fig.get_figheight() > 2)
    (True, True)
    >>> plt.close(fig)
    """
    renderer = fig.canvas.get_renderer()
    for width in (len(text), *range(len(text) - 4, 9, -4)):
        title = fig.suptitle(textwrap.fill(text, width), fontsize=fontsize, y=1.0, va="top")
        box = title.get_window_extent(renderer)
        if box.width <= 0.98 * fig.bbox.width:
            break
    height = (box.height + 6.0) / fig.dpi
    _grow(fig, height)
    return height


def fit_layout(fig, bottom: float = 0.0, top: float = 0.0) -> None:
    """``fig.tight_layout`` in the figure less ``bottom`` and ``top`` inches (legend, title).

    Examples
    --------
    >>> from lowdim.plots.style import fit_layout, legend_below
    >>> fig, ax = plt.subplots(figsize=(4, 3))
    >>> lines = ax.plot([0, 1], [0, 1], label="a") + ax.plot([0, 1], [1, 0], label="b")
    >>> height = legend_below(fig, lines, ["a", "b"])
    >>> fit_layout(fig, bottom=height)
    >>> bool(ax.get_position().y0 * fig.get_figheight() > height)   # the axes clear the legend
    True
    >>> plt.close(fig)
    """
    height = fig.get_size_inches()[1]
    fig.tight_layout(rect=(0, bottom / height, 1, 1 - top / height))


def panel_grid(n_panels: int, ncols: int, width: float, height: float, **subplots):
    """A figure of ``n_panels`` axes, ``ncols`` per row, each ``width`` x ``height`` inches.

    Returns the figure and its axes in reading order; grid cells beyond
    ``n_panels`` are hidden (with no panel, one hidden axis is made). ``subplots``
    go to :func:`matplotlib.pyplot.subplots` (``sharey=True``, ...).

    Examples
    --------
    >>> from lowdim.plots.style import panel_grid
    >>> fig, axes = panel_grid(5, ncols=3, width=2.0, height=1.5)
    >>> len(axes), [ax.get_visible() for ax in fig.axes]
    (6, [True, True, True, True, True, False])
    >>> plt.close(fig)
    """
    slots = max(n_panels, 1)
    ncols = max(1, min(ncols, slots))
    nrows = -(-slots // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False,
                             **subplots)
    for ax in axes.flat[n_panels:]:
        ax.set_visible(False)
    return fig, list(axes.flat)


def use_style() -> None:
    """Apply the project's rcParams (sizes for a two-column paper figure).

    Examples
    --------
    >>> import matplotlib as mpl
    >>> from lowdim.plots import use_style
    >>> use_style()
    >>> mpl.rcParams["savefig.dpi"], mpl.rcParams["pdf.fonttype"]
    (200.0, 42)
    """
    plt.rcParams.update({
        "figure.dpi": 100,
        "savefig.dpi": 200,
        "font.size": 9,
        "axes.titlesize": 9,
        "axes.labelsize": 9,
        "legend.fontsize": 8,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "pdf.fonttype": 42,  # embed TrueType so text stays text in the PDF
    })


def save_figure(fig, path) -> list[Path]:
    """Save ``fig`` as vector PDF and PNG next to each other, atomically.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    path : str or Path
        Either stem or a ``.pdf`` / ``.png`` path; both formats are written.

    Returns
    -------
    paths : list of Path
        The PDF and PNG paths written.

    Examples
    --------
    >>> from lowdim.plots import save_figure
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [0, 1])
    >>> paths = save_figure(fig, tmp / "line.png")
    >>> [p.name for p in paths]
    ['line.pdf', 'line.png']
    >>> plt.close(fig)
    """
    path = Path(path)
    stem = path.with_suffix("") if path.suffix in {".pdf", ".png"} else path
    written = []
    for ext in (".pdf", ".png"):
        target = stem.with_suffix(ext)
        with atomic_path(target) as tmp:
            fig.savefig(tmp, format=ext[1:], bbox_inches="tight")
        written.append(target)
    plt.close(fig)
    return written
