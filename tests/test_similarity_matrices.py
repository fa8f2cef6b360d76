"""Matrix builders of the SMS-Nyström experiments, and their figures and tables."""

import numpy as np
import pandas as pd
import pytest

from lowdim.approx import error_curve, spectrum_tables
from lowdim.data import Dataset, get_spec
from lowdim.data.word_vectors import load_glove50
from lowdim.plots.similarity import error_curves_figure, matrix_labels, spectra_figure
from lowdim.similarity import WMDOracle
from lowdim.similarity.matrices import (build_matrix, build_oracle, load_matrix,
                                       load_matrix_items, save_matrix)
from lowdim.tables.similarity import diagnostics_table


@pytest.fixture(scope="module")
def pang_lee():
    return get_spec("pang_lee").prepare()


def test_wmd_matrix_drops_empty_documents_and_samples_items(pang_lee):
    spec = {"kind": "wmd", "dataset": "pang_lee", "n_items": 30, "wmd": {"gamma": 0.2}}
    K, items, info = build_matrix(spec, pang_lee, seed=3)
    assert info["dropped_empty"] == 1 and info["n"] == 30 == K.shape[0]
    assert np.all(np.diff(items) > 0)
    assert np.diff(pang_lee.bow[items].indptr).min() > 0  # no empty document kept
    again, items_again, _ = build_matrix(spec, pang_lee, seed=3)
    np.testing.assert_array_equal(items, items_again)
    np.testing.assert_array_equal(K, again)
    direct = WMDOracle.from_bow(pang_lee.bow[items[:5]], pang_lee.vocab, load_glove50(),
                                gamma=0.2)
    np.testing.assert_allclose(K[:5, :5], direct(np.arange(5), np.arange(5)), rtol=1e-12)
    assert info["evaluations"] == 30 * 31 // 2


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_mlp_matrix_trains_on_disjoint_items():
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(3), 40)
    X = rng.normal(size=(120, 4)) + 3.0 * y[:, None]
    data = Dataset(name="toy", kind="dense", X=X, y=y)
    spec = {"kind": "mlp", "n_items": 30,
            "mlp": {"train_items": 60, "hidden_layer_sizes": [8], "n_pairs": 2000, "max_iter": 100}}
    oracle, items, info = build_oracle(spec, data, seed=1)
    assert info["train_items"] == 60 and info["train_disjoint"] and items.size == 30
    K, _, _ = build_matrix(spec, data, seed=1)
    np.testing.assert_array_equal(K, K.T)
    same = y[items][:, None] == y[items][None, :]
    off = ~np.eye(30, dtype=bool)
    assert K[same & off].mean() > K[~same].mean()  # it learned the labels


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_matrix_split_options():
    y = np.repeat(np.arange(2), 20)
    split = np.array(["train", "test"] * 20)
    X = np.random.default_rng(1).normal(size=(40, 3))
    data = Dataset(name="toy", kind="dense", X=X, y=y, extra={"split": split})
    spec = {"kind": "mlp", "split": "test",
            "mlp": {"train_split": "train", "hidden_layer_sizes": [4], "n_pairs": 100,
                    "max_iter": 5}}
    _, items, info = build_oracle(spec, data, seed=0)
    assert (split[items] == "test").all() and items.size == 20 and info["train_items"] == 20
    with pytest.raises(ValueError, match=r"`split`: dataset 'toy' has no split 'dev'"):
        build_oracle({**spec, "split": "dev"}, data, seed=0)
    with pytest.raises(ValueError, match="a `wmd` matrix needs a text dataset"):
        build_oracle({"kind": "wmd"}, data)
    with pytest.raises(ValueError, match="`kind` must be one of"):
        build_oracle({"kind": "cosine"}, data)


def test_save_and_load_matrix(tmp_path):
    K = np.arange(9.0).reshape(3, 3)
    save_matrix(tmp_path / "m.npz", K, [4, 5, 6], {"kind": "wmd", "seconds": 1.5})
    K2, items, info = load_matrix(tmp_path / "m.npz")
    np.testing.assert_array_equal(K, K2)
    np.testing.assert_array_equal(items, [4, 5, 6])
    assert info == {"kind": "wmd", "seconds": 1.5}
    np.testing.assert_array_equal(load_matrix_items(tmp_path / "m.npz"), [4, 5, 6])


def toy_tables():
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.normal(size=(60, 60)))
    K = (Q * np.concatenate([np.linspace(20, 2, 10), -np.full(50, 0.1)])) @ Q.T
    errors = pd.concat([error_curve(K, m, [0.1, 0.2], 3, 0, "toy") for m in ("nystrom",
                                                                             "sms_nystrom")])
    eigenvalues, submatrices = spectrum_tables(K, [0.1, 0.5, 1.0], 3, 0, "toy")
    matrices = pd.DataFrame([{"matrix": "toy", "kind": "synthetic", "dataset": "none", "n": 60,
                              "seconds": 0.5}])
    return K, errors, eigenvalues, submatrices, matrices


def test_diagnostics_table():
    K, errors, eigenvalues, _, matrices = toy_tables()
    table = diagnostics_table(eigenvalues, errors, matrices, fraction=0.1).iloc[0]
    assert table["n"] == 60 and table["negative eigenvalues"] == 50
    np.testing.assert_allclose(table["negative mass"], 5.0 / (5.0 + 110.0), atol=1e-4)
    at = errors[(errors["method"] == "sms_nystrom") & (errors["s"] == 6)]["error"]
    np.testing.assert_allclose(table["error SMS-Nyström"], at.median(), rtol=1e-3)


def test_figures_draw_every_matrix():
    _, errors, eigenvalues, submatrices, matrices = toy_tables()
    fig = error_curves_figure(errors, matrix_labels(matrices, eigenvalues), profile="test")
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 1 and visible[0].get_yscale() == "log"
    assert len(visible[0].get_lines()) == 2
    fig = spectra_figure(eigenvalues, submatrices)
    assert len(fig.axes) == 3
    assert (submatrices["lambda_min"] >= submatrices["lambda_min_K"] - 1e-10).all()


# -- paper datasets, from files in their real formats (tests/fixtures/formats.py) -----------
def test_wmd_matrix_of_a_kusner_corpus_uses_its_own_vectors(tmp_path):
    from fixtures import formats

    files, _ = formats.write_kusner_split(tmp_path, np.random.default_rng(1), n_docs=8)
    data = get_spec("wmd_bbcsport").prepare(files)
    K, items, info = build_matrix({"kind": "wmd", "wmd": {"gamma": 0.05}}, data, seed=0)
    assert info["dropped_empty"] == 1 and K.shape == (7, 7)  # the fixture's document 2 is empty
    direct = WMDOracle.from_bow(data.bow[items], data.vocab, data.word_vectors, gamma=0.05)
    np.testing.assert_allclose(K, direct(np.arange(7), np.arange(7)), rtol=1e-12)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_mlp_matrix_of_ecbplus_mentions(tmp_path):
    from fixtures import formats

    files, _ = formats.write_ecbplus(tmp_path, np.random.default_rng(2))
    data = get_spec("ecbplus").prepare(files)
    spec = {"kind": "mlp", "mlp": {"hidden_layer_sizes": [4], "n_pairs": 50, "max_iter": 5}}
    K, items, info = build_matrix(spec, data, seed=0)
    assert K.shape == (data.n, data.n) and info["kind"] == "mlp"
    np.testing.assert_array_equal(K, K.T)
    assert np.all((K > 0) & (K < 1))
