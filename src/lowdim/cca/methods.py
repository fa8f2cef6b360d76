"""The names of CCA methods and options, without importing their estimators.

The workflow reads these while it builds the DAG (its wildcards), so this module
imports nothing.
"""

__all__ = ["APPGRAD_METHODS", "EXACT_METHODS", "HEURISTIC_METHODS", "RESCALINGS", "WHITENINGS"]

#: Batch and stochastic AppGrad (Figure 1; ``sappgrad`` also in Figure 2).
APPGRAD_METHODS = ("appgrad", "sappgrad")
#: The heuristics Figure 2 compares stochastic AppGrad with
#: (:data:`lowdim.cca.experiments.HEURISTICS` maps each to its estimator).
HEURISTIC_METHODS = ("nw_cca", "dw_cca", "pca_cca")
#: The whitenings of exact CCA (:class:`lowdim.cca.ExactCCA`); ``auto`` picks one.
WHITENINGS = ("cholesky", "eigh", "qr")
EXACT_METHODS = ("auto", *WHITENINGS)
#: How a view is scaled before CCA: as given, or divided by its largest absolute value.
RESCALINGS = ("none", "max_abs")
