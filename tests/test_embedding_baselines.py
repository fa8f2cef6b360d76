"""Baselines: classical MDS mathematics, wrappers on dense and sparse input, factory."""

import warnings
from unittest import mock

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.linalg import orthogonal_procrustes
from sklearn.datasets import make_blobs, make_swiss_roll
from sklearn.manifold import ClassicalMDS as SklearnClassicalMDS

from sklearn.decomposition import PCA, TruncatedSVD
from sklearn.manifold import MDS
from sklearn.metrics import euclidean_distances

from lowdim.embedding import (METHODS, ClassicalMDS, LaplacianEigenmaps, LLEEmbedding,
                              MDSEmbedding, PCAEmbedding, isometric_dense_rows, make_embedder)


def _raw_stress(Z, D):
    """sum_{i<j} (||z_i - z_j|| - d_ij)^2, computed directly."""
    return ((euclidean_distances(Z) - D)[np.triu_indices(len(D), 1)] ** 2).sum()


def test_mds_is_smacof_and_beats_classical_mds_on_stress():
    # The paper's MDS minimises stress; classical MDS (= PCA scores) does not. On a
    # curved manifold SMACOF's stress is well below the PCA configuration's, so a
    # method that returned PCA or classical MDS scores as "mds" fails here.
    X, _ = make_swiss_roll(200, random_state=0)
    D = euclidean_distances(X)
    mds = make_embedder("mds", n_components=2, n_init=4, random_state=0).fit(X)
    pca = PCAEmbedding(n_components=2).fit_transform(X)
    assert _raw_stress(mds.embedding_, D) < 0.8 * _raw_stress(pca, D)
    np.testing.assert_allclose(mds.stress_, _raw_stress(mds.embedding_, D), rtol=1e-2)
    # The authors' call: scikit-learn's MDS with random starts, same seed, same result.
    reference = MDS(n_components=2, n_init=4, init="random", random_state=0,
                    normalized_stress=False).fit_transform(X)
    np.testing.assert_allclose(mds.embedding_, reference, atol=1e-10)


def test_one_mds_start_runs_in_process_whatever_n_jobs():
    # scikit-learn would share one SMACOF run out to worker processes (and seed it apart)
    X, _ = make_blobs(40, n_features=5, random_state=3)
    one = MDSEmbedding(n_components=2, n_init=1, random_state=0, n_jobs=1).fit_transform(X)
    with mock.patch("sklearn.manifold._mds.Parallel", side_effect=AssertionError("workers started")):
        two = MDSEmbedding(n_components=2, n_init=1, random_state=0, n_jobs=2).fit_transform(X)
    np.testing.assert_array_equal(two, one)


def test_mds_on_sparse_input_equals_mds_on_dense_input():
    X, _ = make_blobs(40, n_features=30, random_state=7)
    X[X < 0] = 0.0
    dense = MDSEmbedding(n_components=2, n_init=1, random_state=0).fit_transform(X)
    sparse = MDSEmbedding(n_components=2, n_init=1, random_state=0).fit_transform(
        sp.csr_matrix(X))
    np.testing.assert_allclose(sparse, dense, atol=1e-8)


def test_pca_centres_sparse_input_without_densifying():
    X = sp.random(60, 400, density=0.05, random_state=8, format="csr") + 0.0
    X.data += 1.0  # far from centred: uncentred SVD would differ
    model = PCAEmbedding(n_components=3, random_state=0).fit(X)
    assert model.estimator_.n_features_in_ == 400 and sp.issparse(X)
    dense = PCA(n_components=3, svd_solver="full").fit_transform(X.toarray())
    np.testing.assert_allclose(np.abs(model.embedding_), np.abs(dense), atol=1e-8)
    uncentred = TruncatedSVD(3, random_state=0).fit_transform(X)
    assert not np.allclose(np.abs(model.embedding_), np.abs(uncentred), atol=1e-3)


def test_classical_mds_recovers_a_known_configuration_up_to_rotation():
    rng = np.random.default_rng(0)
    truth = rng.normal(size=(40, 3)) * [5.0, 2.0, 1.0]
    truth -= truth.mean(axis=0)
    Q, _ = np.linalg.qr(rng.normal(size=(6, 6)))
    X = np.hstack([truth, np.zeros((40, 3))]) @ Q.T + 7.0  # rotated and shifted into 6-d
    Z = ClassicalMDS(n_components=3).fit_transform(X)
    R, _ = orthogonal_procrustes(Z, truth)
    np.testing.assert_allclose(Z @ R, truth, atol=1e-8)


def test_classical_mds_matches_scikit_learn_and_sparse_matches_dense():
    X, _ = make_blobs(50, n_features=7, random_state=1)
    ours = ClassicalMDS(n_components=4).fit(X)
    reference = SklearnClassicalMDS(n_components=4).fit(X)
    np.testing.assert_allclose(ours.eigenvalues_, reference.eigenvalues_, rtol=1e-8)
    np.testing.assert_allclose(np.abs(ours.embedding_), np.abs(reference.embedding_), atol=1e-8)
    sparse = ClassicalMDS(n_components=4).fit_transform(sp.csr_matrix(X))
    np.testing.assert_allclose(sparse, ours.embedding_, atol=1e-8)


def test_classical_mds_equals_pca_scores_up_to_sign():
    X, _ = make_blobs(60, n_features=5, random_state=2)
    mds = ClassicalMDS(n_components=2).fit_transform(X)
    pca = PCAEmbedding(n_components=2).fit_transform(X)
    np.testing.assert_allclose(np.abs(mds), np.abs(pca), atol=1e-8)


def test_isometric_dense_rows_preserve_inner_products():
    X = sp.random(30, 5000, density=0.01, random_state=3, format="csr")
    Y = isometric_dense_rows(X)
    assert Y.shape[0] == 30 and Y.shape[1] <= 30
    np.testing.assert_allclose(Y @ Y.T, (X @ X.T).toarray(), atol=1e-12)


def test_lle_on_wide_sparse_input_equals_lle_on_dense_input():
    X, _ = make_swiss_roll(150, random_state=4)  # connected: a unique 2-d LLE solution
    Q, _ = np.linalg.qr(np.random.default_rng(4).normal(size=(3, 3)))
    wide = sp.csr_matrix(np.hstack([X @ Q, np.zeros((150, 997))]))  # rotated, D = 1000 > n
    dense = LLEEmbedding(n_components=2, n_neighbors=8, random_state=0).fit_transform(X)
    sparse = LLEEmbedding(n_components=2, n_neighbors=8, random_state=0).fit_transform(wide)
    np.testing.assert_allclose(np.abs(sparse), np.abs(dense), atol=1e-6)



@pytest.mark.parametrize("n_neighbors", [8, None])
def test_laplacian_eigenmaps_on_sparse_input_uses_the_dense_inputs_knn_graph(n_neighbors):
    """scikit-learn falls back to an RBF affinity on sparse input; ours keeps the kNN graph."""
    X, _ = make_swiss_roll(150, random_state=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the fallback would warn
        sparse = LaplacianEigenmaps(n_components=2, n_neighbors=n_neighbors,
                                    random_state=0).fit_transform(sp.csr_matrix(X))
    dense = LaplacianEigenmaps(n_components=2, n_neighbors=n_neighbors,
                               random_state=0).fit_transform(X)
    np.testing.assert_allclose(np.abs(sparse), np.abs(dense), atol=1e-6)


def _far_clusters(n_clusters, size, seed=0):
    """``n_clusters`` tight clusters of ``size`` rows, far apart: with ``size`` neighbours
    (self included) each cluster is one component of the kNN graph."""
    rng = np.random.default_rng(seed)
    centres = 100.0 * rng.normal(size=(n_clusters, 6))
    return np.repeat(centres, size, axis=0) + rng.normal(size=(n_clusters * size, 6))


def _fit_le(X, random_state, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Graph is not fully connected"
        return LaplacianEigenmaps(random_state=random_state, **params).fit(X)


def test_laplacian_eigenmaps_of_many_components_is_fixed_by_the_graph_alone():
    # 12 components and d + 1 = 5 eigenvectors: all of eigenvalue 0, where ARPACK's basis
    # depended on its start vector (and on the rounding, so on the process); the basis
    # kept is the components' indicators, whatever the start
    X = _far_clusters(12, 8)
    fits = [_fit_le(X, seed, n_components=4, n_neighbors=8).embedding_ for seed in (0, 1, 2)]
    np.testing.assert_array_equal(fits[1], fits[0])
    np.testing.assert_array_equal(fits[2], fits[0])
    blocks = fits[0].reshape(12, 8, 4)
    np.testing.assert_allclose(blocks, blocks[:, :1, :].repeat(8, axis=1), atol=1e-12)
    assert np.linalg.matrix_rank(fits[0]) == 4


def test_laplacian_eigenmaps_of_few_components_is_a_spectral_embedding_fixed_by_the_graph():
    from scipy.sparse.csgraph import laplacian

    X = np.vstack([make_swiss_roll(120, random_state=0)[0],
                   1000.0 + make_swiss_roll(90, random_state=1)[0]])
    le = _fit_le(X, 0, n_components=5, n_neighbors=10)
    other = _fit_le(X, 1, n_components=5, n_neighbors=10).embedding_
    np.testing.assert_allclose(other, le.embedding_, atol=1e-9)
    lap, dd = laplacian(sp.csr_matrix(le.estimator_.affinity_matrix_), normed=True,
                        return_diag=True)
    V = le.embedding_ * dd[:, None]  # back to eigenvectors of the normalised Laplacian
    np.testing.assert_allclose(V.T @ V, np.eye(5), atol=1e-9)
    values = np.einsum("ij,ij->j", V, lap @ V)
    np.testing.assert_allclose(lap @ V, V * values, atol=1e-8)
    assert abs(values[0]) < 1e-10 and np.all(np.diff(values) >= -1e-10)  # the second 0 first


def test_laplacian_eigenmaps_of_a_connected_graph_is_scikit_learns():
    from sklearn.manifold import SpectralEmbedding

    X, _ = make_swiss_roll(200, random_state=3)
    ours = LaplacianEigenmaps(n_components=3, n_neighbors=10, random_state=0).fit_transform(X)
    theirs = SpectralEmbedding(n_components=3, n_neighbors=10, random_state=0).fit_transform(X)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_every_method_embeds_dense_and_sparse_input(method, sparse):
    X, _ = make_blobs(80, n_features=12, centers=3, random_state=5)
    X = np.abs(X)
    X = sp.csr_matrix(X) if sparse else X
    params = {"n_neighbors": 10} if "n_neighbors" in METHODS[method]().get_params() else {}
    if method.startswith("vec2vec"):
        params = {"epochs": 1, "walks_per_node": 2}
    if method == "mds":
        params = {"n_init": 1, "max_iter": 50}
    Z = make_embedder(method, n_components=3, random_state=0, **params).fit_transform(X)
    assert Z.shape == (80, 3) and Z.dtype == np.float64 and np.all(np.isfinite(Z))


def test_make_embedder_rejects_unknown_method_and_parameter():
    with pytest.raises(ValueError, match="`method` must be one of"):
        make_embedder("tsne")
    with pytest.raises(ValueError, match=r"takes no parameter\(s\) \['topk'\]"):
        make_embedder("pca", topk=3)
    assert make_embedder("cmds", random_state=0).get_params() == {"n_components": 2}
    assert make_embedder("mds", random_state=3).get_params()["random_state"] == 3
    assert make_embedder("vec2vec_cooccurrence").get_params()["solver"] == "cooccurrence"


@pytest.mark.parametrize("method", ["pca", "isomap", "lle", "le", "umap", "mds", "cmds"])
def test_baselines_reject_n_components_at_least_n(method):
    with pytest.raises(ValueError, match="`n_components` must be < n_samples = 5"):
        make_embedder(method, n_components=5).fit(np.random.default_rng(0).random((5, 8)))
