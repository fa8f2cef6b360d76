"""Every method's display name, colour and marker, in the order figures and tables list them.

The keys are the names result files use (:mod:`lowdim.approx.methods`,
:mod:`lowdim.embedding.methods`, :mod:`lowdim.cca.methods`, the coreference and WMD
classification tasks' ``exact``, ``wme`` and ``wmd_kernel``, kernel CCA's rows).
:mod:`lowdim.plots` draws each method in its colour and marker and :mod:`lowdim.tables`
names and orders the rows with it; this module imports nothing, so a table needs no
plotting library.
"""

from __future__ import annotations

__all__ = ["METHOD_STYLES", "method_label", "method_order"]

#: method name -> (label, colour, marker), in the order figures and tables list methods:
#: each paper's methods, the paper's own first and baselines last.
METHOD_STYLES = {
    # similarity approximation (SMS-Nystrom paper) and its downstream tasks
    "wme": ("WME", "#E69F00", "P"),
    "sms_nystrom": ("SMS-Nyström", "#D55E00", "o"),
    "sms_nystrom_rescale": ("SMS-Nyström (rescaled)", "#44AA99", "h"),  # authors' coreference
    "nystrom": ("Nyström", "#0072B2", "s"),
    "shifted_nystrom_exact": ("Shifted Nyström (exact λmin)", "#56B4E9", "v"),
    "sicur": ("SiCUR", "#009E73", "^"),
    "stacur": ("StaCUR", "#CC79A7", "D"),
    "stacur_independent": ("StaCUR (independent rows)", "#882255", "d"),
    "optimal": ("Optimal (rank-s eig)", "#000000", "x"),
    "exact": ("Exact", "#000000", "*"),
    "wmd_kernel": ("WMD-kernel", "#999999", "*"),
    # dimensionality reduction (Vec2vec paper)
    "vec2vec": ("Vec2vec", "#D55E00", "o"),
    "pca": ("PCA", "#0072B2", "s"),
    "mds": ("MDS", "#56B4E9", "v"),
    "isomap": ("Isomap", "#009E73", "^"),
    "lle": ("LLE", "#CC79A7", "D"),
    "le": ("LE", "#E69F00", "P"),
    "umap": ("UMAP", "#000000", "X"),
    "vec2vec_cooccurrence": ("Vec2vec (co-occurrence)", "#882255", "h"),
    "cmds": ("Classical MDS", "#999933", "<"),
    # CCA (AppGrad paper)
    "appgrad": ("AppGrad", "#0072B2", "o"),
    "sappgrad": ("Stochastic AppGrad", "#D55E00", "s"),
    "exact_cca": ("Exact CCA", "#000000", "*"),
    "nw_cca": ("NW-CCA", "#009E73", "^"),
    "dw_cca": ("DW-CCA", "#CC79A7", "D"),
    "pca_cca": ("PCA-CCA", "#E69F00", "v"),
    # kernel CCA (SMS-Nystrom features + AppGrad)
    "linear_cca": ("Linear CCA", "#999999", "v"),
    "kernel_cca_nystrom": ("Kernel CCA, Nyström features", "#0072B2", "s"),
    "kernel_cca_sms_nystrom": ("Kernel CCA, SMS-Nyström features", "#D55E00", "o"),
    "exact_kernel_cca": ("Exact kernel CCA (n × n)", "#000000", "*"),
}


def method_label(method: str) -> str:
    """The display name of ``method`` in figures and tables (its own name if unknown).

    Examples
    --------
    >>> from lowdim.methods import method_label
    >>> method_label("sms_nystrom"), method_label("sappgrad"), method_label("my_method")
    ('SMS-Nyström', 'Stochastic AppGrad', 'my_method')
    """
    return METHOD_STYLES[method][0] if method in METHOD_STYLES else method


def method_order(methods, first=()) -> list:
    """The distinct ``methods`` in the order of :data:`METHOD_STYLES` (``first`` before
    them), unknown ones after, sorted.

    Examples
    --------
    >>> from lowdim.methods import method_order
    >>> method_order(["nystrom", "mine", "sms_nystrom", "exact"])
    ['sms_nystrom', 'nystrom', 'exact', 'mine']
    >>> method_order(["nystrom", "exact"], first=("exact",))
    ['exact', 'nystrom']
    """
    given = set(methods)
    known = list(dict.fromkeys(m for m in (*first, *METHOD_STYLES) if m in given))
    return known + sorted(given - set(known))
