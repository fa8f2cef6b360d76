"""Stochastic AppGrad: the p-independent iteration equals the dense one, and the protocol is pinned.

The lazy solver (Φ̃ = c·T, touched rows only, G = TᵀT kept incrementally) and
the textbook dense solver are driven with the same random stream and must
agree to rounding. The authors' protocol (zero start for Φ̃, a normalisation
subsample separate from the minibatch, x before y) is checked against the
update computed here by hand, so a change of protocol fails the tests.
"""

import logging
import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from lowdim.cca import AppGradCCA, ExactCCA, pcc
from lowdim.cca._appgrad_solvers import DataSolver
from lowdim.cca._kernels import rows_nnz, rows_times, sparse_step
from lowdim.cca._linalg import inv_sqrt_psd
from lowdim.cca._stochastic_solvers import (DenseStochasticSolver, StochasticSolver,
                                            minibatch_lambda_max)
from lowdim.cca._validation import check_views
from fixtures.cca_data import planted_views, sparse_views


def _drive(Solver, X, Y, steps, seed=0, normalization="paper", reg=0.01, eta=0.2, b=30, s=40):
    rng = np.random.default_rng(seed)
    solver = Solver(X, Y, 4, reg, eta, eta, batch_size=b, normalization_size=s,
                    normalization=normalization)
    solver.start(rng)
    snapshots = []
    for it in range(1, steps + 1):
        solver.step(rng)
        if it % 25 == 0:
            snapshots.append([np.array(a) for a in (*solver.weights(), solver.x.tilde(),
                                                    solver.y.tilde())])
    return solver, snapshots


@pytest.mark.parametrize("normalization", ["paper", "authors"])
@pytest.mark.parametrize("storage", ["sparse", "dense"])
def test_lazy_and_dense_solvers_give_the_same_iterates(storage, normalization, monkeypatch):
    X, Y = sparse_views(2000, 300, 200, nnz_per_row=5, k=5, random_state=1)
    if storage == "dense":
        X, Y = X.toarray(), Y.toarray()
    X, Y = check_views(X, Y)
    monkeypatch.setattr(StochasticSolver, "REFRESH", 40)  # cross several refreshes of c and G
    lazy, fast = _drive(StochasticSolver, X, Y, 200, normalization=normalization)
    dense, slow = _drive(DenseStochasticSolver, X, Y, 200, normalization=normalization)
    for a, b in zip(fast, slow):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-9, atol=1e-12 * np.abs(v).max())
    assert lazy.skipped == dense.skipped == [0, 0]
    np.testing.assert_allclose(lazy.x.G, lazy.x.T.T @ lazy.x.T, rtol=1e-9, atol=1e-12)


def test_estimator_gives_the_same_fit_with_either_solver():
    X, Y = sparse_views(1500, 80, 60, nnz_per_row=4, k=5, random_state=2)
    kw = dict(batch_size=25, max_iter=300, random_state=3)
    lazy = AppGradCCA(3, **kw).fit(X, Y)
    dense = AppGradCCA(3, stochastic_solver="dense", **kw).fit(X, Y)
    np.testing.assert_allclose(lazy.x_weights_, dense.x_weights_, rtol=1e-8, atol=1e-11)
    np.testing.assert_allclose(lazy.y_weights_, dense.y_weights_, rtol=1e-8, atol=1e-11)
    assert lazy.step_size_ == dense.step_size_


@pytest.mark.parametrize("eta_reg", [1.0, 1.0 - 1e-9, 2.0],
                         ids=["shrink-0", "shrink-1e-9", "shrink-minus-1"])
def test_lazy_solver_follows_the_dense_one_when_the_ridge_shrink_vanishes(eta_reg):
    """With ηλ = 1 the shrink 1 − ηλ is zero: the lazy scalar c cannot hold it (a step
    divides by c), so the solver folds it into T and G; the iterates stay the dense ones."""
    X, Y = check_views(*sparse_views(2000, 300, 200, nnz_per_row=5, k=5, random_state=1))
    eta = 0.2
    lazy, fast = _drive(StochasticSolver, X, Y, 100, reg=eta_reg / eta, eta=eta)
    dense, slow = _drive(DenseStochasticSolver, X, Y, 100, reg=eta_reg / eta, eta=eta)
    for a, b in zip(fast, slow):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-9, atol=1e-12 * np.abs(v).max())
    assert np.abs(slow[-1][0]).max() > 0.01  # the iterates are not trivially zero
    assert abs(lazy.x.c) >= StochasticSolver.SMALLEST_SCALE
    np.testing.assert_allclose(lazy.x.G, lazy.x.T.T @ lazy.x.T, rtol=1e-9, atol=1e-12)


def test_estimator_fits_with_step_size_times_reg_equal_to_one():
    """The issue's case: the first attempt has ηλ = 1; it diverges and is halved, as with the
    dense solver, instead of stopping on a division by zero."""
    X, Y = planted_views(300, 10, 8, [0.9, 0.8, 0.7, 0.6], random_state=0)[:2]
    kw = dict(reg=0.5, step_size=2.0, batch_size=30, max_iter=50, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the step halvings
        lazy = AppGradCCA(4, **kw).fit(X, Y)
        dense = AppGradCCA(4, stochastic_solver="dense", **kw).fit(X, Y)
    assert lazy.n_step_halvings_ == dense.n_step_halvings_
    np.testing.assert_allclose(lazy.x_weights_, dense.x_weights_, rtol=1e-8, atol=1e-11)
    np.testing.assert_allclose(lazy.canonical_correlations_, dense.canonical_correlations_,
                               rtol=1e-8)


def test_a_lazy_step_changes_only_the_minibatch_columns():
    X, Y = check_views(*sparse_views(3000, 5000, 4000, nnz_per_row=4, k=5, random_state=0))
    rng = np.random.default_rng(0)
    solver = StochasticSolver(X, Y, 3, 0.01, 0.1, 0.1, batch_size=20, normalization_size=30)
    solver.start(rng)
    for _ in range(5):
        solver.step(rng)
    before, c_before = solver.x.T.copy(), solver.x.c
    state = rng.bit_generator.state
    solver.step(rng)
    rng.bit_generator.state = state
    rng.choice(X.shape[0], size=30, replace=False)  # the normalisation rows come first
    rows = rng.choice(X.shape[0], size=20, replace=False)
    support = np.unique(X[rows].indices)
    changed = np.flatnonzero(np.any(solver.x.T != before, axis=1))
    assert set(changed) <= set(support) and changed.size > 0
    assert solver.x.c == pytest.approx(c_before * (1 - 0.1 * 0.01), rel=1e-15)


def test_a_lazy_step_allocates_nothing_of_size_p():
    """At p = 400,000 a single p×k temporary is 9.6 MB; a step's arrays stay at O(nnz·k)."""
    p = 400_000
    X, Y = check_views(*sparse_views(5000, p, p, nnz_per_row=6, k=5, random_state=0))
    rng = np.random.default_rng(0)
    solver = StochasticSolver(X, Y, 3, 0.01, 0.1, 0.1, batch_size=50, normalization_size=30)
    solver.start(rng)
    solver.step(rng)  # compiles the kernels outside the measurement
    tracemalloc.start()
    for _ in range(20):
        solver.step(rng)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 0.05 * 8 * p * 3
    dense = DenseStochasticSolver(X, Y, 3, 0.01, 0.1, 0.1, batch_size=50, normalization_size=30)
    dense.start(np.random.default_rng(0))
    tracemalloc.start()
    dense.step(rng)
    _, dense_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert dense_peak > 8 * p * 3  # the reference does touch all of Φ̃: the check can fail


def test_flops_performed_per_step_do_not_grow_with_p():
    per_step = {}
    for p in (1_000, 100_000):
        X, Y = check_views(*sparse_views(3000, p, p, nnz_per_row=6, k=5, random_state=0))
        for Solver in (StochasticSolver, DenseStochasticSolver):
            solver, _ = _drive(Solver, X, Y, 1, b=40, s=40)
            before = solver.flops_done
            rng = np.random.default_rng(1)
            for _ in range(10):
                solver.step(rng)
            per_step[Solver.kind if Solver is StochasticSolver else "dense", p] = \
                (solver.flops_done - before) / 10
    lazy_ratio = per_step["stochastic", 100_000] / per_step["stochastic", 1_000]
    dense_ratio = per_step["dense", 100_000] / per_step["dense", 1_000]
    assert 0.8 < lazy_ratio < 1.25
    assert dense_ratio > 50


def test_kernels_match_scipy():
    rng = np.random.default_rng(0)
    A = sp.random(50, 30, density=0.15, format="csr", random_state=1)
    A = A.tolil(); A[7] = 0  # an empty row
    A = sp.csr_matrix(A)
    rows = np.array([0, 3, 7, 20, 49])
    T = rng.standard_normal((30, 4))
    np.testing.assert_allclose(rows_times(A.indptr, A.indices, A.data, rows, T), A[rows] @ T,
                               rtol=1e-14)
    assert rows_nnz(A.indptr, rows) == A[rows].nnz
    R = rng.standard_normal((5, 4))
    T2, G = T.copy(), T.T @ T
    updates = sparse_step(A.indptr, A.indices, A.data, rows, R, T2, G, 0.3)
    np.testing.assert_allclose(T2, T - 0.3 * (A[rows].T @ R), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(G, T2.T @ T2, rtol=1e-12, atol=1e-13)  # repeated columns too
    assert updates == A[rows].nnz > np.unique(A[rows].indices).size


def test_minibatch_lambda_max_is_exact_and_bounded_by_the_heaviest_row():
    X = check_views(*sparse_views(600, 90, 40, nnz_per_row=5, k=4, random_state=0))[0]
    X = sp.csr_matrix(X.multiply(np.linspace(0.5, 1.5, 600)[:, None]))
    estimate = minibatch_lambda_max(X, np.random.default_rng(0), 25, n_probes=4)
    rng, expected = np.random.default_rng(0), 0.0
    for _ in range(4):
        Ab = X[rng.choice(600, size=25, replace=False)].toarray()
        expected = max(expected, np.linalg.eigvalsh(Ab.T @ Ab)[-1] / 25)
    heaviest = np.max(np.asarray(X.multiply(X).sum(axis=1))) / 25
    np.testing.assert_allclose(estimate, max(expected, heaviest), rtol=1e-12)


# -- the authors' protocol, pinned ------------------------------------------------------------
@pytest.fixture(scope="module")
def views():
    X, Y = planted_views(800, 12, 9, [0.9, 0.6, 0.3], random_state=4, condition=3.0)
    return check_views(X, Y)


def test_batch_appgrad_starts_phi_tilde_at_zero(views):
    X, Y = views
    n, eta, reg = X.shape[0], 0.3, 0.01
    solver = DataSolver(X, Y, 3, reg, eta, eta)
    solver.start(np.random.default_rng(0))
    assert not np.any(solver.x.tilde) and not np.any(solver.y.tilde)
    psi0 = solver.y.weights
    np.testing.assert_allclose(psi0.T @ (Y.T @ Y / n + reg * np.eye(9)) @ psi0, np.eye(3),
                               atol=1e-12)
    solver.step(None)
    # from Φ̃ = 0 the first step is η·XᵀYΨ⁰/n; a random Φ̃⁰ would add (I − ηC_x)Φ̃⁰
    np.testing.assert_allclose(solver.x.tilde, eta * X.T @ (Y @ psi0) / n, rtol=1e-12)


@pytest.mark.parametrize("Solver", [StochasticSolver, DenseStochasticSolver],
                         ids=["lazy", "dense"])
def test_stochastic_first_step_uses_a_separate_normalisation_subsample(views, Solver):
    X, Y = views
    eta, reg, b, s, k = 0.3, 0.01, 20, 30, 3
    rng = np.random.default_rng(5)
    solver = Solver(X, Y, k, reg, eta, eta, batch_size=b, normalization_size=s)
    solver.start(rng)
    psi0 = solver.y.weights()
    assert not np.any(solver.x.tilde())
    state = rng.bit_generator.state
    solver.step(rng)
    rng.bit_generator.state = state
    J = np.sort(rng.choice(800, size=s, replace=False))   # normalisation rows, both views
    I = np.sort(rng.choice(800, size=b, replace=False))   # x minibatch
    tilde = eta * X[I].T @ (Y[I] @ psi0) / b              # from the zero start
    expected = tilde @ inv_sqrt_psd(tilde.T @ (X[J].T @ X[J] / s + reg * np.eye(12)) @ tilde)
    np.testing.assert_allclose(solver.x.tilde(), tilde, rtol=1e-12)
    np.testing.assert_allclose(solver.x.weights(), expected, rtol=1e-10)
    on_minibatch = tilde @ inv_sqrt_psd(tilde.T @ (X[I].T @ X[I] / b + reg * np.eye(12)) @ tilde)
    assert np.abs(on_minibatch - expected).max() > 1e-3 * np.abs(expected).max()
    Iy = np.sort(rng.choice(800, size=b, replace=False))  # y minibatch, after x's update
    tilde_y = eta * Y[Iy].T @ (X[Iy] @ expected) / b
    expected_y = tilde_y @ inv_sqrt_psd(tilde_y.T @ (Y[J].T @ Y[J] / s + reg * np.eye(9))
                                        @ tilde_y)
    np.testing.assert_allclose(solver.y.weights(), expected_y, rtol=1e-10)


def test_authors_normalisation_adds_the_ridge_to_the_k_by_k_matrix(views):
    X, Y = views
    n, eta, reg = X.shape[0], 0.3, 0.05
    solver = DataSolver(X, Y, 3, reg, eta, eta, normalization="authors")
    solver.start(np.random.default_rng(0))
    solver.step(None)
    tilde = solver.x.tilde
    Z = X @ tilde
    np.testing.assert_allclose(solver.x.weights, tilde @ inv_sqrt_psd(Z.T @ Z / n
                                                                      + reg * np.eye(3)),
                               rtol=1e-10)
    paper = tilde @ inv_sqrt_psd(Z.T @ Z / n + reg * tilde.T @ tilde)
    assert np.abs(paper - solver.x.weights).max() > 1e-3 * np.abs(paper).max()


@pytest.mark.parametrize("batch_size", [None, 50], ids=["batch", "stochastic"])
def test_authors_normalisation_still_finds_the_canonical_subspace(views, batch_size):
    X, Y = views
    exact = ExactCCA(3).fit(X, Y)
    est = AppGradCCA(3, normalization="authors", batch_size=batch_size, max_iter=3000,
                     tol=0, random_state=0).fit(X, Y)
    assert pcc(X, Y, est.x_weights_, est.y_weights_, exact.x_weights_,
               exact.y_weights_) > (0.99 if batch_size is None else 0.9)


# -- degenerate minibatches (issue 13, item 4) ------------------------------------------------
def _rare_views(n=1000, rare_rows=15, seed=0):
    """X dense; Y zero but for ``rare_rows`` rows correlated with X: most minibatches of 50
    rows have no cross-moment at all."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 10))
    Y = np.zeros((n, 5))
    rows = rng.choice(n, rare_rows, replace=False)
    Y[rows] = X[rows, :5] + 0.3 * rng.standard_normal((rare_rows, 5))
    return X, Y


@pytest.mark.parametrize("k,seed", [(1, 0), (2, 3)], ids=["k1", "k2"])
def test_minibatches_without_cross_moment_are_fitted(k, seed, caplog):
    X, Y = _rare_views()
    batches = [np.random.default_rng(i).choice(1000, 50, replace=False) for i in range(200)]
    assert np.mean([not np.any(X[r].T @ Y[r]) for r in batches]) > 0.3  # really degenerate
    exact = ExactCCA(k).fit(X, Y)
    with caplog.at_level(logging.WARNING, logger="lowdim"), \
            warnings.catch_warnings(action="error"):
        est = AppGradCCA(k, batch_size=50, max_iter=2000, random_state=seed).fit(X, Y)
    assert est.n_step_halvings_ == 0 and sum(est.n_skipped_normalizations_) > 0
    assert pcc(X, Y, est.x_weights_, est.y_weights_, exact.x_weights_, exact.y_weights_) > 0.6
    lines = [r.getMessage() for r in caplog.records if "normalisations" in r.getMessage()]
    assert len(lines) == 1 and "skipped" in lines[0]


@pytest.mark.parametrize("batch_size", [None, 50], ids=["batch", "stochastic"])
def test_views_without_any_cross_moment_raise_one_clear_error(batch_size):
    rng = np.random.default_rng(0)
    X, Y = np.zeros((400, 6)), np.zeros((400, 4))
    X[:200] = rng.standard_normal((200, 6))  # X lives on the first half of the rows,
    Y[200:] = rng.standard_normal((200, 4))  # Y on the second: XᵀY = 0
    with warnings.catch_warnings(action="error"), \
            pytest.raises(ValueError, match=r"weights of `X` are still zero.*"
                                            r"never gave a non-zero cross-moment"):
        AppGradCCA(2, batch_size=batch_size, max_iter=50, tol=0, random_state=0).fit(X, Y)


# -- a zero iterate under the authors' normalisation (its N = λI is never zero) ---------------
def _mostly_empty_views(seed=0):
    """Sparse X empty on 90 % of its rows: minibatches of 5 rows often have no cross-moment."""
    rng = np.random.default_rng(seed)
    n = 2000
    Z = rng.standard_normal((n, 2))
    X = np.hstack([Z, rng.standard_normal((n, 28))])
    Y = np.hstack([Z + 0.3 * rng.standard_normal((n, 2)), rng.standard_normal((n, 18))])
    X[rng.random(n) > 0.1] = 0.0
    return check_views(sp.csr_matrix(X), sp.csr_matrix(Y))


@pytest.mark.parametrize("normalization", ["paper", "authors"])
def test_mostly_empty_view_fits_for_every_seed(normalization):
    """A zero iterate is skipped, keeping Ψ⁰: with 'authors' it used to be normalised to zero
    (N = λI), so both views stayed zero for good and fit raised for half of the seeds."""
    X, Y = _mostly_empty_views()
    exact_tcc = ExactCCA(2).fit(X, Y).score_components(X, Y).sum()
    for seed in range(10):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            est = AppGradCCA(2, batch_size=5, max_iter=2000, random_state=seed,
                             normalization=normalization).fit(X, Y)
        # minibatches of 5 rows leave much noise ('paper': 0.28-0.67 of the exact TCC)
        assert est.score_components(X, Y).sum() > 0.2 * exact_tcc, seed


@pytest.mark.parametrize("Solver", [StochasticSolver, DenseStochasticSolver],
                         ids=["lazy", "dense"])
def test_authors_normalisation_skips_a_zero_iterate_and_keeps_the_start(Solver):
    X, Y = _mostly_empty_views()
    for seed in range(40):  # a generator whose first minibatch of X has no non-zero entry
        rng = np.random.default_rng(seed)
        solver = Solver(X, Y, 2, 0.005, 0.05, 0.05, batch_size=5, normalization_size=20,
                        normalization="authors")
        solver.start(rng)
        psi0 = np.array(solver.y.weights())
        solver.step(rng)
        if not np.any(solver.x.tilde()):
            break
    assert not np.any(solver.x.tilde()) and solver.skipped[0] == 1
    assert not np.any(solver.x.weights())
    # y's step used the zero Φ, so it moved Ψ̃ by the ridge only: Ψ̃ stays zero, Ψ stays Ψ⁰
    np.testing.assert_array_equal(solver.y.weights(), psi0)


def test_lazy_and_dense_solvers_agree_through_skipped_zero_iterates():
    """60 iterations: on these views (most minibatches have one non-empty row of X, so
    rank-one updates) rounding differences grow after ~100, to 1e-8 by 300."""
    X, Y = _mostly_empty_views()
    runs = []
    for Solver in (StochasticSolver, DenseStochasticSolver):
        rng = np.random.default_rng(4)  # skips in the first iterations (checked below)
        solver = Solver(X, Y, 2, 0.005, 0.05, 0.05, batch_size=5, normalization_size=20,
                        normalization="authors")
        solver.start(rng)
        for _ in range(60):
            solver.step(rng)
        runs.append(solver)
    lazy, dense = runs
    assert lazy.skipped == dense.skipped and lazy.skipped[0] > 0
    for u, v in zip(lazy.weights(), dense.weights()):
        assert np.abs(v).max() > 0.01
        np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-14 * np.abs(v).max())
