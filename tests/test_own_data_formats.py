"""Own data read as the user wrote them: which array is the second view, a CSV's header and
label column, compressed svmlight, every sparse .npz, label names from .mat/.npz files and
numbered label folders; what cannot be read is refused in one line naming the key and file."""

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
from lowdim.data import OwnDataError, dataset_spec
from lowdim.settings import check_config

SCHEMA = Path(__file__).resolve().parents[1] / "workflow" / "schemas" / "config.schema.yaml"

RNG = np.random.default_rng(1)
X = RNG.normal(size=(12, 3))
CLASSES = np.arange(12) % 2


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def prepared(options):
    """Check ``options`` as ``datasets.mine`` at start, then prepare them."""
    config = validate_config({"datasets": {"mine": options}}, SCHEMA)
    check_config(config)
    spec = dataset_spec("mine", config["datasets"]["mine"])
    return spec, spec.prepare(**config["datasets"]["mine"])


def start_error(options) -> str:
    """The one line with which the start-time check refuses ``options``."""
    with pytest.raises(ConfigError) as info:
        check_config(validate_config({"datasets": {"mine": options}}, SCHEMA))
    assert "\n" not in str(info.value)
    return str(info.value)


def prepare_error(options) -> str:
    """The one line with which the start-time check or the prepare job refuses ``options``."""
    with pytest.raises((ConfigError, OwnDataError)) as info:
        prepared(options)
    assert "\n" not in str(info.value)
    return str(info.value)


def save_xy(name, second, **more):
    """An .npz or .mat file holding ``X`` and ``Y`` = ``second`` (and ``more``)."""
    if name.endswith(".npz"):
        np.savez(name, X=X, Y=second, **more)
    else:
        scipy.io.savemat(name, {"X": X, "Y": second, **more})


# -- the second view of an .npz/.mat file ---------------------------------------------------
@pytest.mark.parametrize("name", ["xy.npz", "xy.mat"])
@pytest.mark.parametrize("kind", [None, "dense"], ids=["kind guessed", "kind dense"])
def test_labels_named_Y_are_labels_not_a_second_view(here, name, kind):
    save_xy(name, CLASSES)
    spec, data = prepared({"file": name, "label": "Y", "kind": kind})
    assert (spec.kind, spec.labelled, data.Y) == ("dense", True, None)
    assert data.y.tolist() == CLASSES.tolist() and spec.size_bounds() == {"n": 12, "p": 3}


@pytest.mark.parametrize("name", ["a.npz", "a.mat"])
def test_features_named_Y_are_not_also_the_second_view(here, name):
    save_xy(name, X, y=CLASSES)
    spec, data = prepared({"file": name, "features": "Y"})
    assert spec.kind == "dense" and data.Y is None and spec.labelled


@pytest.mark.parametrize("second, shape", [(CLASSES, "(12,)"), (np.zeros((12, 2, 2)), "(12, 2, 2)"),
                                           (np.zeros((5, 2)), "(5, 2)")],
                         ids=["1-D", "3-D", "other rows"])
def test_a_default_second_view_that_is_no_matrix_of_the_rows_is_refused_at_start(here, second,
                                                                                 shape):
    save_xy("xy.npz", second)
    assert start_error({"file": "xy.npz"}) == (
        f"config: datasets.mine.file: got 'xy.npz'; the second view, array 'Y', has shape "
        f"{shape}; expected a 2-D matrix with the 12 rows of the features; array 'Y' is the "
        f"second view by default: if it holds the labels, set datasets.mine.label: Y")


def test_a_named_second_view_of_other_rows_in_a_mat_file_is_refused(here):
    scipy.io.savemat("a.mat", {"X": X, "other": np.zeros((5, 2))})
    assert start_error({"file": "a.mat", "second_view": "other"}).startswith(
        "config: datasets.mine.second_view: got 'other'; a.mat: the second view, variable "
        "'other', has shape (5, 2); expected a 2-D matrix with the 12 rows of the features")


def test_a_second_view_named_like_the_features_is_refused(here):
    np.savez("a.npz", X=X)
    assert start_error({"file": "a.npz", "second_view": "X"}).startswith(
        "config: datasets.mine.second_view: got 'X'; a.npz: array 'X' already holds the features")


# -- CSV: header, labels, unreadable files -------------------------------------------------
def test_csv_saved_with_pandas_row_index_is_refused(here):
    pd.DataFrame(X, columns=list("abc")).assign(label=CLASSES).to_csv("mine.csv")
    assert start_error({"file": "mine.csv", "label": "label"}) == (
        "config: datasets.mine.file: got 'mine.csv'; header cell 1 is empty: name every column "
        "(a pandas index column has no name; save with to_csv(..., index=False))")


def test_csv_without_header_row_is_refused(here):
    np.savetxt("mine.csv", X, delimiter=",")
    first = ", ".join(Path("mine.csv").read_text().splitlines()[0].split(","))
    assert start_error({"file": "mine.csv"}) == (
        f"config: datasets.mine.file: got 'mine.csv'; its first row ({first}) is all numbers: "
        f"a header row naming the columns is needed (np.savetxt writes one with header=..., "
        f"comments='')")


def write_labels(labels):
    rows = [f"{i},{2 * i},{label}" for i, label in enumerate(labels)]
    Path("mine.csv").write_text("\n".join(["a,b,label", *rows]) + "\n")


@pytest.mark.parametrize("labels, names, codes", [
    (["NA", "None", "null", "n/a", "nan", "NA"], ["NA", "None", "n/a", "nan", "null"],
     [0, 1, 4, 2, 3, 0]),
    (["01", "1", "2", "1.0", "10"], ["1", "2", "10"], [0, 0, 1, 0, 2]),
    (["1.0", "2.0", "2.5"], ["1", "2", "2.5"], [0, 1, 2]),
    (["01", "1", "cat"], ["01", "1", "cat"], [0, 1, 2]),
], ids=["NA-like text is a class", "numbers as numbers", "float labels", "a text column"])
def test_csv_label_column_is_read_as_written(here, labels, names, codes):
    write_labels(labels)
    _, data = prepared({"file": "mine.csv", "label": "label"})
    assert data.label_names.tolist() == names and data.y.tolist() == codes


def test_csv_empty_label_cell_is_still_refused(here):
    write_labels(["x", "", "y"])
    assert prepare_error({"file": "mine.csv", "label": "label"}) == (
        "config: datasets.mine.label: got 'label'; mine.csv: data row 2 has no label")


@pytest.mark.parametrize("content, why", [
    ("a,b,label\n1,2,x\n3,4,caf\xe9\n".encode("latin-1"),
     "is not utf-8 text (unexpected end of data); set datasets.mine.encoding to the file's "
     "encoding"),
    (b"a,b,label\n1,2,x\n3,4,y,5\n", "not a readable CSV file (Error tokenizing data. C error: "
                                     "Expected 3 fields in line 3, saw 4)"),
    (b"a,b,label\n1,2,x,9\n3,4,y,5\n", "not a readable CSV file (Error tokenizing data. C "
                                        "error: Expected 3 fields in line 2, saw 4)"),
    (b"a,b,label\n1,2,x\n3,4,y\n5,?,x\n", "column 'b' is not numeric (e.g. '?')"),
    (b"a,b,label\n", "has a header but no data rows"),
], ids=["latin-1 byte", "ragged row", "every row too long", "text cell", "header only"])
def test_unreadable_csv_is_refused_naming_key_and_file(here, content, why):
    Path("mine.csv").write_bytes(content)
    assert prepare_error({"file": "mine.csv", "label": "label"}).startswith(
        f"config: datasets.mine.file: got 'mine.csv'; {why}")


# -- svmlight, sparse .npz ------------------------------------------------------------------
@pytest.mark.parametrize("name, opener", [("B.SVM.GZ", gzip.open), ("C.svm.BZ2", bz2.open)],
                         ids=["gzip B.SVM.GZ", "bzip2 C.svm.BZ2"])
def test_compressed_svmlight_with_upper_case_suffix(here, name, opener):
    dump_svmlight_file(sp.csr_matrix(np.abs(X)), CLASSES, "plain.svm")
    with open("plain.svm", "rb") as src, opener(name, "wb") as dst:
        dst.write(src.read())
    _, data = prepared({"file": name})
    np.testing.assert_allclose(data.X.toarray(), np.abs(X))
    assert data.y.tolist() == CLASSES.tolist()


@pytest.mark.parametrize("fmt", ["coo", "csc", "dia"])
def test_sparse_npz_of_any_format(here, fmt):
    matrix = sp.random(12, 30, density=0.1, format=fmt, random_state=0)
    sp.save_npz("mine.npz", matrix)
    spec, data = prepared({"file": "mine.npz"})
    assert spec.kind == "sparse" and spec.size_bounds() == {"n": 12, "p": 30}
    assert sp.isspmatrix_csr(data.X)
    np.testing.assert_allclose(data.X.toarray(), matrix.toarray())


# -- label names ----------------------------------------------------------------------------
def cellstr(labels):
    cells = np.empty((len(labels), 1), dtype=object)
    cells[:, 0] = labels
    return cells


@pytest.mark.parametrize("name, save", [
    ("cell.mat", lambda p, y: scipy.io.savemat(p, {"X": X[:4], "y": cellstr(y)})),
    ("char.mat", lambda p, y: scipy.io.savemat(p, {"X": X[:4], "y": np.array(y)})),
    ("bytes.npz", lambda p, y: np.savez(p, X=X[:4], y=np.array(y, dtype=bytes))),
], ids=["MATLAB cellstr", "MATLAB char matrix", "npz bytes"])
def test_text_labels_of_mat_and_npz_are_named_as_written(here, name, save):
    save(name, ["cat", "bird", "cat", "bird"])
    _, data = prepared({"file": name})
    assert data.label_names.tolist() == ["bird", "cat"] and data.y.tolist() == [1, 0, 1, 0]


def test_numbered_label_folders_order_as_numbers(here):
    for label in ("2", "10", "1"):
        (here / "docs" / label).mkdir(parents=True)
        (here / "docs" / label / "a.txt").write_text(f"words of class number{label}")
    _, data = prepared({"file": "docs"})
    assert data.label_names.tolist() == ["1", "2", "10"]
    assert data.y.tolist() == [0, 2, 1]  # files in folder order 1, 10, 2
