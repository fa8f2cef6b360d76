"""Random walks on the CSR graph: transition law, reproducibility, the CSR boundary."""

import re

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

from lowdim.embedding import as_csr_graph, random_walks
from lowdim.embedding._kernels import row_cumsum, splitmix64_uniforms, walk_block

# A small weighted graph with unequal weights, a degree-1 node and a self-loop.
WEIGHTS = np.array([
    [0.0, 1.0, 2.0, 3.0, 0.0],
    [1.0, 0.0, 0.5, 0.0, 0.0],
    [2.0, 0.5, 0.0, 0.0, 4.0],
    [3.0, 0.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 4.0, 0.0, 1.0],
])


def _transition_counts(walks, n):
    counts = np.zeros((n, n), dtype=np.int64)
    np.add.at(counts, (walks[:, :-1].ravel(), walks[:, 1:].ravel()), 1)
    return counts


def test_transition_frequencies_match_edge_weights():
    walks = random_walks(WEIGHTS, walks_per_node=4000, walk_length=10, random_state=0)
    counts = _transition_counts(walks, 5)
    for node in range(5):
        expected_p = WEIGHTS[node] / WEIGHTS[node].sum()
        support = expected_p > 0
        assert counts[node, ~support].sum() == 0, f"walk left node {node} along a non-edge"
        observed = counts[node, support]
        if support.sum() == 1:
            continue
        _, p = stats.chisquare(observed, observed.sum() * expected_p[support])
        assert p > 1e-3, f"node {node}: transitions {observed} vs weights {WEIGHTS[node]}"


def test_walk_kernel_directly_first_step_law():
    g = as_csr_graph(WEIGHTS)
    cumw = row_cumsum(g.indptr, g.data)
    starts = np.zeros(20000, dtype=np.int64)
    out = np.empty((starts.size, 2), dtype=np.int32)
    walk_block(g.indptr, g.indices, cumw, starts, 2, np.uint64(123), out)
    observed = np.bincount(out[:, 1], minlength=5)[[1, 2, 3]]
    _, p = stats.chisquare(observed, starts.size * np.array([1, 2, 3]) / 6)
    assert p > 1e-3
    np.testing.assert_array_equal(out[:, 0], 0)


def test_row_cumsum_restarts_per_row():
    g = as_csr_graph(WEIGHTS)
    cumw = row_cumsum(g.indptr, g.data)
    for i in range(5):
        row = g.data[g.indptr[i]:g.indptr[i + 1]]
        np.testing.assert_allclose(cumw[g.indptr[i]:g.indptr[i + 1]], np.cumsum(row))


def test_walks_do_not_depend_on_thread_count():
    A = sp.random(3000, 3000, density=0.003, random_state=2, format="csr")
    A = A + A.T + sp.eye(3000)
    one = random_walks(A, walks_per_node=3, walk_length=15, random_state=7, n_jobs=1,
                       block_size=500)
    two = random_walks(A, walks_per_node=3, walk_length=15, random_state=7, n_jobs=2,
                       block_size=500)
    np.testing.assert_array_equal(one, two)
    other = random_walks(A, walks_per_node=3, walk_length=15, random_state=8, n_jobs=2,
                         block_size=500)
    assert not np.array_equal(one, other)


def test_walk_shape_dtype_and_rounds():
    walks = random_walks(WEIGHTS, walks_per_node=3, walk_length=6, random_state=0)
    assert walks.shape == (15, 6) and walks.dtype == np.int32
    # Each round starts one walk from every node.
    for r in range(3):
        np.testing.assert_array_equal(np.sort(walks[5 * r:5 * (r + 1), 0]), np.arange(5))


def test_splitmix_uniforms_are_uniform():
    u = splitmix64_uniforms(np.uint64(42), 20000)
    assert u.min() >= 0.0 and u.max() < 1.0
    assert stats.kstest(u, "uniform").pvalue > 1e-3


@pytest.mark.parametrize("bad, message", [
    (np.ones((3, 4)), "square"),
    (-np.ones((3, 3)), ">= 0"),
    (np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), "without an edge"),
    (np.array([[np.nan, 1.0], [1.0, 0.0]]), "finite"),
], ids=["not-square", "negative-weight", "empty-row", "nan-weight"])
def test_as_csr_graph_rejects(bad, message):
    with pytest.raises(ValueError, match=message):
        as_csr_graph(bad)


def test_as_csr_graph_convention():
    g = as_csr_graph(sp.coo_matrix(WEIGHTS, dtype=np.float32))
    assert g.indptr.dtype == np.int64 and g.indices.dtype == np.int32
    assert g.data.dtype == np.float64 and g.n_nodes == 5
    np.testing.assert_allclose(sp.csr_matrix((g.data, g.indices, g.indptr)).toarray(), WEIGHTS)


def test_random_walks_rejects_bad_lengths():
    with pytest.raises(ValueError, match="walk_length"):
        random_walks(WEIGHTS, walk_length=0)
    with pytest.raises(ValueError, match="walks_per_node"):
        random_walks(WEIGHTS, walks_per_node=0)


@pytest.mark.parametrize("argument, value, error", [
    ("walk_length", 3.7, TypeError), ("walk_length", "4", TypeError),
    ("walks_per_node", True, TypeError), ("walks_per_node", 2.0, TypeError),
    ("block_size", 0, ValueError), ("block_size", -3, ValueError), ("block_size", 1.5, TypeError),
], ids=["walk_length-float", "walk_length-str", "walks_per_node-bool", "walks_per_node-float",
        "block_size-zero", "block_size-negative", "block_size-float"])
def test_random_walks_names_a_bad_count_and_its_value(argument, value, error):
    params = {"walks_per_node": 2, "walk_length": 4, argument: value}
    message = re.escape(f"`{argument}` must be an integer >= 1, got {value!r}")
    with pytest.raises(error, match=message) as info:
        random_walks(WEIGHTS, random_state=0, **params)
    assert info.value.argument == argument


def test_random_walks_accepts_numpy_integers():
    walks = random_walks(WEIGHTS, walks_per_node=np.int64(2), walk_length=np.int32(4),
                         random_state=0, block_size=np.int64(3))
    assert walks.shape == (2 * WEIGHTS.shape[0], 4)
