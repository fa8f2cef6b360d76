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
    r"""Non-whitening CCA: top-k singular vectors of ``XᵀY`` (Witten et al., 2009).

    Parameters
    ----------
    n_components : int, default=2
        Canonical pairs k.
    reg : float, default=0.005
        Ridge used only when aligning the output pairs.
    oversample : int, default=10
        Extra columns of the randomized SVD.
    n_iter : int, default=4
        Power iterations of the randomized SVD.
    random_state : int, RandomState instance or None, default=None
        Seeds the randomized SVD.

    Attributes
    ----------
    x_weights_, y_weights_ : ndarray of shape (p1, k), (p2, k)
        Canonical weights, aligned to canonical pairs within their spans.
    flops_ : float
        Dense-equivalent count (see :mod:`lowdim.cca.flops`).

    Notes
    -----
    Whitening is skipped altogether: the weights are the top-k singular vectors
    of the cross-moment matrix,

    .. math::

        \frac{X^\top Y}{n} \approx U_k D_k V_k^\top, \qquad
        \Phi = U_k, \quad \Psi = V_k,

    i.e. the maximiser of :math:`\operatorname{tr}(\Phi^\top X^\top Y \Psi)/n`
    under :math:`\Phi^\top\Phi = \Psi^\top\Psi = I_k` instead of CCA's
    :math:`\Phi^\top S_x \Phi = I_k`. It is exact CCA only when
    :math:`S_x` and :math:`S_y` are multiples of the identity; directions of large
    variance dominate otherwise. Cost: a randomized SVD of an operator applied by
    products with :math:`X` and :math:`Y`, :math:`O(\mathrm{nnz} \cdot (k + o))` per
    power iteration.

    Examples
    --------
    >>> from lowdim.cca import ExactCCA, NWCCA
    >>> Z = rng.standard_normal((500, 2))
    >>> X = np.hstack([Z, 3 * rng.standard_normal((500, 3))])  # loud noise columns
    >>> Y = np.hstack([Z + 0.5 * rng.standard_normal((500, 2)), rng.standard_normal((500, 2))])
    >>> nw = NWCCA(n_components=2, random_state=0).fit(X, Y)
    >>> exact = ExactCCA(n_components=2).fit(X, Y)
    >>> round(float(nw.score_components(X, Y).sum()), 2), round(float(exact.score_components(X, Y).sum()), 2)
    (1.61, 1.77)
    """

    def _scalings(self, X, Y):
        return np.ones(X.shape[1]), np.ones(Y.shape[1]), 0.0


class DWCCA(_CrossSVDCCA):
    r"""Diagonal-whitening CCA (Lu & Foster, 2014).

    Approximates ``S_x^{-1/2}`` by ``(diag(S_x) + λ)^{-1/2}``, takes the top-k
    singular vectors ``U, V`` of ``D_x^{-1/2} XᵀY D_y^{-1/2}``, and returns
    ``Φ = D_x^{-1/2}U``, ``Ψ = D_y^{-1/2}V``.

    Parameters
    ----------
    n_components : int, default=2
        Canonical pairs k.
    reg : float, default=0.005
        Ridge λ added to the diagonal of each view's second moments.
    oversample : int, default=10
        Extra columns of the randomized SVD.
    n_iter : int, default=4
        Power iterations of the randomized SVD.
    random_state : int, RandomState instance or None, default=None
        Seeds the randomized SVD.

    Attributes
    ----------
    x_weights_, y_weights_ : ndarray of shape (p1, k), (p2, k)
        Canonical weights, aligned to canonical pairs within their spans.
    flops_ : float
        Dense-equivalent count (see :mod:`lowdim.cca.flops`).

    Notes
    -----
    With :math:`D_x = \operatorname{diag}(S_x) + \lambda I` and
    :math:`D_y = \operatorname{diag}(S_y) + \lambda I` in place of the whitening
    matrices,

    .. math::

        D_x^{-1/2} \frac{X^\top Y}{n} D_y^{-1/2} \approx U_k D_k V_k^\top, \qquad
        \Phi = D_x^{-1/2} U_k, \quad \Psi = D_y^{-1/2} V_k,

    which is exact regularised CCA when the columns of each view are uncorrelated
    (diagonal :math:`S_x`, :math:`S_y`), as for very sparse, nearly disjoint features.

    Examples
    --------
    >>> from lowdim.cca import DWCCA, ExactCCA
    >>> Z = rng.standard_normal((500, 2))
    >>> X = np.hstack([Z, 3 * rng.standard_normal((500, 3))])  # loud noise columns
    >>> Y = np.hstack([Z + 0.5 * rng.standard_normal((500, 2)), rng.standard_normal((500, 2))])
    >>> dw = DWCCA(n_components=2, random_state=0).fit(X, Y)
    >>> exact = ExactCCA(n_components=2).fit(X, Y)
    >>> round(float(dw.score_components(X, Y).sum()), 2), round(float(exact.score_components(X, Y).sum()), 2)
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
    r"""CCA on the leading principal directions of each view ("PCA-CCA").

    Projects each view on its top ``m`` right singular vectors (uncentred
    PCA by randomized SVD, Halko et al. 2011), solves exact regularised CCA
    between the m-dimensional projections, and maps the weights back:
    ``Φ = V_x A``. With ``m = p`` it is exact CCA.

    Parameters
    ----------
    n_components : int, default=2
        Canonical pairs k.
    n_pca_components : int, default=100
        m, capped at each view's width; must be at least ``n_components``.
    reg : float, default=0.005
        Ridge λ of the CCA between the projections.
    oversample : int, default=10
        Extra columns of each randomized SVD.
    n_iter : int, default=4
        Power iterations of each randomized SVD.
    random_state : int, RandomState instance or None, default=None
        Seeds the two randomized SVDs.

    Attributes
    ----------
    x_weights_, y_weights_ : ndarray of shape (p1, k), (p2, k)
        Canonical weights ``V_x A`` and ``V_y B``.
    flops_ : float
        Dense-equivalent count (see :mod:`lowdim.cca.flops`).

    Notes
    -----
    With :math:`V_x \in \mathbb{R}^{p_1 \times m}` the top right singular vectors
    of :math:`X` (and :math:`V_y` of :math:`Y`), PCA-CCA solves regularised CCA in
    their span:

    .. math::

        \max_{A, B}\ \operatorname{tr}\bigl(A^\top V_x^\top \tfrac{X^\top Y}{n} V_y B\bigr)
        \quad \text{s.t.} \quad
        A^\top V_x^\top (S_x + \lambda I) V_x A = B^\top V_y^\top (S_y + \lambda I) V_y B = I_k,

    an exact :math:`m \times m` problem, and returns :math:`\Phi = V_x A`,
    :math:`\Psi = V_y B`. Correlations carried by low-variance directions, outside
    the top ``m``, are lost.

    Examples
    --------
    >>> from lowdim.cca import PCACCA
    >>> X, Y = two_views
    >>> pca_cca = PCACCA(n_components=2, n_pca_components=3, random_state=0).fit(X, Y)
    >>> pca_cca.score_components(X, Y).round(2), pca_cca.x_weights_.shape
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
