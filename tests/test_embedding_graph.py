"""The symmetric top-k cosine graph."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_blobs
from sklearn.metrics.pairwise import cosine_similarity

from lowdim.data.sources.synthetic_embedding import gaussian_blobs
from lowdim.embedding import add_self_loops_to_isolated, cosine_knn_graph
from lowdim.embedding import graph as graph_module
from lowdim.embedding.graph import topk_cosine_neighbors


def _reference_graph(X, topk):
    """Brute force: top-k by cosine per row (self excluded), union, weight = cosine."""
    S = cosine_similarity(X)
    np.fill_diagonal(S, -np.inf)
    A = np.zeros_like(S)
    for i in range(S.shape[0]):
        for j in np.argsort(-S[i], kind="stable")[:topk]:
            if S[i, j] > 0:
                A[i, j] = A[j, i] = S[i, j]
    return A


def test_exact_graph_is_union_of_topk_with_cosine_weights():
    X, _ = make_blobs(60, n_features=8, centers=3, random_state=0)
    X = np.abs(X)  # positive cosines, no ties at zero
    A = cosine_knn_graph(X, topk=4).toarray()
    np.testing.assert_allclose(A, _reference_graph(X, 4), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(A, A.T)
    assert np.all(np.diag(A) == 0)
    assert np.all((A > 0).sum(axis=1) >= 4)


def test_sparse_input_gives_same_graph_and_is_not_densified():
    X, _ = make_blobs(80, n_features=10, centers=4, random_state=1)
    X = np.abs(X)
    dense = cosine_knn_graph(X, topk=5).toarray()
    # Spread the 10 columns over 10^9 columns: a dense copy would need 640 GB.
    cols = np.arange(10) * 99_999_999
    wide = sp.csr_matrix((X.ravel(), np.tile(cols, 80), np.arange(0, 801, 10)),
                         shape=(80, 10**9))
    np.testing.assert_allclose(cosine_knn_graph(wide, topk=5).toarray(), dense, atol=1e-12)


def test_nonpositive_similarities_and_zero_rows_make_isolated_nodes():
    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.8, 0.3], [0.0, 0.0], [-1.0, 0.0]])
    A = cosine_knn_graph(X, topk=1)
    assert A[3].nnz == 0  # all-zero row: cosine undefined, no edge
    assert A[4].nnz == 0  # its best cosine is 0 (the zero row) or negative
    A, isolated = add_self_loops_to_isolated(A)
    np.testing.assert_array_equal(isolated, [False, False, False, True, True])
    assert A[3, 3] == 1.0 and A[4, 4] == 1.0 and A[0, 0] == 0.0


def test_approximate_graph_agrees_with_exact():
    X, _ = make_blobs(400, n_features=16, centers=5, random_state=2)
    X = np.abs(X)
    exact = cosine_knn_graph(X, topk=5)
    approx = cosine_knn_graph(X, topk=5, knn="approximate", random_state=0)
    same = (exact.multiply(approx) > 0).nnz / exact.nnz
    assert same > 0.95
    np.testing.assert_allclose(approx.toarray(), approx.toarray().T, atol=1e-6)
    common = (exact.multiply(approx) > 0).toarray()
    np.testing.assert_allclose(approx.toarray()[common], exact.toarray()[common], atol=1e-5)


def _recall(X, topk):
    exact, _ = topk_cosine_neighbors(X, topk, knn="exact")
    approx, _ = topk_cosine_neighbors(X, topk, knn="approximate", random_state=0)
    return np.mean([np.intersect1d(e, a).size / topk for e, a in zip(exact, approx)])


def test_approximate_search_asks_for_more_neighbours_than_it_keeps(monkeypatch):
    # Isotropic blobs: within a cluster distances concentrate, nearest-neighbour
    # descent's hardest case. Asking pynndescent for topk + 1 neighbours only
    # (its candidate lists then hold 6) misses many of the exact top 5.
    X, _ = gaussian_blobs(3000, 64, 5, 12.0, random_state=0)
    assert graph_module.APPROXIMATE_SEARCH_NEIGHBORS > 5 + 1
    default = _recall(X, 5)
    monkeypatch.setattr(graph_module, "APPROXIMATE_SEARCH_NEIGHBORS", 0)
    minimal = _recall(X, 5)
    assert default >= 0.9
    assert default > minimal + 0.15


def test_a_seeded_approximate_graph_is_the_same_at_any_thread_count():
    # pynndescent's parallel descent would find another graph on two threads than on one
    X, _ = gaussian_blobs(3000, 64, 5, 12.0, random_state=0)
    one = cosine_knn_graph(X, topk=5, knn="approximate", random_state=0, n_jobs=1)
    two = cosine_knn_graph(X, topk=5, knn="approximate", random_state=0, n_jobs=2)
    assert (one != two).nnz == 0


def test_unknown_knn_is_rejected():
    with pytest.raises(ValueError, match="knn"):
        cosine_knn_graph(np.eye(5), topk=2, knn="annoy")


@pytest.mark.parametrize("knn", ["exact", "approximate"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "CSR"])
def test_euclidean_metric_joins_euclidean_neighbours_with_cosine_weights(knn, sparse):
    from sklearn.metrics import pairwise_distances

    X, _ = make_blobs(200, n_features=6, centers=3, random_state=1)
    X = np.abs(X) * np.random.default_rng(0).uniform(0.2, 5.0, (200, 1))  # norms vary
    data = sp.csr_matrix(X) if sparse else X
    ind, sim = topk_cosine_neighbors(data, 3, knn=knn, metric="euclidean", random_state=0)
    D = pairwise_distances(X)
    np.fill_diagonal(D, np.inf)
    exact = np.argsort(D, axis=1, kind="stable")[:, :3]
    recall = np.mean([np.intersect1d(a, b).size / 3 for a, b in zip(ind, exact)])
    assert recall == 1.0 if knn == "exact" else recall > 0.95
    S = cosine_similarity(X)
    np.testing.assert_allclose(sim, S[np.arange(200)[:, None], ind], atol=1e-12)
    # the cosine graph of the same rows joins other pairs: norms no longer matter to it
    assert not np.array_equal(ind, topk_cosine_neighbors(data, 3, knn=knn, random_state=0)[0])


def test_an_unknown_metric_is_refused_by_name():
    with pytest.raises(ValueError, match=r"`metric` must be one of \['cosine', 'euclidean'\], "
                                         r"got 'manhattan'"):
        cosine_knn_graph(np.eye(4) + 1, 2, metric="manhattan")


def _zipf_tfidf(n_rows, n_terms, length, seed):
    """TF-IDF rows of Zipf-distributed terms: a few terms in most rows, most in few."""
    from sklearn.feature_extraction.text import TfidfTransformer

    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, n_terms + 1) ** 1.07
    terms = rng.choice(n_terms, size=n_rows * length, p=p / p.sum())
    counts = sp.csr_matrix((np.ones(terms.size), (np.repeat(np.arange(n_rows), length), terms)),
                           shape=(n_rows, n_terms))
    counts.sum_duplicates()
    return TfidfTransformer().fit_transform(counts).tocsr()


@pytest.mark.parametrize("share", [graph_module.DENSE_COLUMN_SHARE, 0.0, 2.0])
@pytest.mark.parametrize("chunk_bytes", [64 * 2**20, 8 * 300 * 7])
def test_exact_sparse_search_finds_sklearns_neighbours(monkeypatch, share, chunk_bytes):
    """The dense block of frequent terms (all columns at share 0, none at 2) and the row
    chunks change how the similarities are summed, never which rows are nearest."""
    from sklearn.neighbors import NearestNeighbors

    X = _zipf_tfidf(300, 2_000, 40, seed=0)
    X = sp.vstack([X[:100], sp.csr_matrix((1, X.shape[1])), X[100:]]).tocsr()  # an all-zero row
    counts = np.unique(X.indices, return_counts=True)[1]
    frequent = counts >= graph_module.DENSE_COLUMN_SHARE * X.shape[0]
    assert 0 < frequent.sum() < frequent.size  # both parts are exercised at the default
    monkeypatch.setattr(graph_module, "DENSE_COLUMN_SHARE", share)
    monkeypatch.setattr(graph_module, "_SIMILARITY_CHUNK_BYTES", chunk_bytes)
    indices, similarities = topk_cosine_neighbors(X, 5, knn="exact", n_jobs=1)
    distances, expected = NearestNeighbors(n_neighbors=5, metric="cosine", algorithm="brute") \
        .fit(X).kneighbors()
    nonzero = np.arange(301) != 100  # the zero row's neighbours are ties at similarity 0
    np.testing.assert_array_equal(indices[nonzero], expected[nonzero])
    np.testing.assert_allclose(similarities, 1.0 - distances, atol=1e-12)
    assert np.all(similarities[100] == 0.0)
    assert np.all(np.diff(similarities, axis=1) <= 0)  # most similar first


def test_exact_sparse_search_breaks_ties_by_the_lower_row():
    """Rows 1 and 3 are copies: equally similar to row 0, whichever order a product sums in."""
    X = sp.csr_matrix(np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0],
                                [1.0, 0.0, 1.0], [0.0, 0.0, 2.0]]))
    indices, similarities = topk_cosine_neighbors(X, 1, knn="exact")
    assert indices[0, 0] == 1 and similarities[0, 0] == pytest.approx(0.5)
    indices, _ = topk_cosine_neighbors(X, 2, knn="exact")
    assert indices[0].tolist() == [1, 3]
    # four copies (rows 2, 9, 10, 11) tie for row 0's top 3; argpartition alone keeps 2, 10, 11
    kinds = {0: [0.0, 1.0], 1: [1.0, 4.0], 2: [1.0, 2.0], 3: [1.0, 1.0]}
    X = sp.csr_matrix([[1.0, 0.0]] + [kinds[k] for k in [1, 3, 1, 1, 2, 2, 0, 0, 3, 3, 3]])
    indices, _ = topk_cosine_neighbors(X, 3, knn="exact")
    assert indices[0].tolist() == [2, 9, 10]


def test_top_columns_keep_the_lower_of_equal_entries():
    # numpy's argpartition alone keeps column 2 here, not 0, of the four 2.0s tied for 4th
    sim = np.array([[2.0, 3.0, 2.0, 2.0, 2.0, 2.0, 3.0, 1.0, 3.0, 2.0, 0.0, 1.0],
                    [1.0] * 12])
    best, _ = graph_module._top_columns(sim, 4)
    assert sorted(best[0].tolist()) == [0, 1, 6, 8]
    assert sorted(best[1].tolist()) == [0, 1, 2, 3]


def test_sparse_and_dense_searches_agree_on_similarities_and_on_untied_neighbours():
    """What the exact sparse search documents as the same as the dense one: every row's
    topk similarities, and its neighbour set unless rows tie at the topk-th similarity
    (counts of few words tie often; which tied row is kept is not specified)."""
    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.integers(0, 3, size=(200, 40)) * (rng.random((200, 40)) < 0.25),
                      dtype=np.float64)
    S = cosine_similarity(X)
    np.fill_diagonal(S, -np.inf)
    kth = -np.sort(-S, axis=1)[:, 4]
    sparse_ind, sparse_sim = topk_cosine_neighbors(X, 5, knn="exact")
    dense_ind, dense_sim = topk_cosine_neighbors(X.toarray(), 5, knn="exact")
    np.testing.assert_allclose(sparse_sim, dense_sim, atol=1e-12)
    np.testing.assert_allclose(np.take_along_axis(S, sparse_ind, axis=1), sparse_sim, atol=1e-12)
    tied = (np.abs(S - kth[:, None]) < 1e-9).sum(axis=1) > 1
    assert tied.any() and not tied.all()  # both kinds of row are exercised
    for row in np.flatnonzero(~tied):
        assert set(sparse_ind[row]) == set(dense_ind[row])
