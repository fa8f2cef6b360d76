"""Readers of the file formats a user's own data may come in (``datasets: {name: {file: ...}}``).

Two halves per format: *inspect* reads only what is cheap (a header, the list of
variables, the folder tree) so that the workflow can check a config when it
starts; *read* loads the data for the ``prepare`` job. Both raise
:class:`OwnDataError`, whose one-line message names the config key and the file.

======================  ==========================================================
format                  what is read
======================  ==========================================================
``npy``                 one 2-D numeric array (``numpy.save``)
``npz``                 ``scipy.sparse.save_npz`` (CSR/CSC), or ``numpy.savez`` arrays:
                        features ``X`` (or the only 2-D array), labels ``y``,
                        second view ``Y``
``csv``, ``tsv``        a header row, then numeric columns; one column may hold labels
``svmlight``            ``<label> <index>:<value> ...`` (LIBSVM), optionally ``.gz``/``.bz2``
``mat``                 MATLAB v4-v7.2 (``scipy.io.loadmat``): named variables
``folder``              text files, one per document; one sub-folder per label (or none)
======================  ==========================================================
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

__all__ = ["FORMATS", "MatrixFile", "OwnDataError", "guess_format", "inspect_matrix",
           "inspect_folder", "read_matrix", "read_folder"]

#: Formats of own data, and the file names each is guessed from (compression stripped).
FORMATS = {"npy": (".npy",), "npz": (".npz",), "csv": (".csv",), "tsv": (".tsv", ".tab"),
           "svmlight": (".svm", ".svmlight", ".libsvm"), "mat": (".mat",), "folder": ()}
_COMPRESSED = (".gz", ".bz2")
_CAN_BE_COMPRESSED = ("csv", "tsv", "svmlight")
_SPARSE_NPZ = {"data", "indices", "indptr", "format", "shape"}


class OwnDataError(ValueError):
    """Own data that cannot be read as declared: ``config: <key>: got <value>; <why>``.

    Examples
    --------
    >>> from lowdim.data.own_formats import OwnDataError, guess_format
    >>> try:
    ...     guess_format(Path("mine.xlsx"), "datasets.mine.file")
    ... except OwnDataError as err:
    ...     print(str(err).split(";")[0])
    config: datasets.mine.file: got 'mine.xlsx'
    """

    def __init__(self, key: str, value, why: str):
        self.key, self.value = key, value
        super().__init__(f"config: {key}: got {value!r}; {why}")


@dataclass
class MatrixFile:
    """What one matrix file holds: its features, and the labels and second view if any.

    ``shape_x``/``shape_y``/``n_labels`` are filled by inspection (None when only
    reading the data can tell); ``X``, ``y``, ``Y`` by :func:`read_matrix`.

    Examples
    --------
    >>> from lowdim.data.own_formats import inspect_matrix
    >>> np.save(tmp / "X.npy", rng.random((5, 3)))
    >>> info = inspect_matrix(tmp / "X.npy", "npy", "datasets.mine.file")
    >>> info.format, info.labelled, info.shape_x, info.X is None
    ('npy', False, (5, 3), True)
    """

    format: str
    sparse: bool = False
    labelled: bool = False
    second_view: bool = False
    shape_x: tuple | None = None
    shape_y: tuple | None = None
    features_name: str | None = None
    label_name: str | None = None
    view_name: str | None = None
    X: object = None
    y: np.ndarray | None = None
    Y: object = None


def guess_format(path: Path, key: str) -> str:
    """The format of ``path`` from its name (a folder is ``folder``).

    Examples
    --------
    >>> from lowdim.data.own_formats import guess_format
    >>> [guess_format(Path(name), "datasets.mine.file") for name in
    ...  ("x.npy", "x.csv.gz", "x.libsvm", "x.mat")]
    ['npy', 'csv', 'svmlight', 'mat']
    """
    if path.is_dir():
        return "folder"
    suffixes = [s.lower() for s in path.suffixes]
    compressed = bool(suffixes) and suffixes[-1] in _COMPRESSED
    last = suffixes[-2] if compressed and len(suffixes) > 1 else (suffixes[-1] if suffixes else "")
    for fmt, endings in FORMATS.items():
        if last in endings and (not compressed or fmt in _CAN_BE_COMPRESSED):
            return fmt
    known = ", ".join(f"{fmt} ({' '.join(e)})" for fmt, e in FORMATS.items() if e)
    raise OwnDataError(key, str(path), f"cannot tell its format from the name; set "
                                       f"{key.rpartition('.')[0]}.format to one of: {known}, "
                                       f"folder")


# -- inspection: cheap facts for the start-time checks --------------------------------------
def inspect_matrix(path: Path, fmt: str, key: str, *, features=None, label=None,
                   second_view=None, encoding="utf-8") -> MatrixFile:
    """What ``path`` holds, from its header or variable list (the data are not read).

    Examples
    --------
    >>> path = tmp / "mine.csv"
    >>> _ = path.write_text("a,b,label\\n1.0,2.0,x\\n3.0,4.0,y\\n")
    >>> from lowdim.data.own_formats import inspect_matrix
    >>> info = inspect_matrix(path, "csv", "datasets.mine.file", label="label")
    >>> info.shape_x, info.labelled, info.label_name
    ((None, 2), True, 'label')
    """
    inspect = {"npy": _inspect_npy, "npz": _inspect_npz, "csv": _inspect_table,
               "tsv": _inspect_table, "svmlight": _inspect_svmlight, "mat": _inspect_mat}
    if fmt not in inspect:
        raise OwnDataError(key, str(path), f"format {fmt!r} holds no matrix; use one of "
                                           f"{', '.join(inspect)}")
    return inspect[fmt](path, key, fmt=fmt, features=features, label=label,
                        second_view=second_view, encoding=encoding)


def _inspect_npy(path, key, **_):
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise OwnDataError(key, str(path), f"not a NumPy .npy file ({exc})") from None
    _check_matrix_shape(array.shape, array.dtype, path, key)
    return MatrixFile("npy", shape_x=tuple(array.shape))


def _npz_headers(path, key) -> dict:
    """``name -> (shape, dtype)`` of the arrays in an ``.npz``, from their headers alone."""
    headers = {}
    try:
        with zipfile.ZipFile(path) as archive:
            for member in archive.namelist():
                with archive.open(member) as fh:
                    version = np.lib.format.read_magic(fh)
                    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                            else np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(fh)
                headers[member.removesuffix(".npy")] = (tuple(shape), dtype)
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise OwnDataError(key, str(path), f"not a NumPy .npz archive ({exc})") from None
    return headers


def _pick(headers: dict, wanted, default, what: str, key: str, option: str, path) -> str | None:
    """The array named ``wanted`` (must exist), else ``default`` if present, else None."""
    if wanted is not None:
        if wanted not in headers:
            raise OwnDataError(option, wanted, f"{path.name} has no {what} {wanted!r}; it "
                                               f"holds: {', '.join(sorted(headers))}")
        return wanted
    return default if default in headers else None


def _inspect_npz(path, key, *, features=None, label=None, second_view=None, **_):
    headers = _npz_headers(path, key)
    section = key.rpartition(".")[0]
    if _SPARSE_NPZ <= set(headers):
        shape = tuple(int(v) for v in np.load(path, allow_pickle=False)["shape"])
        return MatrixFile("npz", sparse=True, shape_x=shape)
    two_d = sorted(name for name, (shape, _) in headers.items() if len(shape) == 2)
    x_name = _pick(headers, features, "X", "array", key, f"{section}.features", path)
    if x_name is None and len(two_d) == 1:
        x_name = two_d[0]
    if x_name is None:
        raise OwnDataError(key, str(path), f"which array holds the features? It holds "
                                           f"{', '.join(sorted(headers)) or 'nothing'}; name "
                                           f"one with {section}.features (or call it X)")
    _check_matrix_shape(*headers[x_name], path, key, what=f"array {x_name!r}")
    y_name = _pick(headers, label, "y", "array", key, f"{section}.label", path)
    view = _pick(headers, second_view, "Y", "array", key, f"{section}.second_view", path)
    return MatrixFile("npz", labelled=y_name is not None, second_view=view is not None,
                      shape_x=headers[x_name][0],
                      shape_y=headers[view][0] if view else None,
                      features_name=x_name, label_name=y_name, view_name=view)


def _separator(fmt) -> str:
    return "\t" if fmt == "tsv" else ","


def _inspect_table(path, key, *, fmt, label=None, encoding="utf-8", **_):
    import pandas as pd

    try:
        columns = list(pd.read_csv(path, sep=_separator(fmt), nrows=0, encoding=encoding).columns)
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise OwnDataError(key, str(path), f"not a readable {fmt.upper()} file "
                                           f"({str(exc).splitlines()[0]})") from None
    if label is not None and label not in columns:
        shown = ", ".join(map(str, columns[:20])) + (" ..." if len(columns) > 20 else "")
        raise OwnDataError(f"{key.rpartition('.')[0]}.label", label,
                           f"{path.name} has no column {label!r}; its header: {shown}")
    width = len(columns) - (label is not None)
    if width < 1:
        raise OwnDataError(key, str(path), "needs a header row and at least one feature column")
    return MatrixFile(fmt, labelled=label is not None, shape_x=(None, width), label_name=label)


def _inspect_svmlight(path, key, **_):
    return MatrixFile("svmlight", sparse=True, labelled=True)


def _inspect_mat(path, key, *, features=None, label=None, second_view=None, **_):
    import scipy.io

    try:
        variables = {name: (tuple(shape), cls) for name, shape, cls in scipy.io.whosmat(path)}
    except NotImplementedError:
        raise OwnDataError(key, str(path), "a MATLAB v7.3 (HDF5) file; scipy reads v4 to "
                                           "v7.2: save it with save(..., '-v7')") from None
    except (ValueError, TypeError, OSError) as exc:
        raise OwnDataError(key, str(path), f"not a MATLAB .mat file ({exc})") from None
    section = key.rpartition(".")[0]
    x_name = _pick(variables, features, "X", "variable", key, f"{section}.features", path)
    if x_name is None:
        raise OwnDataError(key, str(path), f"which variable holds the features? It holds "
                                           f"{', '.join(sorted(variables)) or 'nothing'}; name "
                                           f"one with {section}.features (or call it X)")
    y_name = _pick(variables, label, "y", "variable", key, f"{section}.label", path)
    view = _pick(variables, second_view, "Y", "variable", key, f"{section}.second_view", path)
    shape, cls = variables[x_name]
    return MatrixFile("mat", sparse=cls == "sparse", labelled=y_name is not None,
                      second_view=view is not None, shape_x=shape,
                      shape_y=variables[view][0] if view else None,
                      features_name=x_name, label_name=y_name, view_name=view)


def _check_matrix_shape(shape, dtype, path, key, what="the array"):
    if len(shape) != 2:
        raise OwnDataError(key, str(path), f"{what} has shape {tuple(shape)}; expected a 2-D "
                                           f"matrix (n_samples, n_features)")
    if not (np.issubdtype(dtype, np.number) or np.issubdtype(dtype, np.bool_)):
        raise OwnDataError(key, str(path), f"{what} has dtype {dtype}; expected numbers")


def inspect_folder(path: Path, key: str) -> tuple[list[Path], list[str] | None]:
    """The documents of a folder of text files, and their labels (sub-folder names) or None.

    Hidden files and folders (names starting with ``.``) are skipped. Files must
    all sit directly in ``path`` (unlabelled) or all in its sub-folders (one per label).

    Examples
    --------
    >>> from lowdim.data.own_formats import inspect_folder
    >>> for label, name in (("neg", "a.txt"), ("pos", "b.txt"), ("pos", "c.txt")):
    ...     (tmp / label).mkdir(exist_ok=True)
    ...     _ = (tmp / label / name).write_text("some words")
    >>> files, labels = inspect_folder(tmp, "datasets.mine.file")
    >>> [f.name for f in files], labels
    (['a.txt', 'b.txt', 'c.txt'], ['neg', 'pos', 'pos'])
    """
    visible = sorted(p for p in path.iterdir() if not p.name.startswith("."))
    top = [p for p in visible if p.is_file()]
    folders = [p for p in visible if p.is_dir()]
    if folders and top:
        raise OwnDataError(key, str(path), f"mixes files ({top[0].name}, ...) with label "
                                           f"sub-folders ({folders[0].name}, ...); put every "
                                           f"document in the sub-folder of its label")
    if not folders:
        files, labels = top, None
    else:
        files, labels = [], []
        for folder in folders:
            inside = sorted(p for p in folder.rglob("*") if p.is_file()
                            and not any(part.startswith(".") for part in
                                        p.relative_to(folder).parts))
            files += inside
            labels += [folder.name] * len(inside)
    if not files:
        raise OwnDataError(key, str(path), "holds no text files (expected one file per "
                                           "document, in one sub-folder per label or directly)")
    return files, labels


# -- reading: the data, for the prepare job -----------------------------------------------
def read_matrix(path: Path, info: MatrixFile, key: str, *, encoding="utf-8") -> MatrixFile:
    """Fill ``info.X`` (and ``y``, ``Y`` where the file has them) from ``path``.

    Examples
    --------
    >>> path = tmp / "mine.csv"
    >>> _ = path.write_text("a,b,label\\n1.0,2.0,x\\n3.0,4.0,y\\n")
    >>> from lowdim.data.own_formats import inspect_matrix, read_matrix
    >>> info = read_matrix(path, inspect_matrix(path, "csv", "k", label="label"), "k")
    >>> info.X.tolist(), info.y.tolist()
    ([[1.0, 2.0], [3.0, 4.0]], ['x', 'y'])
    """
    readers = {"npy": _read_npy, "npz": _read_npz, "csv": _read_table, "tsv": _read_table,
               "svmlight": _read_svmlight, "mat": _read_mat}
    readers[info.format](path, info, key, encoding=encoding)
    for name in ("X", "Y"):
        value = getattr(info, name)
        if value is not None:
            setattr(info, name, _finite(value, path, key, name))
    if info.y is not None and len(info.y) != info.X.shape[0]:
        raise OwnDataError(key, str(path), f"has {len(info.y)} labels for {info.X.shape[0]} rows")
    return info


def _finite(matrix, path, key, name):
    """``matrix`` as float64 (CSR if sparse), refusing NaN and infinities by position."""
    if sp.issparse(matrix):
        matrix = sp.csr_matrix(matrix, dtype=np.float64)
        bad = ~np.isfinite(matrix.data)
        if bad.any():
            row = int(np.searchsorted(matrix.indptr, np.flatnonzero(bad)[0], side="right") - 1)
            raise OwnDataError(key, str(path), f"{name} has NaN or infinite values (first in "
                                               f"row {row})")
        return matrix
    matrix = np.asarray(matrix, dtype=np.float64)
    bad = ~np.isfinite(matrix)
    if bad.any():
        row, col = map(int, np.argwhere(bad)[0])
        raise OwnDataError(key, str(path), f"{name} has NaN or infinite values (first at row "
                                           f"{row}, column {col})")
    return matrix


def _read_npy(path, info, key, **_):
    info.X = np.load(path, allow_pickle=False)


def _read_npz(path, info, key, **_):
    if info.sparse:
        info.X = sp.load_npz(path)
        return
    x_name, y_name, view = info.features_name, info.label_name, info.view_name
    with np.load(path, allow_pickle=False) as store:
        try:
            info.X = store[x_name]
            info.y = _labels_1d(store[y_name], path, key) if y_name else None
            info.Y = store[view] if view else None
        except ValueError as exc:  # an object array: it would need pickle
            raise OwnDataError(key, str(path), f"holds Python objects ({exc}); save numbers "
                                               f"and strings only") from None


def _read_table(path, info, key, *, encoding="utf-8"):
    import pandas as pd

    frame = pd.read_csv(path, sep=_separator(info.format), encoding=encoding)
    label = info.label_name
    if label is not None:
        if frame[label].isna().any():
            row = int(np.flatnonzero(frame[label].isna().to_numpy())[0])
            raise OwnDataError(f"{key.rpartition('.')[0]}.label", label,
                               f"{path.name}: data row {row + 1} has no label")
        info.y = frame.pop(label).astype(str).to_numpy()
    text = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if text:
        example = frame[text[0]].dropna().astype(str).head(1).tolist()
        raise OwnDataError(key, str(path), f"column {text[0]!r} is not numeric (e.g. "
                                           f"{example[0] if example else ''!r}); features must "
                                           f"be numbers, and only the label column may hold "
                                           f"text")
    info.X = frame.to_numpy(dtype=np.float64)


def _read_svmlight(path, info, key, **_):
    from sklearn.datasets import load_svmlight_file

    try:
        X, y = load_svmlight_file(str(path))
    except (ValueError, OSError) as exc:
        raise OwnDataError(key, str(path), f"not a readable svmlight/libsvm file "
                                           f"({str(exc).splitlines()[0]})") from None
    info.X, info.y = X, y


def _read_mat(path, info, key, **_):
    import scipy.io

    x_name, y_name, view = info.features_name, info.label_name, info.view_name
    mat = scipy.io.loadmat(path, variable_names=[n for n in (x_name, y_name, view) if n])
    info.X = mat[x_name]
    info.y = _labels_1d(mat[y_name], path, key) if y_name else None
    info.Y = mat[view] if view else None


def _labels_1d(values, path, key):
    values = np.asarray(values)
    if values.ndim == 2 and 1 in values.shape:
        values = values.ravel()  # MATLAB keeps vectors as (n, 1) or (1, n)
    if values.ndim != 1:
        raise OwnDataError(key, str(path), f"labels have shape {values.shape}; expected one "
                                           f"label per row")
    return values


def read_folder(files, key: str, encoding="utf-8") -> list[str]:
    """The text of each file, decoded with ``encoding``.

    Examples
    --------
    >>> from lowdim.data.own_formats import read_folder
    >>> path = tmp / "a.txt"
    >>> _ = path.write_bytes("café".encode("latin-1"))
    >>> read_folder([path], "datasets.mine.file", encoding="latin-1")
    ['café']
    """
    texts = []
    for path in files:
        try:
            texts.append(Path(path).read_text(encoding=encoding))
        except UnicodeDecodeError as exc:
            raise OwnDataError(key, str(path), f"is not {encoding} text ({exc.reason} at byte "
                                               f"{exc.start}); set "
                                               f"{key.rpartition('.')[0]}.encoding") from None
    return texts
