"""Kusner et al. WMD corpora: MATLAB v5 cell arrays written with scipy in the real layout."""

import numpy as np
import pytest

from fixtures import formats
from lowdim.data import get_spec, load_dataset, save_dataset
from lowdim.data.parsing import MissingVariableError
from lowdim.data.sources.kusner import KUSNER_CORPORA


@pytest.fixture
def rng():
    return np.random.default_rng(1)


def _bags(ds):
    """Documents as {word: count} recovered from bow and vocab."""
    out = []
    for i in range(ds.n):
        row = ds.bow.getrow(i)
        out.append({ds.vocab[j]: c for j, c in zip(row.indices, row.data)})
    return out


def _assert_vectors(ds, table):
    for k, word in enumerate(ds.vocab.tolist()):
        np.testing.assert_allclose(ds.word_vectors[k], table[word].astype(np.float32))


def test_all_eight_corpora_are_registered():
    assert set(KUSNER_CORPORA) == {"wmd_bbcsport", "wmd_twitter", "wmd_recipe", "wmd_classic",
                                   "wmd_amazon", "wmd_ohsumed", "wmd_r8", "wmd_20news"}
    for name, (filename, _, _) in KUSNER_CORPORA.items():
        assert [f.filename for f in get_spec(name).files] == [filename]


def test_split_format_recovers_documents_vectors_and_five_splits(tmp_path, rng):
    files, truth = formats.write_kusner_split(tmp_path, rng)
    ds = load_dataset(save_dataset(get_spec("wmd_bbcsport").prepare(files), tmp_path / "b.npz"))
    assert _bags(ds) == truth["bags"]
    _assert_vectors(ds, truth["table"])
    np.testing.assert_array_equal(ds.train_idx, truth["TR"])
    np.testing.assert_array_equal(ds.test_idx, truth["TE"])
    assert ds.train_idx.shape[0] == 5
    classes = np.unique(truth["y"])
    np.testing.assert_array_equal(classes[ds.y], truth["y"])
    assert ds.meta["empty_documents"] == 1


def test_recipe_shifted_the_words_is_realigned(tmp_path, rng):
    files, truth = formats.write_kusner_split(
        tmp_path, rng, filename="recipe2-emd_tr_te_split.mat", words_variable="the_words",
        shift_words_at=4)
    ds = get_spec("wmd_recipe").prepare(files)
    # every word is named, the last document's words included (recovered through its vectors)
    assert _bags(ds) == truth["bags"]
    _assert_vectors(ds, truth["table"])


def test_fixed_split_format(tmp_path, rng):
    files, truth = formats.write_kusner_fixed(tmp_path, rng)
    ds = get_spec("wmd_r8").prepare(files)
    assert _bags(ds) == truth["bags"]
    _assert_vectors(ds, truth["table"])
    np.testing.assert_array_equal(ds.train_idx, np.arange(truth["n_train"])[None, :])
    np.testing.assert_array_equal(ds.test_idx, np.arange(truth["n_train"], ds.n)[None, :])


def test_corpus_without_words_is_keyed_by_vector(tmp_path, rng):
    files, truth = formats.write_kusner_fixed(tmp_path, rng, filename="20ng2_500-emd_tr_te.mat",
                                              with_words=False)
    ds = get_spec("wmd_20news").prepare(files)
    assert all(w.startswith("<w") for w in ds.vocab)
    # the same word in two documents is one vocabulary entry with its vector
    table = {tuple(v.astype(np.float32)): w for w, v in truth["table"].items()}
    named = [{table[tuple(ds.word_vectors[j])]: c
              for j, c in zip(ds.bow.getrow(i).indices, ds.bow.getrow(i).data)}
             for i in range(ds.n)]
    assert named == truth["bags"]


def test_missing_variable_names_dataset_file_and_variable(tmp_path, rng):
    files, _ = formats.write_kusner_split(tmp_path, rng, omit_variable="TE")
    with pytest.raises(MissingVariableError,
                       match=r"'wmd_bbcsport'.*bbcsport-emd_tr_te_split\.mat.*variable 'TE'"):
        get_spec("wmd_bbcsport").prepare(files)
