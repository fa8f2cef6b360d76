"""Small dense linear algebra for the CCA solvers: k×k normalisation, power
iteration, and a randomized SVD of an implicit operator.

Nothing here forms a p×p matrix unless asked to.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp

__all__ = ["Diverged", "gram_matrices", "inv_sqrt_psd", "power_lambda_max",
           "randomized_svd_operator"]

#: The normaliser ``Φ̃ᵀ(S_x+λI)Φ̃`` tends to ``Λ²`` (eigenvalues <= 1); an
#: eigenvalue beyond this bound means the iterates are running away.
BLOWUP = 1e8


class Diverged(FloatingPointError):
    """Iterates became non-finite, or so large that they soon would."""


def gram_matrices(X, Y):
    """``(XᵀX/n, YᵀY/n, XᵀY/n)`` as dense arrays (sparse products stay sparse until here)."""
    n = X.shape[0]

    def dense(M):
        return M.toarray() if sp.issparse(M) else np.asarray(M)

    return dense(X.T @ X) / n, dense(Y.T @ Y) / n, dense(X.T @ Y) / n


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


def power_lambda_max(apply, dim: int, rng, block: int = 8, max_iter: int = 20,
                     rtol: float = 1e-2) -> float:
    """Largest eigenvalue of a symmetric PSD operator by block power iteration.

    Iterates ``V <- orth(A V)`` on a block of ``block`` vectors; ``‖A V‖₂``
    (V orthonormal) is the estimate. A block converges like
    ``(λ_{block+1}/λ_1)^t`` instead of ``(λ_2/λ_1)^t``, and on data that does
    not fit in cache one pass over ``X`` serves the whole block.

    Parameters
    ----------
    apply : callable
        ``apply(V)`` returns ``A @ V`` for V of shape (dim, block).
    dim : int
    rng : numpy.random.Generator
    block : int, default=8
    max_iter : int, default=20
    rtol : float, default=1e-2
        Stop when the estimate changes by less than this, relatively. A step
        size needs no more: an estimate a little low gives a step a little
        above ``1/λ_max``, still far from the divergence bound ``2/λ_max``
        (and a diverging step is halved anyway).

    Returns
    -------
    lam : float
        The estimate (never above the true value).
    """
    V, _ = la.qr(rng.standard_normal((dim, min(block, dim))), mode="economic")
    lam = 0.0
    for _ in range(max_iter):
        V, R = la.qr(np.asarray(apply(V)), mode="economic")
        new = float(la.svdvals(R)[0])
        if new == 0.0 or abs(new - lam) <= rtol * new:
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
