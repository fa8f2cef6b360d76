"""The co-occurrence SGNS solver: counts, alias sampling, SGD step, determinism, accuracy."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from sklearn.datasets import make_blobs

from lowdim.embedding import Vec2Vec, window_cooccurrences
from lowdim.embedding import _sgns_kernels as K
from lowdim.embedding.cooccurrence import cooccurrence_sgns, keep_probabilities
from lowdim.evaluate.classification import knn_cv_accuracy


def _brute_force_counts(walks, n, window):
    """Sum over walks and ordered position pairs of (window - |i - j| + 1) / window."""
    C = np.zeros((n, n))
    for walk in walks:
        for i in range(len(walk)):
            for j in range(len(walk)):
                if i != j and abs(i - j) <= window:
                    C[walk[i], walk[j]] += (window - abs(i - j) + 1) / window
    return C


@pytest.mark.parametrize("window", [1, 3, 10])
def test_counts_equal_a_brute_force_count(window):
    rng = np.random.default_rng(window)
    walks = rng.integers(0, 9, size=(40, 7)).astype(np.int32)
    walks[0, :3] = [4, 4, 4]  # repeated node: self-pairs
    C = window_cooccurrences(walks, 9, window)
    assert sp.issparse(C) and C.shape == (9, 9)
    np.testing.assert_allclose(C.toarray(), _brute_force_counts(walks, 9, window), rtol=1e-12)


def test_kernel_stores_the_upper_triangle_sorted_in_window_units():
    walks = np.array([[0, 1, 2, 1], [3, 3, 0, 2]], dtype=np.int32)
    indptr, indices, data = K.cooccurrence_counts(walks, 5, 2)
    upper = sp.csr_matrix((data, indices, indptr), shape=(5, 5)).toarray()
    np.testing.assert_array_equal(upper, np.triu(2 * _brute_force_counts(walks, 5, 2)))
    for u in range(5):
        row = indices[indptr[u]:indptr[u + 1]]
        assert np.all(np.diff(row) > 0) and np.all(row >= u)
    assert indptr[-1] - indptr[-2] == 0  # node 4 never occurs


def test_alias_table_draws_in_proportion_to_the_weights():
    weights = np.array([0.0, 1.0, 2.0, 3.0, 10.0, 0.5])
    threshold, alias = K.alias_table(weights)
    draws = K.alias_samples(threshold, alias, 200_000, 7)
    observed = np.bincount(draws, minlength=6)
    assert observed[0] == 0
    expected = 200_000 * weights[1:] / weights.sum()
    assert stats.chisquare(observed[1:], expected).pvalue > 1e-3


def test_sampled_pair_frequencies_match_the_counts():
    rng = np.random.default_rng(3)
    n = 12
    walks = rng.integers(0, n, size=(30, 8)).astype(np.int32)
    walks[:, 1] = walks[:, 0]  # frequent self-pairs too
    indptr, indices, data = K.cooccurrence_counts(walks, n, 3)
    keep = np.linspace(0.5, 1.0, n)  # downsampling weights each side of a pair
    row_weight, pair_threshold, pair_alias = K.pair_alias_tables(indptr, indices, data, keep)
    row_threshold, row_alias = K.alias_table(row_weight)
    draws = 400_000
    pairs = K.sample_pairs(indptr, indices, row_threshold, row_alias, pair_threshold, pair_alias,
                           draws, 5, 11, 1)
    observed = np.zeros((n, n))
    np.add.at(observed, (pairs[:, 0], pairs[:, 1]), 1)
    target = window_cooccurrences(walks, n, 3).toarray() * keep[:, None] * keep[None, :]
    mask = target > 0
    assert observed[~mask].sum() == 0
    expected = draws * target[mask] / target.sum()
    assert stats.chisquare(observed[mask], expected).pvalue > 1e-3


def test_drawn_pairs_do_not_depend_on_the_thread_count():
    rng = np.random.default_rng(4)
    walks = rng.integers(0, 20, size=(50, 6)).astype(np.int32)
    indptr, indices, data = K.cooccurrence_counts(walks, 20, 2)
    row_weight, pt, pa = K.pair_alias_tables(indptr, indices, data, np.ones(20))
    rt, ra = K.alias_table(row_weight)
    one = K.sample_pairs(indptr, indices, rt, ra, pt, pa, 5000, 5, 3, 1)
    two = K.sample_pairs(indptr, indices, rt, ra, pt, pa, 5000, 5, 3, 2)
    np.testing.assert_array_equal(one, two)


def test_one_sgns_step_is_gensims_update():
    rng = np.random.default_rng(5)
    syn0 = rng.normal(size=(4, 3)).astype(np.float32)
    syn1 = rng.normal(size=(4, 3)).astype(np.float32)
    z, theta = syn0[1].copy(), syn1[2].copy()
    lr = np.float32(0.05)
    threshold, alias = K.alias_table(np.ones(4))
    K._sgns_pair(1, 2, syn0, syn1, np.empty(3, np.float32), threshold, alias, 0, lr,
                 np.uint64(0))
    g = lr * (1.0 - 1.0 / (1.0 + np.exp(-z @ theta)))  # d log sigma(z.theta) / d(z.theta)
    np.testing.assert_allclose(syn1[2], theta + g * z, rtol=1e-5)
    np.testing.assert_allclose(syn0[1], z + g * theta, rtol=1e-5)


def test_keep_probabilities_are_gensims():
    counts = np.array([1000, 10, 1])
    keep = keep_probabilities(counts, 1e-2)
    t = 1e-2 * counts.sum()
    np.testing.assert_allclose(keep[0], (np.sqrt(1000 / t) + 1) * t / 1000)
    np.testing.assert_array_equal(keep[1:], 1.0)
    np.testing.assert_array_equal(keep_probabilities(counts, 0.0), 1.0)


@pytest.fixture(scope="module")
def blobs():
    return make_blobs(400, n_features=30, centers=5, cluster_std=2.0, center_box=(-10, 10),
                      random_state=0)


def test_the_two_solvers_reach_the_same_knn_accuracy(blobs):
    X, y = blobs
    accuracy = {}
    for solver in ("gensim", "cooccurrence"):
        Z = Vec2Vec(n_components=5, solver=solver, random_state=0).fit_transform(X)
        accuracy[solver] = knn_cv_accuracy(Z, y, random_state=0).mean
    assert accuracy["gensim"] > 0.9
    assert abs(accuracy["gensim"] - accuracy["cooccurrence"]) <= 0.02


def test_one_thread_is_deterministic_and_two_threads_agree_in_quality(blobs):
    X, y = blobs
    fit = lambda seed, jobs: Vec2Vec(n_components=5, solver="cooccurrence", random_state=seed,
                                     n_jobs=jobs).fit(X)
    a, b, c = fit(1, 1), fit(1, 1), fit(2, 1)
    np.testing.assert_array_equal(a.embedding_, b.embedding_)
    assert not np.array_equal(a.embedding_, c.embedding_)
    assert set(a.timings_) == {"graph", "walks", "counting", "sgd"}
    hogwild = fit(1, 2).embedding_
    assert knn_cv_accuracy(hogwild, y, random_state=0).mean > 0.9


def test_direct_call_checks_its_walks():
    with pytest.raises(ValueError, match="visit every node"):
        cooccurrence_sgns(np.array([[0, 1], [1, 0]]), 3, 2)
    with pytest.raises(ValueError,
                       match=r"node ids in range\(n_nodes\) = range\(2\), got ids from 0 to 5"):
        cooccurrence_sgns(np.array([[0, 5]]), 2, 2)
    with pytest.raises(ValueError, match="walk_length >= 2"):
        window_cooccurrences(np.array([[0], [1]]), 2, 2)


@pytest.mark.parametrize("params, message", [
    ({"solver": "word2vec"}, r"`solver` must be one of \['gensim', 'cooccurrence'\], got 'word2vec'"),
    ({"updates_per_node": 0}, r"`updates_per_node` must be a number > 0.0, got 0"),
    ({"updates_per_node": "many"},
     r"`updates_per_node` must be a number > 0.0, got 'many' \(str\)"),
    ({"alpha": -0.1}, r"`alpha` must be a number > 0.0, got -0.1"),
    ({"knn": "annoy"}, r"`knn` must be one of \['auto', 'exact', 'approximate'\], got 'annoy'"),
], ids=["solver", "updates_per_node=0", "updates_per_node=str", "alpha<0", "knn"])
def test_bad_parameters_are_rejected_with_name_and_value(params, message):
    with pytest.raises((ValueError, TypeError), match=message):
        Vec2Vec(**{"n_components": 2, "topk": 2, "solver": "cooccurrence", **params}).fit(
            np.eye(6) + 1)
