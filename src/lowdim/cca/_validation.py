"""Input checks shared by every CCA estimator: one boundary, clear errors.

Views are converted once, here: dense views to C-contiguous float64 arrays,
sparse views to CSR float64 (never densified). Every error names the argument
and the offending value.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_array

from .._validation import ArgumentValueError, naming

__all__ = ["check_view", "check_views", "check_n_components", "check_positive",
           "check_zero_variance"]


def check_view(A, name: str, n_features: int | None = None):
    """Validate one view: 2-D, finite, float64; sparse stays CSR.

    Parameters
    ----------
    A : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        ``Y`` may also be 1-D (a single variable, as scikit-learn's CCA allows).
    name : str
        Argument name used in error messages ("X", "Y", ...).
    n_features : int, optional
        Expected number of columns (checked in ``transform``/``score``).

    Returns
    -------
    A : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features)
    """
    if A is None:
        raise ArgumentValueError(f"`{name}` is required, got None", name)
    one_d_ok = name.startswith("Y")
    with naming(name):
        A = check_array(A, accept_sparse="csr", dtype=np.float64, order="C",
                        ensure_2d=not one_d_ok, ensure_all_finite=True, input_name=name)
    if A.ndim == 1:
        A = A.reshape(-1, 1)
    if sp.issparse(A):
        A = sp.csr_matrix(A)
        A.sort_indices()
    if n_features is not None and A.shape[1] != n_features:
        raise ArgumentValueError(f"{name} has {A.shape[1]} features, but the estimator is "
                                 f"expecting {n_features} features as input", name)
    return A


def check_zero_variance(A, name: str) -> None:
    """Raise if every column of ``A`` is constant (the view carries no variation).

    A few constant columns are fine: the ridge term ``reg`` keeps the Gram
    matrix invertible. A view whose columns are all constant has nothing to
    correlate and is rejected.
    """
    if sp.issparse(A):
        constant = _sparse_all_constant(A)
    else:
        constant = np.all(A.max(axis=0) == A.min(axis=0))
    if constant:
        raise ArgumentValueError(f"`{name}` has zero variance: all {A.shape[1]} columns are "
                                 "constant, so it has no direction to correlate", name)


def _sparse_all_constant(A) -> bool:
    """Every column of CSR ``A`` constant, in O(nnz) and without a CSC copy.

    A column with non-zeros in some rows but not all varies; only columns
    that are non-zero in every row need their values compared.
    """
    n = A.shape[0]
    # explicit zeros are rare: only then copy the indices of the entries that are non-zero
    stored = A.indices if A.data.all() else A.indices[A.data != 0]
    nonzero = np.bincount(stored, minlength=A.shape[1])
    if np.any((nonzero > 0) & (nonzero < n)):
        return False
    full = np.flatnonzero(nonzero == n)
    if not full.size:
        return True  # all zero
    dense = A[:, full].toarray()  # n rows of the (rare) everywhere-non-zero columns
    return bool(np.all(dense.max(axis=0) == dense.min(axis=0)))


def check_views(X, Y):
    """Validate a pair of views with the same rows.

    Returns
    -------
    X : ndarray or csr_matrix of shape (n_samples, p1)
    Y : ndarray or csr_matrix of shape (n_samples, p2)
    """
    X = check_view(X, "X")
    if Y is None:
        raise ArgumentValueError("CCA requires y to be passed, but the target y is None "
                                 "(`Y`, the second view)", "Y")
    Y = check_view(Y, "Y")
    if X.shape[0] != Y.shape[0]:
        raise ArgumentValueError(f"`Y` must have as many rows as `X` ({X.shape[0]}), got "
                                 f"{Y.shape[0]} rows", ("Y", "X"))
    if X.shape[0] < 2:
        raise ArgumentValueError(f"`X` and `Y` need at least 2 rows, got n_samples = {X.shape[0]}",
                                 ("X", "Y"))
    check_zero_variance(X, "X")
    check_zero_variance(Y, "Y")
    return X, Y


def check_n_components(n_components, p1: int, p2: int) -> int:
    """Return ``n_components`` as int after checking 1 <= k <= min(p1, p2)."""
    if not isinstance(n_components, numbers.Integral) or isinstance(n_components, bool):
        raise ArgumentValueError(f"`n_components` must be an int, got {n_components!r}",
                                 "n_components")
    k = int(n_components)
    if k < 1 or k > min(p1, p2):
        raise ArgumentValueError("`n_components` must be between 1 and min(p1, p2) = "
                                 f"{min(p1, p2)} (p1 = {p1}, p2 = {p2}), got {k}", "n_components")
    return k


def check_positive(value, name: str, *, integer: bool = False, allow_zero: bool = False):
    """Check a numeric parameter is (non-)negative and, optionally, an integer."""
    kind = numbers.Integral if integer else numbers.Real
    if not isinstance(value, kind) or isinstance(value, bool) or not math.isfinite(value) \
            or value < 0 or (value == 0 and not allow_zero):
        which = "non-negative" if allow_zero else "positive"
        raise ArgumentValueError(f"`{name}` must be a {which} {'int' if integer else 'number'}, "
                                 f"got {value!r}", name)
    return int(value) if integer else float(value)
