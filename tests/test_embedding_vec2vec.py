"""Vec2Vec: quality on separable data, determinism, sparse text input, bad input."""

import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_blobs
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from lowdim.embedding import IsolatedSamplesWarning, Vec2Vec

FAST = dict(walks_per_node=5, epochs=3)  # authors' graph and walks, fewer passes


@pytest.fixture(scope="module")
def blobs():
    # Centres far from the origin in different directions: well separated in cosine too.
    return make_blobs(300, n_features=30, centers=5, cluster_std=1.0, center_box=(-10, 10),
                      random_state=0)


def test_gaussian_clusters_are_separable_in_the_embedding(blobs):
    X, y = blobs
    Z = Vec2Vec(n_components=8, random_state=0, **FAST).fit_transform(X)
    assert Z.shape == (300, 8) and Z.dtype == np.float64 and np.all(np.isfinite(Z))
    accuracy = cross_val_score(KNeighborsClassifier(5), Z, y, cv=4).mean()
    assert accuracy >= 0.95


@pytest.mark.parametrize("seed, threads", [(0, 1), (None, 2)])
def test_the_neighbour_search_runs_on_n_jobs_threads_unless_seeded(blobs, monkeypatch, seed,
                                                                    threads):
    # A seed keeps pynndescent on one thread (its parallel graph varies with the thread
    # count); an unseeded fit is parallel, as an unseeded UMAP is.
    import pynndescent

    used = []

    class Recorded(pynndescent.NNDescent):
        def __init__(self, *args, n_jobs=None, **kwargs):
            used.append(n_jobs)
            super().__init__(*args, n_jobs=n_jobs, **kwargs)

    monkeypatch.setattr(pynndescent, "NNDescent", Recorded)
    Vec2Vec(n_components=4, knn="approximate", solver="cooccurrence", random_state=seed,
            n_jobs=2).fit(blobs[0])
    assert used == [threads]


def test_two_fits_with_one_thread_are_identical(blobs):
    X, _ = blobs
    a = Vec2Vec(n_components=4, random_state=3, n_jobs=1, **FAST).fit(X)
    b = Vec2Vec(n_components=4, random_state=3, n_jobs=1, **FAST).fit(X)
    np.testing.assert_array_equal(a.embedding_, b.embedding_)
    c = Vec2Vec(n_components=4, random_state=4, n_jobs=1, **FAST).fit(X)
    assert not np.array_equal(a.embedding_, c.embedding_)


def test_fitted_attributes(blobs):
    X, _ = blobs
    model = Vec2Vec(n_components=3, topk=4, random_state=0, **FAST).fit(X)
    assert model.n_features_in_ == 30
    assert model.graph_.shape == (300, 300) and (model.graph_ != model.graph_.T).nnz == 0
    assert not model.isolated_.any()
    assert set(model.timings_) == {"graph", "walks", "skipgram"}
    assert list(model.get_feature_names_out()) == ["vec2vec0", "vec2vec1", "vec2vec2"]


@pytest.fixture(scope="module")
def pang_lee():
    from gensim.test.utils import datapath

    lines = open(datapath("pang_lee_polarity.cor"), encoding="latin-1").read().splitlines()
    labels = np.array([line.split()[0] == "__label__pos" for line in lines], dtype=int)
    texts = [re.sub(r"^__label__\w+\s*", "", line) for line in lines]
    return TfidfVectorizer().fit_transform(texts), labels


def test_sparse_tfidf_input_and_isolated_warning(pang_lee):
    X, _ = pang_lee
    assert sp.issparse(X)
    X = sp.vstack([X, sp.csr_matrix((1, X.shape[1]))]).tocsr()  # one empty document
    with pytest.warns(IsolatedSamplesWarning, match=r"1 are all-zero rows"):
        model = Vec2Vec(n_components=5, random_state=0, **FAST).fit(X)
    assert model.isolated_[-1] and model.graph_[200, 200] == 1.0
    assert model.embedding_.shape == (201, 5) and np.all(np.isfinite(model.embedding_))


def test_dense_and_sparse_input_give_the_same_embedding(blobs):
    X, _ = blobs
    X = np.abs(X)
    dense = Vec2Vec(n_components=3, random_state=1, **FAST).fit_transform(X)
    sparse = Vec2Vec(n_components=3, random_state=1, **FAST).fit_transform(sp.csr_matrix(X))
    np.testing.assert_array_equal(dense, sparse)


@pytest.mark.parametrize("X, params, message", [
    (np.ones((10, 3)), {"n_components": 10}, r"`n_components` must be < n_samples = 10, got 10"),
    (np.ones((10, 3)), {"topk": 10}, r"`topk` must be < n_samples = 10, got 10"),
    (np.ones((10, 3)), {"walk_length": 1}, r"walk_length == 1, must be >= 2"),
    (np.array([[1.0, np.nan], [0.0, 1.0], [1.0, 1.0]]), {}, r"Input X contains NaN"),
    (np.array([[1.0, np.inf], [0.0, 1.0], [1.0, 1.0]]), {}, r"Input X contains infinity"),
    (np.empty((0, 4)), {}, r"`X` is empty: got shape \(0, 4\)"),
    (np.ones((10, 3)), {"knn": "annoy"}, r"`knn` must be one of"),
    (np.ones((10, 3)), {"n_jobs": 0}, r"`n_jobs` must be"),
], ids=["n_components>=n", "topk>=n", "walk_length<2", "nan", "inf", "empty", "knn", "n_jobs=0"])
def test_bad_input_is_rejected_with_the_parameter_named(X, params, message):
    with pytest.raises(ValueError, match=message):
        Vec2Vec(**{"n_components": 2, "topk": 2, **params}).fit(X)
