"""AppGrad and stochastic AppGrad against the exact CCA solution on planted data."""

import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from lowdim.cca import AppGradCCA, ExactCCA, pcc, tcc
from lowdim.cca._appgrad_solvers import ViewState, data_half_step, gram_half_step
from lowdim.cca._linalg import gram_matrices
from lowdim.cca.flops import appgrad_batch_flops, appgrad_stochastic_flops
from fixtures.cca_data import planted_views, sparse_views

RHO = np.array([0.9, 0.8, 0.7, 0.6])


@pytest.fixture(scope="module")
def planted():
    # held-out rows from the same draw: another call would mix with other matrices
    X, Y = planted_views(6000, 40, 30, RHO, random_state=0, condition=5.0)
    X, Y, Xt, Yt = X[:4000], Y[:4000], X[4000:], Y[4000:]
    return X, Y, Xt, Yt, ExactCCA(4).fit(X, Y)


@pytest.mark.parametrize("precompute", [True, False], ids=["gram_path", "data_path"])
def test_batch_appgrad_reaches_exact_pcc(planted, precompute):
    X, Y, Xt, Yt, exact = planted
    est = AppGradCCA(4, precompute=precompute, max_iter=3000, tol=1e-10, random_state=0).fit(X, Y)
    assert est.solver_ == ("gram" if precompute else "data")
    assert pcc(X, Y, est.x_weights_, est.y_weights_, exact.x_weights_, exact.y_weights_) >= 0.999
    assert pcc(Xt, Yt, est.x_weights_, est.y_weights_, exact.x_weights_, exact.y_weights_) >= 0.99
    np.testing.assert_allclose(est.canonical_correlations_, exact.canonical_correlations_,
                               rtol=1e-4)


def test_stochastic_appgrad_reaches_95_percent(planted):
    X, Y, _, _, exact = planted
    est = AppGradCCA(4, batch_size=50, max_iter=3000, random_state=0).fit(X, Y)
    assert est.solver_ == "stochastic"
    assert pcc(X, Y, est.x_weights_, est.y_weights_, exact.x_weights_, exact.y_weights_) >= 0.95


def test_gram_and_data_paths_follow_the_same_iterates(planted):
    X, Y, *_ = planted
    kw = dict(max_iter=40, tol=0, step_size=0.01, random_state=3)
    gram = AppGradCCA(4, precompute=True, **kw).fit(X, Y)
    data = AppGradCCA(4, precompute=False, **kw).fit(X, Y)
    np.testing.assert_allclose(gram.x_weights_, data.x_weights_, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(gram.y_weights_, data.y_weights_, rtol=1e-7, atol=1e-10)


def _exact_state(A, W, rho):
    tilde = W * rho
    return ViewState(tilde, W, A @ tilde, A @ W)


@pytest.mark.parametrize("reg", [0.0, 0.05], ids=["no_ridge", "ridge"])
def test_exact_solution_is_a_fixed_point(planted, reg):
    X, Y, *_ = planted
    exact = ExactCCA(4, reg=reg).fit(X, Y)
    Wx, Wy, rho = exact.x_weights_, exact.y_weights_, exact.canonical_correlations_
    x, y = _exact_state(X, Wx, rho), _exact_state(Y, Wy, rho)
    new_x = data_half_step(X, x, y.proj, eta=0.01, reg=reg)
    new_y = data_half_step(Y, y, new_x.proj, eta=0.01, reg=reg)
    for new, old in ((new_x, x), (new_y, y)):
        np.testing.assert_allclose(new.tilde, old.tilde, rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(new.weights, old.weights, rtol=1e-8, atol=1e-12)
    Sx, Sy, Sxy = gram_matrices(X, Y)
    gx = ViewState(Wx * rho, Wx, Sx @ (Wx * rho))
    new_gx = gram_half_step(Sx, Sxy, gx, Wy, eta=0.01, reg=reg)
    np.testing.assert_allclose(new_gx.weights, Wx, rtol=1e-8, atol=1e-12)


def test_a_non_solution_is_not_a_fixed_point(planted):
    X, Y, *_ = planted
    rng = np.random.default_rng(0)
    Wx, Wy = rng.standard_normal((40, 4)), rng.standard_normal((30, 4))
    x, y = _exact_state(X, Wx, RHO), _exact_state(Y, Wy, RHO)
    new_x = data_half_step(X, x, y.proj, eta=0.01, reg=0.0)
    assert np.linalg.norm(new_x.tilde - x.tilde) > 1e-3 * np.linalg.norm(x.tilde)


@pytest.mark.parametrize("batch_size,precompute", [(None, True), (None, False), (20, "auto")],
                         ids=["batch_gram", "batch_data", "stochastic"])
def test_sparse_and_dense_inputs_give_the_same_result(batch_size, precompute):
    X, Y = sparse_views(1500, 60, 50, nnz_per_row=4, k=5, random_state=1)
    kw = dict(batch_size=batch_size, precompute=precompute, max_iter=200, tol=0, random_state=0)
    sparse = AppGradCCA(3, **kw).fit(X, Y)
    dense = AppGradCCA(3, **kw).fit(X.toarray(), Y.toarray())
    assert sparse.solver_ == dense.solver_
    np.testing.assert_allclose(sparse.x_weights_, dense.x_weights_, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(sparse.y_weights_, dense.y_weights_, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(sparse.score_components(X, Y), dense.score_components(X.toarray(), Y.toarray()),
                               rtol=1e-8)


@pytest.mark.parametrize("batch_size", [None, 50], ids=["batch", "stochastic"])
def test_huge_step_is_halved_and_never_returns_nan(planted, batch_size):
    X, Y, _, _, exact = planted
    est = AppGradCCA(4, step_size=1e6, batch_size=batch_size, max_iter=500, tol=0,
                     random_state=0)
    with pytest.warns(RuntimeWarning, match="halving the step"):
        est.fit(X, Y)
    assert est.n_step_halvings_ > 0
    assert np.all(np.isfinite(est.x_weights_)) and np.all(np.isfinite(est.y_weights_))
    assert est.step_size_[0] < 1e6
    captured = pcc(X, Y, est.x_weights_, est.y_weights_, exact.x_weights_, exact.y_weights_)
    # batch: the halved step converges; stochastic: it sits near the edge of stability
    # (0.45-0.59 over seeds 0-5), still far above random directions
    assert captured > (0.8 if batch_size is None else 0.3)


def test_trace_records_checkpoints_flops_and_tcc(planted):
    X, Y, Xt, Yt, _ = planted
    est = AppGradCCA(4, max_iter=100, tol=0, checkpoints=[1, 10, 50], trace_tcc=True,
                     precompute=False, random_state=0).fit(X, Y, heldout=(Xt, Yt))
    trace = est.trace_
    assert list(trace["iteration"]) == [1, 10, 50, 100]
    np.testing.assert_allclose(trace["flops"], appgrad_batch_flops(4000, 40, 30, 4)
                               * trace["iteration"])
    assert np.all(np.diff(trace["seconds"]) >= 0)
    assert np.all(np.diff(trace["cpu_seconds"]) >= 0) and trace["cpu_seconds"].iloc[-1] > 0
    np.testing.assert_allclose(trace["tcc_train"].iloc[-1], est.score_components(X, Y).sum(), rtol=1e-8)
    np.testing.assert_allclose(trace["tcc_heldout"].iloc[-1], est.score_components(Xt, Yt).sum(), rtol=1e-8)
    assert trace["tcc_train"].iloc[-1] > trace["tcc_train"].iloc[0]


def test_stochastic_trace_uses_the_authors_flop_formula(planted):
    X, Y, *_ = planted
    est = AppGradCCA(4, batch_size=25, max_iter=30, checkpoints=[10], random_state=0).fit(X, Y)
    per_iter = appgrad_stochastic_flops(40, 30, 4, batch_size=25, normalization_size=40)
    np.testing.assert_allclose(est.trace_["flops"], per_iter * np.array([10, 30]))
    assert np.isnan(est.trace_["tcc_train"]).all()


def test_flop_formulas_reduce_to_the_authors_code():
    n, p, k, b = 60000, 392, 20, 50
    assert appgrad_batch_flops(n, p, p, k, iterations=7) == 7 * n * p * 20 * k
    assert appgrad_stochastic_flops(p, p, k, b, 10 * k, iterations=3) == \
        3 * p * (16 * k * b + 40 * k ** 2)


def test_batch_stops_at_tol_and_warns_when_it_cannot(planted):
    X, Y, *_ = planted
    est = AppGradCCA(4, max_iter=5000, tol=1e-4, random_state=0).fit(X, Y)
    assert est.converged_ and est.n_iter_ < 5000
    with pytest.warns(Warning, match="did not reach tol"):
        AppGradCCA(4, max_iter=3, tol=1e-12, random_state=0).fit(X, Y)


def test_same_seed_same_result_and_tcc_is_rotation_invariant(planted):
    X, Y, *_ = planted
    a = AppGradCCA(4, batch_size=40, max_iter=200, random_state=7).fit(X, Y)
    b = AppGradCCA(4, batch_size=40, max_iter=200, random_state=7).fit(X, Y)
    np.testing.assert_array_equal(a.x_weights_, b.x_weights_)
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((4, 4)))[0]
    np.testing.assert_allclose(tcc(X, Y, a.x_weights_ @ Q, a.y_weights_),
                               tcc(X, Y, a.x_weights_, a.y_weights_), rtol=1e-10)


def test_data_path_never_forms_a_p_by_p_matrix():
    import tracemalloc

    X, Y = sparse_views(3000, 4000, 4000, nnz_per_row=5, k=5, random_state=0)
    tracemalloc.start()
    AppGradCCA(5, precompute="auto", max_iter=5, tol=0, random_state=0).fit(X, Y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 0.1 * 8 * 4000 * 4000  # a single 4000×4000 float64 matrix is 128 MB


def test_stochastic_lazy_scaling_matches_exact_recomputation(planted, monkeypatch):
    from lowdim.cca._appgrad_solvers import StochasticSolver

    X, Y, *_ = planted
    kw = dict(batch_size=30, max_iter=60, reg=0.5, random_state=0)
    lazy = AppGradCCA(4, **kw).fit(X, Y)
    monkeypatch.setattr(StochasticSolver, "REFRESH", 1)  # fold the scale and recompute TᵀT every step
    eager = AppGradCCA(4, **kw).fit(X, Y)
    np.testing.assert_allclose(lazy.x_weights_, eager.x_weights_, rtol=1e-7, atol=1e-10)


def _validation_rows(n, fraction, random_state):
    """The rows early stopping sets aside: the first draw of the fit's generator."""
    from lowdim.seeding import spawn_seeds

    order = np.random.default_rng(spawn_seeds(random_state, 1)[0]).permutation(n)
    return np.sort(order[:int(round(fraction * n))])


@pytest.mark.parametrize("batch_size", [None, 50], ids=["batch", "stochastic"])
def test_early_stopping_stops_on_its_own_validation_rows(planted, batch_size):
    X, Y, Xt, Yt, exact = planted
    est = AppGradCCA(4, batch_size=batch_size, max_iter=20000, tol=1e-3, early_stopping=True,
                     validation_fraction=0.2, n_iter_no_change=2,
                     checkpoints=list(range(20, 20001, 20)), trace_tcc=True, random_state=0).fit(X, Y, heldout=(Xt, Yt))
    assert est.converged_ and est.n_iter_ < 20000
    scores = est.validation_scores_
    assert len(scores) == len(est.trace_) and est.best_validation_score_ == scores.max()
    # the rule: the last two checkpoints did not beat the best before them by 0.1 %, and no
    # earlier pair of checkpoints stopped it
    best = np.maximum.accumulate(scores)
    stale = scores[1:] <= best[:-1] * (1 + 1e-3)
    assert stale[-2:].all() and not (stale[:-2][1:] & stale[:-2][:-1]).any()
    # the scores are the TCC of the weights on the rows set aside, which fit never used
    val = _validation_rows(X.shape[0], 0.2, 0)
    np.testing.assert_allclose(scores[-1], est.score_components(X[val], Y[val]).sum(), rtol=1e-8)
    assert est.trace_["iteration"].iloc[-1] == est.n_iter_
    assert pcc(Xt, Yt, est.x_weights_, est.y_weights_, exact.x_weights_, exact.y_weights_) \
        >= (0.99 if batch_size is None else 0.93)


def test_early_stopping_fits_the_other_rows_only(planted):
    # the solver's own training TCC is the TCC on the rows left after the validation ones
    X, Y, *_ = planted
    with pytest.warns(Warning, match="still rising"):  # one checkpoint: it cannot stop
        est = AppGradCCA(4, max_iter=30, checkpoints=[30], trace_tcc=True, early_stopping=True,
                         validation_fraction=0.25, tol=0.0, random_state=0).fit(X, Y)
    rest = np.setdiff1d(np.arange(X.shape[0]), _validation_rows(X.shape[0], 0.25, 0))
    assert est.n_iter_ == 30 and len(rest) == 3000
    np.testing.assert_allclose(est.trace_["tcc_train"].iloc[-1],
                               est.score_components(X[rest], Y[rest]).sum(), rtol=1e-8)
    assert abs(est.score_components(X, Y).sum() - est.trace_["tcc_train"].iloc[-1]) > 1e-6


def test_early_stopping_warns_when_the_validation_tcc_still_rises(planted):
    X, Y, *_ = planted
    with pytest.warns(Warning, match="validation TCC was still rising"):
        est = AppGradCCA(4, max_iter=40, early_stopping=True, tol=1e-3,
                         checkpoints=[10, 20, 30, 40], random_state=0).fit(X, Y)
    assert not est.converged_ and est.n_iter_ == 40
    assert np.all(np.diff(est.validation_scores_[1:]) > 1e-3 * est.validation_scores_[1:-1])


def test_without_early_stopping_nothing_is_set_aside(planted):
    X, Y, *_ = planted
    kw = dict(max_iter=50, tol=0, random_state=0)
    plain = AppGradCCA(4, **kw).fit(X, Y)
    same = AppGradCCA(4, validation_fraction=0.5, n_iter_no_change=9, **kw).fit(X, Y)
    assert plain.validation_scores_ is None and plain.best_validation_score_ is None
    np.testing.assert_array_equal(plain.x_weights_, same.x_weights_)


def test_trace_seconds_exclude_the_evaluations_of_a_diverged_attempt(planted, monkeypatch):
    # A step 3x the stable one grows the iterates about 2x a step: the first attempt passes
    # checkpoints for a while before it diverges and is halved. The wall and CPU seconds of
    # the trace are fit time: every evaluation (here each made to spend 0.03 CPU s, so at
    # least as much wall time), of both attempts, is left out.
    X, Y, _, _, _ = planted
    stable = AppGradCCA(4, max_iter=1, tol=0, random_state=0).fit(X, Y).step_size_[0]
    calls = []
    evaluate = AppGradCCA._evaluate

    def slow_evaluate(self, solver, heldout):
        calls.append(1)
        tick = time.thread_time()  # this thread's alone: BLAS's threads may spin beside it
        while time.thread_time() - tick < 0.03:
            pass
        return evaluate(self, solver, heldout)

    monkeypatch.setattr(AppGradCCA, "_evaluate", slow_evaluate)
    est = AppGradCCA(4, step_size=3 * stable, max_iter=60, tol=0, random_state=0,
                     checkpoints=list(range(1, 61)))
    start, cpu = time.perf_counter(), time.process_time()
    with pytest.warns(RuntimeWarning, match="halving the step"):
        est.fit(X, Y)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    failed = len(calls) - len(est.trace_)
    assert est.n_step_halvings_ > 0 and failed >= 5
    # the last row was taken before its own evaluation; all the others ran before it
    assert est.trace_["seconds"].iloc[-1] + 0.03 * len(calls) <= wall
    assert est.trace_["cpu_seconds"].iloc[-1] + 0.03 * len(calls) <= cpu


def _one_hot_views(n=4000, p1=300, p2=500, seed=0):
    """A word (one-hot) against two context words (two non-zeros per row), as word_context."""
    rng = np.random.default_rng(seed)
    words = rng.zipf(1.5, n) % p1
    context = np.column_stack([(words * 7 + rng.integers(0, 3, n)) % p2,
                               rng.integers(0, p2, n)])
    X = sp.csr_matrix((np.ones(n), (np.arange(n), words)), shape=(n, p1))
    Y = sp.csr_matrix((np.ones(2 * n), (np.repeat(np.arange(n), 2), context.ravel())),
                      shape=(n, p2))
    return X, Y


def test_sparse_views_with_few_non_zeros_per_row_take_sparse_gram_matrices():
    """One-hot views: the data path's iterations are its n×k normaliser products; 'auto'
    takes the Gram path with the products kept sparse, the same iterates to rounding, and
    counts the Grams' non-zeros, not p² (word_context: 3.3 against 24.9 CPU s)."""
    X, Y = _one_hot_views()
    kw = dict(reg=0.001, max_iter=150, tol=0, checkpoints=[1, 10, 150], trace_tcc=True,
              random_state=0)
    auto = AppGradCCA(5, **kw).fit(X, Y)
    data = AppGradCCA(5, precompute=False, **kw).fit(X, Y)
    assert (auto.solver_, data.solver_) == ("gram", "data")
    np.testing.assert_allclose(auto.trace_["tcc_train"], data.trace_["tcc_train"], rtol=1e-10)
    np.testing.assert_allclose(np.abs(auto.x_weights_), np.abs(data.x_weights_), rtol=1e-6,
                               atol=1e-12)
    Sx, Sy, Sxy = gram_matrices(X, Y, keep_sparse=True)
    assert sp.issparse(Sx) and sp.issparse(Sy) and sp.issparse(Sxy)
    assert Sx.nnz == len(np.unique(X.indices))  # one-hot: XᵀX is diagonal
    per_iteration = np.diff(auto.trace_["flops_performed"].to_numpy())[-1] / 140
    assert per_iteration < 2 * 5 * 4 * (Sx.nnz + Sy.nnz + 2 * Sxy.nnz) < 2 * 5 * 300 * 500
    assert auto.trace_["flops_performed"].iloc[-1] < data.trace_["flops_performed"].iloc[-1] / 3


def test_gram_matrices_of_sparse_views_are_dense_once_a_quarter_is_non_zero():
    X, Y = sparse_views(500, 20, 30, nnz_per_row=8, k=3, random_state=0)  # XᵀX nearly full
    Sx, Sy, Sxy = gram_matrices(X, Y, keep_sparse=True)
    assert not any(sp.issparse(S) for S in (Sx, Sy, Sxy))
    np.testing.assert_allclose(Sxy, (X.T @ Y).toarray() / 500)
    wide, other = _one_hot_views(n=800)
    assert all(sp.issparse(S) for S in gram_matrices(wide, other, keep_sparse=True))
    # exact CCA factorises them: dense whatever the views (word_context's exact CCA failed)
    assert not any(sp.issparse(S) for S in gram_matrices(wide, other))
    exact = ExactCCA(3, reg=0.001).fit(wide, other)
    assert np.all(np.isfinite(exact.canonical_correlations_))


def test_sparse_views_whose_grams_cost_more_than_the_data_stay_on_the_data_path():
    # 20 non-zeros per row of 5,000 columns: each row adds up to 400 entries to XᵀX, so an
    # iteration on the Grams would read 20x the entries of one on the data
    X, Y = sparse_views(2000, 5000, 5000, nnz_per_row=20, k=5, random_state=0)
    assert AppGradCCA(3, max_iter=50, tol=0, random_state=0).fit(X, Y).solver_ == "data"
    forced = AppGradCCA(3, max_iter=50, tol=0, random_state=0, precompute=True).fit(X, Y)
    assert forced.solver_ == "gram"
