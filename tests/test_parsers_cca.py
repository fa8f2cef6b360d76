"""Two-view CCA datasets: Mediamill (svmlight bz2), MNIST halves, PTB word/context, URL Reputation."""

import numpy as np
import pytest
import scipy.sparse as sp

from fixtures import formats
from lowdim.data import get_spec, load_dataset, save_dataset
from lowdim.data.parsing import FormatError
from lowdim.data.sources.cca_data import word_context_views


@pytest.fixture
def rng():
    return np.random.default_rng(5)


def test_mediamill_multilabel_bz2(tmp_path, rng):
    files, truth = formats.write_mediamill(tmp_path, rng)
    ds = load_dataset(save_dataset(get_spec("mediamill").prepare(files), tmp_path / "m.npz"))
    np.testing.assert_allclose(ds.X, truth["X"], rtol=1e-5)
    np.testing.assert_array_equal(ds.Y, truth["Y"])
    assert ds.Y[1].sum() == 0          # a keyframe without labels
    np.testing.assert_array_equal(ds.train_idx[0], np.arange(truth["n_train"]))


def test_mediamill_out_of_range_label(tmp_path, rng):
    import bz2
    files, _ = formats.write_mediamill(tmp_path, rng)
    files["test-exp1.svm.bz2"].write_bytes(bz2.compress(b"101 1:0.5\n"))
    with pytest.raises(FormatError, match=r"'mediamill'.*test-exp1\.svm\.bz2.*labels 0-100"):
        get_spec("mediamill").prepare(files)


def test_mnist_halves_views_rebuild_the_images(tmp_path, rng):
    files, truth = formats.write_mnist(tmp_path, rng)
    ds = get_spec("mnist_halves").prepare(files)
    images = np.concatenate([ds.X.reshape(-1, 28, 14), ds.Y.reshape(-1, 28, 14)], axis=2)
    np.testing.assert_array_equal(images.reshape(len(images), -1), truth["X"])
    top = get_spec("mnist_halves").prepare(files, split="top_bottom")
    np.testing.assert_array_equal(top.X, truth["X"][:, :392])
    assert ds.train_idx.shape == (1, truth["n_train"])


def test_word_context_views_on_a_small_stream():
    X, Y, vocab = word_context_views(["a", "b", "a", "c", "a", "b"], vocab_size=2, window=1)
    assert vocab.tolist() == ["a", "b"]                 # c is dropped (least frequent)
    np.testing.assert_array_equal(X.toarray(), [[1, 0], [0, 1], [1, 0], [1, 0], [0, 1]])
    # row 3 is the "a" after "c": no left context in the vocabulary, right context "b"
    np.testing.assert_array_equal(Y.toarray(), [[0, 0, 0, 1], [1, 0, 1, 0], [0, 1, 0, 0],
                                                [0, 0, 0, 1], [1, 0, 0, 0]])


def test_ptb_word_context(tmp_path, rng):
    files, lines = formats.write_ptb(tmp_path, rng)
    ds = load_dataset(save_dataset(get_spec("ptb").prepare(files), tmp_path / "p.npz"))
    tokens = [t for part in ("train", "valid", "test") for line in lines[part]
              for t in line.split() + ["<eos>"]]
    assert sp.issparse(ds.X) and ds.X.shape == (len(tokens), len(ds.vocab))
    np.testing.assert_array_equal(ds.vocab[ds.X.indices], tokens)
    left = ds.Y[1:, :len(ds.vocab)]
    np.testing.assert_array_equal(ds.vocab[left.indices], tokens[:-1])
    n_train = sum(len(line.split()) + 1 for line in lines["train"])
    np.testing.assert_array_equal(ds.train_idx[0], np.arange(n_train))


def test_url_reputation_days_in_order_sparse_feature_type_views(tmp_path, rng):
    files, truth = formats.write_url_reputation(tmp_path, rng)
    ds = load_dataset(save_dataset(get_spec("url_reputation").prepare(files), tmp_path / "u.npz"))
    assert sp.issparse(ds.X) and sp.issparse(ds.Y)
    p = truth["X"].shape[1]
    others = [j for j in range(p) if j not in truth["real"]]
    np.testing.assert_allclose(ds.X.toarray(), truth["X"][:, truth["real"]], rtol=1e-5)
    np.testing.assert_array_equal(ds.Y.toarray(), truth["X"][:, others])
    np.testing.assert_array_equal(ds.y, (truth["y"] > 0).astype(int))


def test_url_reputation_rows_ranges_and_frequent_subset(tmp_path, rng):
    files, truth = formats.write_url_reputation(tmp_path, rng)
    ds = get_spec("url_reputation").prepare(files, n_rows=5, views="column_ranges",
                                            x_columns=[0, 10], y_columns=[10, 30],
                                            y_max_features=4)
    np.testing.assert_allclose(ds.X.toarray(), truth["X"][:5, :10], rtol=1e-5)
    nnz = (truth["X"][:5, 10:30] != 0).sum(axis=0)
    assert ds.Y.shape == (5, 4)
    assert ds.Y.getnnz() == np.sort(nnz)[-4:].sum()


def test_url_reputation_missing_feature_types(tmp_path, rng):
    files, _ = formats.write_url_reputation(tmp_path, rng, drop_member="FeatureTypes")
    with pytest.raises(FormatError, match=r"'url_reputation'.*url_svmlight\.tar\.gz.*FeatureTypes"):
        get_spec("url_reputation").prepare(files)
