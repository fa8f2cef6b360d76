r"""Stochastic AppGrad (Ma, Lu & Foster 2015, Algorithm 5): the p-independent iteration.

One half-iteration for view x draws a minibatch I of b rows; the
normalisation uses a separate subsample J of s rows, shared by both views in
an iteration (the authors' code):

.. math::

    \tilde\Phi \leftarrow (1 - \eta\lambda)\tilde\Phi
        - \tfrac{\eta}{b} X_I^\top (X_I\tilde\Phi - Y_I\Psi), \qquad
    \Phi = \tilde\Phi N^{-1/2}, \quad
    N = \tilde\Phi^\top(\tfrac1s X_J^\top X_J + \lambda I)\tilde\Phi

(``normalization='authors'``: ``N = Φ̃ᵀX_JᵀX_JΦ̃/s + λI_k``). Two solvers
compute the same iterates:

- :class:`StochasticSolver` keeps ``Φ̃ = c·T``: the ridge shrink ``1 − ηλ``
  of every row is folded into the scalar c, only the rows of T in the
  minibatch's support change, ``G = TᵀT`` is updated from those rows, and Φ
  is kept as the factor M of ``Φ = c·T·M``, never formed during the
  iterations (``X_IΦ = c(X_I T)M``). On sparse views a step costs
  ``O(nnz(X_I)·k² + nnz(X_J)·k + k³)``, independent of p (G's update is
  scattered non-zero by non-zero, telescoping over repeated columns);
  every :attr:`~StochasticSolver.REFRESH` iterations c is folded into T and
  G recomputed (``O(pk²)``, amortised). A shrink that would take ``|c|`` below
  :attr:`~StochasticSolver.SMALLEST_SCALE` is folded into T and G at once
  (``O(pk)``), since the step divides by c: with ``ηλ = 1`` every step does
  so, forgetting the old iterate as the dense step does.
- :class:`DenseStochasticSolver` is the algorithm as written: every step
  updates and renormalises all of Φ̃, ``O(pk)`` and more. It is the reference
  the fast solver is tested against and the baseline of its measured speed-up.

In exact arithmetic, that is. Where the first minibatches leave an iterate of rank r < k
(a view that is zero on most rows gives a minibatch fewer than k rows), Φ̃ and Ψ̃ would keep
that rank for good: every update lies in the span of the previous iterates' columns. Its
normaliser is then singular; :func:`~lowdim.cca._linalg.inv_sqrt_psd` floors its null
eigenvalues at ``k·eps·λ_max``, which lifts the rounding left in the missing directions into
the weights, and the iteration grows them. The run stays deterministic, but the two solvers'
rounding differs, so there their weights differ beyond rounding. Measured on a view 90 % empty
(n = 2,000, p = 300, k = 3, b = 20): weights 1e-2 to 1.6 apart (relative), training TCC up to
16 % apart in the first 5 iterations with ``normalization='authors'``, within 1 % after 3,000
(``'paper'``: within 0.3 % throughout).

An iterate that is still zero (no minibatch so far had a cross-moment with
the other view, as with a view that is zero on most rows) is not normalised:
the previous factor is kept, and ``Ψ⁰`` while none has been computed. The
test is on the iterate, ``Φ̃ᵀΦ̃ = 0`` (``c²G`` here), not on its normaliser:
the authors' ``N = λI_k`` of a zero iterate is not zero. Without ridge a zero
normaliser is skipped too. ``skipped`` counts these per view.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
from sklearn.utils.sparsefuncs_fast import csr_row_norms

from ._base import projected_moments
from ._linalg import appgrad_normaliser, normalisation_factor, start_factor
from ._kernels import rows_nnz, rows_times, sparse_step
from .flops import normalisation_flops, stored_entries
from .metrics import canonical_correlations

__all__ = ["LazyView", "DenseView", "StochasticSolver", "DenseStochasticSolver",
           "minibatch_lambda_max"]


def _top_gram_eigenvalue(Ab) -> float:
    """``λ_max(A_bᵀA_b)`` from the smaller of ``A_bA_bᵀ`` (b×b) and ``A_bᵀA_b``."""
    K = Ab @ Ab.T if Ab.shape[0] <= Ab.shape[1] else Ab.T @ Ab
    K = K.toarray() if sp.issparse(K) else np.asarray(K)
    top = K.shape[0] - 1
    return float(la.eigvalsh(K, subset_by_index=[top, top])[0])


def _max_row_sq_norm(A) -> float:
    if sp.issparse(A):
        norms = csr_row_norms(A)  # sums of squares, no copy of the data
    else:
        norms = np.einsum("ij,ij->i", A, A)
    return float(norms.max()) if norms.size else 0.0


def minibatch_lambda_max(A, rng, batch_size: int, n_probes: int = 10) -> float:
    """Largest ``λ_max(A_bᵀA_b / b)`` over ``n_probes`` random minibatches of ``A``.

    A minibatch Gram matrix has a larger top eigenvalue than the full one
    (much larger when ``b < p``), and it is what the stochastic step must stay
    below. Each probe is exact and costs ``O(nnz(A_b)²/b)``, not O(p): the
    non-zero eigenvalues of ``A_bᵀA_b`` are those of the b×b ``A_bA_bᵀ``. The
    result is at least ``max_i ‖a_i‖² / b``, the top eigenvalue of any
    minibatch holding row i, so rare heavy rows that the probes miss cannot
    make the step unstable.
    """
    n = A.shape[0]
    best = _max_row_sq_norm(A) / batch_size
    for _ in range(n_probes):
        Ab = A[rng.choice(n, size=batch_size, replace=False)]
        best = max(best, _top_gram_eigenvalue(Ab) / batch_size)
    return best


@dataclass
class LazyView:
    """Stochastic iterate stored as ``Φ̃ = c·T``, ``Φ = c·T·M``, with ``G = TᵀT`` kept up to date.

    ``start`` holds the explicit random Ψ⁰ until the view's first non-zero
    normaliser.
    """

    T: np.ndarray
    c: float
    G: np.ndarray
    M: np.ndarray
    start: np.ndarray | None = None

    def project_rows(self, A, rows):
        """``A[rows] @ Φ`` without forming Φ."""
        if self.start is not None:
            return _rows_times(A, rows, self.start)
        return self.c * (_rows_times(A, rows, self.T) @ self.M)

    def tilde(self):
        return self.c * self.T

    def weights(self):
        return self.start if self.start is not None else self.c * (self.T @ self.M)

    def refresh(self):
        """Fold ``c`` into ``T`` and recompute ``G`` exactly (bounds rounding drift)."""
        self.T *= self.c
        self.c = 1.0
        self.G = self.T.T @ self.T

    def shrink(self, factor: float, smallest: float) -> bool:
        """``Φ̃ ← factor·Φ̃``: in ``c`` alone, unless ``|c·factor|`` would fall below ``smallest``.

        A step divides by ``c``, so ``c`` must stay away from zero: then the factor is
        folded into ``T`` and ``G`` (``O(pk)``) and True is returned. With ``factor = 0``
        (``ηλ = 1``) the step forgets the old iterate entirely: ``T`` and ``G`` become zero.
        """
        scale = self.c * factor
        if abs(scale) >= smallest:
            self.c = scale
            return False
        self.T *= scale
        self.G *= scale * scale
        self.c = 1.0
        return True


@dataclass
class DenseView:
    """The textbook iterate: ``Φ̃``, the factor ``M`` and ``Φ = Φ̃M`` (or Ψ⁰) held explicitly."""

    tilde_: np.ndarray
    M: np.ndarray
    weights_: np.ndarray
    start: np.ndarray | None = None

    def project_rows(self, A, rows):
        return np.asarray(A[rows] @ self.weights_)

    def tilde(self):
        return self.tilde_

    def weights(self):
        return self.weights_


def _rows_times(A, rows, T):
    """``A[rows] @ T``: a compiled loop over the rows' non-zeros for CSR ``A``."""
    if sp.issparse(A):
        return rows_times(A.indptr, A.indices, A.data, rows, T)
    return A[rows] @ T


def _rows_nnz(A, rows) -> int:
    return int(rows_nnz(A.indptr, rows)) if sp.issparse(A) else rows.size * A.shape[1]


class _Stochastic:
    """What both stochastic solvers share: sampling, the start, evaluation, bookkeeping."""

    kind = "stochastic"

    def __init__(self, X, Y, k, reg, eta_x, eta_y, batch_size, normalization_size,
                 normalization="paper"):
        self.X, self.Y, self.k, self.reg = X, Y, k, reg
        self.eta_x, self.eta_y = eta_x, eta_y
        self.b, self.s = batch_size, normalization_size
        self.normalization = normalization

    lambda_max = staticmethod(minibatch_lambda_max)

    def _rows(self, rng, size):
        return np.sort(rng.choice(self.X.shape[0], size=size, replace=False))

    def _random_start(self, rng):
        """Ψ⁰: Gaussian, normalised on a subsample of s rows; also counts its FLOPs."""
        p2, k = self.Y.shape[1], self.k
        psi0 = rng.standard_normal((p2, k))
        Ys = self.Y[self._rows(rng, self.s)]
        Z = np.asarray(Ys @ psi0)
        self.flops_done = 2.0 * stored_entries(Ys) * k + normalisation_flops(self.s, p2, k)
        self.skipped = [0, 0]
        self.iteration = 0
        return psi0 @ start_factor(psi0, Z.T @ Z / self.s, self.reg, self.normalization)

    def _factor(self, Z, tilde_gram):
        """``N^{-1/2}`` of the subsample normaliser, or None if the iterate or N is zero.

        ``Z = A_J Φ̃`` has shape (s, k), ``tilde_gram = Φ̃ᵀΦ̃`` (k, k); see the module doc.
        """
        return normalisation_factor(appgrad_normaliser(Z.T @ Z / self.s, tilde_gram, self.reg,
                                                       self.normalization), tilde_gram)

    def step(self, rng) -> float:
        norm_rows = self._rows(rng, self.s)  # shared by both views, as in the authors' code
        self._half_step(self.X, self.Y, self.x, self.y, self.eta_x, self._rows(rng, self.b),
                        norm_rows, 0)
        self._half_step(self.Y, self.X, self.y, self.x, self.eta_y, self._rows(rng, self.b),
                        norm_rows, 1)
        self.iteration += 1
        self._after_step()
        return np.nan

    def _after_step(self):
        pass

    def _count(self, Ab, Bb, As, touched, p):
        """FLOPs of one half-step; ``touched`` rows of Φ̃ updated, ``p`` rows renormalised."""
        k = self.k
        data = 2.0 * k * (2 * stored_entries(Ab) + stored_entries(Bb) + stored_entries(As))
        self.flops_done += data + 2.0 * touched * k + normalisation_flops(self.s, p, k)

    def weights(self):
        return self.x.weights(), self.y.weights()

    def train_correlations(self) -> np.ndarray:
        Wx, Wy = self.weights()
        return canonical_correlations(self.X @ Wx, self.Y @ Wy)

    def moments(self):
        Wx, Wy = self.weights()
        return projected_moments(np.asarray(self.X @ Wx), np.asarray(self.Y @ Wy), Wx, Wy,
                                 self.reg)


class StochasticSolver(_Stochastic):
    """Stochastic AppGrad in time independent of p on sparse views (see module doc)."""

    #: iterations between exact recomputations of ``G = TᵀT``
    REFRESH = 1000
    #: smallest ``|c|`` kept in the scalar; below it the shrink is folded into T and G
    SMALLEST_SCALE = 1e-6

    def start(self, rng):
        p1, k = self.X.shape[1], self.k
        psi0 = self._random_start(rng)
        zeros = np.zeros((k, k))
        self.x = LazyView(np.zeros((p1, k)), 1.0, zeros.copy(), zeros.copy())
        self.y = LazyView(np.zeros(psi0.shape), 1.0, zeros.copy(), zeros.copy(), start=psi0)

    def _half_step(self, A, B, own: LazyView, other: LazyView, eta, rows, norm_rows, view):
        k, b = self.k, self.b
        residual = own.c * _rows_times(A, rows, own.T) - other.project_rows(B, rows)
        # the ridge part of the step, for every row at once
        if own.shrink(1.0 - eta * self.reg, self.SMALLEST_SCALE):
            self.flops_done += own.T.size
        scale = eta / (own.c * b)
        if sp.issparse(A):
            updates = sparse_step(A.indptr, A.indices, A.data, rows, residual, own.T, own.G,
                                  scale)
            # per non-zero: its step d (k), T's row (k), G's upper triangle (6 per entry)
            update_flops = updates * (2.0 * k + 3.0 * k * (k + 1))
        else:  # dense view: every column is in the minibatch's support
            old = own.T.copy()
            own.T -= scale * (A[rows].T @ residual)
            own.G += own.T.T @ own.T - old.T @ old
            update_flops = own.T.shape[0] * (2.0 * k + 4.0 * k * k)
        M = self._factor(own.c * _rows_times(A, norm_rows, own.T), own.c ** 2 * own.G)
        if M is None:
            self.skipped[view] += 1
        else:
            own.M, own.start = M, None
        data = 2.0 * k * (2 * _rows_nnz(A, rows) + _rows_nnz(B, rows) + _rows_nnz(A, norm_rows))
        # Φ is never formed here: the normaliser's p·k² terms become nnz·k² (G's update)
        self.flops_done += (data + update_flops + 2.0 * b * k * k
                            + normalisation_flops(self.s, 0, k))

    def _after_step(self):
        if self.iteration % self.REFRESH == 0:
            for view in (self.x, self.y):
                view.refresh()
                self.flops_done += view.T.size * (1.0 + 2.0 * self.k)


class DenseStochasticSolver(_Stochastic):
    """Stochastic AppGrad as written, touching all of Φ̃ every step: the reference."""

    def start(self, rng):
        p1, k = self.X.shape[1], self.k
        psi0 = self._random_start(rng)
        zeros = np.zeros((k, k))
        self.x = DenseView(np.zeros((p1, k)), zeros.copy(), np.zeros((p1, k)))
        self.y = DenseView(np.zeros(psi0.shape), zeros.copy(), psi0, start=psi0)

    def _half_step(self, A, B, own: DenseView, other, eta, rows, norm_rows, view):
        Ab, Bb = A[rows], B[rows]
        grad = np.asarray(Ab.T @ (np.asarray(Ab @ own.tilde_) - other.project_rows(B, rows)))
        grad /= self.b
        grad += self.reg * own.tilde_
        own.tilde_ = own.tilde_ - eta * grad
        As = A[norm_rows]
        M = self._factor(np.asarray(As @ own.tilde_), own.tilde_.T @ own.tilde_)
        if M is None:
            self.skipped[view] += 1
        else:
            own.M, own.start = M, None
        own.weights_ = own.start if own.start is not None else own.tilde_ @ own.M
        p = own.tilde_.shape[0]
        self._count(Ab, Bb, As, 2 * p, p)
