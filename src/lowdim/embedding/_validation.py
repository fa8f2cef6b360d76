"""Shared input and parameter checks for the embedding estimators.

Every message names the argument and the value.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils import check_scalar
from sklearn.utils.validation import validate_data

from .._validation import ArgumentTypeError, ArgumentValueError, naming

__all__ = ["check_embedding_input", "check_int", "check_float", "check_n_components",
           "check_n_neighbors", "check_choice"]


def check_embedding_input(estimator, X, accept_sparse=True, min_samples=2, reset=True):
    """Validate ``X`` for ``estimator.fit`` (set ``n_features_in_``) or, with
    ``reset=False``, for ``transform`` (check it against ``n_features_in_``).

    Rejects an empty matrix, NaN and inf with a message naming ``X``.
    Sparse input is returned as CSR (never densified) when ``accept_sparse``.
    """
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) == 2 and shape[0] == 0:
        raise ArgumentValueError(f"`X` is empty: got shape {tuple(shape)}; "
                                 f"{type(estimator).__name__} needs at least {min_samples} "
                                 "samples", "X")
    with naming("X"):
        return validate_data(estimator, X, accept_sparse="csr" if accept_sparse else False,
                             dtype=[np.float64, np.float32], ensure_min_samples=min_samples,
                             ensure_all_finite=True, reset=reset)


def check_int(value, name, min_val=None, max_val=None):
    """``value`` as an int within [min_val, max_val] (a bool is refused, not read as 0 or 1)."""
    _refuse_bool(value, name, "int")
    with naming(name):
        check_scalar(value, name, numbers.Integral, min_val=min_val, max_val=max_val)
    return int(value)


def check_float(value, name, min_val=None, max_val=None):
    """``value`` as a float within [min_val, max_val] (a bool is refused)."""
    _refuse_bool(value, name, "float")
    with naming(name):
        check_scalar(value, name, numbers.Real, min_val=min_val, max_val=max_val)
    if not np.isfinite(value):
        raise ArgumentValueError(f"`{name}` must be a finite number, got {value!r}", name)
    return float(value)


def _refuse_bool(value, name, expected):
    if isinstance(value, (bool, np.bool_)):
        raise ArgumentTypeError(f"`{name}` must be an {expected}, got the bool {value!r}", name)


def check_n_components(n_components, n_samples, n_features=None):
    """``1 <= n_components < n_samples`` (and ``<= n_features`` when given)."""
    n_components = check_int(n_components, "n_components", min_val=1)
    if n_components >= n_samples:
        raise ArgumentValueError(f"`n_components` must be < n_samples = {n_samples}, got "
                                 f"{n_components}", "n_components")
    if n_features is not None and n_components > n_features:
        raise ArgumentValueError(f"`n_components` must be <= n_features = {n_features}, got "
                                 f"{n_components}", "n_components")
    return n_components


def check_n_neighbors(value, n_samples, name="n_neighbors"):
    """``1 <= value < n_samples``."""
    value = check_int(value, name, min_val=1)
    if value >= n_samples:
        raise ArgumentValueError(f"`{name}` must be < n_samples = {n_samples}, got {value}", name)
    return value


def check_choice(value, name, choices):
    """``value`` must be one of ``choices``."""
    if value not in choices:
        raise ArgumentValueError(f"`{name}` must be one of {list(choices)}, got {value!r}", name)
    return value
