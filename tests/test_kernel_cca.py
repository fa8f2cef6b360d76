"""KernelCCA: exact references, the linear special case, costs, bad parameters, sklearn checks."""

import functools

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.utils.estimator_checks import parametrize_with_checks

from lowdim.approx import nystrom, sms_nystrom
from lowdim.cca import ExactCCA, KernelCCA, canonical_correlations, exact_kernel_cca
from lowdim.data.sources.synthetic import nonlinear_two_view
from lowdim.similarity import KernelOracle, PairwiseMLP, PairwiseMLPOracle, SimilarityOracle

REG = 1e-3


@pytest.fixture(scope="module")
def circle():
    """Two views of one angle (Y at twice its frequency), 160 training and 60 held-out rows."""
    rng = np.random.default_rng(0)
    t = rng.uniform(0, 2 * np.pi, 220)
    X = np.c_[np.cos(t), np.sin(t)] + 0.1 * rng.standard_normal((220, 2))
    Y = np.c_[np.cos(2 * t), np.sin(2 * t)] + 0.1 * rng.standard_normal((220, 2))
    return X[:160], Y[:160], X[160:], Y[160:]


def _centred(K):
    n = K.shape[0]
    H = np.eye(n) - 1.0 / n
    return H @ K @ H


def _centred_rows(K_new, K):
    """Kernel rows of new points to the training points, centred like H K H."""
    return K_new - K_new.mean(axis=1, keepdims=True) - K.mean(axis=0) + K.mean()


def _reference_kcca(Kx, Ky, k, reg):
    r"""Regularised kernel CCA straight from its stationarity conditions.

    ``Kx Ky β / n = ρ (Kx² / n + λ Kx) α`` and its mirror give
    ``(Kx + nλI)^{-1} Ky (Ky + nλI)^{-1} Kx α = ρ² α``: the top eigenpairs of that
    n × n matrix, with α scaled so that ``αᵀ(Kx²/n + λKx)α = 1``.
    """
    n = Kx.shape[0]
    M = np.linalg.solve(Kx + n * reg * np.eye(n), Ky) @ np.linalg.solve(Ky + n * reg * np.eye(n),
                                                                          Kx)
    values, vectors = np.linalg.eig(M)
    top = np.argsort(-values.real)[:k]
    rho = np.sqrt(values.real[top])
    alpha = vectors[:, top].real
    alpha /= np.sqrt(np.einsum("ij,ij->j", alpha, (Kx @ Kx / n + reg * Kx) @ alpha))
    beta = np.linalg.solve(Ky + n * reg * np.eye(n), Kx @ alpha) / rho
    return rho, alpha, beta


def _same_up_to_sign(A, B, rtol):
    signs = np.sign(np.sum(A * B, axis=0))
    np.testing.assert_allclose(A * signs, B, rtol=rtol, atol=rtol * np.abs(B).max())


@pytest.mark.parametrize("solver", ["exact", "appgrad"])
def test_every_row_a_landmark_reproduces_exact_regularised_kernel_cca(circle, solver):
    X, Y, Xt, Yt = circle
    gamma = 20.0  # a narrow RBF: K is well conditioned, so the dual reference is accurate
    Kx, Ky = rbf_kernel(X, gamma=gamma), rbf_kernel(Y, gamma=gamma)
    rho, alpha, beta = _reference_kcca(_centred(Kx), _centred(Ky), 3, REG)
    est = KernelCCA(3, gamma=gamma, n_landmarks=len(X), solver=solver, reg=REG, max_iter=5000,
                    tol=0, random_state=0).fit(X, Y)
    np.testing.assert_allclose(est.canonical_correlations_, rho, rtol=1e-6)
    assert est.feature_rank_ == (len(X), len(X))
    train_x, train_y = est.transform(X, Y)
    for got, again in zip((train_x, train_y), est.fit_transform(X, Y)):
        np.testing.assert_allclose(again, got, rtol=1e-9, atol=1e-12)  # no new evaluations
    _same_up_to_sign(train_x, _centred(Kx) @ alpha, 1e-5)
    _same_up_to_sign(train_y, _centred(Ky) @ beta, 1e-5)
    new_x, new_y = est.transform(Xt, Yt)
    _same_up_to_sign(new_x, _centred_rows(rbf_kernel(Xt, X, gamma=gamma), Kx) @ alpha, 1e-5)
    _same_up_to_sign(new_y, _centred_rows(rbf_kernel(Yt, Y, gamma=gamma), Ky) @ beta, 1e-5)


@pytest.mark.parametrize("approximation", ["nystrom", "sms_nystrom"])
def test_landmarks_beyond_the_rows_use_every_row_with_a_warning_as_the_nystrom_functions(
        circle, approximation):
    """``n_landmarks >= n`` is handled as ``nystrom``/``sms_nystrom`` handle ``s >= n``."""
    X, Y, Xt, Yt = circle
    with pytest.warns(UserWarning, match="`n_landmarks` = 500 >= n = 160: every item is a "
                                         "landmark"):
        many = KernelCCA(2, gamma=20.0, n_landmarks=500, approximation=approximation,
                         solver="exact", reg=REG, random_state=0).fit(X, Y)
    with pytest.warns(UserWarning, match="`n_landmarks` = 160 >= n = 160"):
        every = KernelCCA(2, gamma=20.0, n_landmarks=160, approximation=approximation,
                          solver="exact", reg=REG, random_state=0).fit(X, Y)
    assert sorted(many.landmark_indices_) == list(range(160))
    assert many.evaluations_ == every.evaluations_ == (160 * 161 // 2,) * 2
    np.testing.assert_allclose(many.score_components(Xt, Yt), every.score_components(Xt, Yt),
                               rtol=1e-10)
    with pytest.warns(UserWarning, match="`s` = 500 >= n = 160"):
        function = (nystrom if approximation == "nystrom" else sms_nystrom)(
            rbf_kernel(X, gamma=20.0), 500, random_state=0)
    assert function.info["shift"] == pytest.approx(many.shift_[0], rel=1e-8, abs=1e-12)


def test_exact_kernel_cca_matches_the_stationarity_reference(circle):
    X, Y, Xt, _ = circle
    Kx, Ky = rbf_kernel(X, gamma=20.0), rbf_kernel(Y, gamma=20.0)
    rho, alpha, _ = _reference_kcca(_centred(Kx), _centred(Ky), 3, REG)
    got_rho, got_alpha, _ = exact_kernel_cca(Kx, Ky, 3, reg=REG)
    np.testing.assert_allclose(got_rho, rho, rtol=1e-8)
    _same_up_to_sign(_centred_rows(rbf_kernel(Xt, X, gamma=20.0), Kx) @ got_alpha,
                     _centred_rows(rbf_kernel(Xt, X, gamma=20.0), Kx) @ alpha, 1e-6)


@pytest.mark.parametrize("solver", ["exact", "appgrad"])
def test_linear_kernel_reproduces_linear_cca(solver):
    rng = np.random.default_rng(1)
    Z = rng.standard_normal((400, 2))
    X = np.c_[Z, rng.standard_normal((400, 3))] @ rng.standard_normal((5, 5)) + 1.0
    Y = np.c_[Z + 0.5 * rng.standard_normal((400, 2)), rng.standard_normal((400, 2))] - 2.0
    train, test = slice(0, 300), slice(300, None)
    mx, my = X[train].mean(axis=0), Y[train].mean(axis=0)
    linear = ExactCCA(2, reg=REG).fit(X[train] - mx, Y[train] - my)
    est = KernelCCA(2, kernel="linear", n_landmarks=20, solver=solver, reg=REG, max_iter=5000,
                    tol=0, random_state=0).fit(X[train], Y[train])
    assert est.feature_rank_ == (5, 4)  # rank of the views, not the 20 landmarks
    np.testing.assert_allclose(est.canonical_correlations_, linear.canonical_correlations_,
                               rtol=1e-7)
    # AppGrad converges linearly: after 5,000 steps its scores agree to about 1e-4
    rtol = 1e-6 if solver == "exact" else 1e-3
    for got, want in zip(est.transform(X[test], Y[test]),
                         linear.transform(X[test] - mx, Y[test] - my)):
        _same_up_to_sign(got, want, rtol)


def test_captures_a_nonlinear_relation_linear_cca_cannot_see():
    X, Y, _ = nonlinear_two_view(2000, random_state=0)
    train, test = slice(0, 1600), slice(1600, None)
    est = KernelCCA(2, n_landmarks=200, random_state=0).fit(X[train], Y[train])
    rho = est.score_components(X[test], Y[test])
    mx, my = X[train].mean(axis=0), Y[train].mean(axis=0)
    linear = ExactCCA(2, reg=REG).fit(X[train] - mx, Y[train] - my)
    rho_linear = linear.score_components(X[test] - mx, Y[test] - my)
    assert rho[0] >= 0.8 and rho[1] >= 0.8  # cos 3t and sin 3t of the shared angle
    assert rho_linear[0] < 0.2


class CountingFactory:
    """Builds KernelOracles and keeps each one, so a test can read its evaluation count."""

    def __init__(self, gamma):
        self.gamma, self.oracles = gamma, []

    def __call__(self, rows):
        self.oracles.append(KernelOracle(rows, "rbf", gamma=self.gamma))
        return self.oracles[-1]


@pytest.mark.parametrize("approximation", ["nystrom", "sms_nystrom"])
def test_counts_fit_evaluations_and_transform_costs_s_per_row(circle, approximation):
    X, Y, Xt, Yt = circle
    fx, fy = CountingFactory(2.0), CountingFactory(3.0)
    n, s = len(X), 30
    est = KernelCCA(2, kernel=(fx, fy), n_landmarks=s, approximation=approximation,
                    random_state=0).fit(X, Y)
    assert est.evaluations_ == (fx.oracles[0].evaluations, fy.oracles[0].evaluations)
    nystrom = n * s - s * (s - 1) // 2
    if approximation == "nystrom":
        assert est.evaluations_ == (nystrom, nystrom)
    else:  # plus the entries of K[S2 \ S1, S2 \ S1], |S2| = 2 s
        assert est.evaluations_ == (nystrom + s * (s + 1) // 2,) * 2
    est.transform(Xt, Yt)
    assert [o.evaluations for o in (fx.oracles[-1], fy.oracles[-1])] == [len(Xt) * s] * 2
    est.fit_transform(X, Y)  # builds the training oracle again, and no other
    assert (len(fx.oracles), len(fy.oracles)) == (3, 3)
    np.testing.assert_array_equal(est.x_landmarks_, X[est.landmark_indices_])


def test_median_heuristic_evaluations_are_counted(circle):
    X, Y, _, _ = circle
    est = KernelCCA(2, n_landmarks=30, random_state=0).fit(X, Y)
    m = min(len(X), 200)
    assert est.evaluations_ == (len(X) * 30 - 30 * 29 // 2 + m * (m - 1) // 2,) * 2
    from scipy.spatial.distance import pdist

    assert est.gamma_[0] == pytest.approx(1.0 / np.median(pdist(X)) ** 2)


def test_sparse_input_gives_the_dense_result(circle):
    X, Y, Xt, Yt = circle
    dense = KernelCCA(2, n_landmarks=40, random_state=3).fit(X, Y)
    sparse = KernelCCA(2, n_landmarks=40, random_state=3).fit(sp.csr_matrix(X), sp.csr_matrix(Y))
    np.testing.assert_allclose(sparse.canonical_correlations_, dense.canonical_correlations_,
                               rtol=1e-10)
    for got, want in zip(sparse.transform(sp.csr_matrix(Xt), sp.csr_matrix(Yt)),
                         dense.transform(Xt, Yt)):
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)
    assert sp.issparse(sparse.x_landmarks_)
    np.testing.assert_allclose(dense.transform(sp.csr_matrix(Xt)), dense.transform(Xt),
                               rtol=1e-8, atol=1e-10)  # fitted dense, new rows sparse


def test_same_seed_same_fit_and_landmarks_shared_by_the_views(circle):
    X, Y, Xt, _ = circle
    a = KernelCCA(2, n_landmarks=25, random_state=7).fit(X, Y)
    b = KernelCCA(2, n_landmarks=25, random_state=7).fit(X, Y)
    c = KernelCCA(2, n_landmarks=25, random_state=8).fit(X, Y)
    np.testing.assert_array_equal(a.transform(Xt), b.transform(Xt))
    assert not np.array_equal(a.landmark_indices_, c.landmark_indices_)
    np.testing.assert_array_equal(a.y_landmarks_, Y[a.landmark_indices_])


@pytest.fixture(scope="module")
def mlp_kernels():
    """An indefinite similarity: a pairwise MLP per view of labelled two-view data."""
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 500)
    centres = rng.standard_normal((4, 6))
    X = centres[y] + 0.7 * rng.standard_normal((500, 6))
    Y = centres[y][:, ::-1] + 0.7 * rng.standard_normal((500, 6))
    kernels = []
    for A in (X, Y):
        mlp = PairwiseMLP((16,), n_pairs=1500, max_iter=30, random_state=0).fit(A[:200], y[:200])
        kernels.append(functools.partial(PairwiseMLPOracle, model=mlp, score="logit"))
    return tuple(kernels), X[200:], Y[200:]


def test_sms_nystrom_shifts_the_core_of_an_indefinite_similarity(mlp_kernels):
    kernels, X, Y = mlp_kernels
    s = 40
    nys = KernelCCA(2, kernel=kernels, n_landmarks=s, random_state=0).fit(X[:240], Y[:240])
    sms = KernelCCA(2, kernel=kernels, n_landmarks=s, approximation="sms_nystrom",
                    random_state=0).fit(X[:240], Y[:240])
    np.testing.assert_array_equal(nys.landmark_indices_, sms.landmark_indices_)
    assert all(shift < 0 for shift in sms.shift_)  # lambda_min of K[S2, S2] is negative
    assert nys.shift_ == (0.0, 0.0)
    assert sms.feature_rank_ == (s, s)  # the shifted core is positive definite
    assert all(r < s for r in nys.feature_rank_)  # Nyström drops the core's negative part
    rho = sms.score_components(X[240:], Y[240:])
    assert np.all(np.isfinite(rho)) and rho[0] > 0.5


class NotAnOracle:
    def __init__(self, rows):
        self.rows = rows


@pytest.mark.parametrize("params, message", [
    ({"kernel": "gaussian"}, r"`kernel` must be one of \['rbf', .*got 'gaussian'"),
    ({"kernel": ("rbf", "rbf", "rbf")}, r"`kernel` must be one value or a pair \(x, y\), got 3"),
    ({"gamma": -1.0}, r"`gamma` must be a positive number, got -1.0"),
    ({"gamma": 0.5, "kernel": NotAnOracle}, r"`gamma` must be None for a callable kernel"),
    ({"kernel": NotAnOracle}, r"must return a SimilarityOracle; it returned NotAnOracle"),
    ({"n_landmarks": 0}, r"`n_landmarks` must be a positive int, got 0"),
    ({"n_landmarks": 2.5}, r"`n_landmarks` must be a positive int, got 2.5"),
    ({"approximation": "sicur"}, r"`approximation` must be one of \['nystrom', 'sms_nystrom'\]"),
    ({"solver": "svd"}, r"`solver` must be one of \['appgrad', 'exact'\], got 'svd'"),
    ({"reg": -0.1}, r"`reg` must be a non-negative number, got -0.1"),
    ({"center": "yes"}, r"`center` must be True or False, got 'yes'"),
    ({"multiplier": 0.5}, r"`multiplier` must be a number >= 1, got 0.5"),
    ({"alpha": -1.0}, r"`alpha` must be a non-negative number, got -1.0"),
    ({"n_components": 0}, r"`n_components` must be a positive int, got 0"),
    ({"n_components": 3, "n_landmarks": 2},
     r"`n_components` = 3 exceeds the rank of the X features \(r = 2"),
], ids=["kernel", "kernel-triple", "gamma", "gamma-callable", "factory", "landmarks-0",
        "landmarks-float", "approximation", "solver", "reg", "center", "multiplier", "alpha",
        "components",
        "components-rank"])
def test_bad_parameters_are_named(circle, params, message):
    X, Y, _, _ = circle
    with pytest.raises(ValueError, match=message):
        KernelCCA(**{"n_components": 2, **params}).fit(X, Y)


def test_transform_checks_the_feature_count(circle):
    X, Y, Xt, _ = circle
    est = KernelCCA(1, n_landmarks=20, random_state=0).fit(X, Y)
    with pytest.raises(ValueError, match="X has 3 features, but KernelCCA is expecting 2"):
        est.transform(np.c_[Xt, Xt[:, :1]])


def test_exact_kernel_cca_rejects_mismatched_matrices():
    with pytest.raises(ValueError, match=r"`Ky` must be a square matrix of the n = 3 training "
                                         r"rows, got shape \(4, 4\)"):
        exact_kernel_cca(np.eye(3), np.eye(4), 1, reg=REG)
    with pytest.raises(ValueError, match="`reg` must be a positive number"):
        exact_kernel_cca(np.eye(3), np.eye(3), 1, reg=0.0)


def test_factory_must_cover_the_rows_it_was_given(circle):
    X, Y, _, _ = circle
    wrong = lambda rows: KernelOracle(rows[:-1], "rbf", gamma=1.0)  # noqa: E731
    with pytest.raises(ValueError, match=r"returned an oracle over 159 items for 160 rows"):
        KernelCCA(1, kernel=wrong).fit(X, Y)
    assert isinstance(KernelOracle(X, "rbf", gamma=1.0), SimilarityOracle)


# scikit-learn's checks pass a 1-D target as Y, so the estimator runs with one component.
_TUPLE = ("fit_transform(X, Y) returns (x_scores, y_scores) like scikit-learn's CCA; the check "
          "allows tuples only for estimators named CCA/PLS*")
_EXPECTED = {
    "check_transformer_general": _TUPLE,
    "check_transformer_general(readonly_memmap=True)": _TUPLE,
    "check_transformer_data_not_an_array": _TUPLE,
}


@parametrize_with_checks([KernelCCA(1, n_landmarks=10, max_iter=50, tol=0, random_state=0),
                          KernelCCA(1, n_landmarks=10, solver="exact", random_state=0)],
                         expected_failed_checks=lambda est: _EXPECTED)
def test_scikit_learn_compatible(estimator, check):
    check(estimator)


def test_kernel_cca_experiment_gives_every_run_and_the_reference_one_kernel_width(monkeypatch):
    """With gamma=None and more than 200 training rows each median subsample differs: the
    width must be set once per view, so that every Nyström run and the exact reference
    approximate the same kernel matrix."""
    from lowdim.cca import kernel, kernel_experiments
    from lowdim.data import get_spec

    used, original = [], kernel.make_oracle

    def recording(kern, rows, *, gamma=None, **kwargs):
        used.append(gamma)
        return original(kern, rows, gamma=gamma, **kwargs)

    monkeypatch.setattr(kernel_experiments, "make_oracle", recording)  # the exact reference
    monkeypatch.setattr(kernel, "make_oracle", recording)  # every KernelCCA run
    setting = {"name": "one_width", "similarity": "rbf", "gamma": None,
               "approximations": ["nystrom"], "landmarks": [40], "n_seeds": 2,
               "n_components": 2, "reg": 1e-3, "solver": "exact", "max_iter": 100,
               "tol": 1e-6, "rescale": "none", "n_rows": 0, "heldout_fraction": 0.2,
               "exact_max_n": 10000, "mlp": {}}
    data = get_spec("nonlinear_two_view").prepare(n=400)
    rows = kernel_experiments.kernel_cca_experiment(data, setting, seed=0)
    assert rows["n_train"].iloc[0] > 200  # the median heuristic subsamples
    assert len(set(used)) == 2 and None not in used  # one width per view, for every oracle
    m = 200
    # each run still counts the heuristic's distances, as when it computed the width itself
    kcca = rows[rows["method"] == "kernel_cca_nystrom"]
    n = int(kcca["n_train"].iloc[0])
    assert (kcca["evaluations_fit"] == 2 * (n * 40 - 40 * 39 // 2 + m * (m - 1) // 2)).all()
    exact = rows[rows["method"] == "exact_kernel_cca"]
    assert int(exact["evaluations_fit"].iloc[0]) == 2 * (n * (n + 1) // 2 + m * (m - 1) // 2)
