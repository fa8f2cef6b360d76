"""The names of the approximation methods and what options each takes, without their code.

Configs, result files and the workflow's settings (:mod:`lowdim.settings`) use these
names; the workflow reads them while it builds the DAG, so this module imports nothing.
:data:`lowdim.approx.METHODS` maps each name to its function.
"""

__all__ = ["FULL_MATRIX_METHODS", "METHOD_NAMES", "SAMPLING_METHODS", "SMS_METHODS",
           "method_options"]

#: Every approximation method's name: the paper's methods, then two variants of the
#: authors' code, each its own name in result files.
METHOD_NAMES = ("nystrom", "sms_nystrom", "shifted_nystrom_exact", "sicur", "stacur", "optimal",
                "sms_nystrom_rescale", "stacur_independent")

#: Methods that take SMS-Nyström's options (``multiplier``, ``alpha``, ``eigen_solver``).
SMS_METHODS = ("sms_nystrom", "sms_nystrom_rescale")

#: Baselines that read the whole matrix (charged n (n + 1) / 2 evaluations).
FULL_MATRIX_METHODS = ("shifted_nystrom_exact", "optimal")

#: Methods that read only the rows and columns they sample (the downstream tasks' choices).
SAMPLING_METHODS = tuple(m for m in METHOD_NAMES if m not in FULL_MATRIX_METHODS)


def method_options(method: str, sms: dict) -> dict:
    """The options ``method`` takes: SMS-Nyström's ``sms`` for the SMS methods, none else.

    Parameters
    ----------
    method : str
        A name of :data:`METHOD_NAMES`.
    sms : dict
        SMS-Nyström's options (``multiplier``, ``alpha``, ``eigen_solver``).

    Returns
    -------
    options : dict
        A copy of ``sms`` for :data:`SMS_METHODS`, else empty.

    Examples
    --------
    >>> from lowdim.approx.methods import method_options
    >>> method_options("sms_nystrom", {"alpha": 1.5}), method_options("nystrom", {"alpha": 1.5})
    ({'alpha': 1.5}, {})
    """
    return dict(sms or {}) if method in SMS_METHODS else {}
