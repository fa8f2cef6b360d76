"""The co-occurrence SGNS solver: counts, pair sampling, SGD step, determinism, accuracy."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats
from sklearn.datasets import make_blobs

from lowdim.embedding import Vec2Vec, window_cooccurrences
from lowdim.embedding import _cooccurrence_kernels as CK
from lowdim.embedding import _sgns_kernels as K
from lowdim.embedding.cooccurrence import (MIN_PARTITIONS, PARTITION_BYTES, _pair_weights,
                                          cooccurrence_sgns, keep_probabilities,
                                          partition_count)
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
    indptr, indices, data = CK.cooccurrence_counts(walks, 5, 2)
    upper = sp.csr_matrix((data, indices, indptr), shape=(5, 5)).toarray()
    np.testing.assert_array_equal(upper, np.triu(2 * _brute_force_counts(walks, 5, 2)))
    for u in range(5):
        row = indices[indptr[u]:indptr[u + 1]]
        assert np.all(np.diff(row) > 0) and np.all(row >= u)
    assert indptr[-1] - indptr[-2] == 0  # node 4 never occurs


def test_alias_table_draws_in_proportion_to_the_weights():
    weights = np.array([0.0, 1.0, 2.0, 3.0, 10.0, 0.5])
    draws = K._alias_samples(K.pack_alias(*K.alias_table(weights)), 200_000, 7)
    observed = np.bincount(draws, minlength=6)
    assert observed[0] == 0
    expected = 200_000 * weights[1:] / weights.sum()
    assert stats.chisquare(observed[1:], expected).pvalue > 1e-3


def _solver_tables(walks, n, window, keep, per_node, n_blocks, n_parts):
    """The arrays cooccurrence_sgns hands to the kernels, for a direct call."""
    starts = CK.occurrence_starts(walks, n)
    positions = np.empty(walks.size, dtype=np.int32)
    CK.fill_walk_steps(walks, starts, positions, int(walks.shape[1] - 1).bit_length())
    offsets, step_keep, step_total = K.step_tables(walks.shape[1], window)
    weight = _pair_weights(walks, n, step_total, keep)
    rates = weight * (per_node * n / weight.sum() / n_blocks)
    noise_weight = np.bincount(walks.ravel(), minlength=n) ** 0.75
    part_bounds = K.partition_bounds(n, n_parts)
    noise, share = K.noise_tables(noise_weight.astype(np.float64), part_bounds)
    return (walks, starts, positions, offsets, step_keep, keep, noise, share, rates,
            K.node_phases(n, 5)), noise_weight, part_bounds


@pytest.fixture(scope="module")
def drawn():
    """Every pair the solver trains on small walks: 25 blocks, 2 noise nodes per positive
    pair, 3 partitions of 4 nodes, downsampling weights on both sides of a pair."""
    rng = np.random.default_rng(3)
    n, window = 12, 3
    walks = rng.integers(0, n, size=(30, 8)).astype(np.int32)
    walks[:, 1] = walks[:, 0]  # frequent self-pairs too
    keep = np.linspace(0.5, 1.0, n)
    tables, noise_weight, part_bounds = _solver_tables(walks, n, window, keep, per_node=5000,
                                                       n_blocks=25, n_parts=3)
    inputs, outputs = K._drawn_pairs(*tables, 25, 2, 11, 12, part_bounds)
    target = window_cooccurrences(walks, n, window).toarray() * keep[:, None] * keep[None, :]
    return inputs, outputs, target, noise_weight / noise_weight.sum()


def test_positive_pairs_follow_the_window_counts(drawn):
    inputs, outputs, target, _ = drawn
    positive = outputs >= 0
    observed = np.zeros_like(target)
    np.add.at(observed, (inputs[positive], outputs[positive]), 1)
    mask = target > 0
    assert observed[~mask].sum() == 0
    expected = positive.sum() * target[mask] / target.sum()
    assert stats.chisquare(observed[mask], expected).pvalue > 1e-3


def test_noise_follows_the_unigram_distribution_as_the_former_sampler_did(drawn):
    """The former sampler drew ``negative`` noise nodes from count^0.75 with each kept
    positive pair (skipping one equal to the pair's context, as gensim does: a share of
    about 1 / n_nodes); the per-bucket sampler gives every input node exactly ``negative``
    noise nodes per kept positive pair, and its (input, noise node) counts follow
    count^0.75, without the skip."""
    inputs, outputs, _, noise = drawn
    positive = outputs >= 0
    kept = np.bincount(inputs[positive], minlength=noise.size)
    observed = np.zeros((noise.size, noise.size))
    np.add.at(observed, (inputs[~positive], -outputs[~positive] - 1), 1)
    np.testing.assert_array_equal(observed.sum(axis=1), 2 * kept)
    expected = 2 * kept[:, None] * noise[None, :]
    assert stats.chisquare(observed.ravel(), expected.ravel()).pvalue > 1e-3


def test_noise_counts_per_bucket_are_stratified():
    """In one block, input u takes floor or ceil of negative * kept(u) * share(j) noise
    nodes in each output partition j, never a count off by more than one."""
    rng = np.random.default_rng(8)
    n, negative = 40, 5
    walks = rng.integers(0, n, size=(60, 10)).astype(np.int32)
    tables, noise_weight, part_bounds = _solver_tables(walks, n, 4, np.ones(n), per_node=30,
                                                       n_blocks=1, n_parts=4)
    inputs, outputs = K._drawn_pairs(*tables, 1, negative, 3, 4, part_bounds)
    positive = outputs >= 0
    kept = np.bincount(inputs[positive], minlength=n)
    share = np.add.reduceat(noise_weight, part_bounds[:-1]) / noise_weight.sum()
    part = np.searchsorted(part_bounds, -outputs[~positive] - 1, side="right") - 1
    counts = np.zeros((n, 4))
    np.add.at(counts, (inputs[~positive], part), 1)
    assert np.all(np.abs(counts - negative * kept[:, None] * share[None, :]) < 1)


@pytest.mark.parametrize("n_nodes, n_parts", [(10, 3), (20_000, 8), (7, 7), (1_000_003, 156)])
def test_partitions_are_contiguous_and_even(n_nodes, n_parts):
    bounds = K.partition_bounds(n_nodes, n_parts)
    assert bounds[0] == 0 and bounds[-1] == n_nodes
    assert np.ptp(np.diff(bounds)) <= 1 and np.diff(bounds).min() >= 1
    nodes = np.unique(np.r_[bounds[:-1], bounds[1:] - 1, np.arange(min(n_nodes, 5000))])
    np.testing.assert_array_equal(nodes * n_parts // n_nodes,
                                  np.searchsorted(bounds, nodes, side="right") - 1)


@pytest.mark.parametrize("n_nodes, n_components", [(200, 10), (20_000, 10), (70_000, 10),
                                                   (1_000_000, 10), (1_000_000, 100), (9, 2)])
def test_partition_count_splits_evenly_over_1_2_and_4_threads(n_nodes, n_components):
    parts = partition_count(n_nodes, n_components)
    if n_nodes >= MIN_PARTITIONS:
        assert parts >= max(MIN_PARTITIONS, 4 * 2) and parts % 4 == 0  # >= 4 per thread on 2
        assert n_nodes / parts * n_components * 4 <= PARTITION_BYTES
    else:
        assert parts == n_nodes


def test_each_node_draws_its_rate_per_block_and_exactly_its_total():
    rates = np.array([0.3, 1.0, 2.5, 7.25])
    phases = K.node_phases(4, 1)
    per_block = np.array([[K._attempts.py_func(r, f, b) for r, f in zip(rates, phases)]
                          for b in range(40)])
    np.testing.assert_array_equal(per_block.sum(axis=0), np.round(40 * rates))
    assert per_block.min() >= 0 and np.all(per_block.max(axis=0) <= np.ceil(rates))


def test_one_sgns_step_is_gensims_update():
    rng = np.random.default_rng(5)
    syn0 = rng.normal(size=(4, 3)).astype(np.float32)
    syn1 = rng.normal(size=(4, 3)).astype(np.float32)
    syn1[3] = 10 * syn0[1]  # score far above 6: gensim skips the pair
    z, theta = syn0[1].copy(), syn1[2].copy()
    lr = np.float32(0.05)
    table = K.sigmoid_table()
    targets = np.array([2, -3 - 1], np.int32)  # input 1: output 2, then noise node 3
    K._train_input.py_func(1, targets, 2, syn0, syn1, lr, table, 2, np.empty(3, np.float32))
    f = float(z @ theta)
    assert -6 < f < 6
    sigma = table[int((f + 6) * 1000 / 12)]
    assert abs(sigma - 1 / (1 + np.exp(-f))) < 0.01  # gensim's table, not the exact sigmoid
    g = lr * (1.0 - sigma)
    np.testing.assert_allclose(syn1[2], theta + g * z, rtol=1e-5)
    np.testing.assert_allclose(syn0[1], z + g * theta, rtol=1e-5)
    np.testing.assert_array_equal(syn1[3], 10 * z)


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


def test_the_embedding_is_the_same_at_any_thread_count(blobs):
    X, y = blobs
    fit = lambda seed, jobs: Vec2Vec(n_components=5, solver="cooccurrence", random_state=seed,
                                     n_jobs=jobs).fit(X)
    a, b, c = fit(1, 1), fit(1, 2), fit(2, 1)
    np.testing.assert_array_equal(a.embedding_, b.embedding_)
    assert not np.array_equal(a.embedding_, c.embedding_)
    assert set(a.timings_) == {"graph", "walks", "spectral", "tables", "sgd"}
    assert knn_cv_accuracy(b.embedding_, y, random_state=0).mean > 0.9


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
