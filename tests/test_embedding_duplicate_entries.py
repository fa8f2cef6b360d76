"""Sparse input storing a cell more than once (non-canonical CSR) is read as the matrix it is.

A bag of words built with one stored 1 per token occurrence is such a matrix; scipy treats it
as the sum of its pieces, but row norms computed from ``data`` (as ``normalize`` does) see the
pieces separately, so cosines come out wrong unless the duplicates are merged first.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from lowdim.embedding import ClassicalMDS, IsomapEmbedding, Vec2Vec, cosine_knn_graph
from lowdim.embedding._validation import check_embedding_input


def _bag_of_words(n_docs=120, vocab=30, seed=0):
    """(duplicate-entry CSR, its canonical form): one stored 1 per token occurrence."""
    rng = np.random.default_rng(seed)
    docs = [np.sort(rng.integers(0, vocab, size=rng.integers(5, 15))) for _ in range(n_docs)]
    indptr = np.r_[0, np.cumsum([len(d) for d in docs])]
    bow = sp.csr_matrix((np.ones(indptr[-1]), np.concatenate(docs), indptr),
                        shape=(n_docs, vocab))
    canonical = bow.copy()
    canonical.sum_duplicates()
    assert not bow.has_canonical_format and canonical.nnz < bow.nnz
    return bow, canonical


def _pieces(X):
    return X.data.copy(), X.indices.copy(), X.indptr.copy()


def _assert_unchanged(X, pieces):
    for now, before in zip((X.data, X.indices, X.indptr), pieces):
        np.testing.assert_array_equal(now, before)


def test_the_input_check_merges_duplicates_on_a_copy():
    bow, canonical = _bag_of_words()
    before = _pieces(bow)
    X = check_embedding_input(Vec2Vec(), bow)
    assert X.has_canonical_format
    np.testing.assert_array_equal(X.indptr, canonical.indptr)
    np.testing.assert_array_equal(X.indices, canonical.indices)
    np.testing.assert_array_equal(X.data, canonical.data)
    _assert_unchanged(bow, before)


@pytest.mark.parametrize("knn", ["exact", "approximate"])
def test_cosine_graph_of_duplicate_entries_is_the_canonical_graph(knn):
    bow, canonical = _bag_of_words()
    before = _pieces(bow)
    graph = cosine_knn_graph(bow, 5, knn=knn, random_state=0)
    np.testing.assert_allclose(graph.toarray(), cosine_knn_graph(
        canonical, 5, knn=knn, random_state=0).toarray(), rtol=1e-12, atol=1e-12)
    assert graph.max() <= 1.0 + 1e-12
    _assert_unchanged(bow, before)


def test_vec2vec_graph_of_duplicate_entries_is_the_canonical_graph():
    bow, canonical = _bag_of_words()
    before = _pieces(bow)
    params = dict(n_components=2, solver="cooccurrence", updates_per_node=4, knn="exact",
                  random_state=0, n_jobs=1)
    fitted = Vec2Vec(**params).fit(bow)
    reference = Vec2Vec(**params).fit(canonical)
    np.testing.assert_allclose(fitted.graph_.toarray(), reference.graph_.toarray(),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fitted.embedding_, reference.embedding_, rtol=1e-10, atol=1e-12)
    _assert_unchanged(bow, before)


@pytest.mark.parametrize("estimator", [ClassicalMDS(n_components=2),
                                       IsomapEmbedding(n_components=2, n_neighbors=10)],
                         ids=["ClassicalMDS", "IsomapEmbedding"])
def test_baselines_on_duplicate_entries_equal_the_canonical_input(estimator):
    bow, canonical = _bag_of_words()
    before = _pieces(bow)
    np.testing.assert_allclose(estimator.fit_transform(bow), estimator.fit_transform(canonical),
                               rtol=1e-10, atol=1e-10)
    _assert_unchanged(bow, before)
