"""Similarity oracles: blocks, caching and counting, WMD against POT, the pairwise MLP."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import parametrize_with_checks

from lowdim.data.word_vectors import WordVectors, load_glove50
from lowdim.similarity import (DenseOracle, PairwiseMLP, PairwiseMLPOracle, WMDOracle,
                               full_matrix, in_vocabulary_counts, sample_label_pairs)


# -- the oracle protocol ------------------------------------------------------------------
@settings(max_examples=40)  # cheap examples: four times the profile's
@given(st.lists(st.tuples(st.lists(st.integers(0, 11), min_size=1, max_size=6),
                          st.lists(st.integers(0, 11), min_size=1, max_size=6)),
                min_size=1, max_size=5))
def test_cache_counts_each_distinct_entry_once(requests):
    rng = np.random.default_rng(0)
    A = rng.normal(size=(12, 12))
    K = A + A.T
    oracle = DenseOracle(K)
    seen = set()
    for rows, cols in requests:
        block = oracle(rows, cols)
        np.testing.assert_array_equal(block, K[np.ix_(rows, cols)])
        seen |= {(min(a, b), max(a, b)) for a in rows for b in cols}
        assert oracle.evaluations == len(seen)


def test_non_symmetric_oracle_counts_ordered_entries():
    K = np.arange(16.0).reshape(4, 4)
    oracle = DenseOracle(K)
    assert not oracle.symmetric
    np.testing.assert_array_equal(oracle([0, 1], [1, 0]), K[np.ix_([0, 1], [1, 0])])
    assert oracle.evaluations == 4
    sym = DenseOracle(K, symmetrize=True)
    assert sym.symmetric
    np.testing.assert_array_equal(sym(np.arange(4), np.arange(4)), (K + K.T) / 2)


def test_evaluate_without_record_touches_neither_cache_nor_counter():
    oracle = DenseOracle(np.eye(5))
    oracle.evaluate([0, 1], [2, 3], record=False)
    assert oracle.evaluations == 0
    oracle([0, 1], [2, 3])
    assert oracle.evaluations == 4
    oracle.reset()
    assert oracle.evaluations == 0


@pytest.mark.parametrize("bad, message", [
    (np.ones((3, 4)), r"`K` must be a square matrix, got shape \(3, 4\)"),
    (np.array([[1.0, np.nan], [np.nan, 1.0]]), r"`K` contains non-finite values, first K\[0, 1\]"),
])
def test_dense_oracle_refuses_bad_matrices(bad, message):
    with pytest.raises(ValueError, match=message):
        DenseOracle(bad)


def test_index_errors_name_the_argument():
    oracle = DenseOracle(np.eye(4))
    with pytest.raises(IndexError, match=r"`cols` contains index 4, outside \[0, n = 4\)"):
        oracle([0], [4])
    with pytest.raises(ValueError, match="`rows` must hold integer indices"):
        oracle([0.5], [1])
    with pytest.raises(ValueError, match="`n_jobs` must be a positive integer or -1, got 0"):
        DenseOracle(np.eye(4), n_jobs=0)


def test_full_matrix_evaluates_each_entry_once():
    A = np.random.default_rng(1).normal(size=(37, 37))
    K = A + A.T
    oracle = DenseOracle(K, cache=False)
    np.testing.assert_array_equal(full_matrix(oracle, block_rows=8), K)
    assert oracle.evaluations == 37 * 38 // 2


# -- word mover's distance -----------------------------------------------------------------
DOCS = ["obama speaks to the media in illinois",
        "the president greets the press in chicago",
        "the band gave a concert in japan",
        "a man speaks loudly",
        "press conference in chicago today",
        "concert concert japan music"]


@pytest.fixture(scope="module")
def glove_docs():
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(token_pattern=r"[a-z]+")
    bow = vectorizer.fit_transform(DOCS)
    vocab = vectorizer.get_feature_names_out()
    glove = load_glove50()
    rows = [glove.vocab[w] for w in vocab]
    # a small table in a different order than `vocab`, as real tables are
    order = np.random.default_rng(0).permutation(len(rows))
    words = [str(vocab[k]) for k in order] + ["zzzunused"]
    vectors = np.vstack([np.asarray(glove.vectors[[rows[k] for k in order]]), np.ones((1, 50))])
    return bow, vocab, WordVectors(words, vectors, name="glove subset")


def direct_wmd(bow, vocab, vectors, stop_words=()):
    """WMD by a plain double loop over ``ot.emd2``: the reference."""
    import ot

    table = {w: np.asarray(vectors.vectors[r], dtype=np.float64) for w, r in vectors.vocab.items()}
    docs = []
    for d in range(bow.shape[0]):
        row = bow.getrow(d)
        words = [vocab[c] for c in row.indices if vocab[c] not in stop_words]
        counts = np.array([row[0, c] for c in row.indices if vocab[c] not in stop_words], float)
        docs.append((np.array([table[w] for w in words]), counts / counts.sum()))
    n = len(docs)
    D = np.zeros((n, n))
    for a in range(n):
        for b in range(n):
            M = ot.dist(docs[a][0], docs[b][0], metric="euclidean")
            D[a, b] = ot.emd2(docs[a][1], docs[b][1], M)
    return D


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_wmd_oracle_agrees_with_direct_emd2_loop(glove_docs, n_jobs):
    bow, vocab, vectors = glove_docs
    stop = {"the", "in", "a", "to"}
    gamma = 0.7
    oracle = WMDOracle.from_bow(bow, vocab, vectors, gamma, stop_words=stop, n_jobs=n_jobs,
                                chunk_size=4)
    K = full_matrix(oracle)
    D = direct_wmd(bow, vocab, vectors, stop)
    np.testing.assert_allclose(K, np.exp(-gamma * D), rtol=1e-6, atol=1e-9)
    assert oracle.evaluations == 6 * 7 // 2
    np.testing.assert_allclose(np.diag(K), 1.0)


def test_wmd_oracle_from_aligned_vectors_and_word_indices(glove_docs):
    bow, vocab, vectors = glove_docs
    aligned = np.asarray(vectors.vectors)[[vectors.vocab[w] for w in vocab]]
    by_bow = WMDOracle.from_bow(bow, vocab, aligned, 1.0)
    csr = sp.csr_matrix(bow)
    docs = [(csr.indices[csr.indptr[d]:csr.indptr[d + 1]],
             csr.data[csr.indptr[d]:csr.indptr[d + 1]]) for d in range(csr.shape[0])]
    by_docs = WMDOracle(docs, aligned, 1.0)
    everything = np.arange(6)
    np.testing.assert_allclose(by_bow(everything, everything), by_docs(everything, everything))


def test_wmd_refuses_documents_without_in_vocabulary_words(glove_docs):
    bow, vocab, vectors = glove_docs
    stop = set(DOCS[3].split())  # removes every word of document 3
    with pytest.raises(ValueError, match=r"1 of 6 documents have no in-vocabulary word, first "
                                         r"document 3 \('a man speaks loudly'\)"):
        WMDOracle.from_bow(bow, vocab, vectors, 1.0, stop_words=stop, texts=DOCS)
    counts = in_vocabulary_counts(bow, vocab, vectors, stop_words=stop)
    assert counts[3] == 0 and (np.delete(counts, 3) > 0).all()
    with pytest.raises(ValueError, match=r"`docs`: 2 of 3 documents have no in-vocabulary word"):
        WMDOracle([([], []), ([0], [1.0]), ([1], [0.0])], np.eye(3), 1.0)


def test_wmd_validates_gamma_and_indices():
    with pytest.raises(ValueError, match="`gamma` must be a finite number > 0, got -1"):
        WMDOracle([([0], [1.0])], np.eye(2), -1)
    with pytest.raises(ValueError, match=r"`docs\[0\]` has a word index outside \[0, 2\)"):
        WMDOracle([([5], [1.0])], np.eye(2), 1.0)


# -- pairwise MLP --------------------------------------------------------------------------
def test_sample_label_pairs():
    y = np.repeat(np.arange(4), 25)
    i, j, same = sample_label_pairs(y, 1000, positive_fraction=0.3, random_state=0)
    assert same.sum() == 300
    assert (i != j).all()
    np.testing.assert_array_equal(same, y[i] == y[j])


@pytest.fixture(scope="module")
def digits_mlp():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    model = PairwiseMLP(hidden_layer_sizes=(32,), n_pairs=4000, max_iter=60, random_state=0)
    return model.fit(X[:800], y[:800]), X[800:1000], y[800:1000]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_pairwise_mlp_separates_same_label_pairs(digits_mlp):
    from sklearn.metrics import roc_auc_score

    model, X, y = digits_mlp
    i, j, same = sample_label_pairs(y, 2000, random_state=1)
    assert roc_auc_score(same, model.predict_proba_pairs(X[i], X[j])) > 0.9
    # our forward pass is scikit-learn's
    features = np.hstack([X[i], X[j], X[i] * X[j]])
    np.testing.assert_allclose(model.predict_proba_pairs(X[i], X[j]),
                               model.mlp_.predict_proba(features)[:, 1], rtol=1e-10)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_pairwise_mlp_oracle_is_symmetrised(digits_mlp):
    model, X, _ = digits_mlp
    oracle = PairwiseMLPOracle(X[:30], model, n_jobs=2, chunk_size=64)
    K = full_matrix(oracle)
    rows, cols = np.triu_indices(30)
    raw = model.predict_proba_pairs(X[rows], X[cols])
    raw_t = model.predict_proba_pairs(X[cols], X[rows])
    assert np.abs(raw - raw_t).max() > 1e-6  # the network itself is asymmetric
    np.testing.assert_allclose(K[rows, cols], (raw + raw_t) / 2, rtol=1e-12)
    np.testing.assert_array_equal(K, K.T)
    logit = PairwiseMLPOracle(X[:30], model, score="logit")
    np.testing.assert_allclose(logit([0], [1])[0, 0],
                               (model.decision_pairs(X[[0]], X[[1]])
                                + model.decision_pairs(X[[1]], X[[0]]))[0] / 2)


def test_pairwise_mlp_validates():
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="`positive_fraction` must be in"):
        PairwiseMLP(positive_fraction=1.5).fit(X, np.arange(20) % 2)
    with pytest.raises(ValueError, match="no label shared by two items"):
        PairwiseMLP(n_pairs=10).fit(X, np.arange(20))


@parametrize_with_checks([PairwiseMLP(hidden_layer_sizes=(4,), n_pairs=40, max_iter=5,
                                      random_state=0)])
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_pairwise_mlp_passes_sklearn_checks(estimator, check):
    # No expected failures: PairwiseMLP has fit only (its predictions take pairs), so
    # scikit-learn runs the generic estimator checks.
    check(estimator)
