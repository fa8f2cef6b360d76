"""KernelOracle serves scikit-learn's kernels; median_gamma is the median heuristic."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.spatial.distance import pdist
from sklearn.metrics.pairwise import pairwise_kernels

from lowdim.approx import nystrom
from lowdim.similarity import KernelOracle, median_gamma

KERNELS = [("rbf", {"gamma": 0.3}), ("laplacian", {"gamma": 0.3}), ("linear", {}),
           ("poly", {"gamma": 0.3, "degree": 2, "coef0": 1.0}),
           ("sigmoid", {"gamma": 0.3, "coef0": 1.0}), ("cosine", {})]


@pytest.fixture(scope="module")
def rows():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 6))
    X[rng.random(X.shape) < 0.5] = 0.0  # sparse-ish, so CSR rows have structure
    return X


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("kernel, params", KERNELS, ids=[k for k, _ in KERNELS])
def test_matches_scikit_learn_pairwise_kernels(rows, kernel, params, sparse):
    oracle = KernelOracle(sp.csr_matrix(rows) if sparse else rows, kernel, **params)
    index = np.arange(rows.shape[0])
    np.testing.assert_allclose(oracle(index, index), pairwise_kernels(rows, metric=kernel,
                                                                     **params),
                               rtol=1e-12, atol=1e-12)
    assert oracle.evaluations == 40 * 41 // 2  # symmetric: each pair once


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_cosine_of_a_zero_row_is_zero_as_in_scikit_learn(sparse):
    # scikit-learn normalises the rows and leaves a zero row zero, so every entry with a zero
    # row is 0, even between two zero rows (1 - cosine distance would give 0.5 and 1).
    X = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 4.0], [0.0, 0.0], [0.0, 0.0]])
    data = sp.csr_matrix(X) if sparse else X
    expected = pairwise_kernels(data, metric="cosine")
    assert not expected[3:].any() and not expected[:, 3:].any()
    oracle = KernelOracle(data, "cosine")
    index = np.arange(5)
    np.testing.assert_allclose(oracle(index, index), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(oracle(index[::-1], index), expected[::-1], rtol=1e-12,
                               atol=1e-12)


def test_nystrom_counts_kernel_evaluations_like_any_oracle(rows):
    approx = nystrom(KernelOracle(rows, "rbf", gamma=0.3), 10, random_state=0)
    assert approx.evaluations == 40 * 10 - 10 * 9 // 2


@pytest.mark.parametrize("kernel, message", [
    ("gaussian", r"`kernel` must be one of \['rbf'"),
    ("rbf", r"`gamma` must be a positive number for the 'rbf' kernel, got None"),
])
def test_bad_kernel_or_width(rows, kernel, message):
    with pytest.raises(ValueError, match=message):
        KernelOracle(rows, kernel)


def test_bad_degree(rows):
    with pytest.raises(ValueError, match="`degree` must be a positive integer, got 0"):
        KernelOracle(rows, "poly", gamma=1.0, degree=0)


def test_median_heuristic_on_all_rows_when_few(rows):
    gamma, evaluations = median_gamma(rows, "rbf", random_state=0)
    assert gamma == pytest.approx(1.0 / np.median(pdist(rows)) ** 2)
    assert evaluations == 40 * 39 // 2
    gamma, _ = median_gamma(rows, "laplacian", random_state=0)
    assert gamma == pytest.approx(1.0 / np.median(pdist(rows, "cityblock")))
    gamma, evaluations = median_gamma(rows, "poly", random_state=0)
    assert gamma == pytest.approx(1.0 / np.median(np.sum(rows ** 2, axis=1)))
    assert evaluations == 40


def test_median_heuristic_subsample_is_seeded_and_scale_equivariant():
    X = np.random.default_rng(1).standard_normal((1000, 3))
    a, evaluations = median_gamma(X, "rbf", n_samples=100, random_state=5)
    b, _ = median_gamma(X, "rbf", n_samples=100, random_state=5)
    c, _ = median_gamma(3.0 * X, "rbf", n_samples=100, random_state=5)
    assert a == b and evaluations == 100 * 99 // 2
    assert c == pytest.approx(a / 9.0)
    assert a == pytest.approx(1.0 / (2 * 3 * 0.91), rel=0.15)  # median ||x - y||^2 ≈ 2·3·0.91


def test_median_heuristic_refuses_rows_without_scale():
    with pytest.raises(ValueError, match="all 45 sampled distances are zero"):
        median_gamma(np.ones((10, 2)), "rbf")
    with pytest.raises(ValueError, match=r"`kernel` must be one of \['rbf', 'laplacian', "
                                         r"'poly', 'sigmoid'\] to have a gamma"):
        median_gamma(np.ones((10, 2)), "linear")
