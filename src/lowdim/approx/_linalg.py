"""Shared pieces of the approximation methods: validation, sampling, pseudo-inverses."""

from __future__ import annotations

import logging
import warnings

import numpy as np
import scipy.linalg
from scipy.sparse.linalg import ArpackNoConvergence, eigsh

from .._validation import (ArgumentTypeError, ArgumentValueError, check_choice, check_matrix,
                           check_number)
from ..similarity import DenseOracle, SimilarityOracle
from ._lowrank import LowRankApprox

__all__ = ["as_oracle", "check_rtol", "check_sample_size", "landmark_count", "lambda_min", "pinv",
           "pinv_symmetric", "require_symmetric", "LANCZOS_MIN_SIZE"]

logger = logging.getLogger("lowdim")

#: Values of ``eigen_solver`` (:func:`lambda_min`).
EIGEN_SOLVERS = ("auto", "dense", "lanczos")

#: ``eigen_solver="auto"`` uses Lanczos (``scipy.sparse.linalg.eigsh``) from this size on.
LANCZOS_MIN_SIZE = 1500


def check_random_state(seed) -> np.random.RandomState:
    """scikit-learn's ``check_random_state``, imported when first called: the Snakefile
    imports this package (``SMS_METHODS``) at every start-up, two per cluster job, and
    scikit-learn would be most of its import time."""
    from sklearn.utils import check_random_state as sklearn_check_random_state

    return sklearn_check_random_state(seed)


def as_oracle(K, name="oracle") -> SimilarityOracle:
    """Return ``K`` if it is an oracle, else wrap a dense or sparse matrix in a :class:`DenseOracle`.

    Errors name the argument ``name`` (the approximation's ``oracle``).
    """
    if isinstance(K, SimilarityOracle):
        return K
    if isinstance(K, LowRankApprox):
        raise ArgumentTypeError(f"`{name}` must be a SimilarityOracle or a square matrix, got a "
                                f"{type(K).__name__} (an approximation, not the exact matrix)",
                                name)
    try:
        return DenseOracle(K)
    except (TypeError, ValueError) as exc:
        kind = ArgumentTypeError if isinstance(exc, TypeError) else ArgumentValueError
        raise kind(f"`{name}` must be a SimilarityOracle or a square finite matrix: {exc}",
                   name) from None


def check_rtol(rtol, name="rtol"):
    """``rtol`` as a float >= 0, or None (the default tolerance)."""
    return check_number(rtol, name, minimum=0.0, none_ok=True)


def require_symmetric(oracle, method) -> None:
    """Refuse a non-symmetric oracle for a method that approximates symmetric matrices."""
    if not oracle.symmetric:
        raise ArgumentValueError(f"`oracle` must be symmetric for {method}; build it with "
                                 "symmetrize=True (uses (K + K.T) / 2) or use sicur/stacur",
                                 "oracle")


def landmark_count(s, n, name="s", stacklevel=3) -> int:
    """The number of Nyström landmarks: ``s`` when ``1 <= s < n``, else ``n`` with a warning.

    ``s >= n`` makes every item a landmark: the whole ``n x n`` matrix is evaluated
    (the exact matrix for a PSD similarity, at ``n (n + 1) / 2`` evaluations), as
    scikit-learn's ``Nystroem`` does with ``n_components > n_samples``. The Nyström
    functions and :class:`lowdim.cca.KernelCCA` share this rule.
    """
    s = check_number(s, name, integer=True, minimum=1)
    if s >= n:
        warnings.warn(f"`{name}` = {s} >= n = {n}: every item is a landmark, so the whole "
                      f"{n} x {n} matrix is evaluated ({n * (n + 1) // 2} evaluations of a "
                      "symmetric similarity), which is no longer an approximation", UserWarning,
                      stacklevel=stacklevel)
        return int(n)
    return int(s)


def check_sample_size(s, n, name="s", minimum=1) -> int:
    """Return ``s`` as an int after checking ``minimum <= s < n``."""
    s = check_number(s, name, integer=True, minimum=minimum)
    if s >= n:
        raise ArgumentValueError(f"`{name}` must be < n = {n}, got {s} (sampling every item is "
                                 "not an approximation)", name)
    return int(s)


def default_rtol(shape) -> float:
    """``max(shape) * eps``: the relative cut-off :func:`numpy.linalg.pinv` uses in NumPy 2."""
    return max(shape) * np.finfo(np.float64).eps


def pinv_symmetric(W, rtol=None):
    """Pseudo-inverse of a symmetric matrix through its eigendecomposition.

    Eigenvalues with ``|mu| <= rtol * max|mu|`` are treated as zero, so a
    rank-deficient (or numerically singular) core gives the Moore-Penrose
    inverse on its range instead of an error.

    Parameters
    ----------
    W : ndarray of shape (k, k), symmetric
        The matrix (finite).
    rtol : float, optional
        Relative tolerance; default ``k * eps``.

    Returns
    -------
    W_pinv : ndarray of shape (k, k)
    kept : int
        Number of eigenvalues inverted (the numerical rank).

    Examples
    --------
    >>> from lowdim.approx import pinv_symmetric
    >>> W = np.diag([2.0, -4.0, 1e-20])
    >>> W_pinv, kept = pinv_symmetric(W)
    >>> kept
    2
    >>> np.diag(W_pinv)
    array([ 0.5 , -0.25,  0.  ])
    """
    W = check_matrix(W, "W", square=True, accept_sparse=False)
    W = (W + W.T) / 2.0
    rtol = default_rtol(W.shape) if check_rtol(rtol) is None else float(rtol)
    mu, V = scipy.linalg.eigh(W)
    scale = np.abs(mu).max() if mu.size else 0.0
    keep = np.abs(mu) > rtol * scale
    Vk = V[:, keep]
    return (Vk / mu[keep]) @ Vk.T, int(keep.sum())


def pinv(A, rtol=None):
    """Pseudo-inverse of a general matrix (SVD), singular values ``<= rtol * max`` dropped.

    Parameters
    ----------
    A : ndarray of shape (m, n)
        The matrix (finite).
    rtol : float, optional
        Relative tolerance; default ``max(m, n) * eps``.

    Returns
    -------
    A_pinv : ndarray of shape (A.shape[1], A.shape[0])
        The Moore-Penrose inverse on the kept singular values.
    kept : int
        Number of singular values inverted (the numerical rank).

    Examples
    --------
    >>> from lowdim.approx import pinv
    >>> A = np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])
    >>> A_pinv, kept = pinv(A)
    >>> kept, A_pinv.shape
    (1, (2, 3))
    >>> np.allclose(A @ A_pinv @ A, A)
    True
    """
    A = check_matrix(A, "A", accept_sparse=False)
    rtol = default_rtol(A.shape) if check_rtol(rtol) is None else float(rtol)
    U, sv, Vt = scipy.linalg.svd(A, full_matrices=False)
    keep = sv > rtol * (sv.max() if sv.size else 0.0)
    return (Vt[keep].T / sv[keep]) @ U[:, keep].T, int(keep.sum())


def lambda_min(W, solver="auto", random_state=None) -> float:
    """Smallest eigenvalue of a symmetric matrix.

    Parameters
    ----------
    W : ndarray of shape (m, m)
        A symmetric matrix (finite).
    solver : {"auto", "dense", "lanczos"}, default="auto"
        ``"dense"``: :func:`scipy.linalg.eigh` restricted to the smallest
        eigenvalue; ``"lanczos"``: :func:`scipy.sparse.linalg.eigsh` with
        ``which="SA"``, started from a seeded vector; ``"auto"``: Lanczos when
        ``m >= LANCZOS_MIN_SIZE``. A Lanczos run that does not converge falls
        back to the dense solver with a warning.
    random_state : int, RandomState or None
        Seeds the Lanczos start vector.

    Returns
    -------
    lambda_min : float
        The smallest (most negative) eigenvalue.

    Examples
    --------
    >>> from lowdim.approx import lambda_min
    >>> W = np.array([[2.0, 1.0], [1.0, -1.0]])
    >>> round(lambda_min(W), 4)
    -1.3028
    >>> round(float(np.linalg.eigvalsh(W)[0]), 4)
    -1.3028
    """
    check_choice(solver, "solver", EIGEN_SOLVERS)
    W = check_matrix(W, "W", square=True, accept_sparse=False)
    m = W.shape[0]
    W = (W + W.T) / 2.0
    if solver == "lanczos" or (solver == "auto" and m >= LANCZOS_MIN_SIZE):
        if m >= 3:
            from sklearn.utils import check_random_state

            v0 = check_random_state(random_state).uniform(-1.0, 1.0, size=m)
            try:
                return float(eigsh(W, k=1, which="SA", v0=v0, tol=1e-8,
                                   return_eigenvectors=False)[0])
            except ArpackNoConvergence:
                warnings.warn(f"Lanczos did not converge for lambda_min of a {m}x{m} matrix; "
                              "using the dense eigensolver", RuntimeWarning, stacklevel=2)
    return float(scipy.linalg.eigh(W, eigvals_only=True, subset_by_index=[0, 0])[0])


def draw_order(rng, n) -> np.ndarray:
    """A uniform random order of ``range(n)``; its prefixes are nested uniform samples.

    Every method takes its samples as prefixes of this order, so methods run
    with the same seed share landmarks (``S1 = order[:s]``, ``S2 = order[:2s]``,
    SiCUR's ``R = order[:s]`` and ``C = order[:s // 2]``): their errors are a
    paired comparison.
    """
    return rng.permutation(n).astype(np.int64)
