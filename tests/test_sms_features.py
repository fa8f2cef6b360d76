"""Feature maps of the approximations, WME random features and the CV-tuned SVM."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.linalg
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from lowdim.approx import METHODS, nystrom, sicur
from lowdim.approx.features import eigen_feature_map, feature_map, sicur_feature_map
from lowdim.approx.wme import document_bags, random_documents, wme_features, wme_similarities
from lowdim.evaluate.svm import TunedSVM, check_class_counts
from lowdim.similarity import DenseOracle


def indefinite_matrix(n=70, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    noise = rng.normal(scale=0.3, size=(n, n))
    return X @ X.T + (noise + noise.T) / 2


def positive_part(M):
    w, V = np.linalg.eigh((M + M.T) / 2)
    return (V * np.maximum(w, 0)) @ V.T


def gram(fmap, K):
    Z = fmap.transform(K[:, fmap.columns])
    return Z @ Z.T


def test_nystrom_features_drop_the_negative_eigenvalues_of_the_core_not_of_the_approximation():
    # Classic Nystrom on an indefinite K: its core pinv(K[S, S]) is indefinite, and Z Z^T is
    # K[:, S] pinv(K[S, S])_+ K[S, :], which is not the positive part of K~.
    K = indefinite_matrix()
    approx = nystrom(DenseOracle(K), 14, random_state=3)
    S = approx.landmarks
    core = np.linalg.pinv(K[np.ix_(S, S)])
    assert np.linalg.eigvalsh(core).min() < 0
    expected = K[:, S] @ positive_part(core) @ K[S, :]
    G = gram(feature_map(approx), K)
    np.testing.assert_allclose(G, expected, atol=1e-9 * np.abs(expected).max())
    K_tilde = K[:, S] @ core @ K[S, :]
    gap = np.linalg.norm(G - positive_part(K_tilde)) / np.linalg.norm(positive_part(K_tilde))
    assert gap > 0.05
    np.testing.assert_array_equal(feature_map(approx).columns, S)


@pytest.mark.parametrize("method", ["sms_nystrom", "sms_nystrom_rescale"])
def test_sms_nystrom_features_reproduce_the_approximation(method):
    # A PSD shifted core: Z Z^T is K~ itself, computed here from the formula.
    K = indefinite_matrix()
    approx = METHODS[method](DenseOracle(K), 14, random_state=3)
    S1, shift = approx.landmarks, approx.info["shift"]
    assert shift < 0
    expected = approx.info["rescale"] * (K[:, S1] @ np.linalg.pinv(
        K[np.ix_(S1, S1)] - shift * np.eye(14)) @ K[S1, :])
    np.testing.assert_allclose(gram(feature_map(approx), K), expected,
                               atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("method", ["sicur", "stacur", "stacur_independent"])
def test_cur_features_factor_the_positive_part_of_the_symmetric_part(method):
    K = indefinite_matrix()
    n, s = K.shape[0], 14
    approx = METHODS[method](DenseOracle(K), s, random_state=3)
    cols, rows = approx.landmarks, approx.info["rows"]
    if method == "sicur":
        K_tilde = K[:, cols] @ np.linalg.pinv(K[np.ix_(rows, cols)]) @ K[rows, :]
    else:
        C = K[:, cols]
        K_tilde = (n / s) * C @ np.linalg.pinv(C.T @ C) @ K[np.ix_(rows, cols)].T @ K[rows, :]
    expected = positive_part(K_tilde)
    fmap = feature_map(approx)
    np.testing.assert_allclose(gram(fmap, K), expected, atol=1e-8 * np.abs(expected).max())
    # Only sampled items' similarities are read: s rows for SiCUR and StaCUR with I = J.
    assert set(fmap.columns.tolist()) == set(cols.tolist()) | set(rows.tolist())
    if method != "stacur_independent":
        assert fmap.columns.size == s


@pytest.mark.parametrize("method", ["sicur", "stacur", "stacur_independent"])
def test_cur_feature_map_refuses_an_approximation_of_a_non_symmetric_matrix(method):
    # CUR features read K[:, rows] as K[rows, :]^T: on a non-symmetric K their Gram is far
    # from ((K~ + K~^T) / 2)_+, so the map is refused rather than silently wrong.
    rng = np.random.default_rng(0)
    K = rng.normal(size=(60, 6)) @ rng.normal(size=(60, 6)).T
    approx = METHODS[method](DenseOracle(K), 14, random_state=3)
    with pytest.raises(ValueError, match=r"`approx` must approximate a symmetric matrix: its "
                                         r"sampled block K\[rows, rows\] differs from its "
                                         r"transpose by"):
        feature_map(approx)
    symmetrised = METHODS[method](DenseOracle(K, symmetrize=True), 14, random_state=3)
    assert feature_map(symmetrised).n_features > 0


def test_authors_sicur_features_are_k_c_v_sigma_to_the_minus_half():
    # get_feat(..., "CUR_alt") of the authors' wme_appx.py: K[:, C] V Sigma^{-1/2} from the SVD
    # of K[R, C], so Z Z^T = K[:, C] (K[R, C]^T K[R, C])^{-1/2} K[C, :] and s // 2 features.
    K = indefinite_matrix()
    n, s = K.shape[0], 14
    oracle = DenseOracle(K)
    fmap = sicur_feature_map(oracle, s, random_state=3)
    approx = sicur(DenseOracle(K), s, random_state=3)
    C, R = approx.landmarks, approx.info["rows"]  # the same draws as sicur
    np.testing.assert_array_equal(fmap.columns, C)
    np.testing.assert_array_equal(fmap.info["rows"], R)
    W = K[np.ix_(R, C)]
    expected = K[:, C] @ np.linalg.inv(np.real(scipy.linalg.sqrtm(W.T @ W))) @ K[C, :]
    np.testing.assert_allclose(gram(fmap, K), expected, atol=1e-8 * np.abs(expected).max())
    m = s // 2
    assert fmap.n_features == m and fmap.columns.size == m
    # Only K[:, C] is read (K[R, C] is inside it): n m - m (m - 1) / 2 distinct entries.
    assert fmap.info["evaluations"] == oracle.evaluations == n * m - m * (m - 1) // 2


def test_nystrom_features_of_new_items_are_exact_on_a_low_rank_psd_kernel():
    # K = X X^T of rank 5 over 80 items: Nyström on 60 of them with 10 landmarks reproduces
    # every similarity, also between the 20 held-out items and the 60.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 5))
    K = X @ X.T
    train, test = np.arange(60), np.arange(60, 80)
    fmap = feature_map(nystrom(DenseOracle(K[np.ix_(train, train)]), 10, random_state=0))
    Z_train = fmap.transform(K[np.ix_(train, train[fmap.columns])])
    Z_test = fmap.transform(K[np.ix_(test, train[fmap.columns])])
    np.testing.assert_allclose(Z_test @ Z_train.T, K[np.ix_(test, train)], atol=1e-8)


def test_exact_features_at_full_rank_reproduce_the_kernel():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 60))
    K = np.exp(-0.02 * ((X[:, None] - X[None]) ** 2).sum(-1))  # a PSD (Gaussian) kernel
    fmap = eigen_feature_map(K, 40)
    Z = fmap.transform(K)
    np.testing.assert_allclose(Z @ Z.T, K, atol=1e-8)
    # Rank k keeps the k largest eigenvalues: the best rank-k approximation.
    w, V = np.linalg.eigh(K)
    Z5 = eigen_feature_map(K, 5).transform(K)
    np.testing.assert_allclose(Z5 @ Z5.T, (V[:, -5:] * w[-5:]) @ V[:, -5:].T, atol=1e-8)


def test_exact_features_of_an_indefinite_kernel_give_its_positive_part():
    K = indefinite_matrix(40)
    w, V = np.linalg.eigh(K)
    Z = eigen_feature_map(K, 40).transform(K)
    np.testing.assert_allclose(Z @ Z.T, (V * np.maximum(w, 0)) @ V.T, atol=1e-8)
    with pytest.raises(ValueError, match=r"`rank` must be an integer in \[1, n = 40\], got 41"):
        eigen_feature_map(K, 41)


def test_feature_map_refuses_the_optimal_approximation():
    from lowdim.approx import optimal

    with pytest.raises(ValueError, match="use eigen_feature_map"):
        feature_map(optimal(DenseOracle(indefinite_matrix(20)), 5))


def test_random_documents_have_1_to_d_max_unit_words():
    docs = random_documents(200, 4, 7, -2.0, 3.0, random_state=0)
    sizes = [len(d) for d in docs]
    assert min(sizes) == 1 and max(sizes) == 4
    np.testing.assert_allclose(np.linalg.norm(np.vstack(docs), axis=1), 1.0)
    raw = random_documents(50, 4, 7, -2.0, 3.0, unit_norm=False, random_state=0)
    assert np.vstack(raw).min() >= -2.0 and np.vstack(raw).max() <= 3.0
    again = random_documents(50, 4, 7, -2.0, 3.0, unit_norm=False, random_state=0)
    np.testing.assert_array_equal(np.vstack(raw), np.vstack(again))
    with pytest.raises(ValueError, match="`d_max` must be a positive integer, got 0"):
        random_documents(3, 0, 7, -1.0, 1.0)


def test_wme_similarities_are_exp_minus_wmd_to_the_random_documents():
    rng = np.random.default_rng(4)
    vocab = np.array(["a", "b", "c", "d", "e"])
    table = rng.normal(size=(5, 3))
    bow = sp.csr_matrix(np.array([[1, 2, 0, 0, 0], [0, 0, 1, 1, 3], [2, 0, 0, 1, 0]]))
    docs, compact = document_bags(bow, vocab, table)
    randoms = random_documents(4, 3, 3, -1.0, 1.0, random_state=1)
    S, evaluations = wme_similarities(docs, compact, randoms)
    assert S.shape == (3, 4) and evaluations == 12
    # Reference: POT on one pair, weights normalised, random words equally weighted.
    ot = pytest.importorskip("ot")
    cost = np.linalg.norm(table[[0, 1]][:, None] - randoms[2][None], axis=-1)
    reference = ot.emd2(np.array([1 / 3, 2 / 3]), np.full(len(randoms[2]), 1 / len(randoms[2])),
                        cost)
    np.testing.assert_allclose(S[0, 2], np.exp(-reference), rtol=1e-10)
    Z = wme_features(S, 2.0, n_components=3)
    np.testing.assert_allclose(Z, S[:, :3] ** 2 / np.sqrt(3))


def test_document_bags_looks_words_up_and_drops_unknown_ones():
    class Table:
        vocab = {"x": 2, "y": 0}
        vectors = np.arange(12.0).reshape(4, 3)

    bow = sp.csr_matrix(np.array([[1, 0, 2], [0, 3, 1]]))
    docs, table = document_bags(bow, ["x", "unknown", "y"], Table())
    np.testing.assert_array_equal(table, Table.vectors[[2, 0]])
    np.testing.assert_array_equal(docs[0][0], [0, 1])
    np.testing.assert_array_equal(docs[0][1], [1, 2])
    np.testing.assert_array_equal(docs[1][0], [1])  # "unknown" is dropped


def test_tuned_svm_picks_c_by_cross_validation_and_predicts():
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(-2, 1, size=(30, 4)), rng.normal(2, 1, size=(30, 4))])
    y = np.repeat([0, 1], 30)
    svm = TunedSVM(C_grid=(0.01, 1.0, 100.0), n_folds=3, random_state=0).fit(X, y)
    assert svm.C_ in (0.01, 1.0, 100.0) and svm.cv_accuracy_ > 0.9
    assert np.mean(svm.predict(X) == y) > 0.9
    gram = TunedSVM(kernel="precomputed", C_grid=(1.0,), n_folds=3, random_state=0)
    gram.fit(X @ X.T, y)
    assert np.mean(gram.predict(X @ X.T) == y) > 0.9


def test_more_features_than_items_at_large_c_converge_in_a_few_steps():
    # WME's features at rank 128 on 139 documents: positive, strongly correlated, more
    # of them than documents, separable at C = 100. The dual solver needed thousands of
    # passes there; the primal (liblinear -s 2, as the WME code) a few Newton steps, and
    # it predicts as the optimum does.
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 80)
    points = rng.normal(size=(160, 5)) + 0.3 * (2 * y[:, None] - 1)
    X = np.exp(-np.linalg.norm(points[:, None] - rng.normal(size=(128, 5)), axis=2))
    train, test = np.arange(160) % 4 != 0, np.arange(160) % 4 == 0
    svm = TunedSVM(C_grid=(100.0,), n_folds=3, random_state=0).fit(X[train], y[train])
    assert svm.n_iter_ < 50
    optimum = LinearSVC(C=100.0, dual=True, tol=1e-8, max_iter=1_000_000).fit(X[train],
                                                                              y[train])
    assert optimum.n_iter_ > 1000   # the data are as hard for the dual as WME's were
    assert np.mean(svm.predict(X[test]) == optimum.predict(X[test])) >= 0.95


def test_a_class_with_a_single_document_is_a_clear_error():
    y = np.array([0, 0, 0, 1, 1, 2])
    with pytest.raises(ValueError, match="class 2 has a single document"):
        check_class_counts(y, "the training part of split 0")
    with pytest.raises(ValueError, match="class 2 has a single document"):
        TunedSVM().fit(np.zeros((6, 2)), y)
    with pytest.raises(ValueError, match="`C_grid` must hold positive numbers"):
        TunedSVM(C_grid=(0.0, 1.0)).fit(np.zeros((6, 2)), [0, 0, 0, 1, 1, 1])


@parametrize_with_checks([TunedSVM(C_grid=(1.0,), n_folds=2, random_state=0)])
def test_tuned_svm_passes_sklearn_checks(estimator, check):
    check(estimator)
