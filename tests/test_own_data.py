"""Own data declared in the config (`datasets: {mine: {file: ...}}`): every format the issue
lists, kinds guessed and overridable, mistakes stopped at start naming the key and the file,
and the prepared data usable by the embedding, CCA and similarity experiments."""

import bz2
import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.io
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

from lowdim.config import ConfigError, validate_config
from lowdim.settings import check_config, own_data_problems
from lowdim.data import OwnDataError, dataset_spec, load_dataset, save_dataset

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"

RNG = np.random.default_rng(0)
X = RNG.normal(size=(40, 5))
Y = X @ RNG.normal(size=(5, 3)) + 0.1 * RNG.normal(size=(40, 3))
LABELS = np.repeat(["ham", "spam"], 20)


@pytest.fixture
def here(tmp_path, monkeypatch):
    """Relative paths in the config are relative to the working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def prepared(options, name="mine"):
    """Validate ``options`` as ``datasets.<name>`` and prepare them as the workflow does."""
    config = validate_config({"datasets": {name: options}}, SCHEMA)
    check_config(config)
    spec = dataset_spec(name, config["datasets"][name])
    return spec, spec.prepare(**config["datasets"][name])


def start_error(options, **sections) -> str:
    """The one line with which the workflow refuses ``options`` at start."""
    with pytest.raises(ConfigError) as info:
        check_config(validate_config({"datasets": {"mine": options}, **sections}, SCHEMA))
    assert "\n" not in str(info.value)
    return str(info.value)


# -- every format --------------------------------------------------------------------------
def write_csv(path, sep=","):
    pd.DataFrame(X, columns=[f"f{i}" for i in range(5)]).assign(label=LABELS).to_csv(
        path, index=False, sep=sep)


def test_csv_with_a_label_column(here):
    write_csv("mine.csv")
    spec, data = prepared({"file": "mine.csv", "label": "label"})
    assert (spec.kind, spec.labelled, spec.size_bounds()) == ("dense", True, {"p": 5})
    np.testing.assert_allclose(data.X, X)
    assert data.label_names.tolist() == ["ham", "spam"] and data.y.tolist() == [0] * 20 + [1] * 20


def test_tsv_without_labels(here):
    pd.DataFrame(X).to_csv("mine.tsv", sep="\t", index=False)
    spec, data = prepared({"file": "mine.tsv"})
    assert spec.kind == "dense" and not spec.labelled and data.y is None
    np.testing.assert_allclose(data.X, X)


def test_csv_text_column_is_an_error_naming_it(here):
    write_csv("mine.csv")
    with pytest.raises(OwnDataError, match=r"datasets.mine.file: got 'mine.csv'; column "
                                           r"'label' is not numeric \(e.g. 'ham'\)"):
        prepared({"file": "mine.csv"})  # a label column that is not named is a feature


def test_npy_sizes_are_known_at_start(here):
    np.save("mine.npy", X)
    spec, data = prepared({"file": "mine.npy", "n_rows": 30})
    assert spec.kind == "dense" and spec.size_bounds() == {"n": 30, "p": 5}
    assert data.X.shape == (30, 5)


def test_npz_arrays_and_sparse_npz(here):
    np.savez("arrays.npz", X=X, y=LABELS)
    spec, data = prepared({"file": "arrays.npz"})
    assert spec.labelled and spec.size_bounds() == {"n": 40, "p": 5}
    assert data.label_names.tolist() == ["ham", "spam"]
    sp.save_npz("sparse.npz", sp.random(40, 100, density=0.05, format="csr", random_state=0))
    spec, data = prepared({"file": "sparse.npz"})
    assert spec.kind == "sparse" and sp.issparse(data.X) and data.X.shape == (40, 100)


def test_npz_with_a_second_view_is_two_view(here):
    np.savez("views.npz", left=X, right=Y)
    spec, data = prepared({"file": "views.npz", "features": "left", "second_view": "right"})
    assert spec.kind == "two_view" and spec.size_bounds() == {"n": 40, "p1": 5, "p2": 3}
    np.testing.assert_allclose(data.Y, Y)


@pytest.mark.parametrize("suffix, opener", [("", open), (".gz", gzip.open), (".bz2", bz2.open)],
                         ids=["plain", "gzip", "bzip2"])
def test_svmlight_plain_and_compressed(here, suffix, opener):
    sparse = sp.csr_matrix(np.where(np.abs(X) > 1, X, 0))
    dump_svmlight_file(sparse, np.repeat([3, 7], 20), "plain.svm")
    with open("plain.svm", "rb") as src, opener(f"mine.svm{suffix}", "wb") as dst:
        dst.write(src.read())
    spec, data = prepared({"file": f"mine.svm{suffix}"})
    assert spec.kind == "sparse" and spec.labelled
    assert data.label_names.tolist() == ["3", "7"]  # float labels 3.0, 7.0 are classes 3, 7
    np.testing.assert_allclose(data.X.toarray()[:, :5], sparse.toarray())


def test_mat_with_named_variables(here):
    scipy.io.savemat("mine.mat", {"feats": X, "classes": np.repeat([1, 2], 20)[:, None],
                                  "other": Y})
    spec, data = prepared({"file": "mine.mat", "features": "feats", "label": "classes"})
    assert spec.kind == "dense" and spec.size_bounds() == {"n": 40, "p": 5}
    assert data.y.tolist() == [0] * 20 + [1] * 20  # MATLAB's (n, 1) column of labels
    spec, data = prepared({"file": "mine.mat", "features": "feats", "second_view": "other"})
    assert spec.kind == "two_view" and data.Y.shape == (40, 3)


def test_folder_of_text_files_one_sub_folder_per_label(here):
    for label, words in (("sport", "match goal team"), ("music", "song band guitar")):
        (here / "docs" / label).mkdir(parents=True)
        for i in range(3):
            (here / "docs" / label / f"{i}.txt").write_text(f"{words} number{i}")
    (here / "docs" / ".hidden").write_text("skipped")
    spec, data = prepared({"file": "docs"})
    assert (spec.kind, spec.labelled, spec.size_bounds()) == ("text", True, {"n": 6})
    assert data.label_names.tolist() == ["music", "sport"]
    assert {"goal", "guitar"} <= set(data.vocab.tolist()) and data.bow.shape[0] == 6


def test_folder_without_sub_folders_is_unlabelled(here):
    (here / "docs").mkdir()
    for i in range(4):
        (here / "docs" / f"{i}.txt").write_text(f"document {i} words")
    spec, data = prepared({"file": "docs"})
    assert spec.kind == "text" and not spec.labelled and data.y is None


def test_two_views_as_two_files(here):
    write_csv("x.csv")
    np.save("y.npy", Y)
    spec, data = prepared({"file_x": "x.csv", "file_y": "y.npy", "label": "label"})
    assert spec.kind == "two_view" and spec.labelled
    assert spec.size_bounds() == {"n": 40, "p1": 5, "p2": 3}
    np.testing.assert_allclose(data.X, X)
    np.testing.assert_allclose(data.Y, Y)


def test_kind_is_overridable_between_dense_and_sparse(here):
    np.save("mine.npy", X)
    spec, data = prepared({"file": "mine.npy", "kind": "sparse"})
    assert spec.kind == "sparse" and sp.issparse(data.X)
    np.testing.assert_allclose(data.X.toarray(), X)


def test_format_is_overridable(here):
    write_csv("mine.data")
    spec, data = prepared({"file": "mine.data", "format": "csv", "label": "label"})
    assert data.X.shape == (40, 5)


def test_prepared_own_data_round_trips(here):
    write_csv("mine.csv")
    _, data = prepared({"file": "mine.csv", "label": "label"})
    save_dataset(data, here / "mine.npz")
    again = load_dataset(here / "mine.npz")
    assert again.name == "mine" and again.meta["licence"] == "your own data"


# -- mistakes stopped at start, naming the key and the file ------------------------------
@pytest.mark.parametrize("options, line", [
    ({"file": "nowhere.csv"},
     "config: datasets.mine.file: got 'nowhere.csv'; no such file or folder (looked for "),
    ({"file": "mine.csv", "label": "class"},
     "config: datasets.mine.label: got 'class'; mine.csv has no column 'class'; its header: "
     "f0, f1, f2, f3, f4, label"),
    ({"file": "mine.xyz"},
     "config: datasets.mine.file: got 'mine.xyz'; cannot tell its format from the name; set "
     "datasets.mine.format to one of"),
    ({"file": "mine.csv", "kind": "two_view"},
     "config: datasets.mine.kind: got 'two_view'; the files declared hold dense data"),
    ({"file": "arrays.npz", "label": "labels"},
     "config: datasets.mine.label: got 'labels'; arrays.npz has no array 'labels'; it holds: "
     "X, y"),
    ({"file_x": "mine.csv"}, "config: datasets.mine.file_x: got 'mine.csv'; two-view data need "
                             "`file_y` too"),
    ({"file": "mine.csv", "file_y": "mine.csv"}, "config: datasets.mine: got {'file': "),
    ({"file": "vector.npy"}, "config: datasets.mine.file: got 'vector.npy'; the array has shape "
                             "(40,); expected a 2-D matrix"),
], ids=["missing file", "missing label column", "unknown format", "kind the files cannot give",
        "missing npz array", "one view only", "file and a view", "1-D array"])
def test_mistake_in_own_data_stops_the_run_naming_key_and_file(here, options, line):
    write_csv("mine.csv")
    (here / "mine.xyz").write_text("?")
    np.savez("arrays.npz", X=X, y=LABELS)
    np.save("vector.npy", X[:, 0])
    assert start_error(options).startswith(line)


def test_unknown_name_without_a_file_says_how_to_declare_own_data():
    with pytest.raises(ConfigError) as info:
        validate_config({"datasets": {"mnits": {}}}, SCHEMA)
    message = str(info.value)
    assert "unknown dataset 'mnits'; registered datasets: " in message and "digits" in message
    assert "datasets: {mnits: {file: <path>}}" in message


def test_registered_name_cannot_take_a_file(here):
    with pytest.raises(ConfigError, match="'digits' is a registered dataset, which takes no file"):
        validate_config({"datasets": {"digits": {"file": "mine.csv"}}}, SCHEMA)


def test_unknown_option_of_own_data_lists_the_options(here):
    write_csv("mine.csv")
    message = start_error({"file": "mine.csv", "labels": "label"})
    assert "datasets.mine.labels" in message and "label" in message and "file_x" in message


def test_the_experiments_check_own_data_like_registered_data(here):
    np.save("mine.npy", X)
    message = start_error({"file": "mine.npy"},
                          embedding={"enabled": True, "datasets": ["mine"], "methods": ["pca"]})
    assert message.startswith("config: embedding.datasets[0]: got 'mine'; must be a labelled")
    assert "datasets.mine.label" in message  # says how to give labels
    np.savez("labelled.npz", X=X, y=LABELS)
    message = start_error({"file": "labelled.npz"}, embedding={
        "enabled": True, "datasets": ["mine"], "methods": ["pca"], "n_components": 8})
    assert message.startswith("config: embedding.n_components: got 8; must be <= the 5 features "
                              "of dataset mine for pca")
    message = start_error({"file": "labelled.npz"},
                          cca={"enabled": True, "figure1": {"datasets": ["mine"]}})
    assert message.startswith("config: cca.figure1.datasets[0]: got 'mine'; must be a two-view")


def test_problems_of_every_own_dataset_are_listed(here):
    config = validate_config({"datasets": {"a": {"file": "a.csv"}, "b": {"file": "b.npy"}}},
                             SCHEMA)
    problems = own_data_problems(config)
    assert [p.split(";")[0] for p in problems] == ["config: datasets.a.file: got 'a.csv'",
                                                   "config: datasets.b.file: got 'b.npy'"]


# -- errors only the data tell, in the prepare job ------------------------------------------
def test_nan_features_are_refused_with_their_position(here):
    bad = X.copy()
    bad[3, 2] = np.nan
    np.save("mine.npy", bad)
    with pytest.raises(OwnDataError, match=r"X has NaN or infinite values \(first at row 3, "
                                           r"column 2\)"):
        prepared({"file": "mine.npy"})


def test_views_of_different_lengths_are_refused(here):
    np.save("x.npy", X)
    np.save("y.npy", Y[:30])
    with pytest.raises(ConfigError, match="the views have different numbers of rows: "
                                          r"\[30, 40\]"):
        prepared({"file_x": "x.npy", "file_y": "y.npy"})


def test_a_missing_label_is_refused_with_its_row(here):
    write_csv("mine.csv")
    frame = pd.read_csv("mine.csv")
    frame.loc[7, "label"] = None
    frame.to_csv("mine.csv", index=False)
    with pytest.raises(OwnDataError, match="mine.csv: data row 8 has no label"):
        prepared({"file": "mine.csv", "label": "label"})


# -- usable by every experiment --------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # 5 MLP epochs
def test_own_data_feed_the_embedding_cca_and_similarity_code(here):
    from lowdim.cca.experiments import training_views
    from lowdim.embedding.features import embedding_features
    from lowdim.similarity.matrices import build_matrix

    write_csv("mine.csv")
    _, table = prepared({"file": "mine.csv", "label": "label"})
    features = embedding_features(table, max_samples=0)
    assert features.X.shape == (40, 5) and features.y.tolist() == table.y.tolist()
    K, items, _ = build_matrix({"kind": "mlp", "n_items": 20,
                                "mlp": {"hidden_layer_sizes": [4], "n_pairs": 200,
                                        "max_iter": 5}}, table, seed=0)
    assert K.shape == (20, 20) and np.isfinite(K).all()
    np.save("y.npy", Y)
    _, views = prepared({"file_x": "mine.csv", "file_y": "y.npy", "label": "label"}, "two")
    cut = training_views(views, heldout_fraction=0.25, seed=0)
    assert cut.X.shape == (30, 5) and cut.Y.shape == (30, 3)
