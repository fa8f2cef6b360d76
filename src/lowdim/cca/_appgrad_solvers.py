r"""The AppGrad iterations (Ma, Lu & Foster 2015, Algorithms 4 and 5).

One half-iteration for view x, with ``C_x = S_x + λI``:

.. math::

    \tilde\Phi \leftarrow \tilde\Phi - \eta\,(C_x\tilde\Phi - S_{xy}\Psi), \qquad
    \Phi \leftarrow \tilde\Phi\,(\tilde\Phi^\top C_x \tilde\Phi)^{-1/2}

then the same for y with the new Φ (views updated in turn, as in the
authors' code). Three solvers share this update:

- :class:`DataSolver` (batch, from the data): keeps ``XΦ̃`` and ``YΨ̃``
  (n×k) between iterations, so an iteration costs four n×p×k products
  (``Xᵀ(XΦ̃ − YΨ)`` and ``XΦ̃`` per view) and never forms a p×p matrix;
- :class:`GramSolver` (batch, precomputed ``S_x, S_y, S_xy``): O(p²k) per
  iteration after one O(np²) pass;
- :class:`StochasticSolver`: the gradient on a minibatch of ``b`` rows, the
  normalisation on a separate random subsample of ``s`` rows (authors' code);
  on sparse data a step touches only the minibatch's columns (:class:`LazyView`).

Each solver exposes ``start(rng)``, ``step(rng) -> relative change``,
``weights()`` and ``moments()`` (k×k second moments for the final alignment).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ._base import projected_moments
from ._linalg import inv_sqrt_psd, power_lambda_max
from .metrics import canonical_correlations, canonical_correlations_from_moments

__all__ = ["ViewState", "LazyView", "DataSolver", "GramSolver", "StochasticSolver",
           "data_half_step", "gram_half_step"]


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
    """

    tilde: np.ndarray
    weights: np.ndarray
    proj_tilde: np.ndarray | None = None
    proj: np.ndarray | None = None


def _relative_change(new: np.ndarray, old: np.ndarray) -> float:
    scale = np.linalg.norm(new)
    return float(np.linalg.norm(new - old) / scale) if scale > 0 else np.inf


def data_half_step(A, own: ViewState, target: np.ndarray, eta: float, reg: float) -> ViewState:
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
    """
    n = A.shape[0]
    grad = A.T @ (own.proj_tilde - target)
    grad /= n
    grad += reg * own.tilde
    tilde = own.tilde - eta * grad
    proj_tilde = np.asarray(A @ tilde)
    M = inv_sqrt_psd(proj_tilde.T @ proj_tilde / n + reg * (tilde.T @ tilde))
    return ViewState(tilde, tilde @ M, proj_tilde, proj_tilde @ M)


def gram_half_step(S, S_cross, own: ViewState, other_weights, eta: float,
                   reg: float) -> ViewState:
    """AppGrad half-iteration for one view from precomputed moments.

    Parameters
    ----------
    S : ndarray of shape (p, p)
        This view's ``S_x = XᵀX / n``.
    S_cross : ndarray of shape (p, q)
        ``S_xy`` (for x) or ``S_xyᵀ`` (for y).
    own : ViewState
        With ``proj_tilde = S @ own.tilde``.
    other_weights : ndarray of shape (q, k)
    eta, reg : float
    """
    grad = own.proj_tilde - S_cross @ other_weights + reg * own.tilde
    tilde = own.tilde - eta * grad
    proj_tilde = S @ tilde
    M = inv_sqrt_psd(tilde.T @ proj_tilde + reg * (tilde.T @ tilde))
    return ViewState(tilde, tilde @ M, proj_tilde, None)


def _start_factor(weights, moment, reg):
    """``M`` such that ``W M`` satisfies ``(WM)ᵀ(S + λI)(WM) = I``, given ``moment = WᵀSW``."""
    return inv_sqrt_psd(moment + reg * (weights.T @ weights))


class DataSolver:
    """Batch AppGrad on the data: memory O(k(p1+p2)) + O(nk)."""

    kind = "data"

    def __init__(self, X, Y, k, reg, eta_x, eta_y):
        self.X, self.Y, self.k, self.reg = X, Y, k, reg
        self.eta_x, self.eta_y = eta_x, eta_y

    @staticmethod
    def lambda_max(A, rng) -> float:
        """Power-iteration estimate of ``λ_max(AᵀA / n)``."""
        return power_lambda_max(lambda v: A.T @ (A @ v) / A.shape[0], A.shape[1], rng)

    def start(self, rng):
        (n, p1), p2, k = self.X.shape, self.Y.shape[1], self.k
        psi0 = rng.standard_normal((p2, k))
        proj0 = np.asarray(self.Y @ psi0)
        M = _start_factor(psi0, proj0.T @ proj0 / n, self.reg)  # Y (psi0 M) = proj0 M
        self.x = ViewState(np.zeros((p1, k)), np.zeros((p1, k)), np.zeros((n, k)), None)
        self.y = ViewState(np.zeros((p2, k)), psi0 @ M, np.zeros((n, k)), proj0 @ M)

    def step(self, rng) -> float:
        x_old, y_old = self.x.tilde, self.y.tilde
        self.x = data_half_step(self.X, self.x, self.y.proj, self.eta_x, self.reg)
        self.y = data_half_step(self.Y, self.y, self.x.proj, self.eta_y, self.reg)
        return max(_relative_change(self.x.tilde, x_old), _relative_change(self.y.tilde, y_old))

    def weights(self):
        return self.x.weights, self.y.weights

    def train_correlations(self) -> np.ndarray:
        return canonical_correlations(self.x.proj, self.y.proj)

    def moments(self):
        return projected_moments(self.x.proj, self.y.proj, *self.weights(), self.reg)


class GramSolver:
    """Batch AppGrad on precomputed ``S_x``, ``S_y``, ``S_xy``: O(p²k) per iteration."""

    kind = "gram"

    def __init__(self, grams, k, reg, eta_x, eta_y):
        """``grams``: ``(S_x, S_y, S_xy)`` from :func:`~._linalg.gram_matrices`."""
        self.k, self.reg, self.eta_x, self.eta_y = k, reg, eta_x, eta_y
        self.Sx, self.Sy, self.Sxy = grams

    @staticmethod
    def lambda_max(S, rng) -> float:
        return power_lambda_max(lambda v: S @ v, S.shape[0], rng)

    def start(self, rng):
        p1, p2, k = self.Sx.shape[0], self.Sy.shape[0], self.k
        psi0 = rng.standard_normal((p2, k))
        psi0 = psi0 @ _start_factor(psi0, psi0.T @ self.Sy @ psi0, self.reg)
        self.x = ViewState(np.zeros((p1, k)), np.zeros((p1, k)), np.zeros((p1, k)))
        self.y = ViewState(np.zeros((p2, k)), psi0, np.zeros((p2, k)))

    def step(self, rng) -> float:
        x_old, y_old = self.x.tilde, self.y.tilde
        self.x = gram_half_step(self.Sx, self.Sxy, self.x, self.y.weights, self.eta_x, self.reg)
        self.y = gram_half_step(self.Sy, self.Sxy.T, self.y, self.x.weights, self.eta_y,
                                self.reg)
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


@dataclass
class LazyView:
    """Stochastic iterate stored as ``Φ̃ = c·T`` with ``G = TᵀT`` kept up to date.

    The ridge shrinks all of Φ̃ each step, but the minibatch gradient only
    touches the rows of T in the minibatch's support: scaling ``c`` absorbs
    the shrinkage, so a step costs O(nnz·k + |support|·k²) on sparse data,
    not O(p·k). ``Φ = c·T·M`` is formed only when asked for; ``start`` holds
    the explicit random Ψ⁰ until the view's first update.
    """

    T: np.ndarray
    c: float
    G: np.ndarray
    M: np.ndarray
    start: np.ndarray | None = None

    def project(self, A_rows):
        """``A_rows @ Φ`` without forming Φ."""
        if self.start is not None:
            return np.asarray(A_rows @ self.start)
        return self.c * (np.asarray(A_rows @ self.T) @ self.M)

    def weights(self):
        return self.start if self.start is not None else self.c * (self.T @ self.M)

    def refresh(self):
        """Fold ``c`` into ``T`` and recompute ``G`` exactly (bounds rounding drift)."""
        self.T *= self.c
        self.c = 1.0
        self.G = self.T.T @ self.T


def _support(A_rows):
    """Columns touched by ``A_rows`` and ``A_rows`` restricted to them (compact CSR)."""
    if not sp.issparse(A_rows):
        return slice(None), A_rows
    cols, inverse = np.unique(A_rows.indices, return_inverse=True)
    compact = sp.csr_matrix((A_rows.data, inverse.astype(A_rows.indices.dtype), A_rows.indptr),
                            shape=(A_rows.shape[0], cols.size))
    return cols, compact


class StochasticSolver:
    """Stochastic AppGrad: minibatch gradient, subsample normalisation (Algorithm 5)."""

    kind = "stochastic"
    #: iterations between exact recomputations of ``G = TᵀT``
    REFRESH = 1000

    def __init__(self, X, Y, k, reg, eta_x, eta_y, batch_size, normalization_size):
        self.X, self.Y, self.k, self.reg = X, Y, k, reg
        self.eta_x, self.eta_y = eta_x, eta_y
        self.b, self.s = batch_size, normalization_size

    @staticmethod
    def lambda_max(A, rng, batch_size, n_probes: int = 10) -> float:
        """Largest ``λ_max(A_bᵀA_b / b)`` over ``n_probes`` random minibatches.

        A minibatch Gram matrix has a larger top eigenvalue than the full one
        (much larger when ``b < p``), and it is what the stochastic step must
        stay below.
        """
        n = A.shape[0]
        best = 0.0
        for _ in range(n_probes):
            Ab = A[rng.choice(n, size=batch_size, replace=False)]
            best = max(best, power_lambda_max(lambda v: Ab.T @ (Ab @ v) / batch_size,
                                              A.shape[1], rng))
        return best

    def _rows(self, rng, size):
        return np.sort(rng.choice(self.X.shape[0], size=size, replace=False))

    def start(self, rng):
        p1, p2, k = self.X.shape[1], self.Y.shape[1], self.k
        psi0 = rng.standard_normal((p2, k))
        Z = np.asarray(self.Y[self._rows(rng, self.s)] @ psi0)
        psi0 = psi0 @ _start_factor(psi0, Z.T @ Z / self.s, self.reg)
        self.x = LazyView(np.zeros((p1, k)), 1.0, np.zeros((k, k)), np.eye(k))
        self.y = LazyView(np.zeros((p2, k)), 1.0, np.zeros((k, k)), np.eye(k), start=psi0)
        self.iteration = 0

    def _half_step(self, A, B, own: LazyView, other: LazyView, eta, rows, norm_rows):
        Ab = A[rows]
        residual = own.c * np.asarray(Ab @ own.T) - other.project(B[rows])
        cols, compact = _support(Ab)
        grad = np.asarray(compact.T @ residual) / self.b  # rows `cols` of Aᵀ_b R / b
        own.c *= 1.0 - eta * self.reg  # the ridge part of the step, for every row at once
        old = np.array(own.T[cols])  # a copy also when `cols` is a slice (dense views)
        new = old - (eta / own.c) * grad
        own.T[cols] = new
        own.G += new.T @ new - old.T @ old
        own.start = None
        Z = own.c * np.asarray(A[norm_rows] @ own.T)
        own.M = inv_sqrt_psd(Z.T @ Z / self.s + self.reg * own.c ** 2 * own.G)

    def step(self, rng) -> float:
        norm_rows = self._rows(rng, self.s)  # shared by both views, as in the authors' code
        self._half_step(self.X, self.Y, self.x, self.y, self.eta_x, self._rows(rng, self.b),
                        norm_rows)
        self._half_step(self.Y, self.X, self.y, self.x, self.eta_y, self._rows(rng, self.b),
                        norm_rows)
        self.iteration += 1
        if self.iteration % self.REFRESH == 0 or min(self.x.c, self.y.c) < 1e-6:
            self.x.refresh()
            self.y.refresh()
        return np.nan

    def weights(self):
        return self.x.weights(), self.y.weights()

    def train_correlations(self) -> np.ndarray:
        Wx, Wy = self.weights()
        return canonical_correlations(self.X @ Wx, self.Y @ Wy)

    def moments(self):
        Wx, Wy = self.weights()
        return projected_moments(np.asarray(self.X @ Wx), np.asarray(self.Y @ Wy), Wx, Wy,
                                 self.reg)
