"""Coreference-style clustering: topics, average linkage on 1 - K, threshold tuning, the table."""

import numpy as np
import pandas as pd
import pytest
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from fixtures.requirements import require_modules
from lowdim.data import Dataset
from lowdim.tables.sms_tasks import coreference_table
from lowdim.tasks.coreference import (average_linkage, cluster_topics, coreference_method,
                                      load_topics, make_topics, save_topics, topic_matrices)


def block_topic(name, split, sizes, within=0.9, between=0.1, noise=0.02, seed=0):
    """A topic whose similarity is high inside gold clusters and low across them."""
    rng = np.random.default_rng(seed)
    gold = np.repeat(np.arange(len(sizes)), sizes)
    K = np.where(gold[:, None] == gold[None, :], within, between)
    E = rng.normal(scale=noise, size=K.shape)
    K = K + (E + E.T) / 2
    return {"topic": name, "split": split, "K": K, "gold": gold, "items": np.arange(gold.size)}


def test_exact_clustering_recovers_separated_clusters_with_a_tuned_threshold():
    topics = [block_topic("t0", "tune", [5, 3, 8, 4], seed=0),
              block_topic("t1", "test", [6, 2, 7, 5], seed=1),
              block_topic("t2", "test", [4, 9, 3], seed=2)]
    rows = coreference_method(topics, "exact", thresholds=[0.05, 0.5, 0.95])
    pooled = rows[rows["topic"] == "pooled"].iloc[0]
    assert pooled["threshold"] == 0.5  # 0.05 splits clusters, 0.95 merges them
    assert pooled["conll_f1"] == pytest.approx(1.0) and pooled["tune_conll_f1"] == pytest.approx(1.0)
    assert pooled["n_items"] == 20 + 16 and pooled["evaluations"] == pooled["full_evaluations"]
    assert sorted(rows["topic"]) == ["pooled", "t1", "t2"]


def rank_three_topics():
    """Two tuning and two test topics of three noiseless blocks: K is PSD of rank 3."""
    rng = np.random.default_rng(3)
    return [block_topic(f"t{k}", "tune" if k < 2 else "test", list(rng.integers(20, 31, size=3)),
                        noise=0.0, seed=k) for k in range(4)]


@pytest.mark.parametrize("method", ["nystrom", "sms_nystrom", "sms_nystrom_rescale", "sicur",
                                    "stacur", "stacur_independent"])
def test_approximations_are_what_is_clustered_and_are_charged_their_samples(method):
    topics = rank_three_topics()
    exact = coreference_method(topics, "exact", thresholds=[0.05, 0.5, 0.95])
    rows = coreference_method(topics, method, fractions=[0.02, 0.4], n_runs=3, seed=0,
                              thresholds=[0.05, 0.5, 0.95])
    pooled = rows[rows["topic"] == "pooled"]
    assert len(pooled) == 6 and exact[exact["topic"] == "pooled"]["conll_f1"].item() == 1.0
    # Two landmarks cannot represent three clusters: the approximation, not K, is clustered.
    assert (pooled.loc[pooled["fraction"] == 0.02, "conll_f1"] < 0.8).all()
    half = pooled[pooled["fraction"] == 0.4]
    if method not in ("stacur", "stacur_independent"):
        # Every cluster is sampled, so Nystrom, SMS-Nystrom (shift ~ 0, rescale factor ~ 1) and
        # SiCUR reproduce the rank-3 matrix and its clustering exactly.
        assert (half["conll_f1"] == 1.0).all()
    # Evaluations: each test topic's sampled blocks, counted once per pair.
    sizes = [t["K"].shape[0] for t in topics if t["split"] == "test"]
    for fraction, runs in pooled.groupby("fraction"):
        counts = [n * s - s * (s - 1) // 2 for n, s in ((n, max(2, round(fraction * n)))
                                                         for n in sizes)]
        if method.startswith("sms_nystrom"):  # plus K[S2 \ S1, S2 \ S1], |S2| = 2 s
            counts = [c + s * (s + 1) // 2 for c, s in zip(counts, (max(2, round(fraction * n))
                                                                    for n in sizes))]
        if method == "stacur_independent":  # K[:, J] and K[I, :] overlap on |I ∩ J| rows
            assert (runs["evaluations"] > sum(counts)).all()
            assert (runs["evaluations"] <= 2 * sum(counts)).all()
        else:
            assert (runs["evaluations"] == sum(counts)).all()
    assert (pooled["evaluations"] < pooled["full_evaluations"]).all()
    assert (pooled["unsampled_topics"] == 0).all()
    again = coreference_method(topics, method, fractions=[0.02, 0.4], n_runs=3, seed=0,
                               thresholds=[0.05, 0.5, 0.95])
    pd.testing.assert_frame_equal(rows, again)


def test_a_topic_too_small_to_sample_is_used_exactly():
    topics = [block_topic("t0", "tune", [3, 3]), block_topic("t1", "test", [1, 1], seed=1)]
    rows = coreference_method(topics, "sms_nystrom", fractions=[0.5])
    assert rows[rows["topic"] == "pooled"].iloc[0]["unsampled_topics"] == 1


def test_average_linkage_with_negative_distances_matches_the_shifted_tree():
    # Similarities above 1 give negative distances; shifting them keeps the tree.
    rng = np.random.default_rng(4)
    X = rng.normal(size=(12, 3))
    K = X @ X.T / 2.0
    Z, offset = average_linkage(K)
    assert offset > 0
    D = 1.0 - K
    np.fill_diagonal(D, 0.0)
    for t in (-0.5, 0.0, 0.4):
        labels = cluster_topics([(Z, offset, 12)], t)[0]
        # Reference: merge while average distance <= t, by brute force on the same tree.
        ref = fcluster(linkage(squareform(D + offset, checks=False), "average"), t + offset,
                       "distance")
        np.testing.assert_array_equal(labels, ref)


def test_pseudo_topics_of_a_dataset_without_topics():
    rng = np.random.default_rng(5)
    data = Dataset(name="blobs", kind="dense", X=rng.normal(size=(100, 3)),
                   y=np.repeat(np.arange(4), 25))
    train, topics = make_topics(data, train_items=40, topic_size=15, tune_topics=1,
                                test_topics=3, seed=0)
    used = np.concatenate([train] + [t["items"] for t in topics])
    assert train.size == 40 and len(used) == len(set(used.tolist())) == 40 + 4 * 15
    assert [t["split"] for t in topics] == ["tune", "test", "test", "test"]
    with pytest.raises(ValueError, match="exceeds the 100 usable items"):
        make_topics(data, train_items=90, topic_size=15)


def test_mention_topics_follow_the_topic_splits():
    split = np.array(["train"] * 4 + ["dev"] * 3 + ["test"] * 5)
    topic = np.array([1, 1, 3, 3, 2, 2, 2, 36, 36, 37, 37, 37])
    data = Dataset(name="ecbplus", kind="mentions", texts=np.array(["m"] * 12),
                   y=np.arange(12) % 3, extra={"split": split, "topic": topic})
    usable = np.ones(12, dtype=bool)
    usable[8] = False
    train, topics = make_topics(data, usable)
    np.testing.assert_array_equal(train, [0, 1, 2, 3])
    assert [(t["topic"], t["split"], t["items"].tolist()) for t in topics] == [
        ("2", "tune", [4, 5, 6]), ("36", "test", [7]), ("37", "test", [9, 10, 11])]


def test_topic_matrices_train_the_mlp_and_round_trip(tmp_path):
    rng = np.random.default_rng(6)
    centres = rng.normal(scale=4, size=(3, 5))
    y = np.repeat(np.arange(3), 40)
    X = centres[y] + rng.normal(size=(120, 5))
    data = Dataset(name="blobs", kind="dense", X=X, y=y)
    train, topics = make_topics(data, train_items=60, topic_size=20, tune_topics=1,
                                test_topics=2, seed=0)
    topics, info = topic_matrices(X, y, train, topics, {"hidden_layer_sizes": [8],
                                                        "n_pairs": 500, "max_iter": 30}, seed=0)
    assert info["evaluations"] == 3 * 20 * 21 // 2
    for topic in topics:
        K = topic["K"]
        np.testing.assert_allclose(K, K.T)
        same = topic["gold"][:, None] == topic["gold"][None, :]
        assert K[same].mean() > K[~same].mean() + 0.3  # the MLP separates the blobs
    save_topics(tmp_path / "t.npz", topics, info)
    loaded, info2 = load_topics(tmp_path / "t.npz")
    assert info2 == info and [t["topic"] for t in loaded] == [t["topic"] for t in topics]
    np.testing.assert_array_equal(loaded[1]["K"], topics[1]["K"])


def test_table_puts_published_numbers_beside_ours():
    rows = []
    for method, fraction, values in (("exact", 1.0, [0.40]), ("nystrom", 0.1, [0.30, 0.32])):
        for run, v in enumerate(values):
            rows.append({"corpus": "ecbplus", "method": method, "fraction": fraction,
                         "run": run, "topic": "pooled", "conll_f1": v, "muc_f1": v,
                         "b3_f1": v, "ceafe_f1": v, "threshold": 0.4, "evaluations": 10,
                         "full_evaluations": 100 if method != "exact" else 10})
    published = pd.DataFrame([{"corpus": "ecbplus", "method": "exact", "fraction": 1.0,
                               "published": 38.75},
                              {"corpus": "ecbplus", "method": "nystrom", "fraction": 0.1,
                               "published": 29.96}])
    table = coreference_table(pd.DataFrame(rows), published)
    assert table["published CoNLL F1 (%)"].tolist() == [38.75, 29.96]
    assert table["CoNLL F1 (%)"].tolist() == ["40.00", "31.00 ± 1.41"]
    assert table["evaluations (% of exact)"].tolist() == [100.0, 10.0]


def test_transformer_mention_embeddings(tmp_path):
    transformers, torch = require_modules("transformers", "torch")
    from lowdim.tasks.encoders import mention_embeddings

    words = ["the", "cat", "sat", "dog", "ran"]
    (tmp_path / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]",
                                                   "[MASK]"] + words) + "\n")
    config = transformers.BertConfig(vocab_size=10, hidden_size=8, num_hidden_layers=1,
                                     num_attention_heads=2, intermediate_size=16,
                                     max_position_embeddings=32)
    torch.manual_seed(0)
    transformers.BertModel(config).save_pretrained(tmp_path)
    transformers.BertTokenizer(vocab_file=str(tmp_path / "vocab.txt")).save_pretrained(tmp_path)
    data = Dataset(name="m", kind="mentions", texts=np.array(["cat", "dog", "cat"]),
                   y=np.array([0, 1, 0]),
                   extra={"sentence": np.array(["the cat sat", "the dog ran", "the cat sat"])})
    X, usable = mention_embeddings(data, "transformer", str(tmp_path), batch_size=2)
    assert X.shape == (3, 16) and usable.all()
    np.testing.assert_allclose(X[0], X[2], atol=1e-6)  # same mention, same sentence (padding differs)
    np.testing.assert_allclose(np.linalg.norm(X[:, :8], axis=1), 1.0)
    with pytest.raises(ValueError, match="`model` must name a transformer"):
        mention_embeddings(data, "transformer")
