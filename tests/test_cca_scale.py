"""Canonical correlations do not depend on the data's scale: nor may the estimators' fits.

AppGrad's random start and the final rotation to canonical pairs normalise k×k
matrices whose size grows with the data's scale squared; only the iterates' normaliser
(which tends to Λ², eigenvalues <= 1) may be bounded to detect divergence.
"""

import warnings

import numpy as np
import pytest

from lowdim.cca import AppGradCCA, ExactCCA, NWCCA, RandomizedCCA
from lowdim.cca._linalg import start_factor


def _latent_views(n=300, p=5, seed=0):
    """Two views sharing two latent coordinates (correlations about 0.9), unit scale."""
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, 2))
    X = np.hstack([Z, rng.standard_normal((n, p - 2))])
    Y = np.hstack([Z + 0.5 * rng.standard_normal((n, 2)), rng.standard_normal((n, p - 2))])
    return X, Y


def _uncentred_views(n=500, p=200, seed=0):
    """Non-negative uncentred views with entries up to about 1.3 (times 1000: count-like)."""
    rng = np.random.default_rng(seed)
    Z = rng.uniform(0, 1, (n, 1))
    return Z + 0.3 * rng.uniform(0, 1, (n, p)), Z + 0.3 * rng.uniform(0, 1, (n, p))


#: name -> (views, the factor they are multiplied by)
DATA = {"latent_times_1e4": (_latent_views, 1e4), "uncentred_times_1000": (_uncentred_views, 1e3)}

#: name -> estimator factory; AppGrad runs a fixed number of iterations so that both
#: scales stop at the same iterate
PAPER_ESTIMATORS = {
    "appgrad_data_path": lambda reg: AppGradCCA(2, reg=reg, max_iter=300, tol=0, precompute=False,
                                                random_state=0),
    "appgrad_gram_path": lambda reg: AppGradCCA(2, reg=reg, max_iter=300, tol=0, precompute=True,
                                                random_state=0),
    "appgrad_stochastic": lambda reg: AppGradCCA(2, reg=reg, max_iter=300, batch_size=50,
                                                 random_state=0),
    "nw_cca": lambda reg: NWCCA(2, reg=reg, random_state=0),
    "randomized_cca": lambda reg: RandomizedCCA(2, reg=reg, oversample=2, random_state=0),
}
#: the authors' normaliser ``Φ̃ᵀS_xΦ̃ + λI_k`` adds λ unscaled: scaling the ridge with the data
#: changes its problem, so it is only compared at the same ridge
ESTIMATORS = {**PAPER_ESTIMATORS, "appgrad_stochastic_authors": lambda reg: AppGradCCA(
    2, reg=reg, max_iter=300, batch_size=50, normalization="authors", random_state=0)}


def _fit_quietly(est, X, Y):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a step halving would be a regression
        warnings.simplefilter("ignore", UserWarning)
        return est.fit(X, Y)


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("name", PAPER_ESTIMATORS)
def test_scaled_views_give_the_same_fit_with_the_ridge_scaled_alike(name, data):
    """``(cX, cY)`` with ridge ``c²λ`` is the problem ``(X, Y)`` with ridge λ, exactly: every
    estimator must give the same correlations (and ExactCCA too)."""
    make_views, c = DATA[data]
    X, Y = make_views()
    reg = 0.005
    small = _fit_quietly(PAPER_ESTIMATORS[name](reg), X, Y)
    large = _fit_quietly(PAPER_ESTIMATORS[name](reg * c * c), c * X, c * Y)
    np.testing.assert_allclose(large.score_components(c * X, c * Y),
                               small.score_components(X, Y), rtol=1e-6)
    np.testing.assert_allclose(ExactCCA(2, reg=reg * c * c).fit(c * X, c * Y)
                               .canonical_correlations_,
                               ExactCCA(2, reg=reg).fit(X, Y).canonical_correlations_, rtol=1e-8)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_scaled_views_agree_with_exact_cca_at_the_same_ridge(name):
    """At the default ridge the scaled fit is as close to ExactCCA (same ridge, same data) as
    the fit of the unscaled views is to theirs. (On the uncentred views the same ridge is a
    million times weaker relative to the data once scaled, which changes the problem's
    conditioning: the test above compares those.)"""
    make_views, c = DATA["latent_times_1e4"]
    X, Y = make_views()
    gaps = []
    for A, B in ((X, Y), (c * X, c * Y)):
        est = _fit_quietly(ESTIMATORS[name](0.005), A, B)
        exact = ExactCCA(2, reg=0.005).fit(A, B)
        gaps.append(np.abs(est.score_components(A, B) - exact.score_components(A, B)).max())
    assert gaps[1] <= gaps[0] + 1e-3, gaps


@pytest.mark.parametrize("c", [1.0, 1e6], ids=["unit", "times_1e6"])
def test_start_is_normalised_at_any_scale(c):
    """The paper's Ψ⁰: Gaussian, then ``Ψ⁰ᵀ(S_y + λI)Ψ⁰ = I`` whatever the scale of S_y."""
    rng = np.random.default_rng(0)
    Y = c * rng.standard_normal((100, 6))
    S = Y.T @ Y / 100 + 0.005 * np.eye(6)
    W = rng.standard_normal((6, 3))
    psi0 = W @ start_factor(W, W.T @ (Y.T @ Y / 100) @ W, 0.005)
    np.testing.assert_allclose(psi0.T @ S @ psi0, np.eye(3), atol=1e-10)
