"""Small dense linear algebra for the CCA solvers: k×k normalisation, power
iteration, and a randomized SVD of an implicit operator.

Nothing here forms a p×p matrix unless asked to.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as la

__all__ = ["Diverged", "inv_sqrt_psd", "power_lambda_max", "randomized_svd_operator"]

#: The normaliser ``Φ̃ᵀ(S_x+λI)Φ̃`` tends to ``Λ²`` (eigenvalues <= 1); an
#: eigenvalue beyond this bound means the iterates are running away.
BLOWUP = 1e8


class Diverged(FloatingPointError):
    """Iterates became non-finite, or so large that they soon would."""


def inv_sqrt_psd(N: np.ndarray) -> np.ndarray:
    """Symmetric inverse square root of a k×k positive semi-definite matrix.

    Eigenvalues below ``k · eps · λ_max`` are floored there, so a rank-deficient
    normaliser gives a finite (pseudo-)inverse.

    Raises
    ------
    Diverged
        If ``N`` is non-finite or its largest eigenvalue exceeds :data:`BLOWUP`.
    """
    if not np.all(np.isfinite(N)):
        raise Diverged("normaliser is not finite")
    w, V = la.eigh((N + N.T) / 2)
    if not w[-1] > 0 or w[-1] > BLOWUP:
        raise Diverged(f"normaliser eigenvalue {w[-1]:.3g} out of range")
    w = np.maximum(w, w[-1] * N.shape[0] * np.finfo(float).eps)
    return (V / np.sqrt(w)) @ V.T


def power_lambda_max(apply, dim: int, rng, max_iter: int = 50, rtol: float = 1e-3) -> float:
    """Largest eigenvalue of a symmetric PSD operator by power iteration.

    Parameters
    ----------
    apply : callable
        ``apply(v)`` returns ``A @ v`` for a vector ``v`` of shape (dim,).
    dim : int
    rng : numpy.random.Generator
    max_iter : int, default=50
    rtol : float, default=1e-3
        Stop when the Rayleigh quotient changes by less than this, relatively.
        A step size needs no more: an estimate a little low gives a step a
        little above ``1/λ_max``, still far from the divergence bound ``2/λ_max``
        (and a diverging step is halved anyway).

    Returns
    -------
    lam : float
        Rayleigh-quotient estimate (never above the true value).
    """
    v = rng.standard_normal(dim)
    v /= np.linalg.norm(v)
    lam = 0.0
    for _ in range(max_iter):
        w = apply(v)
        new = float(v @ w)
        norm = np.linalg.norm(w)
        if norm == 0:
            return 0.0
        v = w / norm
        if abs(new - lam) <= rtol * abs(new):
            return new
        lam = new
    return lam


def randomized_svd_operator(matmat, rmatmat, shape, k: int, rng, oversample: int = 10,
                            n_iter: int = 4):
    """Top-``k`` SVD of an operator given only products, by randomized subspace iteration.

    Halko, Martinsson & Tropp (2011), Algorithm 4.4. scikit-learn's
    ``randomized_svd`` needs an explicit matrix; here ``A = XᵀY`` (or a
    whitened variant) is never formed.

    Parameters
    ----------
    matmat : callable
        ``matmat(V)`` returns ``A @ V`` for V of shape (shape[1], l).
    rmatmat : callable
        ``rmatmat(U)`` returns ``A.T @ U`` for U of shape (shape[0], l).
    shape : tuple of int
    k : int
    rng : numpy.random.Generator
    oversample : int, default=10
    n_iter : int, default=4
        Power (subspace) iterations.

    Returns
    -------
    U : ndarray of shape (shape[0], k)
    s : ndarray of shape (k,)
    Vt : ndarray of shape (k, shape[1])
    n_products : int
        Number of products with ``A`` or ``Aᵀ`` (each of width ``k + oversample``).
    """
    width = min(k + oversample, min(shape))
    Q, _ = la.qr(matmat(rng.standard_normal((shape[1], width))), mode="economic")
    for _ in range(n_iter):
        Z, _ = la.qr(rmatmat(Q), mode="economic")
        Q, _ = la.qr(matmat(Z), mode="economic")
    B = rmatmat(Q).T  # (width, shape[1]) = Qᵀ A
    Ub, s, Vt = la.svd(B, full_matrices=False)
    return Q @ Ub[:, :k], s[:k], Vt[:k], 2 * n_iter + 2
