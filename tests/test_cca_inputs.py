"""Bad input gives a clear error naming the argument; the estimators pass scikit-learn's checks."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import estimator_checks
from sklearn.utils.estimator_checks import parametrize_with_checks

from lowdim.cca import DWCCA, NWCCA, PCACCA, AppGradCCA, ExactCCA, KernelCCA, RandomizedCCA
from fixtures.cca_data import planted_views

ESTIMATORS = [AppGradCCA, ExactCCA, NWCCA, DWCCA, PCACCA, RandomizedCCA]
IDS = ["appgrad", "exact", "nw", "dw", "pca", "randomized"]


@pytest.fixture(scope="module")
def views():
    return planted_views(300, 6, 5, [0.9, 0.5], random_state=0)


@pytest.mark.parametrize("Estimator", ESTIMATORS, ids=IDS)
def test_views_with_different_rows(views, Estimator):
    X, Y = views
    with pytest.raises(ValueError, match=r"`Y` must have as many rows as `X` \(300\), got 299"):
        Estimator(2).fit(X, Y[:-1])


@pytest.mark.parametrize("Estimator", ESTIMATORS, ids=IDS)
def test_too_many_components(views, Estimator):
    X, Y = views
    with pytest.raises(ValueError, match=r"`n_components` must be between 1 and min\(p1, p2\) "
                                         r"= 5 \(p1 = 6, p2 = 5\), got 6"):
        Estimator(6).fit(X, Y)


@pytest.mark.parametrize("bad", [np.nan, np.inf], ids=["nan", "inf"])
@pytest.mark.parametrize("view", ["X", "Y"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_non_finite_values(views, bad, view, sparse):
    X, Y = (v.copy() for v in views)
    (X if view == "X" else Y)[3, 1] = bad
    if sparse:
        X, Y = sp.csr_matrix(X), sp.csr_matrix(Y)
    with pytest.raises(ValueError, match=rf"Input {view} contains (NaN|infinity)"):
        AppGradCCA(2).fit(X, Y)


@pytest.mark.parametrize("view", ["X", "Y"])
@pytest.mark.parametrize("Estimator", ESTIMATORS, ids=IDS)
def test_zero_variance_view(views, view, Estimator):
    X, Y = views
    const = np.full_like(X if view == "X" else Y, 3.0)
    args = (const, Y) if view == "X" else (X, const)
    with pytest.raises(ValueError, match=rf"`{view}` has zero variance"):
        Estimator(2).fit(*args)


def test_constant_columns_are_handled_by_the_ridge(views):
    X, Y = views
    X = np.hstack([X, np.zeros((300, 2)), np.ones((300, 1))])
    for est in (AppGradCCA(2, random_state=0, max_iter=3000), ExactCCA(2)):
        rho = est.fit(X, Y).score_components(X, Y)
        assert np.all(np.isfinite(est.x_weights_)) and rho[0] > 0.85


@pytest.mark.parametrize("params,match", [
    ({"step_size": -1.0}, "`step_size` must be a positive number"),
    ({"step_size": "big"}, "`step_size` must be 'auto' or a positive number"),
    ({"max_iter": 0}, "`max_iter` must be a positive int"),
    ({"batch_size": 301}, "`batch_size` must be at most n_samples = 300"),
    ({"batch_size": 10, "normalization_size": 1}, "`normalization_size` must be between"),
    ({"reg": -0.1}, "`reg` must be a non-negative number"),
    ({"precompute": "yes"}, "`precompute` must be 'auto', True or False"),
    ({"checkpoints": [0, 5]}, "`checkpoints` must be positive iteration numbers"),
], ids=["negative_step", "string_step", "zero_max_iter", "huge_batch", "tiny_normalization",
        "negative_reg", "bad_precompute", "zero_checkpoint"])
def test_bad_parameters(views, params, match):
    with pytest.raises(ValueError, match=match):
        AppGradCCA(2, **params).fit(*views)


def test_transform_checks_feature_count(views):
    X, Y = views
    est = ExactCCA(2).fit(X, Y)
    with pytest.raises(ValueError, match="X has 5 features, but ExactCCA is expecting "
                                         "6 features as input"):
        est.transform(X[:, :5])
    assert est.transform(X).shape == (300, 2)
    xs, ys = est.fit_transform(X, Y)
    assert xs.shape == ys.shape == (300, 2)


def test_pca_cca_needs_enough_principal_components(views):
    with pytest.raises(ValueError, match="`n_pca_components` must be at least n_components = 2"):
        PCACCA(2, n_pca_components=1).fit(*views)


# scikit-learn's checks pass a 1-D target as Y, so the estimators run with one component.
_TUPLE = ("fit_transform(X, Y) returns (x_scores, y_scores) like scikit-learn's CCA; the check "
          "allows tuples only for estimators named CCA/PLS*")
_EXPECTED = {
    "check_transformer_general": _TUPLE,
    "check_transformer_general(readonly_memmap=True)": _TUPLE,
    "check_transformer_data_not_an_array": _TUPLE,
}


@parametrize_with_checks([AppGradCCA(1, max_iter=50, tol=0, random_state=0),
                          AppGradCCA(1, batch_size=5, max_iter=50, random_state=0), ExactCCA(1),
                          NWCCA(1, random_state=0), DWCCA(1, random_state=0),
                          PCACCA(1, n_pca_components=1, random_state=0),
                          RandomizedCCA(1, oversample=2, random_state=0)],
                         expected_failed_checks=lambda est: _EXPECTED)
def test_scikit_learn_compatible(estimator, check):
    check(estimator)


def test_sparse_zero_variance_is_found_without_densifying():
    from lowdim.cca._validation import check_zero_variance

    n = 50
    ones = sp.csr_matrix(np.hstack([np.ones((n, 1)), np.zeros((n, 3))]))  # 1 everywhere, 0s
    with pytest.raises(ValueError, match="`X` has zero variance"):
        check_zero_variance(ones, "X")
    explicit = sp.csr_matrix((np.zeros(3), ([0, 1, 2], [0, 1, 2])), shape=(n, 4))
    with pytest.raises(ValueError, match="zero variance"):
        check_zero_variance(explicit, "X")  # stored zeros are still zeros
    varying = ones.tolil()
    varying[3, 0] = 2.0  # non-zero everywhere but not constant
    check_zero_variance(sp.csr_matrix(varying), "X")
    partial = sp.csr_matrix((np.ones(2), ([0, 1], [2, 2])), shape=(n, 4))
    check_zero_variance(partial, "X")  # non-zero in some rows only: it varies


# -- DataFrame column names, get_feature_names_out, set_output, the `y` alias -----------------
# Small instances of all seven estimators (KernelCCA included).
SMALL = [AppGradCCA(1, max_iter=50, tol=0, random_state=0), ExactCCA(1), NWCCA(1, random_state=0),
         DWCCA(1, random_state=0), PCACCA(1, n_pca_components=1, random_state=0),
         RandomizedCCA(1, oversample=2, random_state=0),
         KernelCCA(1, n_landmarks=10, max_iter=50, tol=0, random_state=0)]
SMALL_IDS = IDS + ["kernel"]


@pytest.fixture(scope="module")
def frames(views):
    X, Y = views
    return (pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]),
            pd.DataFrame(Y, columns=[f"y{j}" for j in range(Y.shape[1])]))


@pytest.mark.parametrize("estimator", SMALL, ids=SMALL_IDS)
def test_dataframe_columns_are_checked_by_name(frames, estimator):
    """Reordered columns were accepted silently with the wrong scores."""
    X, Y = frames
    est = clone(estimator).fit(X, Y)
    assert_array_equal(est.feature_names_in_, X.columns)
    reordered = X[X.columns[::-1]]
    match = "The feature names should match those that were passed during fit"
    with pytest.raises(ValueError, match=match):
        est.transform(reordered)
    with pytest.raises(ValueError, match=match):
        est.score(reordered, Y)
    # only X's names are recorded, as scikit-learn's CCA does; a refit on arrays forgets them
    assert not hasattr(clone(estimator).fit(X.to_numpy(), Y), "feature_names_in_")
    assert not hasattr(est.fit(X.to_numpy(), Y), "feature_names_in_")


# scikit-learn runs these on its own CCA in its test suite; parametrize_with_checks does not
# yield them. They choose the cross-decomposition behaviour (``transform(X, y)`` and
# ``fit_transform`` returning ``(x_scores, y_scores)``, only the first wrapped by set_output)
# by the estimator's name, so they are given the name "CCA".
_NAME_CHECKS = ["check_dataframe_column_names_consistency",
                "check_transformer_get_feature_names_out",
                "check_transformer_get_feature_names_out_pandas",
                "check_get_feature_names_out_error", "check_set_output_transform",
                "check_set_output_transform_pandas", "check_global_output_transform_pandas"]


@pytest.mark.filterwarnings("ignore:X (does not have valid|has) feature names:UserWarning")
@pytest.mark.parametrize("check", _NAME_CHECKS)
@pytest.mark.parametrize("estimator", SMALL, ids=SMALL_IDS)
def test_feature_names_and_set_output_checks(estimator, check):
    # the set_output checks fit on a DataFrame and transform an array, and the other way
    # round, on purpose: scikit-learn's warnings about it are expected
    getattr(estimator_checks, check)("CCA", estimator)


@pytest.mark.parametrize("estimator", SMALL, ids=SMALL_IDS)
def test_pandas_output_names_the_components(frames, estimator):
    X, Y = frames
    est = clone(estimator).set_output(transform="pandas").fit(X, Y)
    names = [type(est).__name__.lower() + "0"]
    assert_array_equal(est.get_feature_names_out(), names)
    xs = est.transform(X)
    assert isinstance(xs, pd.DataFrame) and list(xs.columns) == names
    assert xs.index.equals(X.index)
    xs, ys = est.transform(X, Y)  # as scikit-learn's CCA: only x_scores is wrapped
    assert isinstance(xs, pd.DataFrame) and isinstance(ys, np.ndarray)
    default = clone(est).set_output(transform="default").fit(X, Y)
    assert_array_equal(xs.to_numpy(), default.transform(X))
    assert est.score(X, Y) == default.score(X, Y)


def test_pipeline_feature_names_out(frames):
    X, Y = frames
    pipe = make_pipeline(StandardScaler(), AppGradCCA(2, random_state=0)).fit(X, Y)
    assert_array_equal(pipe.get_feature_names_out(), ["appgradcca0", "appgradcca1"])
    pipe = clone(pipe).set_output(transform="pandas").fit(X, Y)
    assert_array_equal(pipe[-1].feature_names_in_, X.columns)  # the scaler's DataFrame
    out = pipe.transform(X)
    assert list(out.columns) == ["appgradcca0", "appgradcca1"]


@pytest.mark.parametrize("estimator", SMALL, ids=SMALL_IDS)
def test_y_is_an_alias_of_the_second_view(views, estimator):
    """fit_transform and score took ``y=``; fit and transform raised TypeError."""
    X, Y = views
    positional, keyword = clone(estimator).fit(X, Y), clone(estimator).fit(X, y=Y)
    assert_array_equal(positional.x_weights_, keyword.x_weights_)
    assert_array_equal(positional.y_weights_, keyword.y_weights_)
    for a, b in zip(positional.transform(X, Y), positional.transform(X, y=Y)):
        assert_array_equal(a, b)
    with pytest.raises(ValueError, match="CCA requires y to be passed"):
        clone(estimator).fit(X)


def test_appgrad_y_alias_with_heldout(views):
    X, Y = views
    params = dict(n_components=2, max_iter=30, tol=0, trace_tcc=True, random_state=0)
    positional = AppGradCCA(**params).fit(X[:200], Y[:200], (X[200:], Y[200:]))
    keyword = AppGradCCA(**params).fit(X[:200], y=Y[:200], heldout=(X[200:], Y[200:]))
    assert_array_equal(positional.x_weights_, keyword.x_weights_)
    assert_array_equal(positional.trace_["tcc_heldout"], keyword.trace_["tcc_heldout"])
