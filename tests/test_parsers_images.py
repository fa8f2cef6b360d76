"""Image parsers on files written in the exact real formats (tests/fixtures/formats.py)."""

import gzip

import numpy as np
import pytest

from fixtures import formats
from lowdim.data import get_spec, load_dataset, save_dataset
from lowdim.data.parsing import FormatError, MissingMemberError, MissingVariableError


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def _roundtrip(dataset, tmp_path):
    return load_dataset(save_dataset(dataset, tmp_path / f"{dataset.name}.npz"))


def test_mnist_reads_idx_and_keeps_official_split(tmp_path, rng):
    files, truth = formats.write_mnist(tmp_path, rng)
    ds = _roundtrip(get_spec("mnist").prepare(files), tmp_path)
    np.testing.assert_array_equal(ds.X, truth["X"].astype(np.float32))
    np.testing.assert_array_equal(ds.y, truth["y"])
    np.testing.assert_array_equal(ds.train_idx[0], np.arange(truth["n_train"]))
    np.testing.assert_array_equal(ds.test_idx[0], np.arange(truth["n_train"], len(truth["y"])))
    assert ds.meta["image_shape"] == [28, 28]


def test_mnist_subsample_is_seeded_and_renumbers_split(tmp_path, rng):
    files, truth = formats.write_mnist(tmp_path, rng)
    a = get_spec("mnist").prepare(files, n_rows=9, seed=3)
    b = get_spec("mnist").prepare(files, n_rows=9, seed=3)
    c = get_spec("mnist").prepare(files, n_rows=9, seed=4)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)
    assert a.X.shape == (9, 784)
    # every kept row is a real row, and the split indices cover the kept rows exactly once
    rows = [int(np.flatnonzero((truth["X"] == r).all(axis=1))[0]) for r in a.X]
    np.testing.assert_array_equal(a.y, truth["y"][rows])
    covered = np.sort(np.concatenate([a.train_idx[0], a.test_idx[0]]))
    np.testing.assert_array_equal(covered, np.arange(9))
    assert all(rows[i] < truth["n_train"] for i in a.train_idx[0])


def test_mnist_truncated_idx_names_dataset_and_file(tmp_path, rng):
    files, _ = formats.write_mnist(tmp_path, rng)
    path = files["t10k-images-idx3-ubyte.gz"]
    path.write_bytes(gzip.compress(gzip.decompress(path.read_bytes())[:-10]))
    with pytest.raises(FormatError, match=r"'mnist'.*t10k-images-idx3-ubyte\.gz.*bytes"):
        get_spec("mnist").prepare(files)


def test_cifar10_binary_records(tmp_path, rng):
    files, truth = formats.write_cifar10(tmp_path, rng)
    ds = _roundtrip(get_spec("cifar10").prepare(files), tmp_path)
    np.testing.assert_array_equal(ds.X, truth["X"].astype(np.float32))
    np.testing.assert_array_equal(ds.y, truth["y"])
    assert ds.label_names.tolist() == truth["names"]
    assert ds.test_idx.shape == (1, len(truth["y"]) - truth["n_train"])


def test_cifar10_missing_batch_is_named(tmp_path, rng):
    files, _ = formats.write_cifar10(tmp_path, rng, drop_member="data_batch_3.bin")
    with pytest.raises(MissingMemberError, match=r"cifar10.*cifar-10-binary\.tar\.gz.*"
                                                 r"data_batch_3\.bin"):
        get_spec("cifar10").prepare(files)


def test_svhn_mat_maps_label_10_to_digit_0(tmp_path, rng):
    files, truth = formats.write_svhn(tmp_path, rng)
    ds = _roundtrip(get_spec("svhn").prepare(files), tmp_path)
    np.testing.assert_array_equal(ds.X, truth["X"].astype(np.float32))
    np.testing.assert_array_equal(ds.y, truth["y"])
    assert ds.y.max() <= 9 and 0 in ds.y
    only_train = get_spec("svhn").prepare(files, include_test=False)
    assert only_train.n == truth["n_train"] and only_train.train_idx is None


def test_svhn_missing_variable_is_named(tmp_path, rng):
    files, _ = formats.write_svhn(tmp_path, rng, omit_variable="y")
    with pytest.raises(MissingVariableError, match=r"'svhn'.*train_32x32\.mat.*variable 'y'"):
        get_spec("svhn").prepare(files)


def test_coil20_png_zip(tmp_path, rng):
    files, truth = formats.write_coil20(tmp_path, rng)
    ds = _roundtrip(get_spec("coil20").prepare(files), tmp_path)
    np.testing.assert_array_equal(ds.X, truth["X"].astype(np.float32))
    np.testing.assert_array_equal(ds.y, truth["y"])
    assert ds.label_names.tolist() == ["obj1", "obj2", "obj3"]
