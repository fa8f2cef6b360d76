"""The CCA estimators in scikit-learn's model selection: ``score`` is one number, the mean
canonical correlation on the given views, so ``GridSearchCV`` and ``cross_val_score`` run
with the second view passed as ``y``."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score

from lowdim.cca import AppGradCCA, ExactCCA, KernelCCA


def _linear_views(n=400, seed=0):
    """Two views sharing two latent columns, with loud noise columns in ``X``."""
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, 2))
    X = np.hstack([Z, 3 * rng.standard_normal((n, 6))])
    Y = np.hstack([Z + 0.5 * rng.standard_normal((n, 2)), rng.standard_normal((n, 3))])
    return X, Y


def _circle_views(n=500, seed=0):
    """The angle t seen as (cos t, sin t) and (cos 2t, sin 2t): no linear relation."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, 2 * np.pi, n)
    X = np.c_[np.cos(t), np.sin(t)] + 0.05 * rng.standard_normal((n, 2))
    Y = np.c_[np.cos(2 * t), np.sin(2 * t)] + 0.05 * rng.standard_normal((n, 2))
    return X, Y


def test_score_is_the_mean_of_the_per_component_correlations():
    X, Y = _linear_views()
    est = AppGradCCA(2, random_state=0).fit(X[:300], Y[:300])
    rho = est.score_components(X[300:], Y[300:])
    assert rho.shape == (2,) and rho[0] >= rho[1]
    score = est.score(X[300:], Y[300:])
    assert isinstance(score, float)
    assert score == pytest.approx(rho.mean(), rel=1e-12)
    assert est.score(X[300:], y=Y[300:]) == score  # `y`, as scikit-learn's tools pass it


def test_grid_search_over_reg_picks_the_best_held_out_correlation():
    X, Y = _linear_views()
    grid = [1e-3, 1e2]  # a ridge of 100 on unit-variance columns swamps the covariance
    cv = KFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(AppGradCCA(2, max_iter=300, random_state=0), {"reg": grid}, cv=cv)
    search.fit(X, Y)
    by_hand = []
    for reg in grid:
        scores = [AppGradCCA(2, reg=reg, max_iter=300, random_state=0)
                  .fit(X[train], Y[train]).score(X[test], Y[test])
                  for train, test in cv.split(X)]
        by_hand.append(np.mean(scores))
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], by_hand, rtol=1e-10)
    assert search.best_params_ == {"reg": 1e-3}
    assert by_hand[0] > by_hand[1] + 0.05
    # the refitted estimator scores one number on new views too
    X_new, Y_new = _linear_views(n=200, seed=1)
    assert 0.5 < search.score(X_new, Y_new) <= 1.0


def test_cross_val_score_runs_kernel_cca_and_finds_what_linear_cca_cannot():
    X, Y = _circle_views()
    cv = KFold(4, shuffle=True, random_state=0)
    kernel = cross_val_score(KernelCCA(2, n_landmarks=60, random_state=0), X, Y, cv=cv)
    assert kernel.shape == (4,) and kernel.dtype == np.float64
    train, test = next(cv.split(X))
    first = KernelCCA(2, n_landmarks=60, random_state=0).fit(X[train], Y[train])
    assert kernel[0] == pytest.approx(first.score(X[test], Y[test]), rel=1e-12)
    linear = cross_val_score(ExactCCA(2), X - X.mean(0), Y - Y.mean(0), cv=cv)
    assert kernel.min() > 0.8 and linear.max() < 0.3
