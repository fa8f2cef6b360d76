r"""Randomized CCA: sketch the cross-covariance's range, then solve CCA exactly inside it.

Mineiro & Karampatziakis (2014), *A Randomized Algorithm for CCA*
(arXiv:1411.3409), in two passes over the data:

1. **Range finder** (one pass per ``n_passes``): with Gaussian
   ``Ω_x`` (p1×l), ``Ω_y`` (p2×l), ``l = k + oversample``,

   .. math:: Q_x = X^\top Y\,\Omega_y, \qquad Q_y = Y^\top X\,\Omega_x

   (each further pass orthonormalises and multiplies again, a power
   iteration on ``XᵀY``).
2. **Solve in the sketch** (one pass): ``Z_x = XQ_x``, ``Z_y = YQ_y`` give the
   l×l moments ``Q_xᵀ(S_x + λI)Q_x``, ``Q_yᵀ(S_y + λI)Q_y`` and ``Q_xᵀS_{xy}Q_y``;
   exact regularised CCA between the two l-dimensional projections, truncated
   to the top k pairs, gives ``Φ = Q_x A``, ``Ψ = Q_y B``.

Unlike NW- and DW-CCA it whitens exactly, but only within the sketched span:
its TCC approaches exact CCA's as ``oversample`` grows. Memory is
O(l·(p1 + p2 + n)); no p×p matrix is formed. Sparse views stay sparse.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as la

from ..seeding import spawn_seeds
from ._base import BaseCCA, align_to_canonical, projected_moments
from ._validation import check_positive
from .flops import qr_flops, svd_flops

__all__ = ["RandomizedCCA"]


class RandomizedCCA(BaseCCA):
    """Two-pass randomized CCA (Mineiro & Karampatziakis, 2014).

    Parameters
    ----------
    n_components : int, default=2
        Canonical pairs k.
    reg : float, default=0.005
        Ridge λ of ``S_x + λI`` and ``S_y + λI`` in the final solve.
    oversample : int, default=100
        Extra sketch columns; the sketch has ``l = n_components + oversample``
        columns per view, capped at each view's width (the authors' default
        is 500, for hashed features).
    n_passes : int, default=1
        Range-finder passes over the data (the algorithm then makes one more,
        so 1 is the two-pass algorithm). The authors: "2 is sometimes better".
    random_state : int, RandomState instance or None, default=None
        Seeds the sketches.

    Attributes
    ----------
    x_weights_, y_weights_ : ndarray of shape (p1, k), (p2, k)
    canonical_correlations_ : ndarray of shape (k,)
        Regularised correlations of the returned pairs on the training views.
    flops_ : float
        Dense-equivalent count (sparse views counted as dense, as every
        method's ``flops_``; see :mod:`lowdim.cca.flops`).

    References
    ----------
    P. Mineiro and N. Karampatziakis. A randomized algorithm for CCA.
    arXiv:1411.3409, 2014.

    Examples
    --------
    >>> from lowdim.cca import ExactCCA, RandomizedCCA
    >>> Z = rng.standard_normal((500, 2))
    >>> X = np.hstack([Z, rng.standard_normal((500, 30))])
    >>> Y = np.hstack([Z + 0.5 * rng.standard_normal((500, 2)), rng.standard_normal((500, 20))])
    >>> sketch = RandomizedCCA(n_components=2, oversample=10, random_state=0).fit(X, Y)
    >>> sketch.canonical_correlations_.round(2)
    array([0.86, 0.84])
    >>> ExactCCA(n_components=2).fit(X, Y).canonical_correlations_.round(2)
    array([0.91, 0.9 ])
    """

    def __init__(self, n_components=2, *, reg=0.005, oversample=100, n_passes=1,
                 random_state=None):
        self.n_components = n_components
        self.reg = reg
        self.oversample = oversample
        self.n_passes = n_passes
        self.random_state = random_state

    def _sketch(self, X, Y, width, n_passes, rng):
        """Orthonormal bases of the range of ``XᵀY`` (x side) and ``YᵀX`` (y side)."""
        Qx = rng.standard_normal((X.shape[1], width[0]))
        Qy = rng.standard_normal((Y.shape[1], width[1]))
        for _ in range(n_passes):
            # one pass: both products read X and Y once
            Qx, Qy = (np.asarray(X.T @ np.asarray(Y @ Qy)), np.asarray(Y.T @ np.asarray(X @ Qx)))
            Qx, _ = la.qr(Qx, mode="economic", overwrite_a=True, check_finite=False)
            Qy, _ = la.qr(Qy, mode="economic", overwrite_a=True, check_finite=False)
        return Qx, Qy

    def _fit(self, X, Y, k):
        oversample = check_positive(self.oversample, "oversample", integer=True, allow_zero=True)
        n_passes = check_positive(self.n_passes, "n_passes", integer=True)
        rng = np.random.default_rng(spawn_seeds(self.random_state, 1)[0])
        (n, p1), p2, reg = X.shape, Y.shape[1], float(self.reg)
        # the sketch of each side lives in the range of the other view's Gram: at most min(p1, p2)
        width = (min(k + oversample, p1, p2),) * 2
        Qx, Qy = self._sketch(X, Y, width, n_passes, rng)
        Zx, Zy = np.asarray(X @ Qx), np.asarray(Y @ Qy)  # the second pass
        Wx, Wy, rho = align_to_canonical(Qx, Qy, *projected_moments(Zx, Zy, Qx, Qy, reg))
        self.canonical_correlations_ = rho[:k]
        return Wx[:, :k], Wy[:, :k], self._flops(n, p1, p2, k, width[0], n_passes)

    @staticmethod
    def _flops(n, p1, p2, k, l, n_passes):
        products = 4.0 * n * (p1 + p2) * l  # X Ω and Xᵀ(·), Y Ω and Yᵀ(·)
        sketch = n_passes * (products + qr_flops(p1, l) + qr_flops(p2, l))
        solve = (2.0 * n * (p1 + p2) * l + 6.0 * n * l * l + 4.0 * (p1 + p2) * l * l
                 + 2.0 * 11 * l ** 3 + svd_flops(l, l) + 2.0 * (p1 + p2) * l * l)
        return sketch + solve
