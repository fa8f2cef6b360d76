"""Exact CCA and the heuristics: reference checks, FLOPs, shared interface."""

import numpy as np
import pytest
import scipy.linalg as la
import scipy.sparse as sp
from sklearn.cross_decomposition import CCA as SklearnCCA

from lowdim.cca import (DWCCA, NWCCA, PCACCA, AppGradCCA, ExactCCA, RandomizedCCA,
                        canonical_correlations, tcc)
from lowdim.cca._linalg import randomized_svd_operator
from lowdim.cca.flops import exact_cca_flops
from fixtures.cca_data import planted_views, sparse_views

RHO = np.array([0.95, 0.75, 0.5])


@pytest.fixture(scope="module")
def views():
    return planted_views(3000, 12, 9, RHO, random_state=2, condition=4.0)


def test_exact_matches_scikit_learn_cca_correlations(views):
    X, Y = views
    X, Y = X - X.mean(0), Y - Y.mean(0)  # scikit-learn centres; we do not
    ours = ExactCCA(3, reg=0.0).fit(X, Y)
    theirs = SklearnCCA(3, scale=False, max_iter=5000, tol=1e-12).fit(X, Y)
    xs, ys = theirs.transform(X, Y)
    sk_rho = [np.corrcoef(xs[:, j], ys[:, j])[0, 1] for j in range(3)]
    np.testing.assert_allclose(ours.canonical_correlations_, sk_rho, rtol=1e-6)
    np.testing.assert_allclose(ours.score_components(X, Y), sk_rho, rtol=1e-6)


def test_exact_cca_recovers_the_planted_correlations():
    X, Y = planted_views(100000, 8, 6, RHO, random_state=0, condition=3.0)
    rho = ExactCCA(3, reg=0.0).fit(X, Y).canonical_correlations_
    np.testing.assert_allclose(rho, RHO, atol=0.01)


@pytest.mark.parametrize("reg", [0.0, 0.3], ids=["no_ridge", "ridge"])
def test_whitening_routes_agree(views, reg):
    X, Y = views
    fits = {m: ExactCCA(3, reg=reg, method=m).fit(X, Y) for m in ("cholesky", "eigh", "qr")}
    for m, est in fits.items():
        np.testing.assert_allclose(est.canonical_correlations_,
                                   fits["cholesky"].canonical_correlations_, rtol=1e-9)
        np.testing.assert_allclose(est.x_weights_, fits["cholesky"].x_weights_, rtol=1e-6,
                                   atol=1e-9)
        Cx = X.T @ X / X.shape[0] + reg * np.eye(X.shape[1])
        np.testing.assert_allclose(est.x_weights_.T @ Cx @ est.x_weights_, np.eye(3), atol=1e-9)


def test_exact_falls_back_to_eigh_for_rank_deficient_views(views):
    X, Y = views
    X = np.hstack([X, X[:, :2]])  # duplicated columns: S_x is singular
    with pytest.warns(RuntimeWarning, match="eigendecomposition"):
        est = ExactCCA(3, reg=0.0).fit(X, Y)
    assert est.method_ == "eigh/cholesky"
    np.testing.assert_allclose(est.canonical_correlations_,
                               ExactCCA(3, reg=0.0).fit(views[0], Y).canonical_correlations_,
                               rtol=1e-6)


def test_pca_cca_with_all_components_is_exact(views):
    X, Y = views
    exact = ExactCCA(3).fit(X, Y)
    full = PCACCA(3, n_pca_components=12, random_state=0).fit(X, Y)
    np.testing.assert_allclose(full.score_components(X, Y), exact.score_components(X, Y), rtol=1e-8)
    few = PCACCA(3, n_pca_components=4, random_state=0).fit(X, Y)
    assert tcc(X, Y, few.x_weights_, few.y_weights_) < exact.score_components(X, Y).sum()


def test_nw_and_dw_cca_are_exact_when_their_whitening_is():
    rng = np.random.default_rng(0)
    U, V = planted_views(20000, 10, 8, RHO, random_state=1, condition=1.0)
    # whitened views: the NW approximation S_x ≈ I is right up to sampling error
    Ux, Vy = la.qr(U, mode="economic")[0], la.qr(V, mode="economic")[0]
    Ux, Vy = Ux * np.sqrt(U.shape[0]), Vy * np.sqrt(U.shape[0])
    exact = ExactCCA(3, reg=0.0).fit(Ux, Vy).score_components(Ux, Vy)
    np.testing.assert_allclose(NWCCA(3, reg=0.0, random_state=0).fit(Ux, Vy).score_components(Ux, Vy),
                               exact, rtol=1e-6)
    # diagonal covariance: DW-CCA's diag(S_x) whitening is exact, NW-CCA's is not
    scales_x, scales_y = rng.uniform(0.1, 10, 10), rng.uniform(0.1, 10, 8)
    Xd, Yd = Ux * scales_x, Vy * scales_y
    exact = ExactCCA(3, reg=0.0).fit(Xd, Yd).score_components(Xd, Yd)
    np.testing.assert_allclose(DWCCA(3, reg=0.0, random_state=0).fit(Xd, Yd).score_components(Xd, Yd),
                               exact, rtol=1e-6)
    assert NWCCA(3, reg=0.0, random_state=0).fit(Xd, Yd).score_components(Xd, Yd).sum() < exact.sum() - 0.01


def test_randomized_svd_of_an_operator_matches_the_full_svd():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((200, 5)) @ np.diag([10, 8, 6, 4, 2]) @ rng.standard_normal((5, 150))
    U, s, Vt, n_products = randomized_svd_operator(lambda V: A @ V, lambda W: A.T @ W, A.shape,
                                                   3, rng, oversample=5, n_iter=2)
    np.testing.assert_allclose(s, la.svd(A, compute_uv=False)[:3], rtol=1e-10)
    np.testing.assert_allclose(np.abs(U.T @ la.svd(A)[0][:, :3]), np.eye(3), atol=1e-8)
    assert n_products == 6


@pytest.mark.parametrize("Estimator", [ExactCCA, NWCCA, DWCCA, PCACCA, RandomizedCCA],
                         ids=["exact", "nw", "dw", "pca", "randomized"])
def test_sparse_and_dense_baselines_agree(Estimator):
    X, Y = sparse_views(2000, 40, 30, nnz_per_row=4, k=5, random_state=0)
    kw = {} if Estimator is ExactCCA else {"random_state": 0}
    if Estimator is PCACCA:
        kw["n_pca_components"] = 10
    a, b = Estimator(3, **kw).fit(X, Y), Estimator(3, **kw).fit(X.toarray(), Y.toarray())
    np.testing.assert_allclose(a.x_weights_, b.x_weights_, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(a.score_components(X, Y), b.score_components(X.toarray(), Y.toarray()), rtol=1e-8)
    assert a.flops_ == b.flops_ > 0


def test_exact_flops_are_the_textbook_counts():
    n, p, k = 10000, 300, 5
    grams = 2 * n * 3 * p * p                     # XᵀX, YᵀY, XᵀY
    svd = 6 * p ** 3 + 20 * p ** 3                # thin SVD of the p×p whitened matrix
    cholesky = grams + 2 * p ** 3 / 3 + 2 * p ** 3 + svd + 2 * p * p * k
    assert exact_cca_flops(n, p, p, k, "cholesky") == pytest.approx(cholesky, rel=1e-12)
    eigh = grams + 18 * p ** 3 + 4 * p ** 3 + 4 * p ** 3 + svd + 4 * p * p * k
    assert exact_cca_flops(n, p, p, k, "eigh") == pytest.approx(eigh, rel=1e-12)
    qr = 2 * (4 * (n + p) * p * p - 4 * p ** 3 / 3) + 2 * n * p * p + svd + 2 * p * p * k
    assert exact_cca_flops(n, p, p, k, "qr") == pytest.approx(qr, rel=1e-12)
    # with n fixed the whitening and SVD terms (28.7 p³) take over from the Grams (6 n p²)
    wide = exact_cca_flops(100, 30000, 30000, k, "cholesky")
    assert wide == pytest.approx((2 / 3 + 2 + 26) * 30000 ** 3, rel=0.01)


def test_canonical_correlations_are_stable_for_collinear_projections():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((500, 1))
    A = np.hstack([a, 2 * a, rng.standard_normal((500, 1))])  # rank 2
    B = np.hstack([a + 1e-3 * rng.standard_normal((500, 1)), rng.standard_normal((500, 2))])
    rho = canonical_correlations(A, B)
    assert rho.shape == (3,) and rho[0] > 0.999 and rho[2] == 0.0
    assert np.all((rho >= 0) & (rho <= 1))


def test_exact_cca_through_an_operator_matches_the_full_svd(monkeypatch):
    import lowdim.cca.exact as exact_module

    X, Y = planted_views(2000, 30, 25, RHO, random_state=3, condition=3.0)
    full = ExactCCA(3).fit(X, Y)
    monkeypatch.setattr(exact_module, "FULL_SVD_MAX", 10)  # 25 > 10: the operator route
    implicit = ExactCCA(3).fit(X, Y)
    np.testing.assert_allclose(implicit.canonical_correlations_, full.canonical_correlations_,
                               rtol=1e-10)
    np.testing.assert_allclose(implicit.x_weights_, full.x_weights_, rtol=1e-6, atol=1e-9)


def test_block_power_iteration_estimates_the_largest_eigenvalue_from_below():
    from lowdim.cca._linalg import power_lambda_max

    rng = np.random.default_rng(0)
    A = rng.standard_normal((300, 40)) * np.linspace(0.1, 3.0, 40)
    S = A.T @ A / 300
    exact = la.eigvalsh(S)[-1]
    estimate = power_lambda_max(lambda V: S @ V, 40, np.random.default_rng(1), rtol=1e-4)
    assert estimate <= exact * (1 + 1e-12)
    np.testing.assert_allclose(estimate, exact, rtol=1e-3)
    rough = power_lambda_max(lambda V: S @ V, 40, np.random.default_rng(1))  # default rtol=1e-2
    assert 0.9 * exact <= rough <= exact * (1 + 1e-12)


def test_exact_cca_refuses_up_front_when_its_whitening_would_not_fit(views, monkeypatch):
    import lowdim.cca.exact as exact_module

    X, Y = views
    need = exact_module.exact_cca_memory(3000, 12, 9, 3, "cholesky")
    assert need == 8 * (12 * 12 + 9 * 9 + 12 * 9 + 2 * 12 * 9 + 9 * 21 + 4 * 81)
    called = []
    monkeypatch.setattr(exact_module, "gram_matrices", lambda *a: called.append(a))
    with pytest.raises(MemoryError, match=r"needs about 8.* beyond the data, more than the "
                                          r"1000 B of `memory_limit`.*AppGradCCA"):
        ExactCCA(3, memory_limit=1000).fit(X, Y)
    assert not called  # refused before forming anything


def test_exact_auto_takes_the_route_that_needs_least_memory():
    X, Y = planted_views(40, 300, 300, [0.9, 0.5], random_state=0, condition=2.0)
    from lowdim.cca.exact import exact_cca_memory

    chol, qr = (exact_cca_memory(40, 300, 300, 2, m) for m in ("cholesky", "qr"))
    assert qr > chol  # the ridge block makes QR's factors (n + p)×p: Cholesky first
    est = ExactCCA(2, reg=0.1, memory_limit=chol).fit(X, Y)
    assert est.method_ == "cholesky" and est.memory_needed_ == chol
    with pytest.raises(MemoryError, match="refused"):
        ExactCCA(2, reg=0.1, method="qr", memory_limit=chol).fit(X, Y)
    with pytest.raises(ValueError, match="`memory_limit` must be 'available' or a positive"):
        ExactCCA(2, memory_limit="lots").fit(X, Y)


def test_exact_qr_route_accepts_sparse_views():
    X, Y = sparse_views(2000, 40, 30, nnz_per_row=4, k=5, random_state=0)
    a = ExactCCA(3, method="qr").fit(X, Y)
    b = ExactCCA(3, method="cholesky").fit(X, Y)
    np.testing.assert_allclose(a.canonical_correlations_, b.canonical_correlations_, rtol=1e-9)
    assert a.__sklearn_tags__().input_tags.sparse


def test_randomized_cca_with_a_full_sketch_is_exact():
    X, Y = planted_views(3000, 10, 10, RHO, random_state=5, condition=4.0)
    exact = ExactCCA(3).fit(X, Y)
    full = RandomizedCCA(3, oversample=7, random_state=0).fit(X, Y)  # l = 10 = p
    np.testing.assert_allclose(full.canonical_correlations_, exact.canonical_correlations_,
                               rtol=1e-9)
    np.testing.assert_allclose(full.score_components(X, Y), exact.score_components(X, Y), rtol=1e-9)


def test_randomized_cca_gains_with_the_sketch_width_and_beats_nw_cca():
    # mixed views: canonical weights lie outside the top range of XᵀY, so a thin sketch misses
    # part of them (exact whitening within the sketch still beats NW-CCA's none)
    X, Y = planted_views(20000, 60, 60, [0.9, 0.8, 0.3], random_state=6, condition=10.0)
    exact = ExactCCA(3).fit(X, Y).score_components(X, Y).sum()
    captured = [tcc(X, Y, est.x_weights_, est.y_weights_) for est in
                (RandomizedCCA(3, oversample=m, random_state=0).fit(X, Y) for m in (20, 40, 57))]
    assert captured[0] < captured[1] < captured[2]
    np.testing.assert_allclose(captured[2], exact, rtol=1e-9)
    nw = NWCCA(3, random_state=0).fit(X, Y)
    assert tcc(X, Y, nw.x_weights_, nw.y_weights_) < captured[0]
