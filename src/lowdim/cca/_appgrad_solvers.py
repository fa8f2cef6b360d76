r"""The AppGrad iterations (Ma, Lu & Foster 2015, Algorithms 4 and 5).

One half-iteration for view x, with ``C_x = S_x + λI``:

.. math::

    \tilde\Phi \leftarrow \tilde\Phi - \eta\,(C_x\tilde\Phi - S_{xy}\Psi), \qquad
    \Phi \leftarrow \tilde\Phi\,N^{-1/2}, \quad N = \tilde\Phi^\top C_x \tilde\Phi

then the same for y with the new Φ (views updated in turn, as in the
authors' code). ``normalization='authors'`` uses the authors' MNIST code's
``N = Φ̃ᵀS_xΦ̃ + λI_k`` instead. Three batch solvers share this update:

- :class:`DataSolver` (batch, from the data): keeps ``XΦ̃`` and ``YΨ̃``
  (n×k) between iterations, so an iteration costs four n×p×k products
  (``Xᵀ(XΦ̃ − YΨ)`` and ``XΦ̃`` per view) and never forms a p×p matrix;
- :class:`GramSolver` (batch, precomputed ``S_x, S_y, S_xy``): O(p²k) per
  iteration after one O(np²) pass, or O(nnz(S)·k) where they are kept sparse;
- the stochastic solvers of :mod:`._stochastic_solvers` (re-exported here).

Each solver exposes ``start(rng)``, ``step(rng) -> relative change``,
``weights()``, ``moments()`` (k×k second moments for the final alignment),
``flops_done`` (FLOPs actually performed so far, counting sparse products by
their non-zeros) and ``skipped`` (normalisations skipped per view because the
iterate, or without ridge its normaliser, was exactly zero: see
:func:`~._linalg.normalisation_factor`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import projected_moments
from ._linalg import appgrad_normaliser, normalisation_factor, power_lambda_max, start_factor
from ._stochastic_solvers import DenseStochasticSolver, LazyView, StochasticSolver
from .flops import normalisation_flops as normalise_flops
from .flops import stored_entries as nnz
from .metrics import canonical_correlations, canonical_correlations_from_moments

__all__ = ["ViewState", "LazyView", "DataSolver", "GramSolver", "StochasticSolver",
           "DenseStochasticSolver", "data_half_step", "gram_half_step"]

@dataclass
class ViewState:
    """One view's iterate.

    Attributes
    ----------
    tilde : ndarray of shape (p, k)
        The unnormalised Φ̃.
    weights : ndarray of shape (p, k)
        The normalised Φ = Φ̃ (Φ̃ᵀC Φ̃)^{-1/2}.
    proj_tilde : ndarray or None
        ``XΦ̃`` (n, k) on the data path, ``S_xΦ̃`` (p, k) on the Gram path.
    proj : ndarray or None
        ``XΦ`` (n, k) on the data path.
    skipped : bool
        The iterate (or its normaliser) of this update was zero, so ``weights`` (and ``proj``)
        were kept from the previous iterate.
    """

    tilde: np.ndarray
    weights: np.ndarray
    proj_tilde: np.ndarray | None = None
    proj: np.ndarray | None = None
    skipped: bool = False


def _relative_change(new: np.ndarray, old: np.ndarray) -> float:
    scale = np.linalg.norm(new)
    return float(np.linalg.norm(new - old) / scale) if scale > 0 else np.inf


def data_half_step(A, own: ViewState, target: np.ndarray, eta: float, reg: float,
                   normalization: str = "paper") -> ViewState:
    """AppGrad half-iteration for one view from the data.

    Parameters
    ----------
    A : ndarray or csr_matrix of shape (n, p)
        This view.
    own : ViewState
        With ``proj_tilde = A @ own.tilde``.
    target : ndarray of shape (n, k)
        The other view projected on its normalised weights, ``YΨ``.
    eta, reg : float
    normalization : {'paper', 'authors'}, default='paper'
        See :func:`~._linalg.appgrad_normaliser`.
    """
    n = A.shape[0]
    grad = A.T @ (own.proj_tilde - target)
    grad /= n
    grad += reg * own.tilde
    tilde = own.tilde - eta * grad
    proj_tilde = np.asarray(A @ tilde)
    G = tilde.T @ tilde
    M = normalisation_factor(appgrad_normaliser(proj_tilde.T @ proj_tilde / n, G, reg,
                                                normalization), G)
    if M is None:
        return ViewState(tilde, own.weights, proj_tilde, own.proj, skipped=True)
    return ViewState(tilde, tilde @ M, proj_tilde, proj_tilde @ M)


def gram_half_step(S, S_cross, own: ViewState, other_weights, eta: float,
                   reg: float, normalization: str = "paper") -> ViewState:
    """AppGrad half-iteration for one view from precomputed moments.

    Parameters
    ----------
    S : ndarray or sparse array of shape (p, p)
        This view's ``S_x = XᵀX / n``.
    S_cross : ndarray or sparse array of shape (p, q)
        ``S_xy`` (for x) or ``S_xyᵀ`` (for y).
    own : ViewState
        With ``proj_tilde = S @ own.tilde``.
    other_weights : ndarray of shape (q, k)
    eta, reg : float
    normalization : {'paper', 'authors'}, default='paper'
    """
    grad = own.proj_tilde - S_cross @ other_weights + reg * own.tilde
    tilde = own.tilde - eta * grad
    proj_tilde = S @ tilde
    G = tilde.T @ tilde
    M = normalisation_factor(appgrad_normaliser(tilde.T @ proj_tilde, G, reg, normalization), G)
    if M is None:
        return ViewState(tilde, own.weights, proj_tilde, None, skipped=True)
    return ViewState(tilde, tilde @ M, proj_tilde, None)


class DataSolver:
    """Batch AppGrad on the data: memory O(k(p1+p2)) + O(nk)."""

    kind = "data"

    def __init__(self, X, Y, k, reg, eta_x, eta_y, normalization="paper"):
        self.X, self.Y, self.k, self.reg = X, Y, k, reg
        self.eta_x, self.eta_y = eta_x, eta_y
        self.normalization = normalization
        (n, p1), p2 = X.shape, Y.shape[1]
        # per iteration and view: Aᵀ(residual) and A Φ̃ (2 nnz k each), the update, the normaliser
        self.flops_per_iteration = self.iteration_flops(X, Y, k)

    @staticmethod
    def iteration_flops(X, Y, k) -> float:
        """FLOPs of one iteration on the data (both views)."""
        n = X.shape[0]
        return sum(4.0 * nnz(A) * k + 4.0 * A.shape[1] * k + 2.0 * n * k * k
                   + normalise_flops(n, A.shape[1], k) for A in (X, Y))

    @staticmethod
    def lambda_max(A, rng) -> float:
        """Power-iteration estimate of ``λ_max(AᵀA / n)``."""
        return power_lambda_max(lambda v: A.T @ (A @ v) / A.shape[0], A.shape[1], rng)

    def start(self, rng):
        (n, p1), p2, k = self.X.shape, self.Y.shape[1], self.k
        psi0 = rng.standard_normal((p2, k))
        proj0 = np.asarray(self.Y @ psi0)
        M = start_factor(psi0, proj0.T @ proj0 / n, self.reg, self.normalization)
        self.x = ViewState(np.zeros((p1, k)), np.zeros((p1, k)), np.zeros((n, k)),
                           np.zeros((n, k)))
        self.y = ViewState(np.zeros((p2, k)), psi0 @ M, np.zeros((n, k)), proj0 @ M)
        self.flops_done = 2.0 * nnz(self.Y) * k + normalise_flops(n, p2, k)
        self.skipped = [0, 0]

    def step(self, rng) -> float:
        x_old, y_old = self.x.tilde, self.y.tilde
        self.x = data_half_step(self.X, self.x, self.y.proj, self.eta_x, self.reg,
                                self.normalization)
        self.y = data_half_step(self.Y, self.y, self.x.proj, self.eta_y, self.reg,
                                self.normalization)
        self.skipped[0] += self.x.skipped
        self.skipped[1] += self.y.skipped
        self.flops_done += self.flops_per_iteration
        return max(_relative_change(self.x.tilde, x_old), _relative_change(self.y.tilde, y_old))

    def weights(self):
        return self.x.weights, self.y.weights

    def train_correlations(self) -> np.ndarray:
        return canonical_correlations(self.x.proj, self.y.proj)

    def moments(self):
        return projected_moments(self.x.proj, self.y.proj, *self.weights(), self.reg)


class GramSolver:
    """Batch AppGrad on precomputed ``S_x``, ``S_y``, ``S_xy``: O(p²k) per iteration, or
    O(nnz(S)·k) where they are sparse."""

    kind = "gram"

    def __init__(self, grams, k, reg, eta_x, eta_y, normalization="paper", setup_flops=0.0):
        """``grams``: ``(S_x, S_y, S_xy)`` from :func:`~._linalg.gram_matrices`.

        ``setup_flops``: FLOPs spent forming them, counted in ``flops_done``.
        """
        self.k, self.reg, self.eta_x, self.eta_y = k, reg, eta_x, eta_y
        self.Sx, self.Sy, self.Sxy = grams
        self.normalization, self.setup_flops = normalization, float(setup_flops)
        p1, p2 = self.Sx.shape[0], self.Sy.shape[0]
        # per view: S Φ̃, S_cross Ψ (sparse Grams: per stored entry), the update, the
        # normaliser (from S Φ̃, no extra product)
        self.flops_per_iteration = self.iteration_flops(
            nnz(self.Sx), nnz(self.Sy), nnz(self.Sxy), p1, p2, k)

    @staticmethod
    def iteration_flops(sx, sy, sxy, p1, p2, k) -> float:
        """FLOPs of one iteration on Grams with ``sx``, ``sy``, ``sxy`` stored entries."""
        return (2.0 * k * (sx + sy + 2 * sxy) + 4.0 * k * (p1 + p2)
                + normalise_flops(p1, p1, k) + normalise_flops(p2, p2, k))

    @staticmethod
    def lambda_max(S, rng) -> float:
        return power_lambda_max(lambda v: S @ v, S.shape[0], rng)

    def start(self, rng):
        p1, p2, k = self.Sx.shape[0], self.Sy.shape[0], self.k
        psi0 = rng.standard_normal((p2, k))
        psi0 = psi0 @ start_factor(psi0, psi0.T @ self.Sy @ psi0, self.reg, self.normalization)
        self.x = ViewState(np.zeros((p1, k)), np.zeros((p1, k)), np.zeros((p1, k)))
        self.y = ViewState(np.zeros((p2, k)), psi0, np.zeros((p2, k)))
        self.flops_done = self.setup_flops + 2.0 * nnz(self.Sy) * k + normalise_flops(p2, p2, k)
        self.skipped = [0, 0]

    def step(self, rng) -> float:
        x_old, y_old = self.x.tilde, self.y.tilde
        self.x = gram_half_step(self.Sx, self.Sxy, self.x, self.y.weights, self.eta_x, self.reg,
                                self.normalization)
        self.y = gram_half_step(self.Sy, self.Sxy.T, self.y, self.x.weights, self.eta_y,
                                self.reg, self.normalization)
        self.skipped[0] += self.x.skipped
        self.skipped[1] += self.y.skipped
        self.flops_done += self.flops_per_iteration
        return max(_relative_change(self.x.tilde, x_old), _relative_change(self.y.tilde, y_old))

    def weights(self):
        return self.x.weights, self.y.weights

    def _raw_moments(self):
        Wx, Wy = self.weights()
        return Wx.T @ self.Sx @ Wx, Wy.T @ self.Sy @ Wy, Wx.T @ self.Sxy @ Wy

    def train_correlations(self) -> np.ndarray:
        return canonical_correlations_from_moments(*self._raw_moments())

    def moments(self):
        (Wx, Wy), (Cxx, Cyy, Cxy) = self.weights(), self._raw_moments()
        return Cxx + self.reg * Wx.T @ Wx, Cyy + self.reg * Wy.T @ Wy, Cxy
