"""Your own data, declared in the config: ``datasets: {mine: {file: mine.csv, label: label}}``.

A name under ``datasets:`` that is not in the registry declares the user's own
data: ``file`` (a file, or a folder of text files) or ``file_x`` and ``file_y``
(two views as two files). :func:`own_spec` turns the declaration into a
:class:`~lowdim.data.registry.DatasetSpec` like any registered dataset's, so the
same ``prepare`` rule, start-time checks (kind, labels, sizes) and experiments
apply. The format is guessed from the file name (:data:`own_formats.FORMATS
<lowdim.data.own_formats.FORMATS>`) and the kind from the contents; both can be
set. Relative paths are relative to the working directory.

Kinds: ``text`` from a folder; ``two_view`` from ``file_x``/``file_y``, or from an
``.npz``/``.mat`` file that holds a second view (``Y``); ``sparse`` from svmlight
files, sparse ``.npz`` and sparse MATLAB variables; ``dense`` otherwise. Setting
``kind: sparse`` on dense data (or ``dense`` on sparse) converts it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .own_formats import (FORMATS, OwnDataError, guess_format, inspect_folder, inspect_matrix,
                          read_folder, read_matrix)
from .parsing import encode_labels, kept_rows, subsample
from .prepared import Dataset
from .registry import REGISTRY, DatasetSpec, get_spec
from .text import text_dataset

__all__ = ["FILE_KEYS", "OWN_KINDS", "OWN_OPTIONS", "OwnDataError", "declares_own_data",
           "own_files", "own_spec"]

#: Options that declare own data; one of ``file`` or the pair ``file_x``, ``file_y``.
FILE_KEYS = ("file", "file_x", "file_y")
#: Kinds own data can have.
OWN_KINDS = ("dense", "sparse", "text", "two_view")

_PATH = {"type": ["string", "null"], "default": None}
#: The options of own data (a JSON-schema ``properties`` object, every one with a default).
OWN_OPTIONS = {
    "file": {**_PATH, "description": "the data: a file, or a folder of text files"},
    "file_x": {**_PATH, "description": "first view of two-view data (with file_y)"},
    "file_y": {**_PATH, "description": "second view of two-view data (with file_x)"},
    "format": {"enum": [None, *FORMATS], "default": None,
               "description": "file format; guessed from the file name"},
    "kind": {"enum": [None, *OWN_KINDS], "default": None,
             "description": "dataset kind; guessed from the contents"},
    "label": {"type": ["string", "null"], "default": None,
              "description": "label column (csv, tsv) or array/variable (npz, mat; default y)"},
    "features": {"type": ["string", "null"], "default": None,
                 "description": "array/variable of the features (npz, mat; default X)"},
    "second_view": {"type": ["string", "null"], "default": None,
                    "description": "array/variable of the second view (npz, mat; default Y)"},
    "encoding": {"type": "string", "default": "utf-8",
                 "description": "text encoding of csv, tsv and text files"},
    "min_count": {"type": "integer", "minimum": 1, "default": 1,
                  "description": "text: keep words seen at least this many times"},
    "n_rows": {"type": "integer", "minimum": 0, "default": 0,
               "description": "rows to keep (random, seeded); 0 keeps all"},
    "seed": {"type": "integer", "minimum": 0, "default": 0, "description": "seed for row sampling"},
    "description": {"type": "string", "default": "", "description": "one line for the tables"},
}


def declares_own_data(options) -> bool:
    """True when dataset ``options`` name a file of the user's own data.

    Examples
    --------
    >>> from lowdim.data import declares_own_data
    >>> declares_own_data({"file": "mine.csv"}), declares_own_data({"n_rows": 300})
    (True, False)
    """
    return isinstance(options, dict) and any(options.get(key) for key in FILE_KEYS)


def _defaults(options) -> dict:
    return {**{key: prop["default"] for key, prop in OWN_OPTIONS.items()}, **(options or {})}


def _existing(name, key, value) -> Path:
    path = Path(value).expanduser()
    if not path.exists():
        raise OwnDataError(f"datasets.{name}.{key}", value,
                           f"no such file or folder (looked for {path.resolve()})")
    return path


def _declared_files(name, options) -> dict:
    """``option -> Path`` of the files ``options`` declare, each checked to exist."""
    given = [key for key in FILE_KEYS if options.get(key)]
    if "file" in given and len(given) > 1:
        raise OwnDataError(f"datasets.{name}", {k: options[k] for k in given},
                           "give either `file` or both `file_x` and `file_y`")
    if given in (["file_x"], ["file_y"]):
        other = "file_y" if given == ["file_x"] else "file_x"
        raise OwnDataError(f"datasets.{name}.{given[0]}", options[given[0]],
                           f"two-view data need `{other}` too")
    return {key: _existing(name, key, options[key]) for key in given}


def _file_format(name, key, path, options) -> str:
    fmt = options["format"] or guess_format(path, f"datasets.{name}.{key}")
    if (fmt == "folder") != path.is_dir():
        raise OwnDataError(f"datasets.{name}.format", fmt,
                           f"{path} is {'a folder' if path.is_dir() else 'a file'}; the "
                           f"folder format reads a folder of text files")
    return fmt


class _Declared:
    """What the files of one own dataset hold, found by inspecting them (not reading)."""

    def __init__(self, name: str, options: dict):
        self.name, self.options = name, options
        self.paths = _declared_files(name, options)
        self.formats = {key: _file_format(name, key, path, options)
                        for key, path in self.paths.items()}
        self.views, self.documents, self.labels = {}, [], None
        if self.formats.get("file") == "folder":
            self.documents, self.labels = inspect_folder(self.paths["file"],
                                                         f"datasets.{name}.file")
        else:
            for key, path in self.paths.items():
                self.views[key] = inspect_matrix(
                    path, self.formats[key], f"datasets.{name}.{key}",
                    features=options["features"], label=options["label"] if key != "file_y"
                    else None, second_view=options["second_view"] if key == "file" else None,
                    encoding=options["encoding"])
        self.kind = self._kind()

    def _guessed_kind(self) -> str:
        if self.documents:
            return "text"
        if len(self.views) == 2 or self.views["file"].second_view:
            return "two_view"
        return "sparse" if self.views["file"].sparse else "dense"

    def _kind(self) -> str:
        guessed, wanted = self._guessed_kind(), self.options["kind"]
        if wanted is None or wanted == guessed or {wanted, guessed} == {"dense", "sparse"}:
            return wanted or guessed
        reasons = {"text": "text comes from a folder of text files",
                   "two_view": "two views come from file_x and file_y, or from an .npz/.mat "
                               "file holding a second view (Y)"}
        why = reasons.get(wanted, reasons.get(guessed))
        raise OwnDataError(f"datasets.{self.name}.kind", wanted,
                           f"the files declared hold {guessed} data; {why}")

    @property
    def labelled(self) -> bool:
        if self.documents:
            return self.labels is not None
        return self.views.get("file", self.views.get("file_x")).labelled

    def sizes(self) -> dict:
        """Upper bounds on n, p, p1, p2 that the headers tell."""
        n_rows, bounds = self.options["n_rows"], {}
        if self.documents:
            bounds["n"] = kept_rows(len(self.documents), n_rows)
        first = self.views.get("file", self.views.get("file_x"))
        shapes = [v.shape_x for v in self.views.values()]
        if first is not None and first.shape_y is not None:
            shapes.append(first.shape_y)
        rows = {s[0] for s in shapes if s is not None and s[0] is not None}
        if len(rows) > 1:
            raise OwnDataError(f"datasets.{self.name}", {k: str(p) for k, p in self.paths.items()},
                               f"the views have different numbers of rows: {sorted(rows)}")
        if rows:
            bounds["n"] = kept_rows(rows.pop(), n_rows)
        elif n_rows:
            bounds["n"] = n_rows
        widths = [s[1] if s is not None else None for s in shapes]
        if self.kind == "two_view":
            bounds.update({p: w for p, w in zip(("p1", "p2"), widths) if w is not None})
        elif self.kind in ("dense", "sparse") and widths and widths[0] is not None:
            bounds["p"] = widths[0]
        return bounds

    def files(self) -> list[str]:
        """Every file the prepared data are read from (the prepare job's inputs)."""
        return [str(p) for p in self.documents] or [str(p) for p in self.paths.values()]


@lru_cache(maxsize=64)
def _declared(name: str, options_json: str, stamps) -> _Declared:
    return _Declared(name, json.loads(options_json))


def _inspected(name: str, options) -> _Declared:
    """The (cached) inspection of ``options``; files changed on disk are inspected again."""
    options = _defaults(options)
    stamps = []
    for key in FILE_KEYS:
        path = Path(options[key]).expanduser() if options.get(key) else None
        if path is not None and path.exists():
            stat = path.stat()
            stamps.append((key, str(path.resolve()), stat.st_mtime_ns, stat.st_size))
    return _declared(name, json.dumps(options, sort_keys=True), tuple(stamps))


def own_files(name: str, options) -> list[str]:
    """The files the own dataset ``name`` is prepared from (for the workflow's inputs).

    Examples
    --------
    >>> path = tmp / "mine.csv"
    >>> _ = path.write_text("a,b,label\\n1.0,2.0,x\\n3.0,4.0,y\\n5.0,6.5,x\\n")
    >>> from lowdim.data.own import own_files
    >>> [Path(p).name for p in own_files("mine", {"file": str(path), "label": "label"})]
    ['mine.csv']
    """
    return _inspected(name, options).files()


def own_spec(name: str, options) -> DatasetSpec:
    """A :class:`DatasetSpec` for the own data that ``options`` declare.

    Parameters
    ----------
    name : str
        The name under ``datasets:`` (not a registered dataset's).
    options : dict
        The options under that name; :data:`OWN_OPTIONS` lists them.

    Raises
    ------
    OwnDataError
        A file is missing, of an unknown format, or does not hold what the options
        say (a label column, a variable, a kind); the message names the config key
        and the file.

    Examples
    --------
    >>> path = tmp / "mine.csv"
    >>> _ = path.write_text("a,b,label\\n1.0,2.0,x\\n3.0,4.0,y\\n5.0,6.5,x\\n")
    >>> from lowdim.data.own import own_spec
    >>> spec = own_spec("mine", {"file": str(path), "label": "label"})
    >>> spec.kind, spec.labelled, spec.size_bounds()
    ('dense', True, {'p': 2})
    >>> data = spec.prepare(file=str(path), label="label")
    >>> data.X.tolist(), data.y.tolist(), data.label_names.tolist()
    ([[1.0, 2.0], [3.0, 4.0], [5.0, 6.5]], [0, 1, 0], ['x', 'y'])
    """
    declared = _inspected(name, options)
    where = ", ".join(str(p) for p in declared.paths.values())
    return DatasetSpec(
        name=name, kind=declared.kind, parser=lambda raw_files, **opts: _prepare(name, opts),
        description=declared.options["description"] or f"your own data ({where})",
        source=where, licence="your own data", options_schema=OWN_OPTIONS,
        labelled=declared.labelled, sizes=lambda _options: declared.sizes())


# -- preparing -----------------------------------------------------------------------------
def _prepare(name: str, options: dict) -> Dataset:
    declared = _Declared(name, options)  # afresh: the files may have changed since the start
    if declared.kind == "text":
        return _text(declared)
    views = {key: read_matrix(path, declared.views[key], f"datasets.{name}.{key}",
                              encoding=options["encoding"])
             for key, path in declared.paths.items()}
    first = views.get("file", views.get("file_x"))
    X = first.X
    Y = views["file_y"].X if "file_y" in views else first.Y
    if Y is not None and Y.shape[0] != X.shape[0]:
        raise OwnDataError(f"datasets.{name}", _where(declared),
                           f"the views have {X.shape[0]} and {Y.shape[0]} rows; each row of "
                           f"one view must pair with the same row of the other")
    rows = subsample(X.shape[0], options["n_rows"], options["seed"])
    y, label_names = _encoded(first.y, rows)
    X = _as_kind(X[rows], declared.kind)
    Y = None if Y is None else (Y.tocsr() if sp.issparse(Y) else np.asarray(Y))[rows]
    return Dataset(name=name, kind=declared.kind, X=X, Y=Y, y=y, label_names=label_names,
                   meta={"files": {k: str(p) for k, p in declared.paths.items()},
                         "formats": declared.formats, "rows_in_file": int(first.X.shape[0])})


def _where(declared) -> dict:
    return {key: str(path) for key, path in declared.paths.items()}


def _as_kind(X, kind):
    if kind == "sparse":
        return sp.csr_matrix(X)
    if kind == "dense" and sp.issparse(X):
        return X.toarray()
    return X.tocsr() if sp.issparse(X) else X


def _encoded(labels, rows):
    """Integer codes and class names of ``labels[rows]``, numbers sorted as numbers."""
    if labels is None:
        return None, None
    values = [_label_text(v) for v in np.asarray(labels)[rows].tolist()]
    return encode_labels(values, names=sorted(set(values), key=_label_order))


def _label_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # svmlight labels are floats: 3.0 is class "3"
    return str(value)


def _label_order(text: str):
    try:
        number = float(text)
    except ValueError:
        return (1, 0.0, text)
    return (0, number, text) if number == number else (1, 0.0, text)  # "nan" is a name


def _text(declared) -> Dataset:
    options = declared.options
    texts = read_folder(declared.documents, f"datasets.{declared.name}.file",
                        options["encoding"])
    labels = declared.labels or [""] * len(texts)
    dataset = text_dataset(declared.name, texts, labels, n_rows=options["n_rows"],
                           seed=options["seed"], min_count=options["min_count"],
                           files={"file": str(declared.paths["file"])}, formats={"file": "folder"})
    if declared.labels is None:
        dataset.y, dataset.label_names = None, None
    else:  # sub-folders 1, 2, 10 are classes in that order, as numbers
        dataset.y, dataset.label_names = _encoded(dataset.label_names[dataset.y], slice(None))
    return dataset


def dataset_spec(name: str, options=None) -> DatasetSpec:
    """The spec of dataset ``name`` as the config declares it: the registry's, or, for a
    name the registry does not have whose ``options`` give a ``file`` (or ``file_x`` and
    ``file_y``), one for the user's own data (:func:`lowdim.data.own.own_spec`).

    Examples
    --------
    >>> from lowdim.data import dataset_spec
    >>> path = tmp / "mine.csv"
    >>> _ = path.write_text("a,b,label\\n1,2,x\\n3,4,y\\n")
    >>> dataset_spec("digits").name
    'digits'
    >>> dataset_spec("mine", {"file": str(path), "label": "label"}).kind
    'dense'
    """
    if name not in REGISTRY and declares_own_data(options):
        return own_spec(name, options)
    return get_spec(name)
