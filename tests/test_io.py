"""lowdim.io: .npz with a JSON info entry round-trips without pickle and never leaves a partial file."""

import numpy as np
import pytest

from lowdim.io import load_npz, read_benchmark, save_npz


def test_npz_round_trip_keeps_arrays_and_info(tmp_path):
    path = tmp_path / "x.npz"
    save_npz(path, {"b": [1, 2], "a": "text"}, K=np.eye(2), items=np.arange(3))
    arrays, info = load_npz(path)
    assert set(arrays) == {"K", "items"} and info == {"a": "text", "b": [1, 2]}
    np.testing.assert_array_equal(arrays["K"], np.eye(2))
    with np.load(path, allow_pickle=False) as store:  # the info is a plain string, not a pickle
        assert store["info"].dtype.kind == "U"


def test_npz_info_key_and_compression(tmp_path):
    save_npz(tmp_path / "c.npz", {"k": 1}, info_key="meta", compress=True, y=np.zeros(1000))
    arrays, info = load_npz(tmp_path / "c.npz", info_key="meta")
    assert info == {"k": 1} and arrays["y"].shape == (1000,)
    assert (tmp_path / "c.npz").stat().st_size < 1000 * 8  # zeros compress


def test_failed_write_leaves_no_file(tmp_path):
    class Unwritable:
        def __array__(self, *args, **kwargs):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        save_npz(tmp_path / "bad.npz", {}, X=Unwritable())
    assert not list(tmp_path.iterdir())


def test_benchmark_file_columns_are_numeric_and_missing_ones_nan(tmp_path):
    path = tmp_path / "b.tsv"
    path.write_text("s\th:m:s\tmax_rss\n1.5\t0:00:01\tNA\n")
    bench = read_benchmark(path)
    assert bench["s"].iloc[0] == 1.5
    assert np.isnan(bench["max_rss"].iloc[0]) and np.isnan(bench["cpu_time"].iloc[0])
