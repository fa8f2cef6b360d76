"""The spectral start of Vec2vec's co-occurrence solver: eigenvectors, components, fallback."""

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackNoConvergence
from sklearn.datasets import make_blobs
from threadpoolctl import threadpool_limits

from lowdim.embedding import Vec2Vec, cooccurrence_sgns, cosine_knn_graph, random_walks
from lowdim.embedding import spectral as S
from lowdim.embedding.graph import add_self_loops_to_isolated
from lowdim.evaluate.classification import knn_cv_accuracy


def _graph(n, seed):
    X = np.random.default_rng(seed).uniform(size=(n, 3))
    return cosine_knn_graph(X - 0.5, 8)


def _leading_nontrivial(graph, d):
    """The reference: dense eigenvectors 2..d+1 of D^-1/2 A D^-1/2."""
    A = graph.toarray()
    scaling = 1.0 / np.sqrt(A.sum(axis=1))
    values, vectors = scipy.linalg.eigh(scaling[:, None] * A * scaling[None, :])
    return vectors[:, np.argsort(values)[::-1][1:d + 1]]


def _largest_angle(a, b):
    """Largest principal angle (radians) between the column spaces of a and b."""
    return float(np.max(scipy.linalg.subspace_angles(a, b)))


@pytest.mark.parametrize("n", [300, 900], ids=["dense LAPACK path", "ARPACK path"])
def test_a_connected_graph_starts_from_its_leading_nontrivial_eigenvectors(n):
    graph = _graph(n, seed=1)
    assert sp.csgraph.connected_components(graph)[0] == 1
    d = 3
    start, spectral = S.spectral_start(graph, d, random_state=0)
    assert start.dtype == np.float32 and spectral.all()
    assert _largest_angle(start.astype(np.float64), _leading_nontrivial(graph, d)) < 1e-2
    np.testing.assert_allclose(np.abs(start).max(), S.SPECTRAL_SCALE / d, rtol=1e-6)
    # each column is orthogonal to the trivial eigenvector D^1/2 1
    sqrt_degree = np.sqrt(np.asarray(graph.sum(axis=1)).ravel())
    np.testing.assert_allclose(sqrt_degree @ start / np.linalg.norm(start, axis=0), 0,
                               atol=1e-3 * np.linalg.norm(sqrt_degree))


def test_each_component_is_embedded_on_its_own_and_tiny_ones_start_at_random():
    big_a, big_b = _graph(300, seed=2), _graph(700, seed=3)
    pair = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
    loops = sp.identity(3, format="csr")  # three isolated nodes with their self-loops
    graph = sp.block_diag([big_a, pair, big_b, loops], format="csr")
    d = 2
    start, spectral = S.spectral_start(graph, d, random_state=0)
    parts = {"a": slice(0, 300), "pair": slice(300, 302), "b": slice(302, 1002),
             "loops": slice(1002, 1005)}
    assert spectral[parts["a"]].all() and spectral[parts["b"]].all()
    assert not spectral[parts["pair"]].any() and not spectral[parts["loops"]].any()
    for name, piece in (("a", big_a), ("b", big_b)):
        own = start[parts[name]].astype(np.float64)
        assert _largest_angle(own, _leading_nontrivial(piece, d)) < 1e-2
        np.testing.assert_allclose(np.abs(own).max(), S.SPECTRAL_SCALE / d, rtol=1e-6)
    tiny = start[~spectral]  # gensim's uniform start on [-0.5, 0.5) / d
    assert np.all(np.abs(tiny) <= 0.5 / d) and np.ptp(tiny) > 0


def test_a_component_where_arpack_fails_starts_at_random_with_a_warning(monkeypatch):
    def no_convergence(*args, **kwargs):
        raise ArpackNoConvergence("no convergence", np.empty(0), np.empty((0, 0)))

    graph = sp.block_diag([_graph(600, seed=4), _graph(200, seed=5)], format="csr")
    monkeypatch.setattr(S, "eigsh", no_convergence)
    with pytest.warns(S.SpectralStartWarning, match="component of 600 nodes"):
        start, spectral = S.spectral_start(graph, 2, random_state=0)
    assert not spectral[:600].any() and spectral[600:].all()  # the 200 nodes: LAPACK
    assert np.all(np.abs(start[:600]) <= 0.25)


def test_the_start_is_the_same_at_any_number_of_blas_threads_and_follows_the_seed():
    graph = _graph(900, seed=6)
    with threadpool_limits(limits=2):
        a, _ = S.spectral_start(graph, 4, random_state=7)
    with threadpool_limits(limits=1):
        b, _ = S.spectral_start(graph, 4, random_state=7)
    np.testing.assert_array_equal(a, b)
    c, _ = S.spectral_start(graph, 4, random_state=8)  # another ARPACK start vector
    assert not np.array_equal(a, c)
    assert _largest_angle(a.astype(np.float64), c.astype(np.float64)) < 1e-2  # same subspace


@pytest.mark.parametrize("graph, n_components, message", [
    (sp.csr_matrix(np.array([[0.0, 1.0], [0.5, 0.0]])), 1, r"`graph` must be symmetric"),
    (sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])), 1, r"must be square"),
    (sp.csr_matrix(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])), 1,
     r"1 node\(s\) without an edge"),
    (sp.identity(3, format="csr"), 0, r"`n_components` must be"),
], ids=["asymmetric", "not square", "node without edge", "n_components=0"])
def test_bad_graphs_are_rejected_by_name(graph, n_components, message):
    with pytest.raises(ValueError, match=message):
        S.spectral_start(graph, n_components)


@pytest.fixture(scope="module")
def blobs():
    return make_blobs(600, n_features=30, centers=5, cluster_std=2.0, center_box=(-10, 10),
                      random_state=0)


def test_vec2vec_starts_spectrally_by_default_and_randomly_on_request(blobs):
    X, y = blobs
    fit = lambda init, jobs: Vec2Vec(n_components=5, solver="cooccurrence", init=init,
                                     updates_per_node=200, random_state=0, n_jobs=jobs).fit(X)
    spectral, spectral_2, random = fit("spectral", 1), fit("spectral", 2), fit("random", 1)
    np.testing.assert_array_equal(spectral.embedding_, spectral_2.embedding_)
    assert "spectral" in spectral.timings_ and "spectral" not in random.timings_
    assert not np.allclose(spectral.embedding_, random.embedding_)
    for model in (spectral, random):
        assert knn_cv_accuracy(model.embedding_, y, random_state=0).mean > 0.9


def test_the_solver_starts_from_the_given_vectors(blobs):
    X, _ = blobs
    graph, _ = add_self_loops_to_isolated(cosine_knn_graph(X, 5))
    walks = random_walks(graph, 2, 5, random_state=0)
    init = np.random.default_rng(0).normal(size=(len(X), 3))
    untouched = cooccurrence_sgns(walks, len(X), 3, updates_per_node=1e-9, init=init)
    np.testing.assert_array_equal(untouched, init.astype(np.float32))
    with pytest.raises(ValueError, match=r"`init` must be a finite array of shape \(n_nodes, "
                                         r"n_components\) = \(600, 3\), got shape \(600, 2\)"):
        cooccurrence_sgns(walks, len(X), 3, init=init[:, :2])
