"""kNN accuracy, spectral-clustering ARI and paired t-tests used for the Vec2vec paper."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import make_blobs

from lowdim.evaluate.classification import KNN_K_GRID, knn_cv_accuracy
from lowdim.evaluate.clustering import GAMMA_GRID, spectral_ari, spectral_ari_sweep
from lowdim.evaluate.stats import paired_ttest, ttests_against


def test_knn_accuracy_is_perfect_on_separated_clusters_and_chance_on_noise():
    X, y = make_blobs(200, n_features=4, centers=[[0] * 4, [20] * 4], random_state=0)
    result = knn_cv_accuracy(X, y, random_state=0)
    np.testing.assert_allclose(result.fold_accuracy, 1.0)
    assert result.fold_accuracy.shape == (4,) and set(result.best_k) <= set(KNN_K_GRID)
    assert result.two_std == 0.0
    rng = np.random.default_rng(0)
    noise = knn_cv_accuracy(rng.normal(size=(400, 3)), rng.integers(0, 2, 400), random_state=0)
    assert 0.35 < noise.mean < 0.65


def test_knn_accuracy_mean_and_two_std_follow_the_paper():
    X, y = make_blobs(300, n_features=2, centers=3, cluster_std=3.0, random_state=1)
    result = knn_cv_accuracy(X, y, random_state=0)
    np.testing.assert_allclose(result.mean, result.fold_accuracy.mean())
    np.testing.assert_allclose(result.two_std, 2 * result.fold_accuracy.std(ddof=0))
    again = knn_cv_accuracy(X, y, random_state=0)
    np.testing.assert_array_equal(result.fold_accuracy, again.fold_accuracy)


def test_knn_accuracy_chooses_k_inside_the_folds():
    # Labels with 20% noise: k=1 overfits, so the inner search should prefer larger k.
    rng = np.random.default_rng(2)
    X, y = make_blobs(400, n_features=2, centers=2, cluster_std=2.5, random_state=2)
    y = np.where(rng.random(400) < 0.2, 1 - y, y)
    result = knn_cv_accuracy(X, y, random_state=0)
    assert np.all(result.best_k > 1)


def test_knn_accuracy_rejects_mismatched_lengths():
    with pytest.raises(ValueError, match="`embedding` has 3 rows but `y` has 2"):
        knn_cv_accuracy(np.zeros((3, 2)), [0, 1])


def scikit_learn_nested_cv(embedding, y, k_grid, random_state):
    """The protocol written with scikit-learn's own search: for each outer fold a
    GridSearchCV over k of StandardScaler + KNeighborsClassifier, refitted, scored."""
    from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from lowdim.seeding import spawn_seeds
    outer_seed, inner_seed = (int(s) for s in spawn_seeds(random_state, 2))
    search = GridSearchCV(make_pipeline(StandardScaler(), KNeighborsClassifier()),
                          {"kneighborsclassifier__n_neighbors": list(k_grid)},
                          cv=StratifiedKFold(4, shuffle=True, random_state=inner_seed))
    result = cross_validate(search, embedding, y, return_estimator=True,
                            cv=StratifiedKFold(4, shuffle=True, random_state=outer_seed))
    return result["test_score"], [e.best_params_["kneighborsclassifier__n_neighbors"]
                                  for e in result["estimator"]]


@pytest.mark.filterwarnings("ignore::UserWarning")   # GridSearchCV: a k that cannot fit
@pytest.mark.parametrize("k_grid", [KNN_K_GRID, (9, 1, 5), (1, 3, 40)])
def test_one_neighbour_search_per_fold_gives_scikit_learns_nested_cv(k_grid):
    # Overlapping classes (ties between k), several label counts, a grid out of order and
    # a k above an inner fold's 36 rows: every fold's accuracy and k as scikit-learn's.
    rng = np.random.default_rng(0)
    for n_classes in (2, 5):
        X, y = make_blobs(n_samples=60, centers=n_classes, cluster_std=4.0, random_state=1)
        X = X @ rng.normal(size=(2, 3))
        for seed in (0, 7):
            ours = knn_cv_accuracy(X, y, k_grid=k_grid, random_state=seed)
            accuracy, best_k = scikit_learn_nested_cv(X, y, k_grid, seed)
            np.testing.assert_array_equal(ours.fold_accuracy, accuracy)
            assert ours.best_k.tolist() == best_k


def test_a_k_grid_no_fold_can_fit_is_named():
    X, y = make_blobs(n_samples=40, centers=2, random_state=0)
    with pytest.raises(ValueError, match="no k of `k_grid` \\[50\\] fits"):
        knn_cv_accuracy(X, y, k_grid=(50,), random_state=0)
    with pytest.raises(ValueError, match="`k_grid` must hold distinct positive"):
        knn_cv_accuracy(X, y, k_grid=(0, 3), random_state=0)
    with pytest.raises(ValueError, match="`k_grid` must hold distinct positive"):
        knn_cv_accuracy(X, y, k_grid=(1, 2.5), random_state=0)


def test_spectral_ari_is_one_on_separated_clusters_with_a_suitable_gamma():
    X, y = make_blobs(150, n_features=3, centers=3, cluster_std=0.5, random_state=3)
    assert spectral_ari(X, y, gamma=1.0, random_state=0) == pytest.approx(1.0)
    sweep = spectral_ari_sweep(X, y, random_state=0)
    assert sweep.shape == (len(GAMMA_GRID),) and np.nanmax(sweep) == pytest.approx(1.0)
    assert GAMMA_GRID[0] == pytest.approx(1e-6) and GAMMA_GRID[-1] == pytest.approx(10.0)
    rng = np.random.default_rng(3)
    noise = spectral_ari(rng.normal(size=(150, 3)), rng.integers(0, 3, 150), 1.0, random_state=0)
    assert abs(noise) < 0.1


def test_spectral_clustering_agrees_with_scikit_learn():
    from sklearn.cluster import SpectralClustering
    from sklearn.metrics import adjusted_rand_score

    X, y = make_blobs(200, n_features=4, centers=4, cluster_std=2.0, random_state=5)
    ours = spectral_ari(X, y, gamma=0.1, random_state=0)
    labels = SpectralClustering(4, gamma=0.1, random_state=0).fit_predict(X)
    assert ours == pytest.approx(adjusted_rand_score(y, labels), abs=0.02)


def test_paired_ttest_matches_scipy_and_sets_h_by_alpha():
    a = np.array([0.90, 0.80, 0.70, 0.95, 0.60])
    b = np.array([0.85, 0.78, 0.60, 0.90, 0.61])
    result = paired_ttest(a, b, alpha=0.1)
    reference = stats.ttest_rel(a, b)
    np.testing.assert_allclose([result["t"], result["p"]], [reference.statistic, reference.pvalue])
    assert result["H"] == int(reference.pvalue < 0.1)
    assert paired_ttest(a, b, alpha=0.01)["H"] == int(reference.pvalue < 0.01)
    np.testing.assert_allclose(result["mean_difference"], (a - b).mean())


def test_paired_ttest_that_cannot_be_computed_says_so_and_has_no_h():
    """H = 0 would read "not significant", which a test never run does not say."""
    one = paired_ttest([0.5], [0.4])
    assert np.isnan(one["p"]) and np.isnan(one["H"]) and np.isnan(one["t"])
    assert one["reason"] == "not computed: 1 pair(s); a paired t-test needs at least 2"
    same_shift = paired_ttest([0.5, 0.6, 0.7], [0.4, 0.5, 0.6])
    assert np.isnan(same_shift["p"]) and np.isnan(same_shift["H"])
    assert same_shift["reason"] == ("not computed: all 3 differences equal 0.1, so their "
                                    "variance is zero")
    assert paired_ttest([0.9, 0.8], [0.5, 0.6])["reason"] == ""
    with pytest.raises(ValueError, match="alpha"):
        paired_ttest([1, 2], [2, 3], alpha=1.5)


def test_ttests_against_reference_over_datasets():
    scores = pd.DataFrame({"vec2vec": [0.9, 0.8, 0.7, np.nan], "umap": [0.85, 0.82, 0.6, 0.5],
                           "pca": [0.5, 0.4, 0.45, 0.3]}, index=["a", "b", "c", "d"])
    table = ttests_against(scores, "vec2vec", alpha=0.1)
    assert list(table["method"]) == ["umap", "pca"]
    assert list(table["n_pairs"]) == [3, 3]
    pca = stats.ttest_rel([0.9, 0.8, 0.7], [0.5, 0.4, 0.45])
    np.testing.assert_allclose(table.loc[1, "p"], pca.pvalue)
    assert table["reason"].tolist() == ["", ""]
    single = ttests_against(scores.iloc[2:], "vec2vec")  # one dataset has both scores
    assert single["H"].isna().all() and single["reason"].str.startswith("not computed").all()
    with pytest.raises(ValueError, match="reference"):
        ttests_against(scores, "lle")


def test_a_gamma_whose_affinities_underflow_gives_nan_not_a_noise_ari(caplog):
    """Isomap's digits coordinates reach 261: at gamma = 1 the affinities underflow to
    subnormal degrees, the normalised maps overflow and k-means' labels were noise (ARI
    0.0 was stored as a score). Now NaN, with the reason logged."""
    import warnings

    from lowdim.evaluate.clustering import spectral_ari

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 40)
    Z = rng.normal(size=(120, 3)) * 0.01 + y[:, None] * 100.0  # two tight clusters, and
    Z[y == 2, 0] = 200.0 + 50.0 * np.arange(40)  # class 2 spread out: affinities exactly 0
    # but two of its points 27.27 apart: their one affinity is e^-743.6, 1e-323 (subnormal),
    # a component of its own among the top three, whose maps are scaled by 1e161
    Z[81, 0] = Z[80, 0] + 27.27
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning escapes
        with caplog.at_level("WARNING", logger="lowdim"):
            ari = spectral_ari(Z, y, gamma=1.0, random_state=0)
    assert np.isnan(ari)
    assert "the normalised spectral maps overflow" in caplog.text
    assert np.isfinite(spectral_ari(Z, y, gamma=1e-4, random_state=0))  # a gamma that fits
    # every pair 50 or more apart at gamma = 1: no affinity left at all, no clustering
    caplog.clear()
    with caplog.at_level("WARNING", logger="lowdim"):
        assert np.isnan(spectral_ari(Z[82:], np.arange(38) % 2, gamma=1.0))
    assert "every affinity between two points is 0" in caplog.text
