"""Scalable CCA: AppGrad and stochastic AppGrad, exact CCA and cheap heuristics.

Reproduces Ma, Lu & Foster, *Finding Linear Structure in Large Datasets with
Scalable Canonical Correlation Analysis* (ICML 2015).

Estimators (scikit-learn style, ``fit(X, Y)``, ``transform``, ``score``):

- :class:`AppGradCCA`: batch (``batch_size=None``) or stochastic AppGrad;
- :class:`ExactCCA`: whitening (Cholesky, eigh or QR) then SVD;
- :class:`NWCCA`, :class:`DWCCA`, :class:`PCACCA`: the paper's heuristics;
- :class:`RandomizedCCA`: sketch-then-solve (Mineiro & Karampatziakis 2014).
- :class:`KernelCCA`: kernel CCA on (SMS-)Nyström features of any similarity,
  solved by AppGrad (the SMS-Nyström and AppGrad papers combined), and
  :func:`exact_kernel_cca`, its ``n x n`` reference.

Metrics: :func:`canonical_correlations`, :func:`tcc`, :func:`pcc`. FLOP
counts: :mod:`lowdim.cca.flops`. All moments are uncentred (``S_x = XᵀX/n``)
as in the paper; dense and scipy.sparse views are accepted, and sparse views
are never densified.
"""

from .._lazy import lazy_exports

# Submodule of each public name, loaded on first use (lowdim._lazy): the workflow's
# start-up reads `lowdim.cca.methods` and must not import scikit-learn for it.
_EXPORTS = {
    "appgrad": ["AppGradCCA"],
    "exact": ["ExactCCA"],
    "heuristics": ["DWCCA", "NWCCA", "PCACCA"],
    "kernel": ["KernelCCA", "exact_kernel_cca"],
    "metrics": ["canonical_correlations", "pcc", "tcc"],
    "randomized": ["RandomizedCCA"],
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["AppGradCCA", "ExactCCA", "NWCCA", "DWCCA", "PCACCA", "RandomizedCCA",
           "canonical_correlations", "tcc", "pcc", "KernelCCA", "exact_kernel_cca"]
