"""Cheap CCA heuristics the paper compares against on URL Reputation (Figure 2).

All three approximate the whitening step and are therefore biased; they run
in time linear in the data. SVD and PCA steps are randomized (Halko et al.,
2011), as in the paper. Each estimator returns weights aligned to canonical
pairs within the estimated spans (one k-dimensional CCA on the projections),
which leaves the TCC unchanged; that pass is included in ``flops_``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils.extmath import randomized_svd

from .._validation import ArgumentValueError
from ..seeding import spawn_seeds
from ._base import BaseCCA, align_to_canonical, projected_moments
from ._linalg import randomized_svd_operator
from ._validation import check_positive
from .exact import exact_cca_from_grams
from .flops import exact_cca_flops, randomized_svd_flops

__all__ = ["NWCCA", "DWCCA", "PCACCA"]


def _aligned(X, Y, Wx, Wy, reg):
    """Align weights to canonical pairs; return (Wx, Wy, flops of the pass)."""
    n, k = X.shape[0], Wx.shape[1]
    Zx, Zy = np.asarray(X @ Wx), np.asarray(Y @ Wy)
    Wx, Wy, _ = align_to_canonical(Wx, Wy, *projected_moments(Zx, Zy, Wx, Wy, reg))
    return Wx, Wy, 2.0 * n * k * (X.shape[1] + Y.shape[1]) + 6.0 * n * k * k


def _column_sq_means(A):
    """``diag(AᵀA) / n`` without densifying."""
    sq = A.multiply(A).sum(axis=0) if sp.issparse(A) else np.einsum("ij,ij->j", A, A)
    return np.asarray(sq).ravel() / A.shape[0]


class _CrossSVDCCA(BaseCCA):
    """SVD of a diagonally scaled ``XᵀY/n``, computed from products only."""

    def __init__(self, n_components=2, *, reg=0.005, oversample=10, n_iter=4, random_state=None):
        self.n_components = n_components
        self.reg = reg
        self.oversample = oversample
        self.n_iter = n_iter
        self.random_state = random_state

    def _scalings(self, X, Y):
        raise NotImplementedError

    def _fit(self, X, Y, k):
        oversample = check_positive(self.oversample, "oversample", integer=True, allow_zero=True)
        n_iter = check_positive(self.n_iter, "n_iter", integer=True, allow_zero=True)
        rng = np.random.default_rng(spawn_seeds(self.random_state, 1)[0])
        (n, p1), p2 = X.shape, Y.shape[1]
        dx, dy, flops = self._scalings(X, Y)

        def matmat(V):
            return dx[:, None] * np.asarray(X.T @ np.asarray(Y @ (dy[:, None] * V))) / n

        def rmatmat(U):
            return dy[:, None] * np.asarray(Y.T @ np.asarray(X @ (dx[:, None] * U))) / n

        U, _, Vt, n_products = randomized_svd_operator(matmat, rmatmat, (p1, p2), k, rng,
                                                       oversample, n_iter)
        width = min(k + oversample, p1, p2)
        flops += randomized_svd_flops(2.0 * n * (p1 + p2) * width, n_products, p1, p2, width)
        Wx, Wy, align = _aligned(X, Y, dx[:, None] * U, dy[:, None] * Vt.T, float(self.reg))
        return Wx, Wy, flops + align


class NWCCA(_CrossSVDCCA):
    """Non-whitening CCA: top-k singular vectors of ``XᵀY`` (Witten et al., 2009).

    Parameters
    ----------
    n_components : int, default=2
    reg : float, default=0.005
        Ridge used only when aligning the output pairs.
    oversample : int, default=10
        Extra columns of the randomized SVD.
    n_iter : int, default=4
        Power iterations of the randomized SVD.
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    x_weights_, y_weights_ : ndarray of shape (p1, k), (p2, k)
    flops_ : float
        Dense-equivalent count (see :mod:`lowdim.cca.flops`).

    Examples
    --------
    >>> from lowdim.cca import ExactCCA, NWCCA
    >>> Z = rng.standard_normal((500, 2))
    >>> X = np.hstack([Z, 3 * rng.standard_normal((500, 3))])  # loud noise columns
    >>> Y = np.hstack([Z + 0.5 * rng.standard_normal((500, 2)), rng.standard_normal((500, 2))])
    >>> nw = NWCCA(n_components=2, random_state=0).fit(X, Y)
    >>> exact = ExactCCA(n_components=2).fit(X, Y)
    >>> round(float(nw.score(X, Y).sum()), 2), round(float(exact.score(X, Y).sum()), 2)
    (1.61, 1.77)
    """

    def _scalings(self, X, Y):
        return np.ones(X.shape[1]), np.ones(Y.shape[1]), 0.0


class DWCCA(_CrossSVDCCA):
    """Diagonal-whitening CCA (Lu & Foster, 2014).

    Approximates ``S_x^{-1/2}`` by ``(diag(S_x) + λ)^{-1/2}``, takes the top-k
    singular vectors ``U, V`` of ``D_x^{-1/2} XᵀY D_y^{-1/2}``, and returns
    ``Φ = D_x^{-1/2}U``, ``Ψ = D_y^{-1/2}V``. Parameters as :class:`NWCCA`.

    Examples
    --------
    >>> from lowdim.cca import DWCCA, ExactCCA
    >>> Z = rng.standard_normal((500, 2))
    >>> X = np.hstack([Z, 3 * rng.standard_normal((500, 3))])  # loud noise columns
    >>> Y = np.hstack([Z + 0.5 * rng.standard_normal((500, 2)), rng.standard_normal((500, 2))])
    >>> dw = DWCCA(n_components=2, random_state=0).fit(X, Y)
    >>> exact = ExactCCA(n_components=2).fit(X, Y)
    >>> round(float(dw.score(X, Y).sum()), 2), round(float(exact.score(X, Y).sum()), 2)
    (1.77, 1.77)
    """

    def _scalings(self, X, Y):
        reg = float(self.reg)
        dx = 1.0 / np.sqrt(_column_sq_means(X) + reg)
        dy = 1.0 / np.sqrt(_column_sq_means(Y) + reg)
        if reg == 0:  # an all-zero column has nothing to whiten
            dx[~np.isfinite(dx)], dy[~np.isfinite(dy)] = 0.0, 0.0
        return dx, dy, 2.0 * X.shape[0] * (X.shape[1] + Y.shape[1])


class PCACCA(BaseCCA):
    """CCA on the leading principal directions of each view ("PCA-CCA").

    Projects each view on its top ``m`` right singular vectors (uncentred
    PCA by randomized SVD, Halko et al. 2011), solves exact regularised CCA
    between the m-dimensional projections, and maps the weights back:
    ``Φ = V_x A``. With ``m = p`` it is exact CCA.

    Parameters
    ----------
    n_components : int, default=2
    n_pca_components : int, default=100
        m, capped at each view's width; must be at least ``n_components``.
    reg : float, default=0.005
    oversample : int, default=10
    n_iter : int, default=4
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    x_weights_, y_weights_ : ndarray of shape (p1, k), (p2, k)
    flops_ : float

    Examples
    --------
    >>> from lowdim.cca import PCACCA
    >>> X, Y = two_views
    >>> pca_cca = PCACCA(n_components=2, n_pca_components=3, random_state=0).fit(X, Y)
    >>> pca_cca.score(X, Y).round(2), pca_cca.x_weights_.shape
    (array([0.88, 0.36]), (5, 2))
    """

    def __init__(self, n_components=2, *, n_pca_components=100, reg=0.005, oversample=10,
                 n_iter=4, random_state=None):
        self.n_components = n_components
        self.n_pca_components = n_pca_components
        self.reg = reg
        self.oversample = oversample
        self.n_iter = n_iter
        self.random_state = random_state

    def _principal_directions(self, A, m, seed):
        oversample = check_positive(self.oversample, "oversample", integer=True, allow_zero=True)
        n_iter = check_positive(self.n_iter, "n_iter", integer=True, allow_zero=True)
        _, _, Vt = randomized_svd(A, m, n_oversamples=oversample, n_iter=n_iter,
                                  random_state=int(seed))
        n, p = A.shape
        width = min(m + oversample, p)
        flops = randomized_svd_flops(2.0 * n * p * width, 2 * n_iter + 2, n, p, width)
        return Vt.T, flops

    def _fit(self, X, Y, k):
        m = check_positive(self.n_pca_components, "n_pca_components", integer=True)
        mx, my = min(m, X.shape[1]), min(m, Y.shape[1])
        if k > min(mx, my):
            raise ArgumentValueError(f"`n_pca_components` must be at least n_components = {k}, "
                                     f"got {m}", "n_pca_components")
        seeds = spawn_seeds(self.random_state, 2)
        (Vx, fx), (Vy, fy) = (self._principal_directions(X, mx, seeds[0]),
                              self._principal_directions(Y, my, seeds[1]))
        n = X.shape[0]
        Zx, Zy = np.asarray(X @ Vx), np.asarray(Y @ Vy)
        # Vx has orthonormal columns, so Vxᵀ(S_x + λI)Vx = ZxᵀZx/n + λI: exact CCA in the subspace
        A, B, _, _ = exact_cca_from_grams(Zx.T @ Zx / n, Zy.T @ Zy / n, Zx.T @ Zy / n, k,
                                          float(self.reg))
        flops = (fx + fy + 2.0 * n * (X.shape[1] * mx + Y.shape[1] * my)
                 + exact_cca_flops(n, mx, my, k, "cholesky")
                 + 2.0 * k * (X.shape[1] * mx + Y.shape[1] * my))
        return Vx @ A, Vy @ B, flops
