"""GLUE pair predictions from an approximated matrix; the cross-encoder path on a tiny model."""

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from fixtures import formats
from fixtures.requirements import require_modules
from lowdim.data import get_spec
from lowdim.tables.sms_tasks import glue_table, not_run_table
from lowdim.tasks.glue import (glue_matrix, glue_scores, labelled_pairs, load_glue_matrix,
                               pair_metrics, save_glue_matrix)


def psd_low_rank(n=60, rank=4, seed=0):
    X = np.random.default_rng(seed).normal(size=(n, rank))
    return X @ X.T / rank


def test_pair_metrics_are_glues():
    gold = np.array([0.0, 1.0, 2.5, 4.0, 5.0])
    predicted = np.array([0.1, 0.9, 3.0, 3.5, 4.8])
    stsb = pair_metrics("stsb", predicted, gold)
    assert stsb["pearson"] == pytest.approx(scipy.stats.pearsonr(predicted, gold)[0])
    assert stsb["spearman"] == pytest.approx(1.0)
    labels = np.array([1, 1, 0, 0, 1])
    scores = np.array([0.9, 0.4, 0.2, 0.6, 0.7])  # predicted 1, 0, 0, 1, 1
    assert pair_metrics("mrpc", scores, labels) == {"f1": pytest.approx(2 * 2 / (2 * 2 + 1 + 1))}
    assert pair_metrics("rte", scores, labels, threshold=0.5) == {"accuracy": 0.6}
    with pytest.raises(ValueError, match="`task` must be one of"):
        pair_metrics("cola", scores, labels)


def test_scores_are_exact_where_the_approximation_is():
    # On a PSD matrix of rank 4, Nyström and SMS-Nyström with >= 4 landmarks reproduce every
    # entry: their predictions score like the exact matrix's.
    K = psd_low_rank()
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 60, size=80), rng.integers(0, 60, size=80)
    gold = K[a, b] + rng.normal(scale=0.1, size=80)
    rows = glue_scores(K, a, b, gold, "stsb", ["nystrom", "sms_nystrom", "sicur"], [0.2],
                       n_runs=2, seed=0)
    assert set(rows["metric"]) == {"pearson", "spearman"}
    exact = rows[rows["method"] == "exact"].set_index("metric")["value"]
    assert exact["pearson"] == pytest.approx(scipy.stats.pearsonr(K[a, b], gold)[0])
    for method in ("nystrom", "sms_nystrom"):
        mine = rows[(rows["method"] == method) & (rows["metric"] == "pearson")]
        np.testing.assert_allclose(mine["value"], exact["pearson"], atol=1e-3)
        assert (mine["evaluations"] < mine["full_evaluations"]).all()
    np.testing.assert_allclose(rows["exact"][rows["metric"] == "pearson"], exact["pearson"])
    table = glue_table(rows)
    assert set(table["method"]) == {"SMS-Nyström", "Nyström", "SiCUR"}
    assert (table["exact matrix (×100)"][table["metric"] == "pearson"]
            == round(100 * exact["pearson"], 2)).all()


def test_labelled_pairs_index_the_distinct_sentences(tmp_path):
    files, truth = formats.write_stsb(tmp_path, np.random.default_rng(0), n=6)
    dataset = get_spec("stsb").prepare(files, splits=["train", "dev", "test"])
    sentences, a, b, gold = labelled_pairs(dataset, "dev")
    assert [(sentences[i], sentences[j], g) for i, j, g in zip(a, b, gold)] == truth["dev"]
    assert len(set(sentences)) == len(sentences)
    with pytest.raises(ValueError, match="`split` 'test' of 'stsb' has no labelled pairs"):
        labelled_pairs(dataset, "test")
    subset = labelled_pairs(dataset, "train", n_pairs=3, seed=0)
    assert subset[1].size == 3


def test_not_run_table_says_why():
    table = not_run_table("the crossencoder extra is not installed")
    assert table.to_dict("records") == [{"status": "not run",
                                         "reason": "the crossencoder extra is not installed"}]


WRITERS = {"stsb": formats.write_stsb, "mrpc": formats.write_mrpc, "rte": formats.write_rte}


@pytest.mark.parametrize("task", ["stsb", "mrpc", "rte"])
def test_cross_encoder_code_path_on_a_tiny_random_model(tmp_path, task):
    transformers, torch = require_modules("transformers", "torch")
    files, _ = WRITERS[task](tmp_path, np.random.default_rng(3))
    dataset = get_spec(task).prepare(files, splits=["train", "dev"])
    sentences, a, b, gold = labelled_pairs(dataset, "train")
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    words = sorted({w for s in sentences for w in s.lower().split()})
    (model_dir / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
                                                   + words) + "\n")
    config = transformers.BertConfig(vocab_size=5 + len(words), hidden_size=16,
                                     num_hidden_layers=1, num_attention_heads=2,
                                     intermediate_size=32, max_position_embeddings=64,
                                     num_labels=1 if task == "stsb" else 2,
                                     initializer_range=0.5)
    torch.manual_seed(0)
    transformers.BertForSequenceClassification(config).save_pretrained(model_dir)
    transformers.BertTokenizer(vocab_file=str(model_dir / "vocab.txt")).save_pretrained(model_dir)

    K, info = glue_matrix(sentences, str(model_dir), batch_size=4)
    n = len(sentences)
    assert K.shape == (n, n) and info["evaluations"] == n * (n + 1) // 2
    np.testing.assert_allclose(K, K.T)
    save_glue_matrix(tmp_path / "m.npz", K, a, b, gold, info)
    K2, a2, b2, gold2, info2 = load_glue_matrix(tmp_path / "m.npz")
    np.testing.assert_array_equal(K2, K)
    assert info2["evaluations"] == info["evaluations"]
    rows = glue_scores(K2, a2, b2, gold2, task, ["sms_nystrom", "nystrom"], [0.4], n_runs=2)
    expected = {"stsb": {"pearson", "spearman"}, "mrpc": {"f1"}, "rte": {"accuracy"}}[task]
    assert set(rows["metric"]) == expected
    assert isinstance(glue_table(rows), pd.DataFrame) and len(glue_table(rows)) == 2 * len(expected)
