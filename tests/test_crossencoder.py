"""CrossEncoderOracle with a tiny randomly initialised model built offline."""

import numpy as np
import pytest

from fixtures.requirements import require_modules

transformers, torch = require_modules("transformers", "torch")

SENTENCES = ["a cat sat on the mat", "the dog sat", "a dog and a cat", "the mat is red",
             "red cat"]


def tiny_model_dir(tmp_path, num_labels, extra_words=()):
    """Write a 1-layer BERT sequence classifier and a word-level vocabulary to ``tmp_path``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    words = sorted({w for s in SENTENCES for w in s.split()} | set(extra_words))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words
    (tmp_path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    # positional: transformers 4 names it vocab_file, 5 names it vocab (and ignores vocab_file)
    tokenizer = transformers.BertTokenizer(str(tmp_path / "vocab.txt"))
    assert "[UNK]" not in tokenizer.tokenize(SENTENCES[0])
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1,
                                     num_attention_heads=2, intermediate_size=32,
                                     max_position_embeddings=64, num_labels=num_labels,
                                     initializer_range=0.5)
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(config).eval()
    model.save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)
    return tmp_path, model, tokenizer


def model_scores(model, tokenizer, pairs, softmax):
    batch = tokenizer([SENTENCES[a] for a, _ in pairs], [SENTENCES[b] for _, b in pairs],
                      padding=True, return_tensors="pt")
    with torch.no_grad():
        logits = model(**batch).logits.double()
    out = torch.softmax(logits, -1) if softmax else logits
    return out[:, -1].numpy()


@pytest.mark.parametrize("num_labels", [1, 2])
def test_crossencoder_oracle_scores_and_symmetrises(tmp_path, num_labels):
    from lowdim.similarity import CrossEncoderOracle, full_matrix

    path, model, tokenizer = tiny_model_dir(tmp_path, num_labels)
    oracle = CrossEncoderOracle(SENTENCES, str(path), batch_size=4)
    assert oracle.score == ("logit" if num_labels == 1 else "probability")
    K = full_matrix(oracle)
    assert oracle.evaluations == 5 * 6 // 2
    pairs = [(a, b) for a in range(5) for b in range(5)]
    forward = model_scores(model, tokenizer, pairs, softmax=num_labels > 1).reshape(5, 5)
    assert np.abs(forward - forward.T).max() > 1e-3  # the model is asymmetric
    np.testing.assert_allclose(K, (forward + forward.T) / 2, rtol=1e-5, atol=1e-6)

    raw = CrossEncoderOracle(SENTENCES, str(path), symmetrize=False)
    assert not raw.symmetric
    np.testing.assert_allclose(raw(np.arange(5), np.arange(5)), forward, rtol=1e-5, atol=1e-6)


def test_crossencoder_oracle_validates(tmp_path):
    from lowdim.similarity import CrossEncoderOracle

    path, _, _ = tiny_model_dir(tmp_path, 2)
    with pytest.raises(ValueError, match="`sentences`: 1 empty sentences, first at index 1"):
        CrossEncoderOracle(["a cat", "  "], str(path))
    with pytest.raises(ValueError, match=r"`label_index` must be in \[-2, 2\)"):
        CrossEncoderOracle(SENTENCES, str(path), label_index=2)


def test_probability_of_a_one_output_model_is_the_sigmoid_of_its_logit(tmp_path):
    # A softmax over a single logit is 1 for every pair; a one-output head scores with
    # sigmoid(logit), as sentence-transformers' CrossEncoder does for num_labels == 1.
    from lowdim.similarity import CrossEncoderOracle

    path, model, tokenizer = tiny_model_dir(tmp_path, 1)
    pairs = [(a, b) for a in range(5) for b in range(5)]
    logits = model_scores(model, tokenizer, pairs, softmax=False).reshape(5, 5)
    for label_index in (-1, 0):  # both name the one output
        oracle = CrossEncoderOracle(SENTENCES, str(path), score="probability",
                                    label_index=label_index, symmetrize=False)
        np.testing.assert_allclose(oracle(np.arange(5), np.arange(5)), 1 / (1 + np.exp(-logits)),
                                   rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match=r"`label_index` must be in \[-1, 1\) for a model with "
                                         r"1 output, got 1"):
        CrossEncoderOracle(SENTENCES, str(path), score="probability", label_index=1)


def test_crossencoder_matrix_of_glue_dev_sentences(tmp_path):
    from fixtures import formats

    from lowdim.data import get_spec
    from lowdim.similarity.matrices import build_matrix

    files, truth = formats.write_stsb(tmp_path, np.random.default_rng(0))
    data = get_spec("stsb").prepare(files)
    words = sorted({w for a, b, _ in truth["dev"] for w in (a + " " + b).lower().split()})
    path, _, _ = tiny_model_dir(tmp_path / "model", 1, extra_words=words)
    spec = {"kind": "crossencoder", "split": "dev", "crossencoder": {"model": str(path)}}
    K, items, info = build_matrix(spec, data, seed=0)
    both = np.concatenate([data.extra["sentence_a"], data.extra["sentence_b"]])
    expected = sorted({s for a, b, _ in truth["dev"] for s in (a, b)})
    assert sorted(both[items].tolist()) == expected
    assert K.shape == (len(expected),) * 2 and np.all(np.isfinite(K))


def test_tiny_crossencoder_built_from_a_config_tokenises_any_text(tmp_path):
    from lowdim.similarity import CrossEncoderOracle, full_matrix
    from lowdim.similarity.tiny_crossencoder import build_tiny_crossencoder

    sentences = ['A man is playing a "guitar.', "Café prices rose 5%.", "It isn't raining"]
    first = build_tiny_crossencoder(tmp_path / "a", num_labels=2, seed=3)
    again = build_tiny_crossencoder(tmp_path / "b", num_labels=2, seed=3)
    other = build_tiny_crossencoder(tmp_path / "c", num_labels=2, seed=4)
    oracle = CrossEncoderOracle(sentences, str(first))
    tokens = [t for s in sentences for t in oracle.tokenizer_.tokenize(s)]
    assert "[UNK]" not in tokens and len(tokens) > sum(len(s.split()) for s in sentences)
    K = full_matrix(oracle)
    assert K.shape == (3, 3) and np.all((K > 0) & (K < 1))  # class probabilities
    np.testing.assert_array_equal(K, full_matrix(CrossEncoderOracle(sentences, str(again))))
    assert np.abs(K - full_matrix(CrossEncoderOracle(sentences, str(other)))).max() > 1e-3
    with pytest.raises(ValueError, match="`hidden_size` must be a multiple"):
        build_tiny_crossencoder(tmp_path / "d", hidden_size=30, num_attention_heads=4)


def test_a_torchvision_that_does_not_import_is_named_with_the_fix(tmp_path):
    # pymde (the `bench` extra) brings a torchvision; beside another torch build it fails at
    # import with RuntimeError, and transformers then reports only "Could not import module
    # 'BertModel'". A fake torchvision that fails the same way stands in for it.
    import os
    import subprocess
    import sys

    fake = tmp_path / "torchvision"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        "raise RuntimeError('operator torchvision::nms does not exist')\n")
    code = ("from lowdim.tasks.encoders import transformer_embeddings\n"
            "transformer_embeddings(['a cat'], 'unused')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: torchvision is installed but does not import beside "
                           f"torch {torch.__version__}")
    assert "operator torchvision::nms does not exist" in last
    assert "pip uninstall torchvision" in last
