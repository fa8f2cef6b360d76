"""WMD document classification: the whole pipeline on a separable toy corpus, splits, caps, table."""

import numpy as np
import pandas as pd
import pytest
import scipy.linalg
import scipy.sparse as sp

from lowdim.data import Dataset
from lowdim.similarity import WMDOracle, full_matrix
from lowdim.tables.sms_tasks import wmd_classification_table
from lowdim.tasks.wmd_classification import (CLASSIFICATION_METHODS, approx_features,
                                             best_rank_rows, classify_documents, corpus_splits,
                                             corpus_wme_similarities, document_splits,
                                             kernel_power, rank_schedule)

GAMMA0 = 0.1


def toy_corpus(n_per_class=20, n_classes=3, seed=0):
    """Documents of 3-6 words drawn from their class's 8 words; classes far apart in R^4."""
    rng = np.random.default_rng(seed)
    words_per_class, dim = 8, 4
    centres = rng.normal(scale=6.0, size=(n_classes, dim))
    vectors = np.vstack([c + rng.normal(scale=0.5, size=(words_per_class, dim)) for c in centres])
    vocab = np.array([f"w{k}" for k in range(n_classes * words_per_class)])
    y = np.repeat(np.arange(n_classes), n_per_class)
    bow = np.zeros((y.size, vocab.size))
    for d, label in enumerate(y):
        words = rng.choice(words_per_class, size=rng.integers(3, 7)) + label * words_per_class
        np.add.at(bow[d], words, 1)
    return Dataset(name="toy", kind="text", bow=sp.csr_matrix(bow), vocab=vocab,
                   word_vectors=vectors.astype(np.float32), y=y)


@pytest.fixture(scope="module")
def corpus():
    data = toy_corpus()
    oracle = WMDOracle.from_bow(data.bow, data.vocab, data.word_vectors, gamma=GAMMA0)
    K = full_matrix(oracle)
    items = np.arange(data.n)
    S, _ = corpus_wme_similarities(data, items, None, n_random=16, d_max=3, seed=0)
    y, splits, info = corpus_splits(data, items, n_splits=2, test_fraction=0.3, seed=0)
    return {"data": data, "K": K, "y": y, "splits": splits, "wme": {3: S}, "info": info}


@pytest.mark.parametrize("method", CLASSIFICATION_METHODS)
def test_pipeline_classifies_a_separable_corpus_without_error(corpus, method):
    # The classes are far apart: the exact kernel classifies every test document, and so must
    # every method at every rank (a misaligned test feature or a wrong map drops to chance).
    rows = classify_documents(method, corpus["K"], corpus["y"], corpus["splits"], gamma0=GAMMA0,
                              gammas=[0.1, 1.0], ranks=[4, 8, 16], C_grid=[1.0, 10.0],
                              n_folds=3, seed=0, wme=corpus["wme"])
    best = best_rank_rows(rows, 16)
    assert len(best) == 2  # one choice per split
    assert rows["test_accuracy"].min() == 1.0
    assert set(rows["split"]) == {0, 1} and (rows["cost_fraction"] > 0).all()


def _positive_part(M):
    w, V = np.linalg.eigh((M + M.T) / 2)
    return (V * np.maximum(w, 0)) @ V.T


@pytest.mark.parametrize("method, sicur_features", [("nystrom", "authors"),
                                                    ("sms_nystrom", "authors"),
                                                    ("sicur", "authors"),
                                                    ("sicur", "symmetric"),
                                                    ("stacur", "authors")],
                         ids=["nystrom", "sms_nystrom", "sicur-authors", "sicur-symmetric",
                              "stacur"])
def test_svm_features_are_the_maps_of_the_paper_and_their_counts(corpus, method, sicur_features):
    """Each method's training and test features against a direct computation from K."""
    # gamma = 10 keeps K[:, J]^T K[:, J] well conditioned, so StaCUR's pseudo-inverse is stable
    K = kernel_power(corpus["K"], 10.0, GAMMA0)
    train, test = corpus["splits"][0]
    K_tr, K_te = K[np.ix_(train, train)], K[np.ix_(test, train)]
    n_tr, n_te, s = train.size, test.size, 8
    Z_tr, Z_te, evaluations = approx_features(method, K_tr, K_te, s, seed=5,
                                              sicur_features=sicur_features)
    from lowdim.approx import METHODS

    approx = METHODS[method](K_tr, s, random_state=5)  # the same landmarks (same seed)
    S, rows = approx.landmarks, approx.info.get("rows")
    if method in ("nystrom", "sms_nystrom"):
        core = np.linalg.pinv(K_tr[np.ix_(S, S)] - approx.info["shift"] * np.eye(s))
        expected_tr = K_tr[:, S] @ core @ K_tr[S, :]
        expected_te = K_te[:, S] @ core @ K_tr[S, :]  # the Nystrom extension to test documents
        read, m = (S, s)
    elif method == "sicur" and sicur_features == "authors":
        W = K_tr[np.ix_(rows, S)]  # K[:, C] (K[R, C]^T K[R, C])^{-1/2} K[C, :]
        middle = np.linalg.inv(np.real(scipy.linalg.sqrtm(W.T @ W)))
        expected_tr = K_tr[:, S] @ middle @ K_tr[S, :]
        expected_te = K_te[:, S] @ middle @ K_tr[S, :]
        read, m = (S, s // 2)
    else:  # the positive part of the symmetric part of K~, rows R (SiCUR) or I = J (StaCUR)
        if method == "sicur":
            K_tilde = K_tr[:, S] @ np.linalg.pinv(K_tr[np.ix_(rows, S)]) @ K_tr[rows, :]
        else:
            np.testing.assert_array_equal(rows, S)
            C = K_tr[:, S]
            K_tilde = (n_tr / s) * C @ np.linalg.pinv(C.T @ C) @ K_tr[np.ix_(S, S)] @ K_tr[S, :]
        expected_tr, expected_te = _positive_part(K_tilde), None
        read, m = (rows, s)
    scale = np.abs(expected_tr).max()
    np.testing.assert_allclose(Z_tr @ Z_tr.T, expected_tr, atol=1e-8 * scale)
    if expected_te is not None:
        np.testing.assert_allclose(Z_te @ Z_tr.T, expected_te, atol=1e-8 * scale)
    assert Z_tr.shape[1] <= m and Z_te.shape == (n_te, Z_tr.shape[1])
    # Training: K[:, read] once per pair (SMS-Nystrom adds the rest of K[S2, S2]); test: m each.
    extra = (s * (s + 1) // 2) if method == "sms_nystrom" else 0
    assert read.size == m
    assert evaluations == n_tr * m - m * (m - 1) // 2 + extra + n_te * m


def test_sicur_features_in_the_table_rows(corpus):
    rows = {f: classify_documents("sicur", corpus["K"], corpus["y"], corpus["splits"][:1],
                                  gamma0=GAMMA0, gammas=[1.0], ranks=[8], C_grid=[1.0],
                                  n_folds=2, seed=0, sicur_features=f)
            for f in ("authors", "symmetric")}
    assert rows["authors"]["n_features"].tolist() == [4]  # s / 2, the authors' get_feat
    assert (rows["authors"]["evaluations"] < rows["symmetric"]["evaluations"]).all()
    with pytest.raises(ValueError, match="`sicur_features` must be one of"):
        classify_documents("sicur", corpus["K"], corpus["y"], corpus["splits"][:1],
                           gamma0=GAMMA0, gammas=[1.0], ranks=[8], sicur_features="both")


def test_sampling_methods_cost_a_fraction_of_the_exact_kernel(corpus):
    rows = classify_documents("sms_nystrom", corpus["K"], corpus["y"], corpus["splits"],
                              gamma0=GAMMA0, gammas=[1.0], ranks=[4], C_grid=[1.0], n_folds=2,
                              seed=0)
    n_train, n_test = int(rows["n_train"][0]), int(rows["n_test"][0])
    full = n_train * (n_train + 1) // 2 + n_test * n_train
    # K[:, S1] for the training docs (n_tr * 4 - 6 distinct), the S2 block (4 * 5 / 2 more)
    # and 4 similarities per test document.
    expected = n_train * 4 - 4 * 3 // 2 + 4 * 5 // 2 + n_test * 4
    assert (rows["evaluations"] == expected).all()
    np.testing.assert_allclose(rows["cost_fraction"], expected / full)


def test_a_rank_above_the_training_set_is_capped_and_the_cap_recorded(corpus):
    n_train = corpus["splits"][0][0].size  # 42
    rows = classify_documents("sms_nystrom", corpus["K"], corpus["y"], corpus["splits"][:1],
                              gamma0=GAMMA0, gammas=[1.0], ranks=[8, 4096], C_grid=[1.0],
                              n_folds=2, seed=0)
    capped = rows[rows["rank_requested"] == 4096].iloc[0]
    assert capped["rank"] == n_train // 2 and f"n_train = {n_train}" in capped["capped_by"]
    optimal = classify_documents("optimal", corpus["K"], corpus["y"], corpus["splits"][:1],
                                 gamma0=GAMMA0, gammas=[1.0], ranks=[4096], C_grid=[1.0],
                                 n_folds=2, seed=0)
    assert optimal["rank"].tolist() == [n_train]
    assert optimal["capped_by"].tolist() == [f"n_train = {n_train}"]


def test_rank_schedule_caps_each_method_and_drops_duplicates():
    assert [e["rank"] for e in rank_schedule("nystrom", [8, 100, 200], 50)] == [8, 49]
    sms = rank_schedule("sms_nystrom", [8, 30], 50, multiplier=2)
    assert [(e["rank_requested"], e["rank"]) for e in sms] == [(8, 8), (30, 25)]
    assert sms[1]["capped_by"] == "2 s <= n_train = 50"
    assert [e["rank"] for e in rank_schedule("wme", [8, 64], 100, n_random=32)] == [8, 32]
    assert [e["rank"] for e in rank_schedule("optimal", [64], 50)] == [50]


def test_a_class_with_a_single_document_in_a_split_is_a_clear_error(corpus):
    y = corpus["y"].copy()
    train, test = corpus["splits"][0]
    lonely = train[y[train] == 2]
    y[lonely[1:]] = 1  # class 2 keeps one training document
    with pytest.raises(ValueError, match="training part of split 0: class 2 has a single "
                                         "document"):
        classify_documents("nystrom", corpus["K"], y, [(train, test)], gamma0=GAMMA0,
                           gammas=[1.0], ranks=[4], seed=0)
    with pytest.raises(ValueError, match="class 5 has a single document"):
        document_splits(np.array([0, 0, 1, 1, 5]), n_splits=2)


def test_given_splits_are_mapped_onto_the_kernel_documents():
    data = toy_corpus(n_per_class=4)
    data.train_idx = np.array([[0, 1, 2, 4, 5, 6, 8, 9]])
    data.test_idx = np.array([[3, 7, 10, 11]])
    items = np.array([0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11])  # document 8 has no kernel row
    y, splits, info = corpus_splits(data, items)
    assert info == {"given_splits": True, "left_out": 1}
    train, test = splits[0]
    np.testing.assert_array_equal(items[train], [0, 1, 2, 4, 5, 6, 9])
    np.testing.assert_array_equal(items[test], [3, 7, 10, 11])
    np.testing.assert_array_equal(y, data.y[items])


def test_random_splits_are_stratified_and_seeded():
    y = np.repeat([0, 1, 2], 20)
    a = document_splits(y, n_splits=3, test_fraction=0.3, seed=1)
    b = document_splits(y, n_splits=3, test_fraction=0.3, seed=1)
    for (tr, te), (tr2, te2) in zip(a, b):
        np.testing.assert_array_equal(tr, tr2)
        assert np.bincount(y[te]).tolist() == [6, 6, 6]
        assert not set(tr) & set(te)


def test_kernel_power_changes_the_width_and_refuses_underflow():
    D = np.array([[0.0, 2.0], [2.0, 0.0]])
    np.testing.assert_allclose(kernel_power(np.exp(-0.1 * D), 0.7, 0.1), np.exp(-0.7 * D))
    with pytest.raises(ValueError, match="entries <= 0"):
        kernel_power(np.zeros((2, 2)), 1.0, 0.1)


def test_table_ranks_are_chosen_by_cross_validation_not_by_test_accuracy():
    rows = []
    for split in range(2):
        # rank 8: better CV, worse test; rank 16: worse CV, better test.
        rows += [{"corpus": "c", "method": "nystrom", "split": split, "rank_requested": r,
                  "rank": r, "capped_by": "", "cv_accuracy": cv, "test_accuracy": test,
                  "cost_fraction": r / 100}
                 for r, cv, test in ((8, 0.9, 0.5), (16, 0.8, 0.95), (600, 0.95, 0.6))]
    rows += [{"corpus": "c", "method": "wmd_kernel", "split": s, "rank_requested": 50,
              "rank": 50, "capped_by": "", "cv_accuracy": 0.9, "test_accuracy": 0.7,
              "cost_fraction": 1.0} for s in range(2)]
    table = wmd_classification_table(pd.DataFrame(rows), small_rank_max=550,
                                     large_rank_max=4096)
    nys = table[table["method"] == "Nyström"].iloc[0]
    assert nys["small rank"] == "8" and nys["small rank (≤ 550) accuracy (%)"] == "50.00 ± 0.00"
    assert nys["large rank"] == "600"
    assert table[table["method"] == "WMD-kernel"].iloc[0]["large rank"] == "full"
