"""AppGrad and stochastic AppGrad CCA (Ma, Lu & Foster, ICML 2015)."""

from __future__ import annotations

import contextlib
import logging
import time
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from .._validation import ArgumentValueError
from ..progress import Progress
from ..seeding import spawn_seeds
from ._appgrad_solvers import DataSolver, GramSolver
from ._base import BaseCCA, align_to_canonical, second_view
from ._linalg import NORMALIZATIONS, SPARSE_GRAM_DENSITY, Diverged, gram_matrices
from ._stochastic_solvers import DenseStochasticSolver, StochasticSolver
from ._validation import check_positive, check_view
from .flops import appgrad_batch_flops, appgrad_stochastic_flops, gram_flops
from .metrics import canonical_correlations

__all__ = ["AppGradCCA", "GRAM_MAX_BYTES", "MAX_STEP_HALVINGS", "STOCHASTIC_SOLVERS",
           "checkpoint_iterations"]

logger = logging.getLogger("lowdim")

#: ``precompute='auto'`` precomputes ``S_x, S_y, S_xy`` only when together they
#: take at most this many bytes (256 MiB: p1 = p2 ≈ 3,300), and only if cheaper.
GRAM_MAX_BYTES = 256 * 2 ** 20

#: A diverging step is halved at most this many times before fit gives up.
MAX_STEP_HALVINGS = 60

_TRACE_COLUMNS = ["iteration", "flops", "flops_performed", "seconds", "cpu_seconds",
                  "tcc_train", "tcc_heldout"]

#: ``stochastic_solver`` name -> class: 'lazy' is the p-independent iteration,
#: 'dense' the textbook one it is tested against (same iterates, O(pk) per step).
STOCHASTIC_SOLVERS = {"lazy": StochasticSolver, "dense": DenseStochasticSolver}


def checkpoint_iterations(max_iter: int, count: int, extra=()) -> list[int]:
    """About ``count`` log-spaced iterations up to ``max_iter``, plus ``extra`` ones.

    Parameters
    ----------
    max_iter : int
        The last iteration, always included.
    count : int
        Log-spaced iterations from 1 to ``max_iter`` (fewer when rounding merges some).
    extra : iterable of int, default=()
        Iterations added as well; those outside ``[1, max_iter]`` are dropped.

    Returns
    -------
    iterations : list of int
        Sorted, distinct.

    Examples
    --------
    >>> from lowdim.cca.appgrad import checkpoint_iterations
    >>> [int(i) for i in checkpoint_iterations(1000, 5)]
    [1, 6, 32, 178, 1000]
    >>> [int(i) for i in checkpoint_iterations(1000, 5, extra=[300])]
    [1, 6, 32, 178, 300, 1000]
    """
    its = set(np.unique(np.round(np.logspace(0, np.log10(max_iter), max(count, 1)))).astype(int))
    its |= {int(i) for i in extra if 1 <= int(i) <= max_iter} | {int(max_iter)}
    return sorted(its)


class AppGradCCA(BaseCCA):
    r"""Top-k CCA by augmented approximate gradient (AppGrad), batch or stochastic.

    Each iteration takes a gradient step on the unnormalised weights Φ̃ of
    the least-squares problem ``½‖XΦ̃ − YΨ‖²/n + ½λ‖Φ̃‖²`` and normalises
    ``Φ = Φ̃ (Φ̃ᵀ(S_x+λI)Φ̃)^{-1/2}``, then does the same for Ψ with the new Φ.
    Stochastic AppGrad takes the gradient on a minibatch and the normaliser
    on a separate row subsample; on sparse views its iterations cost time
    independent of p (only the minibatch's columns of Φ̃ change).
    The exact top-k regularised CCA solution is a fixed point. Only products
    of the data with thin p×k matrices and k×k decompositions are needed:
    beyond the data, memory is O(k(p1+p2)) + O(nk) and no p×p matrix is
    formed unless the Gram path is chosen (see ``precompute``).

    Moments are uncentred (``S_x = XᵀX/n``), as in the paper; centre dense
    views beforehand if centred correlations are wanted. Constant columns
    are handled by the ridge term ``reg``.

    Parameters
    ----------
    n_components : int, default=2
        Dimension k of the canonical subspace.
    reg : float, default=0.005
        Ridge λ added to both Gram matrices (the authors' value).
    step_size : 'auto' or float, default='auto'
        Gradient step η (the same float for both views). 'auto' takes, per
        view, ``1 / (λ_max + reg)`` for batch AppGrad, with λ_max a
        power-iteration estimate of the largest eigenvalue of ``XᵀX/n``, and
        ``0.5 / (λ_max + reg)`` for stochastic AppGrad, with λ_max the largest
        eigenvalue of ``X_bᵀX_b/b`` over 10 random minibatches (a constant
        stochastic step leaves noise proportional to η, so it stays at half
        the largest stable step). The authors hand-tuned 0.05 on MNIST. A step that
        makes the iterates non-finite, or blow up past 1e8 in their normaliser
        (which tends to Λ², at most 1, whatever the data's scale), is halved and
        the fit restarted, with a ``RuntimeWarning``.
    max_iter : int, default=1000
        Number of iterations (each updates both views).
    tol : float, default=1e-6
        Batch AppGrad stops when the relative change of Φ̃ and Ψ̃ falls below
        ``tol``; 0 runs ``max_iter`` iterations. Stochastic AppGrad always
        runs ``max_iter`` iterations. With ``early_stopping``, ``tol`` is
        instead the relative gain of the validation TCC that counts as an
        improvement (scikit-learn's convention), for batch and stochastic alike.
    batch_size : int or None, default=None
        None for batch AppGrad; an int b for stochastic AppGrad with
        minibatches of b rows (the authors used 50).
    normalization_size : int or None, default=None
        Rows s of the random subsample used for the stochastic normalisation;
        None means ``10·n_components`` (the authors' choice), capped at n.
    precompute : 'auto' or bool, default='auto'
        Batch AppGrad only: precompute ``S_x, S_y, S_xy`` (O(np²) once, then
        O(p²k) per iteration instead of O(npk); on sparse views the products stay
        sparse where at most a quarter of their entries are non-zero, and an iteration
        costs O(nnz(S)·k)). 'auto' does so when the three matrices fit in
        :data:`GRAM_MAX_BYTES` and the FLOP estimate of the setup plus ``max_iter``
        iterations is below that of ``max_iter`` iterations on the data: dense views
        with ``n`` well above ``(p1+p2)/2``, and sparse views with few non-zeros per
        row (one-hot words), whose iterations on the data are dominated by the n×k
        products of the normalisation.
    checkpoints : None, int or sequence of int, default=None
        Iterations recorded in ``trace_``: None for about 30 log-spaced ones,
        an int for that many, or explicit iteration numbers. The last
        iteration is always recorded.
    trace_tcc : bool, default=False
        Record the training TCC at checkpoints (and held-out TCC when ``fit``
        gets ``heldout``). Its cost is excluded from ``seconds``.
    random_state : int, RandomState instance or None, default=None
        Seeds the start Ψ⁰ and the minibatches.
    normalization : {'paper', 'authors'}, default='paper'
        The normaliser N of ``Φ = Φ̃N^{-1/2}``: the paper's
        ``Φ̃ᵀ(S_x+λI)Φ̃`` (the exact top-k regularised CCA solution is a fixed
        point), or the authors' MNIST code's ``Φ̃ᵀS_xΦ̃ + λI_k``
        (``sgd_cca2.m``, ``gd_cca.m``), whose ridge does not scale with Φ̃.
        An iterate that is still exactly zero (no minibatch so far had a
        cross-moment with the other view) is not normalised, whatever its
        normaliser (the authors' is λI_k): the previous weights are kept, and
        the count logged in one line.
    stochastic_solver : {'lazy', 'dense'}, default='lazy'
        Stochastic AppGrad only: 'lazy' keeps Φ̃ as a scalar times a matrix
        and touches only the minibatch's rows (time per iteration independent
        of p on sparse views); 'dense' updates all of Φ̃ every step, as the
        algorithm is written. Both give the same iterates up to rounding;
        'dense' is the reference for tests and benchmarks. (Not so where a
        minibatch leaves an iterate of rank below k, as on a view that is
        zero on most rows: the directions it lacks then grow from rounding,
        differently in each solver, so their weights and, early on, their
        correlations differ beyond rounding.)
    early_stopping : bool, default=False
        Stop by a rule that uses only the data given to ``fit``: a random
        ``validation_fraction`` of its rows (drawn with ``random_state``) is
        set aside, AppGrad runs on the others, and at every checkpoint the
        TCC of the current weights on the validation rows is computed (its
        cost is part of the fit's ``seconds``). The fit stops once that TCC
        has not risen above the best so far by more than ``tol`` (relative)
        at ``n_iter_no_change`` checkpoints in a row; the weights are those
        of the last iterate. ``checkpoints`` set when it is checked: evenly
        spaced ones (``range(20, max_iter + 1, 20)``) suit it better than the
        default log-spaced ones, because the first iterations from the zero
        start can lower the validation TCC for a while, which a run of early
        checkpoints a few iterations apart would take for a plateau.
    validation_fraction : float, default=0.1
        Fraction of the rows set aside with ``early_stopping``, in (0, 1).
    n_iter_no_change : int, default=2
        Checkpoints without improvement before ``early_stopping`` stops.

    Attributes
    ----------
    x_weights_ : ndarray of shape (p1, n_components)
        Canonical weights Φ, columns ordered by canonical correlation.
    y_weights_ : ndarray of shape (p2, n_components)
        Canonical weights Ψ.
    canonical_correlations_ : ndarray of shape (n_components,)
        Regularised correlations of the weight pairs on the training views.
    trace_ : pandas.DataFrame
        One row per checkpoint: ``iteration``, ``flops`` (cumulative, the
        authors' formula, see :mod:`lowdim.cca.flops`), ``flops_performed``
        (cumulative FLOPs this implementation performed, sparse products
        counted by their non-zeros; precomputed Gram matrices included, the
        'auto' step-size estimate not), ``seconds`` (wall
        time since fit started, without TCC evaluation), ``cpu_seconds`` (the
        process's CPU time over the same span, every thread: over ``seconds``
        it says how many cores the fit kept busy), ``tcc_train`` and
        ``tcc_heldout`` (NaN unless requested).
    flops_ : float
        Cumulative FLOPs at the end.
    n_iter_ : int
        Iterations run.
    converged_ : bool
        Batch only: the ``tol`` criterion was met; with ``early_stopping``,
        batch or stochastic: the validation rule stopped the fit.
    validation_scores_ : ndarray of shape (n_checkpoints,) or None
        With ``early_stopping``, the validation TCC at each row of
        ``trace_``; else None.
    best_validation_score_ : float or None
        The largest of ``validation_scores_``.
    step_size_ : tuple of float
        Steps (η_x, η_y) actually used, after any halving.
    n_step_halvings_ : int
        Times the step was halved after a blow-up.
    n_skipped_normalizations_ : tuple of int
        Normalisations skipped (x, y) because the iterate (or, without ridge,
        its normaliser) was zero.
    solver_ : {'data', 'gram', 'stochastic'}
        The path that ran: products with the data, precomputed Gram matrices, or
        minibatches.
    n_features_in_ : int
        Columns of ``X`` seen by ``fit``.
    feature_names_in_ : ndarray of str of shape (p1,)
        Column names of ``X`` seen by ``fit``, when it was a DataFrame with string column
        names (``Y``'s are not kept, as in scikit-learn's CCA).
    n_features_y_ : int
        Columns of ``Y`` seen by ``fit``.

    Notes
    -----
    Top-k CCA with ridge λ finds :math:`\Phi \in \mathbb{R}^{p_1 \times k}`,
    :math:`\Psi \in \mathbb{R}^{p_2 \times k}` solving

    .. math::

        \max_{\Phi, \Psi}\ \operatorname{tr}\bigl(\Phi^\top S_{xy} \Psi\bigr)
        \quad \text{s.t.} \quad
        \Phi^\top (S_x + \lambda I) \Phi = \Psi^\top (S_y + \lambda I) \Psi = I_k,

    with :math:`S_x = X^\top X / n`, :math:`S_y = Y^\top Y / n`,
    :math:`S_{xy} = X^\top Y / n`. AppGrad never forms
    :math:`(S_x + \lambda I)^{-1/2}`; from :math:`\tilde\Phi^0 = 0` and a random
    normalised :math:`\Psi^0` it alternates a gradient step of the least-squares
    problem :math:`\tfrac{1}{2n}\lVert X\tilde\Phi - Y\Psi\rVert_F^2
    + \tfrac{\lambda}{2}\lVert\tilde\Phi\rVert_F^2` and a normalisation,

    .. math::

        \tilde\Phi^{t+1} = \tilde\Phi^{t} - \eta\bigl((S_x + \lambda I)\tilde\Phi^{t}
        - S_{xy}\Psi^{t}\bigr), \qquad
        \Phi^{t+1} = \tilde\Phi^{t+1}\bigl(\tilde\Phi^{t+1\top}(S_x + \lambda I)
        \tilde\Phi^{t+1}\bigr)^{-1/2},

    then the same for :math:`\tilde\Psi, \Psi` with the new :math:`\Phi`. The exact
    solution is a fixed point. A batch iteration costs :math:`O(npk)` (or
    :math:`O(\mathrm{nnz}\,k)`); the stochastic one replaces :math:`S_x\tilde\Phi`
    and :math:`S_{xy}\Psi` by minibatch estimates on ``batch_size`` rows and the
    normaliser by one on ``normalization_size`` other rows: :math:`O(bpk + k^3)`,
    independent of :math:`n`.

    References
    ----------
    Z. Ma, Y. Lu and D. Foster. Finding linear structure in large datasets
    with scalable canonical correlation analysis. ICML 2015.

    Examples
    --------
    >>> from lowdim.cca import AppGradCCA
    >>> X, Y = two_views
    >>> cca = AppGradCCA(n_components=2, random_state=0).fit(X, Y)
    >>> cca.score_components(X, Y).round(2)
    array([0.9 , 0.88])
    >>> round(cca.score(X, Y), 2)  # their mean: one number, for scikit-learn's model selection
    0.89

    Stopped by the TCC on a tenth of the rows set aside, checked every 20
    iterations: two checks without a gain end the fit.

    >>> stopped = AppGradCCA(n_components=2, random_state=0, early_stopping=True,
    ...                      checkpoints=range(20, 1001, 20)).fit(X, Y)
    >>> stopped.n_iter_, stopped.validation_scores_.round(3)
    (60, array([1.821, 1.821, 1.821]))
    """

    def __init__(self, n_components=2, *, reg=0.005, step_size="auto", max_iter=1000, tol=1e-6,
                 batch_size=None, normalization_size=None, precompute="auto", checkpoints=None,
                 trace_tcc=False, random_state=None, normalization="paper",
                 stochastic_solver="lazy", early_stopping=False, validation_fraction=0.1,
                 n_iter_no_change=2):
        self.n_components = n_components
        self.reg = reg
        self.step_size = step_size
        self.max_iter = max_iter
        self.tol = tol
        self.batch_size = batch_size
        self.normalization_size = normalization_size
        self.precompute = precompute
        self.checkpoints = checkpoints
        self.trace_tcc = trace_tcc
        self.random_state = random_state
        self.normalization = normalization
        self.stochastic_solver = stochastic_solver
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change

    # -- parameter checks -------------------------------------------------
    def _check_params(self, n, k):
        max_iter = check_positive(self.max_iter, "max_iter", integer=True)
        check_positive(self.tol, "tol", allow_zero=True)
        auto = isinstance(self.step_size, str) and self.step_size == "auto"
        if not (auto or (not isinstance(self.step_size, str)
                                             and check_positive(self.step_size, "step_size"))):
            raise ArgumentValueError("`step_size` must be 'auto' or a positive number, got "
                                     f"{self.step_size!r}", "step_size")
        if not (isinstance(self.precompute, bool) or self.precompute == "auto"):
            raise ArgumentValueError("`precompute` must be 'auto', True or False, got "
                                     f"{self.precompute!r}", "precompute")
        if not isinstance(self.normalization, str) or self.normalization not in NORMALIZATIONS:
            raise ArgumentValueError("`normalization` must be 'paper' or 'authors', got "
                                     f"{self.normalization!r}", "normalization")
        if not isinstance(self.stochastic_solver, str) \
                or self.stochastic_solver not in STOCHASTIC_SOLVERS:
            raise ArgumentValueError("`stochastic_solver` must be 'lazy' or 'dense', got "
                                     f"{self.stochastic_solver!r}", "stochastic_solver")
        b = s = None
        if self.batch_size is None and self.normalization_size is not None:
            raise ArgumentValueError(f"`normalization_size` = {self.normalization_size!r} is "
                                     "used by stochastic AppGrad only; set `batch_size` too, or "
                                     "leave `normalization_size` as None for batch AppGrad",
                                     ("normalization_size", "batch_size"))
        if self.batch_size is not None:
            b = check_positive(self.batch_size, "batch_size", integer=True)
            if b > n:
                raise ArgumentValueError(f"`batch_size` must be at most n_samples = {n}, got {b}",
                                         "batch_size")
            s = 10 * k if self.normalization_size is None else check_positive(
                self.normalization_size, "normalization_size", integer=True)
            if self.normalization_size is not None and not k <= s <= n:
                raise ArgumentValueError("`normalization_size` must be between n_components = "
                                         f"{k} and n_samples = {n}, got {s}", "normalization_size")
            s = min(s, n)
        return max_iter, b, s

    def _checkpoints(self, max_iter):
        if self.checkpoints is None:
            return set(checkpoint_iterations(max_iter, 30))
        if isinstance(self.checkpoints, (int, np.integer)) and not isinstance(self.checkpoints,
                                                                               bool):
            count = check_positive(self.checkpoints, "checkpoints", integer=True)
            return set(checkpoint_iterations(max_iter, count))
        try:
            its = np.asarray(self.checkpoints, dtype=float)
        except (TypeError, ValueError):
            its = np.array([np.nan])
        if its.ndim != 1 or not np.all(np.isfinite(its)) or np.any(its < 1) \
                or np.any(its != np.round(its)) or isinstance(self.checkpoints, (str, bool)):
            raise ArgumentValueError("`checkpoints` must be positive iteration numbers (a "
                                     "sequence), a count (an int) or None, got "
                                     f"{self.checkpoints!r}", "checkpoints")
        return {int(i) for i in its if i <= max_iter} | {max_iter}

    # -- solver construction ----------------------------------------------
    def _use_gram(self, X, Y, k, max_iter):
        """Gram path: forced by ``precompute``, or cheaper by a FLOP estimate under 'auto'."""
        if self.batch_size is not None or self.precompute is False:
            return False
        if self.precompute is True:
            return True
        (n, p1), p2 = X.shape, Y.shape[1]
        if sp.issparse(X) and sp.issparse(Y):
            return self._sparse_gram_cheaper(X, Y, k, max_iter)
        if 8 * (p1 * p1 + p2 * p2 + p1 * p2) > GRAM_MAX_BYTES:
            return False
        nx, ny = (A.nnz if sp.issparse(A) else A.size for A in (X, Y))
        rx, ry = nx / n, ny / n  # non-zeros per row
        setup = 2.0 * (nx * rx + ny * ry + nx * ry)  # XᵀX, YᵀY, XᵀY
        per_iteration_gram = 2.0 * k * (p1 + p2) ** 2
        per_iteration_data = 4.0 * k * (nx + ny)
        return setup + max_iter * per_iteration_gram < max_iter * per_iteration_data

    @classmethod
    def _sparse_gram_cheaper(cls, X, Y, k, max_iter):
        """Sparse views: the Grams' non-zeros are bounded by the rows' (row i adds at most
        r_i² entries to XᵀX and r_i^x r_i^y to XᵀY), and both paths' iterations are counted as
        the solvers count them (the data path's n×k normaliser products included)."""
        p1, p2 = X.shape[1], Y.shape[1]
        rx, ry = (np.asarray(A.getnnz(axis=1), dtype=float) for A in (X, Y))
        entries, memory = [], 0.0
        for bound, size in ((rx @ rx, p1 * p1), (ry @ ry, p2 * p2), (rx @ ry, p1 * p2)):
            if bound <= SPARSE_GRAM_DENSITY * size:  # kept sparse: a value and an index each
                entries.append(bound)
                memory += 12.0 * bound
            else:  # may come out denser: gram_matrices makes it dense
                entries.append(size)
                memory += 8.0 * size
        if memory > GRAM_MAX_BYTES:
            return False
        per_iteration_gram = GramSolver.iteration_flops(*entries, p1, p2, k)
        per_iteration_data = DataSolver.iteration_flops(X, Y, k)
        return (cls._gram_setup_flops(X, Y) + max_iter * per_iteration_gram
                < max_iter * per_iteration_data)

    def _make_solver(self, X, Y, k, b, s, rng, max_iter):
        n, p1, p2 = X.shape[0], X.shape[1], Y.shape[1]
        reg, auto, norm = float(self.reg), self.step_size == "auto", self.normalization
        eta = None if auto else (float(self.step_size), float(self.step_size))
        if b is not None:
            Solver = STOCHASTIC_SOLVERS[self.stochastic_solver]
            if auto:
                eta = tuple(0.5 / (Solver.lambda_max(A, rng, b) + reg) for A in (X, Y))
            solver = Solver(X, Y, k, reg, *eta, batch_size=b, normalization_size=s,
                            normalization=norm)
            return solver, appgrad_stochastic_flops(p1, p2, k, b, s)
        if self._use_gram(X, Y, k, max_iter):
            grams = gram_matrices(X, Y, keep_sparse=True)
            if auto:
                eta = tuple(1.0 / (GramSolver.lambda_max(S, rng) + reg) for S in grams[:2])
            solver = GramSolver(grams, k, reg, *eta, normalization=norm,
                                setup_flops=self._gram_setup_flops(X, Y))
        else:
            if auto:
                eta = tuple(1.0 / (DataSolver.lambda_max(A, rng) + reg) for A in (X, Y))
            solver = DataSolver(X, Y, k, reg, *eta, normalization=norm)
        return solver, appgrad_batch_flops(n, p1, p2, k)

    @staticmethod
    def _gram_setup_flops(X, Y):
        """FLOPs of forming ``S_x, S_y, S_xy``: dense products, or per non-zero for sparse."""
        if not (sp.issparse(X) or sp.issparse(Y)):
            return gram_flops(X.shape[0], X.shape[1], Y.shape[1])
        # row i's r_i non-zeros meet r_i (r_i^y) of the other factor: Σ r_i² per product
        rx, ry = (np.asarray(A.getnnz(axis=1) if sp.issparse(A) else np.full(A.shape[0],
                                                                               A.shape[1]),
                             dtype=float) for A in (X, Y))
        return 2.0 * float(rx @ rx + ry @ ry + rx @ ry)

    # -- fitting ----------------------------------------------------------
    def fit(self, X, Y=None, heldout=None, y=None):
        """Fit AppGrad.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view; sparse views are never densified. A DataFrame's column names
            are recorded in ``feature_names_in_``.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows.
        heldout : tuple (X_heldout, Y_heldout), optional
            Views evaluated at checkpoints when ``trace_tcc`` is set.
        y : array-like or scipy.sparse matrix of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling (``Y`` is used when both are given).

        Returns
        -------
        self : AppGradCCA
            The fitted estimator.
        """
        # the trace's evaluations of every attempt, a diverged one's too, are not fit time
        clock = _FitClock()
        X_in = X
        X, Y, k = self._check_fit_inputs(X, second_view(Y, y))
        heldout = self._check_heldout(heldout, X.shape[1], Y.shape[1])
        rng = np.random.default_rng(spawn_seeds(self.random_state, 1)[0])
        X, Y, validation = self._split_validation(X, Y, rng)
        max_iter, b, s = self._check_params(X.shape[0], k)
        solver, flops_per_iter = self._make_solver(X, Y, k, b, s, rng, max_iter)
        state = rng.bit_generator.state
        for halvings in range(MAX_STEP_HALVINGS + 1):
            rng.bit_generator.state = state  # every attempt sees the same random draws
            try:
                monitor = None if validation is None else _ValidationMonitor(
                    *validation, self.tol, self.n_iter_no_change)
                trace, n_iter, converged = self._iterate(solver, rng, max_iter, flops_per_iter,
                                                         heldout, clock, monitor)
                break
            except Diverged as exc:
                self._halve(solver, exc)
        else:
            raise RuntimeError(f"AppGrad kept diverging after {MAX_STEP_HALVINGS} step halvings; "
                               f"last step_size ({solver.eta_x:.3g}, {solver.eta_y:.3g})")
        self._check_normalised(solver, X, Y, n_iter, b)
        Wx, Wy, rho = align_to_canonical(*solver.weights(), *solver.moments())
        self._set_fitted(X_in, Y, Wx, Wy)
        self.canonical_correlations_ = rho
        self.trace_ = pd.DataFrame(trace, columns=_TRACE_COLUMNS)
        self.flops_ = float(self.trace_["flops"].iloc[-1])
        self.n_iter_, self.converged_ = n_iter, converged
        self.step_size_ = (solver.eta_x, solver.eta_y)
        self.n_step_halvings_, self.solver_ = halvings, solver.kind
        self.n_skipped_normalizations_ = tuple(solver.skipped)
        self.validation_scores_ = None if monitor is None else np.array(monitor.scores)
        self.best_validation_score_ = None if monitor is None else monitor.best
        if monitor is not None and not converged:
            warnings.warn(f"AppGrad's validation TCC was still rising by more than tol="
                          f"{self.tol} at max_iter={max_iter} iterations", ConvergenceWarning,
                          stacklevel=2)
        elif monitor is None and self.tol > 0 and b is None and not converged:
            warnings.warn(f"AppGrad did not reach tol={self.tol} in max_iter={max_iter} "
                          f"iterations", ConvergenceWarning, stacklevel=2)
        return self

    def _split_validation(self, X, Y, rng):
        """``(X_fit, Y_fit, (X_val, Y_val))`` with ``early_stopping``, else ``(X, Y, None)``."""
        if not isinstance(self.early_stopping, (bool, np.bool_)):
            raise ArgumentValueError(f"`early_stopping` must be True or False, got "
                                     f"{self.early_stopping!r}", "early_stopping")
        if not self.early_stopping:
            return X, Y, None
        fraction = check_positive(self.validation_fraction, "validation_fraction")
        check_positive(self.n_iter_no_change, "n_iter_no_change", integer=True)
        if fraction >= 1:
            raise ArgumentValueError(f"`validation_fraction` must be in (0, 1), got "
                                     f"{self.validation_fraction!r}", "validation_fraction")
        n = X.shape[0]
        n_val = int(round(fraction * n))
        if n_val < 2 or n - n_val < 2:
            raise ArgumentValueError(f"`validation_fraction` = {self.validation_fraction!r} "
                                     f"must leave at least 2 validation and 2 fitting rows of "
                                     f"n_samples = {n}, got {n_val} and {n - n_val}",
                                     "validation_fraction")
        order = rng.permutation(n)
        val, fit = np.sort(order[:n_val]), np.sort(order[n_val:])
        return X[fit], Y[fit], (X[val], Y[val])

    def _check_heldout(self, heldout, p1, p2):
        if heldout is None:
            return None
        if len(heldout) != 2:
            raise ArgumentValueError("`heldout` must be a pair (X_heldout, Y_heldout)", "heldout")
        Xh, Yh = check_view(heldout[0], "X_heldout", p1), check_view(heldout[1], "Y_heldout", p2)
        if Xh.shape[0] != Yh.shape[0]:
            raise ArgumentValueError("`heldout` views must have the same rows, got "
                                     f"{Xh.shape[0]} and {Yh.shape[0]}", "heldout")
        return Xh, Yh

    @staticmethod
    def _check_normalised(solver, X, Y, n_iter, b):
        """Log skipped normalisations in one line; raise if a view never got weights."""
        sx, sy = solver.skipped
        if sx or sy:
            logger.warning("AppGrad (%s): %d of %d normalisations of X and %d of %d of Y skipped: "
                           "the iterate was still zero (no minibatch so far having a "
                           "cross-moment with the other view) or, without ridge, its "
                           "normaliser", solver.kind,
                           sx, n_iter, sy, n_iter)
        for name, A, W in (("X", X, solver.weights()[0]), ("Y", Y, solver.weights()[1])):
            if not np.any(W):
                rows = int(np.count_nonzero(np.diff(A.indptr))) if sp.issparse(A) else \
                    int(np.count_nonzero(np.any(A != 0, axis=1)))
                batch = f"minibatches of {b} rows" if b else "the data"
                raise ValueError(
                    f"AppGrad could not fit: after {n_iter} iterations the weights of `{name}` "
                    f"are still zero, because {batch} never gave a non-zero cross-moment "
                    f"between the views (`{name}` has non-zero entries in {rows} of "
                    f"{A.shape[0]} rows). Use a larger `batch_size`, more iterations, or batch "
                    f"AppGrad (`batch_size=None`)")

    @staticmethod
    def _halve(solver, exc):
        warnings.warn(f"AppGrad diverged with step_size ({solver.eta_x:.3g}, "
                      f"{solver.eta_y:.3g}): {exc}; halving the step and restarting",
                      RuntimeWarning, stacklevel=3)
        solver.eta_x /= 2.0
        solver.eta_y /= 2.0

    def _iterate(self, solver, rng, max_iter, flops_per_iter, heldout, clock, monitor=None):
        """Run the iterations; return (trace rows, iterations done, converged).

        With a ``monitor`` (early stopping), it alone decides when to stop, at checkpoints;
        its validation TCC is part of the fit's time, the trace's evaluations are not
        (``clock``, a :class:`_FitClock`, excludes them across the attempts of one fit).
        """
        checkpoints = self._checkpoints(max_iter)
        solver.start(rng)
        trace, converged, it = [], False, 0
        on_change = monitor is None and solver.kind != "stochastic"
        desc = f"AppGrad ({solver.kind}, k={self.n_components})"
        with Progress(desc, total=max_iter, unit="iterations", logger=logger) as progress:
            for it in range(1, max_iter + 1):
                change = solver.step(rng)
                progress.update(1)
                converged = on_change and change < self.tol
                if monitor is not None and it in checkpoints:
                    converged = monitor.stop(solver)
                if it in checkpoints or converged:
                    with clock.excluded() as (seconds, cpu_seconds):
                        trace.append([it, flops_per_iter * it, solver.flops_done, seconds,
                                      cpu_seconds, *self._evaluate(solver, heldout)])
                if converged:
                    break
        return trace, it, converged

    def _evaluate(self, solver, heldout):
        if not self.trace_tcc:
            return np.nan, np.nan
        train = float(np.sum(solver.train_correlations()))
        if heldout is None:
            return train, np.nan
        Wx, Wy = solver.weights()
        return train, float(np.sum(canonical_correlations(heldout[0] @ Wx, heldout[1] @ Wy)))


class _FitClock:
    """Wall and CPU seconds (the process's, every thread) since the clock was made, less the
    spans run inside :meth:`excluded`."""

    def __init__(self):
        self.start, self.skipped = _now(), np.zeros(2)

    @contextlib.contextmanager
    def excluded(self):
        """Yield the (wall, CPU) seconds so far; the time spent inside the block is not
        counted."""
        tick = _now()
        try:
            yield tuple(float(t) for t in tick - self.start - self.skipped)
        finally:
            self.skipped += _now() - tick


def _now():
    """(wall, process CPU) seconds now, as an array."""
    return np.array([time.perf_counter(), time.process_time()])


class _ValidationMonitor:
    """Early stopping: the validation TCC at each checkpoint, and when to stop.

    Stops once ``patience`` checkpoints in a row have not raised the best
    TCC so far by more than ``tol`` times its magnitude.
    """

    def __init__(self, X_val, Y_val, tol, patience):
        self.X_val, self.Y_val, self.tol, self.patience = X_val, Y_val, tol, patience
        self.scores, self.best, self.stale = [], None, 0

    def stop(self, solver) -> bool:
        Wx, Wy = solver.weights()
        score = float(np.sum(canonical_correlations(self.X_val @ Wx, self.Y_val @ Wy)))
        self.scores.append(score)
        if self.best is None or score > self.best + self.tol * abs(self.best):
            self.stale = 0
        else:
            self.stale += 1
        self.best = score if self.best is None else max(self.best, score)
        return self.stale >= self.patience
