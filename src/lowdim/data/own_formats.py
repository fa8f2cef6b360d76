"""Readers of the file formats a user's own data may come in (``datasets: {name: {file: ...}}``).

Two halves per format: *inspect* reads only what is cheap (a header, the list of
variables, the folder tree) so that the workflow can check a config when it
starts; *read* loads the data for the ``prepare`` job. Both raise
:class:`OwnDataError`, whose one-line message names the config key and the file.

======================  ==========================================================
format                  what is read
======================  ==========================================================
``npy``                 one 2-D numeric array (``numpy.save``)
``npz``                 ``scipy.sparse.save_npz`` (any sparse format, read as CSR), or
                        ``numpy.savez`` arrays: features ``X`` (or the only 2-D array),
                        labels ``y``, second view ``Y`` (unless features or labels)
``csv``, ``tsv``        a header row naming every column, then numeric columns; one
                        column may hold labels (read as text)
``svmlight``            ``<label> <index>:<value> ...`` (LIBSVM), optionally ``.gz``/``.bz2``
``mat``                 MATLAB v4-v7.2 (``scipy.io.loadmat``): named variables
``folder``              text files, one per document; one sub-folder per label (or none)
======================  ==========================================================
"""

from __future__ import annotations

import bz2
import gzip
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
_SPARSE_NPZ = {"format", "shape"}  # every format scipy.sparse.save_npz writes has these
_OPENERS = {".gz": gzip.open, ".bz2": bz2.open}


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
        return _inspect_sparse_npz(path, key, headers)
    two_d = sorted(name for name, (shape, _) in headers.items() if len(shape) == 2)
    x_name = _pick(headers, features, "X", "array", key, f"{section}.features", path)
    if x_name is None and len(two_d) == 1:
        x_name = two_d[0]
    if x_name is None:
        raise OwnDataError(key, str(path), f"which array holds the features? It holds "
                                           f"{', '.join(sorted(headers)) or 'nothing'}; name "
                                           f"one with {section}.features (or call it X)")
    _check_matrix_shape(*headers[x_name], path, key, what=f"array {x_name!r}")
    y_name, view = _label_and_view(headers, x_name, label, second_view, "array", key, path)
    if view is not None:
        _check_matrix_shape(*headers[view], path, key, what=f"array {view!r}")
    return MatrixFile("npz", labelled=y_name is not None, second_view=view is not None,
                      shape_x=headers[x_name][0],
                      shape_y=headers[view][0] if view else None,
                      features_name=x_name, label_name=y_name, view_name=view)


def _inspect_sparse_npz(path, key, headers):
    """A matrix written by ``scipy.sparse.save_npz`` (CSR, CSC, COO, ...): its shape alone."""
    with np.load(path, allow_pickle=False) as store:
        shape = tuple(int(v) for v in store["shape"])
    dtype = headers["data"][1] if "data" in headers else np.dtype(np.float64)
    _check_matrix_shape(shape, dtype, path, key, what="the sparse matrix")
    return MatrixFile("npz", sparse=True, shape_x=shape)


def _label_and_view(names, x_name, label, second_view, what, key, path):
    """The labels' and second view's names: as given, else ``y`` and ``Y`` where present
    and not already the features' (or labels') name; a second view must pair with X."""
    section = key.rpartition(".")[0]
    y_name = _pick(names, label, None if x_name == "y" else "y", what, key, f"{section}.label",
                   path)
    claimed = {x_name: "features", y_name: "labels"}
    if second_view is not None and second_view in claimed:
        raise OwnDataError(f"{section}.second_view", second_view,
                           f"{path.name}: {what} {second_view!r} already holds the "
                           f"{claimed[second_view]}; name another {what} as the second view")
    view = _pick(names, second_view, None if "Y" in claimed else "Y", what, key,
                 f"{section}.second_view", path)
    if view is not None:
        _check_view(names[view][0], names[x_name][0][0], view, second_view is None, what, key,
                    path)
    return y_name, view


def _check_view(shape, n_rows, name, by_default, what, key, path):
    """Refuse a second view that is not a 2-D matrix with the rows of the features."""
    if len(shape) == 2 and shape[0] == n_rows:
        return
    section = key.rpartition(".")[0]
    option, value = (key, str(path)) if by_default else (f"{section}.second_view", name)
    hint = (f"; {what} {name!r} is the second view by default: if it holds the labels, set "
            f"{section}.label: {name}") if by_default else ""
    where = "" if by_default else f"{path.name}: "
    raise OwnDataError(option, value, f"{where}the second view, {what} {name!r}, has shape "
                                      f"{tuple(shape)}; expected a 2-D matrix with the "
                                      f"{n_rows} rows of the features{hint}")


def _separator(fmt) -> str:
    return "\t" if fmt == "tsv" else ","


def _csv(path, fmt, key, encoding, **options):
    """``pandas.read_csv`` of ``path``; a file it cannot read is an :class:`OwnDataError`."""
    import pandas as pd

    try:
        return pd.read_csv(path, sep=_separator(fmt), encoding=encoding, **options)
    except UnicodeDecodeError as exc:
        raise OwnDataError(key, str(path), f"is not {encoding} text ({exc.reason}); set "
                                           f"{key.rpartition('.')[0]}.encoding to the file's "
                                           f"encoding") from None
    except (ValueError, OSError, EOFError) as exc:  # pandas' ParserError is a ValueError
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise OwnDataError(key, str(path), f"not a readable {fmt.upper()} file ({first})") from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _check_header(cells, path, key):
    """Refuse an empty header cell (a pandas row index) and a first row of numbers (no header)."""
    empty = [i for i, cell in enumerate(cells) if not cell.strip()]
    if empty:
        raise OwnDataError(key, str(path), f"header cell {empty[0] + 1} is empty: name every "
                                           f"column (a pandas index column has no name; save "
                                           f"with to_csv(..., index=False))")
    pandas_names = [str(i) for i in range(len(cells))]  # pd.DataFrame(X).to_csv(index=False)
    if all(map(_is_number, cells)) and cells != pandas_names:
        shown = ", ".join(cells[:4]) + (", ..." if len(cells) > 4 else "")
        raise OwnDataError(key, str(path), f"its first row ({shown}) is all numbers: a header "
                                           f"row naming the columns is needed (np.savetxt "
                                           f"writes one with header=..., comments='')")


def _inspect_table(path, key, *, fmt, label=None, encoding="utf-8", **_):
    first = _csv(path, fmt, key, encoding, header=None, nrows=2, dtype=str,
                 keep_default_na=False)  # a longer data row is an error, not an index column
    _check_header([str(cell) for cell in first.iloc[0].tolist()], path, key)
    columns = list(_csv(path, fmt, key, encoding, nrows=0).columns)
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
    y_name, view = _label_and_view(variables, x_name, label, second_view, "variable", key, path)
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
        try:
            info.X = sp.csr_matrix(sp.load_npz(path))
        except (ValueError, KeyError, OSError) as exc:
            raise OwnDataError(key, str(path), f"not a sparse matrix as scipy.sparse.save_npz "
                                               f"writes ({exc})") from None
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
    label, fmt = info.label_name, info.format
    frame = _csv(path, fmt, key, encoding, index_col=False)
    if frame.empty:
        raise OwnDataError(key, str(path), "has a header but no data rows")
    if label is not None:  # read again as text: "NA", "01", "1.0" are not for pandas to parse
        cells = _csv(path, fmt, key, encoding, usecols=[label], dtype=str, keep_default_na=False)
        info.y = _table_labels(cells[label].to_numpy(dtype=object), path, key, label)
        frame = frame.drop(columns=label)
    _check_numeric(frame, path, key)
    info.X = frame.to_numpy(dtype=np.float64)


def _table_labels(cells, path, key, label):
    """The label column: numbers if every cell is a number (01, 1 and 1.0 are one), else the
    text as written; an empty cell is refused."""
    import pandas as pd

    empty = np.flatnonzero([not (isinstance(cell, str) and cell.strip()) for cell in cells])
    if empty.size:
        raise OwnDataError(f"{key.rpartition('.')[0]}.label", label,
                           f"{path.name}: data row {empty[0] + 1} has no label")
    try:
        numbers = pd.to_numeric(pd.Series(cells, dtype=object))
    except (ValueError, TypeError):
        return cells.astype(str)
    return cells.astype(str) if numbers.isna().any() else numbers.to_numpy()


def _check_numeric(frame, path, key):
    """Refuse a feature column that holds text, showing one of its text cells."""
    import pandas as pd

    for name in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[name]):
            cells = frame[name].dropna()
            bad = cells[pd.to_numeric(cells, errors="coerce").isna()].astype(str).tolist()
            raise OwnDataError(key, str(path), f"column {name!r} is not numeric (e.g. "
                                               f"{(bad or [''])[0]!r}); features must be "
                                               f"numbers, and only the label column may hold "
                                               f"text")


def _read_svmlight(path, info, key, **_):
    from sklearn.datasets import load_svmlight_file

    opener = _OPENERS.get(path.suffix.lower(), open)  # sklearn's own choice is case-sensitive
    try:
        with opener(path, "rb") as fh:
            X, y = load_svmlight_file(fh)
    except (ValueError, OSError, EOFError) as exc:
        raise OwnDataError(key, str(path), f"not a readable svmlight/libsvm file "
                                           f"({str(exc).splitlines()[0]})") from None
    info.X, info.y = X, y


def _read_mat(path, info, key, **_):
    import scipy.io

    x_name, y_name, view = info.features_name, info.label_name, info.view_name
    mat = scipy.io.loadmat(path, variable_names=[n for n in (x_name, y_name, view) if n])
    info.X = mat[x_name]
    if y_name:
        labels = mat[y_name]  # rows of a MATLAB char matrix are padded with spaces
        info.y = _labels_1d(np.char.rstrip(labels) if labels.dtype.kind == "U" else labels,
                            path, key)
    info.Y = mat[view] if view else None


def _labels_1d(values, path, key):
    values = np.asarray(values)
    if values.ndim == 2 and 1 in values.shape:
        values = values.ravel()  # MATLAB keeps vectors as (n, 1) or (1, n)
    if values.ndim != 1:
        raise OwnDataError(key, str(path), f"labels have shape {values.shape}; expected one "
                                           f"label per row")
    if values.dtype.kind == "S":  # numpy bytes
        return np.char.decode(values, "utf-8", "replace")
    if values.dtype == object:  # a MATLAB cell array: one small array per cell
        return np.asarray([_cell_label(cell, row, path, key) for row, cell in enumerate(values)])
    return values


def _cell_label(cell, row, path, key):
    """The one text or number in a cell of a MATLAB cell array of labels."""
    while isinstance(cell, np.ndarray):
        if cell.size != 1:
            raise OwnDataError(key, str(path), f"the label of row {row} is a cell holding "
                                               f"{cell.size} values; expected one text or "
                                               f"number per cell")
        cell = cell.item()
    return cell


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
