"""Damaged prepared and results files: refused by name, with how to rebuild them; never unpickled."""

import os
import pickle

import numpy as np
import pytest

from lowdim.data import get_spec, load_dataset, save_dataset
from lowdim.io import CorruptFileError, load_npz, save_npz


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A real prepared file, results/data/digits.npz, as `prepare` writes it."""
    path = tmp_path_factory.mktemp("results") / "data" / "digits.npz"
    path.parent.mkdir()
    save_dataset(get_spec("digits").prepare(n_rows=60), path)
    return path


class _Marker:
    """Unpickling this creates a file: proof that a pickle ran."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


def _damage(kind, good: bytes, marker):
    if kind == "random bytes":
        return np.random.default_rng(0).bytes(4000)
    if kind == "truncated":
        return good[: len(good) // 2]
    if kind == "zero bytes":
        return b""
    if kind == "flipped bytes":
        middle = len(good) // 2
        return good[:middle] + bytes(b ^ 0xFF for b in good[middle:middle + 64]) + \
            good[middle + 64:]
    if kind == "a pickle":
        return pickle.dumps(_Marker(marker))
    raise AssertionError(kind)


DAMAGE = ["random bytes", "truncated", "zero bytes", "flipped bytes", "a pickle"]


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_prepared_file_is_refused_by_name(prepared, tmp_path, kind):
    path = tmp_path / "data" / "digits.npz"
    path.parent.mkdir()
    marker = tmp_path / "unpickled"
    path.write_bytes(_damage(kind, prepared.read_bytes(), marker))
    with pytest.raises(CorruptFileError) as info:
        load_dataset(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    assert "delete it" in message and "prepare" in message
    assert not marker.exists(), "a pickle was loaded"


def test_object_arrays_inside_an_archive_are_never_unpickled(tmp_path):
    marker = tmp_path / "unpickled"
    path = tmp_path / "digits.npz"
    np.savez(path, meta=np.array([_Marker(marker)], dtype=object))
    with pytest.raises(CorruptFileError, match="object arrays, which only pickle can read"):
        load_dataset(path)
    assert not marker.exists()


def test_another_datasets_file_is_refused(tmp_path):
    path = save_dataset(get_spec("lee").prepare(), tmp_path / "pang_lee.npz")
    with pytest.raises(CorruptFileError, match=r"pang_lee\.npz: it holds dataset 'lee', not "
                                               r"'pang_lee'; delete it"):
        load_dataset(path)
    with pytest.raises(CorruptFileError, match="holds dataset 'lee', not 'digits'"):
        load_dataset(path, name="digits")
    assert load_dataset(path, name="lee").name == "lee"  # asked for by name, it is fine


def test_a_results_file_that_is_not_a_dataset_is_refused(tmp_path):
    path = tmp_path / "digits.npz"
    save_npz(path, {"method": "pca"}, embeddings=np.zeros((2, 3, 4)))
    with pytest.raises(CorruptFileError, match="not a prepared dataset.*missing entry 'meta'"):
        load_dataset(path)


def test_a_single_npy_file_is_refused(tmp_path):
    path = tmp_path / "digits.npz"
    np.save(open(path, "wb"), np.arange(5))
    with pytest.raises(CorruptFileError, match="not an .npz archive"):
        load_dataset(path)


def test_a_missing_file_is_not_called_corrupt(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        load_dataset(tmp_path / "digits.npz")


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_results_file_is_refused_by_name(tmp_path, kind):
    good = tmp_path / "good.npz"
    save_npz(good, {"seed": 1}, K=np.eye(3))
    path = tmp_path / "bad.npz"
    marker = tmp_path / "unpickled"
    path.write_bytes(_damage(kind, good.read_bytes(), marker))
    with pytest.raises(CorruptFileError) as info:
        load_npz(path)
    assert str(path) in str(info.value) and "delete it" in str(info.value)
    assert not marker.exists()
    arrays, info_dict = load_npz(good)
    assert info_dict == {"seed": 1} and arrays["K"].shape == (3, 3)


def test_corrupt_file_error_is_a_value_error():
    assert issubclass(CorruptFileError, ValueError)
    assert os.fspath(CorruptFileError("x.npz", "bad").path) == "x.npz"
