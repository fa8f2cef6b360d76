"""Total correlation captured (TCC) and proportion of correlations captured (PCC).

Conventions follow the paper and the authors' code: moments are *uncentred*
(``S_x = XᵀX / n``), as for the sparse data the paper targets. Centre dense
views beforehand if centred correlations are wanted.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp

from .._validation import ArgumentValueError, check_matrix

__all__ = ["GRAM_MAX_CONDITION", "canonical_correlations", "canonical_correlations_from_moments",
           "tcc", "pcc"]


def _orthonormal_basis(A: np.ndarray) -> np.ndarray:
    """Orthonormal basis of the column span of ``A`` (numerically rank-revealing).

    Pivoted QR drops directions whose ``|R_jj|`` falls below
    ``max(n, k) · eps · |R_11|``, so collinear projections count once.
    """
    if A.shape[1] == 0 or not np.any(A):
        return np.zeros((A.shape[0], 0))
    Q, R, _ = la.qr(A, mode="economic", pivoting=True)
    diag = np.abs(np.diag(R))
    rank = int(np.sum(diag > diag[0] * max(A.shape) * np.finfo(float).eps))
    return Q[:, :rank]


def canonical_correlations(A, B) -> np.ndarray:
    r"""Canonical correlations between the columns of two projected views.

    Computed stably: with pivoted QR bases :math:`Q_A, Q_B` of the column
    spans, the correlations are the singular values of :math:`Q_A^\top Q_B`
    (Björck & Golub, 1973). When both projections have a condition number
    below :data:`GRAM_MAX_CONDITION` (AppGrad's normalised iterates, fitted
    scores), the same singular values come from the k×k Gram matrices,
    several times faster, to within about 1e-10. Uncentred, as in the paper.

    Parameters
    ----------
    A : ndarray of shape (n_samples, k1)
        First projected view, e.g. ``X @ Wx``.
    B : ndarray of shape (n_samples, k2)
        Second projected view, e.g. ``Y @ Wy``.

    Returns
    -------
    rho : ndarray of shape (min(k1, k2),)
        Canonical correlations in decreasing order, in [0, 1]; zero for
        directions lost to rank deficiency.

    Examples
    --------
    >>> from lowdim.cca import canonical_correlations
    >>> A = rng.standard_normal((1000, 2))
    >>> B = np.c_[A[:, 0], rng.standard_normal(1000)]
    >>> canonical_correlations(A, B).round(2)
    array([1.  , 0.02])
    """
    A, B = check_matrix(A, "A"), check_matrix(B, "B")  # finite, 2-D, named
    A = A.toarray() if sp.issparse(A) else A
    B = B.toarray() if sp.issparse(B) else B
    if A.shape[0] != B.shape[0]:
        raise ArgumentValueError("`A` and `B` must be 2-D with the same rows, got shapes "
                                 f"{A.shape} and {B.shape}", ("A", "B"))
    k = min(A.shape[1], B.shape[1])
    fast = _well_conditioned_correlations(A, B)
    if fast is not None:
        return fast
    rho = np.zeros(k)
    Qa, Qb = _orthonormal_basis(A), _orthonormal_basis(B)
    if Qa.shape[1] and Qb.shape[1]:
        s = la.svd(Qa.T @ Qb, compute_uv=False)
        m = min(k, s.size)
        rho[:m] = np.clip(s[:m], 0.0, 1.0)
    return rho


#: Largest condition number of a projection whose correlations are read from its k×k Gram
#: matrix (rounding about eps·cond², 1e-10 here); above it, or rank-deficient, pivoted QR.
GRAM_MAX_CONDITION = 1e3


def _well_conditioned_correlations(A, B):
    """The correlations from ``AᵀA``, ``BᵀB`` and ``AᵀB``
    (:func:`canonical_correlations_from_moments`) when both projections are well
    conditioned (AppGrad's normalised iterates, a fitted CCA's scores), else None: three
    n×k products instead of two pivoted QRs, several times faster at n ≫ k."""
    if min(A.shape[1], B.shape[1]) == 0 or A.shape[0] < max(A.shape[1], B.shape[1]):
        return None
    grams = A.T @ A, B.T @ B
    for G in grams:
        w = np.linalg.eigvalsh(G)
        if not w[0] > w[-1] / GRAM_MAX_CONDITION ** 2:  # also False for zeros or NaN
            return None
    return canonical_correlations_from_moments(*grams, A.T @ B)


def _whitener(C: np.ndarray) -> np.ndarray:
    """``C^{-1/2}`` restricted to the numerically non-zero eigenspace of PSD ``C``."""
    w, V = la.eigh((C + C.T) / 2)
    keep = w > max(w[-1], 0.0) * C.shape[0] * np.finfo(float).eps * 10
    return V[:, keep] / np.sqrt(w[keep])


def canonical_correlations_from_moments(Caa, Cbb, Cab) -> np.ndarray:
    """Canonical correlations from k×k second moments of two projected views.

    Used on the precomputed-Gram path, where the projections ``XΦ`` are never
    formed: ``Caa = ΦᵀS_xΦ``, ``Cbb = ΨᵀS_yΨ``, ``Cab = ΦᵀS_xyΨ``.
    Less accurate than :func:`canonical_correlations` when the projections
    are nearly collinear (the condition number is squared).

    Parameters
    ----------
    Caa : ndarray of shape (k1, k1)
        Second moments of the first projection.
    Cbb : ndarray of shape (k2, k2)
        Second moments of the second projection.
    Cab : ndarray of shape (k1, k2)
        Their cross moments.

    Returns
    -------
    rho : ndarray of shape (min(k1, k2),)
        Canonical correlations in decreasing order, in [0, 1].

    Examples
    --------
    >>> from lowdim.cca.metrics import canonical_correlations, canonical_correlations_from_moments
    >>> A = rng.standard_normal((1000, 2))
    >>> B = A + rng.standard_normal((1000, 2))
    >>> moments = canonical_correlations_from_moments(A.T @ A, B.T @ B, A.T @ B)
    >>> np.allclose(moments, canonical_correlations(A, B))
    True
    """
    Wa, Wb = _whitener(np.asarray(Caa)), _whitener(np.asarray(Cbb))
    k = min(np.shape(Caa)[0], np.shape(Cbb)[0])
    rho = np.zeros(k)
    if Wa.shape[1] and Wb.shape[1]:
        s = la.svd(Wa.T @ np.asarray(Cab) @ Wb, compute_uv=False)
        m = min(k, s.size)
        rho[:m] = np.clip(np.sort(s)[::-1][:m], 0.0, 1.0)
    return rho


def tcc(X, Y, Wx, Wy) -> float:
    r"""Total correlation captured: the sum of canonical correlations of ``XWx`` and ``YWy``.

    .. math:: \mathrm{TCC}(XW_x, YW_y) = \sum_{i=1}^{k} \rho_i(XW_x, YW_y)

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, p1)
        First view.
    Y : ndarray or scipy.sparse matrix of shape (n_samples, p2)
        Second view, the same rows.
    Wx : ndarray of shape (p1, k)
        Weights of the first view.
    Wy : ndarray of shape (p2, k)
        Weights of the second view.

    Returns
    -------
    tcc : float
        Between 0 and k.

    Examples
    --------
    >>> from lowdim.cca import ExactCCA, tcc
    >>> X, Y = two_views
    >>> cca = ExactCCA(n_components=2).fit(X, Y)
    >>> round(tcc(X, Y, cca.x_weights_, cca.y_weights_), 3)
    1.775
    """
    return float(np.sum(canonical_correlations(X @ np.asarray(Wx), Y @ np.asarray(Wy))))


def pcc(X, Y, Wx, Wy, Wx_exact, Wy_exact) -> float:
    r"""Proportion of correlations captured by ``(Wx, Wy)`` relative to the exact solution.

    .. math:: \mathrm{PCC} = \frac{\mathrm{TCC}(X\hat\Phi_k, Y\hat\Psi_k)}
                                  {\mathrm{TCC}(X\Phi_k, Y\Psi_k)}

    The paper plots it in percent; this returns the fraction. Evaluate on the
    training rows for in-sample PCC and on held-out rows for out-of-sample
    PCC (both numerator and denominator change).

    Parameters
    ----------
    X, Y : views of shape (n_samples, p1) and (n_samples, p2)
        The two views, the same rows.
    Wx, Wy : ndarray of shape (p1, k) and (p2, k)
        Estimated weights.
    Wx_exact, Wy_exact : ndarray of shape (p1, k) and (p2, k)
        Exact CCA weights (e.g. ``ExactCCA().fit(X_train, Y_train)``).

    Returns
    -------
    pcc : float
        The fraction (the paper plots 100 times it).

    Examples
    --------
    >>> from lowdim.cca import AppGradCCA, ExactCCA, pcc
    >>> X, Y = two_views
    >>> exact = ExactCCA(n_components=2).fit(X, Y)
    >>> appgrad = AppGradCCA(n_components=2, max_iter=20, tol=0, random_state=0).fit(X, Y)
    >>> round(pcc(X, Y, appgrad.x_weights_, appgrad.y_weights_,
    ...           exact.x_weights_, exact.y_weights_), 3)
    1.0
    """
    denominator = tcc(X, Y, Wx_exact, Wy_exact)
    if denominator <= 0:
        raise ValueError("the exact solution captures no correlation on these views; "
                         "PCC is undefined")
    return tcc(X, Y, Wx, Wy) / denominator
