"""scikit-learn's estimator checks on Vec2Vec and every baseline wrapper."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from lowdim.embedding import (ClassicalMDS, IsomapEmbedding, LaplacianEigenmaps, LLEEmbedding,
                              MDSEmbedding, PCAEmbedding, UMAPEmbedding, Vec2Vec)

# Checks known to fail, with the reason. Keyed by the estimator's repr.
# umap-learn's UMAP.transform places the new rows together, by epochs of stochastic
# optimisation over all of them: the rows of one call move each other, so a batch of them
# lands elsewhere than the same rows one subset at a time or in another order (umap-learn's
# own UMAP fails these two checks alike: 4.3 apart on the checks' 20 rows).
_UMAP_TRANSFORM = {
    "check_methods_subset_invariance": "UMAP.transform optimises the new rows jointly",
    "check_methods_sample_order_invariance": "UMAP.transform optimises the new rows jointly",
}
EXPECTED_FAILURES = {
    # umap-learn's default of 15 neighbours is rejected (ValueError naming
    # `n_neighbors`) on the checks' 10- and 15-sample datasets, before the
    # check reaches what it tests; UMAPEmbedding(n_neighbors=5) passes them all
    # but the transform checks above.
    "UMAPEmbedding(random_state=0)": {
        "check_n_features_in_after_fitting": "15 samples < default n_neighbors=15",
        "check_estimators_nan_inf": "10 samples < default n_neighbors=15",
        "check_fit2d_1feature": "10 samples < default n_neighbors=15",
        **_UMAP_TRANSFORM,
    },
    "UMAPEmbedding(n_neighbors=5, random_state=0)": _UMAP_TRANSFORM,
}

ESTIMATORS = [
    Vec2Vec(walks_per_node=2, epochs=1, random_state=0),
    Vec2Vec(walks_per_node=2, solver="cooccurrence", updates_per_node=50, random_state=0),
    PCAEmbedding(random_state=0),
    MDSEmbedding(n_init=1, max_iter=20, random_state=0),
    ClassicalMDS(),
    IsomapEmbedding(),
    LLEEmbedding(random_state=0),
    LaplacianEigenmaps(random_state=0),
    UMAPEmbedding(random_state=0),
    UMAPEmbedding(n_neighbors=5, random_state=0),
]


@parametrize_with_checks(ESTIMATORS,
                         expected_failed_checks=lambda est: EXPECTED_FAILURES.get(repr(est), {}))
def test_sklearn_compatible(estimator, check):
    check(estimator)
