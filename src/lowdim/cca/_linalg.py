"""Small dense linear algebra for the CCA solvers: k×k normalisation, power
iteration, and a randomized SVD of an implicit operator.

Nothing here forms a p×p matrix unless asked to.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp

__all__ = ["Diverged", "NORMALIZATIONS", "SPARSE_GRAM_DENSITY", "appgrad_normaliser",
           "gram_matrices", "inv_sqrt_psd", "normalisation_factor", "power_lambda_max",
           "randomized_svd_operator", "start_factor"]

#: AppGrad's normalisations: the paper's ``Φ̃ᵀ(S_x+λI)Φ̃`` and the authors' MNIST code's
#: ``Φ̃ᵀS_xΦ̃ + λI_k`` (``sgd_cca2.m`` and ``gd_cca.m`` in github.com/MaZhuang/CCA).
NORMALIZATIONS = ("paper", "authors")

#: AppGrad's iterates have a normaliser ``Φ̃ᵀ(S_x+λI)Φ̃`` that tends to ``Λ²``
#: (eigenvalues <= 1) whatever the data's scale (Φ̃ scales as its inverse); an
#: eigenvalue beyond this bound means the iterates are running away. Only the
#: iterates are held to it: the random start and the final alignment normalise
#: moments that grow with the data's scale squared.
BLOWUP = 1e8


class Diverged(FloatingPointError):
    """Iterates became non-finite, or so large that they soon would."""


#: A Gram matrix of sparse views stays sparse when at most this share of it is non-zero.
SPARSE_GRAM_DENSITY = 0.25


def gram_matrices(X, Y, keep_sparse: bool = False):
    """``(XᵀX/n, YᵀY/n, XᵀY/n)`` as dense arrays; with ``keep_sparse``, CSR arrays where
    sparse views give a product at most :data:`SPARSE_GRAM_DENSITY` non-zero (one-hot
    words, binary features), so that AppGrad's iterations cost O(nnz(S)·k) on them instead
    of O(p²k). Exact CCA factorises them, and takes them dense."""
    n = X.shape[0]

    def kept(M):
        if not sp.issparse(M):
            return np.asarray(M) / n
        if keep_sparse and M.nnz <= SPARSE_GRAM_DENSITY * M.shape[0] * M.shape[1]:
            return sp.csr_array(M) / n
        return M.toarray() / n

    return kept(X.T @ X), kept(Y.T @ Y), kept(X.T @ Y)


def inv_sqrt_psd(N: np.ndarray, bound: float = np.inf) -> np.ndarray:
    """Symmetric inverse square root of a k×k positive semi-definite matrix.

    Eigenvalues below ``k · eps · λ_max`` are floored there, so a rank-deficient
    normaliser gives a finite (pseudo-)inverse.

    Parameters
    ----------
    N : ndarray of shape (k, k)
    bound : float, default=inf
        Largest eigenvalue accepted: :data:`BLOWUP` for AppGrad's iterates, none
        for matrices whose scale is the data's (a start, an alignment).

    Returns
    -------
    ndarray of shape (k, k)

    Raises
    ------
    Diverged
        If ``N`` is non-finite, or its largest eigenvalue is not in ``(0, bound]``.
    """
    if not np.all(np.isfinite(N)):
        raise Diverged("normaliser is not finite")
    w, V = np.linalg.eigh((N + N.T) / 2)  # k×k: NumPy's call costs a third of SciPy's
    if not 0 < w[-1] <= bound:
        raise Diverged(f"normaliser eigenvalue {w[-1]:.3g} is not in (0, {bound:.3g}]")
    w = np.maximum(w, w[-1] * N.shape[0] * np.finfo(float).eps)
    return (V / np.sqrt(w)) @ V.T


def appgrad_normaliser(data_moment: np.ndarray, tilde_gram: np.ndarray, reg: float,
                       normalization: str = "paper") -> np.ndarray:
    """The k×k matrix N of AppGrad's normalisation ``Φ = Φ̃ N^{-1/2}``.

    Parameters
    ----------
    data_moment : ndarray of shape (k, k)
        ``Φ̃ᵀS_xΦ̃`` (on the data, the Gram matrix or a row subsample).
    tilde_gram : ndarray of shape (k, k)
        ``Φ̃ᵀΦ̃`` (read only by the paper's normalisation).
    reg : float
    normalization : {'paper', 'authors'}
        'paper': ``Φ̃ᵀ(S_x+λI)Φ̃``; 'authors': ``Φ̃ᵀS_xΦ̃ + λI_k``.
    """
    if normalization == "paper":
        return data_moment + reg * tilde_gram
    return data_moment + reg * np.eye(data_moment.shape[0])


def _is_zero(N) -> bool:
    return bool(np.all(np.isfinite(N)) and not np.any(N))


def normalisation_factor(N: np.ndarray, tilde_gram: np.ndarray) -> np.ndarray | None:
    """``N^{-1/2}`` of an iterate's normaliser, or None when the iterate, or N, is zero.

    A zero iterate carries no signal yet: every minibatch so far had no
    cross-moment with the other view. With the authors' normalisation its
    ``N = λI_k`` is not zero, and normalising it would replace the previous
    weights (``Ψ⁰`` at the start) by zeros for good. Without ridge N is also
    zero when the rows it was measured on are zero on the iterate's support.
    Either way the caller keeps its previous factor.

    Parameters
    ----------
    N : ndarray of shape (k, k)
        From :func:`appgrad_normaliser`.
    tilde_gram : ndarray of shape (k, k)
        ``Φ̃ᵀΦ̃``, zero exactly when the iterate is.

    Raises
    ------
    Diverged
        As :func:`inv_sqrt_psd` with ``bound=BLOWUP``, for a non-zero iterate.
    """
    if _is_zero(tilde_gram) or _is_zero(N):
        return None
    return inv_sqrt_psd(N, BLOWUP)


def start_factor(weights, moment, reg, normalization="paper"):
    """``M`` normalising the random start ``W``, given ``moment = WᵀSW``.

    ``(WM)ᵀ(S + λI)(WM) = I`` for the paper's normalisation, at any scale of
    the data (the paper's Ψ⁰); the identity when the normaliser is zero (a
    view that is zero on every sampled row).

    Parameters
    ----------
    weights : ndarray of shape (p, k)
    moment : ndarray of shape (k, k)
    reg : float
    normalization : {'paper', 'authors'}, default='paper'

    Returns
    -------
    M : ndarray of shape (k, k)
    """
    N = appgrad_normaliser(moment, weights.T @ weights, reg, normalization)
    return np.eye(weights.shape[1]) if _is_zero(N) else inv_sqrt_psd(N)


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
