"""Shared input and parameter checks for the embedding estimators.

Every message names the argument and the value.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_scalar
from sklearn.utils.validation import validate_data

from .._validation import ArgumentTypeError, ArgumentValueError, naming

__all__ = ["check_embedding_input", "merge_duplicate_entries", "check_int", "check_float",
           "check_n_components", "check_n_neighbors", "check_choice"]


def check_embedding_input(estimator, X, accept_sparse=True, min_samples=2, reset=True):
    """Validate ``X`` for ``estimator.fit`` (set ``n_features_in_``) or, with
    ``reset=False``, for ``transform`` (check it against ``n_features_in_``).

    Rejects an empty matrix, NaN and inf with a message naming ``X``.
    Sparse input is returned as CSR (never densified) when ``accept_sparse``, each
    cell stored once (:func:`merge_duplicate_entries`).
    """
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) == 2 and shape[0] == 0:
        raise ArgumentValueError(f"`X` is empty: got shape {tuple(shape)}; "
                                 f"{type(estimator).__name__} needs at least {min_samples} "
                                 "samples", "X")
    with naming("X"):
        X = validate_data(estimator, X, accept_sparse="csr" if accept_sparse else False,
                          dtype=[np.float64, np.float32], ensure_min_samples=min_samples,
                          ensure_all_finite=True, reset=reset)
    return merge_duplicate_entries(X)


def merge_duplicate_entries(X):
    """``X`` with every cell stored once; ``X`` itself is never changed.

    A sparse matrix may store a cell more than once (a bag of words built with one
    stored 1 per token occurrence): scipy reads it as the sum of the pieces, but a
    row norm computed from ``data``, as scikit-learn's ``normalize`` does, sees
    them separately, and cosine similarities come out wrong. Such a matrix is
    copied and its duplicates summed; any other input is returned as it is.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)

    Returns
    -------
    ndarray or sparse matrix of shape (n_samples, n_features)
        ``X``, or a canonical copy of it.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lowdim.embedding._validation import merge_duplicate_entries
    >>> X = sp.csr_matrix((np.array([1.0, 1.0, 2.0]), np.array([0, 0, 1]), np.array([0, 3])))
    >>> merged = merge_duplicate_entries(X)
    >>> merged.data.tolist(), merged.indices.tolist(), X.data.tolist()
    ([2.0, 2.0], [0, 1], [1.0, 1.0, 2.0])
    """
    if sp.issparse(X) and not getattr(X, "has_canonical_format", True):
        X = X.copy()
        X.sum_duplicates()
    return X


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
