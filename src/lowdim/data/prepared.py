"""The one prepared-dataset format: ``results/data/<dataset>.npz``.

Every parser returns a :class:`Dataset`; :func:`save_dataset` writes it as a
single ``.npz`` that loads without pickle (``allow_pickle=False``), and
:func:`read_dataset` refuses a damaged file, or another dataset's, with an
error naming it (:func:`lowdim.data.load_dataset` reads the file of a registered dataset):

============================  ===============================================================
key                           meaning
============================  ===============================================================
``meta``                      JSON text: name, kind, source, licence, options, n, ...
``X``                         dense features (n, d), or CSR stored as ``X.data``,
                              ``X.indices``, ``X.indptr``, ``X.shape``
``Y``                         second view (two_view kind), dense or CSR like ``X``
``y``                         labels (n,), int64
``label_names``               class names (n_classes,), str
``texts``                     raw documents (n,), str (stored as UTF-8 bytes + offsets)
``vocab``                     bag-of-words vocabulary (V,), str
``bow``                       CSR counts (n, V) over ``vocab``
``word_vectors``              (V, dim) float32 vectors for ``vocab`` rows (e.g. Kusner .mat)
``train_idx``/``test_idx``    int64 (n_splits, n_train) / (n_splits, n_test), 0-based
``extra.<name>``              kind-specific arrays (pairs: ``extra.sentence_a`` ...)
============================  ===============================================================

Sparse matrices are never densified on the way in or out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..io import CorruptFileError, atomic_path, read_npz

__all__ = ["KINDS", "SPLIT_NAMES", "Dataset", "read_dataset", "save_dataset", "summarize"]

#: What a prepared dataset of each kind holds.
KINDS = {
    "dense": "feature matrix X (n, d), labels y",
    "sparse": "sparse CSR feature matrix X (n, d), labels y",
    "text": "documents: texts, bag-of-words bow (n, V) over vocab, optional labels y and splits",
    "two_view": "two views X (n, p1) and Y (n, p2), dense or sparse",
    "pairs": "sentence pairs with a gold score or label (GLUE-style)",
    "mentions": "mentions with embeddings and gold cluster ids (coreference)",
    "word_vectors": "word vectors: vocab and a (V, d) matrix",
}

#: Names of the splits a dataset of sentence pairs or mentions marks its rows with
#: (``extra.split``).
SPLIT_NAMES = ("train", "dev", "test")

_ARRAY_FIELDS = ("X", "Y", "y", "label_names", "texts", "vocab", "bow", "word_vectors",
                 "train_idx", "test_idx")


@dataclass
class Dataset:
    """A prepared dataset; which fields are set depends on ``kind``.

    Attributes
    ----------
    name, kind : str
    X : ndarray or scipy.sparse.csr_matrix of shape (n, d), optional
    Y : ndarray or csr_matrix of shape (n, p2), optional
        Second view of a two-view dataset (``X`` is the first).
    y : ndarray of shape (n,), optional
    label_names : ndarray of str, optional
    texts : ndarray of str of shape (n,), optional
    vocab : ndarray of str of shape (V,), optional
    bow : csr_matrix of shape (n, V), optional
    word_vectors : ndarray of shape (V, dim), optional
    train_idx, test_idx : ndarray of shape (n_splits, m), optional
    extra : dict of str -> ndarray
    meta : dict
        JSON-serialisable description (source, licence, options, ...).

    Examples
    --------
    >>> from lowdim.data import Dataset
    >>> data = Dataset(name="toy", kind="dense", X=np.eye(3), y=np.array([0, 1, 1]))
    >>> data.n, data.validate() is data
    (3, True)
    >>> Dataset(name="bad", kind="dense", X=np.eye(3), y=np.array([0, 1])).validate()
    Traceback (most recent call last):
        ...
    ValueError: dataset 'bad': y has 2 rows, expected 3
    """

    name: str
    kind: str
    X: object = None
    Y: object = None
    y: np.ndarray | None = None
    label_names: np.ndarray | None = None
    texts: np.ndarray | None = None
    vocab: np.ndarray | None = None
    bow: object = None
    word_vectors: np.ndarray | None = None
    train_idx: np.ndarray | None = None
    test_idx: np.ndarray | None = None
    extra: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        """Number of items (rows, documents, pairs, mentions or words of a word_vectors set)."""
        if self.kind == "word_vectors" and self.word_vectors is not None:
            return self.word_vectors.shape[0]
        for value in (self.X, self.bow, self.texts, self.y):
            if value is not None:
                return value.shape[0]
        for value in self.extra.values():
            return len(value)
        return 0

    def validate(self) -> "Dataset":
        """Check shapes agree and values are finite; return self."""
        n = self.n
        for name in ("X", "Y", "y", "texts", "bow"):
            value = getattr(self, name)
            if value is not None and value.shape[0] != n:
                raise ValueError(f"dataset {self.name!r}: {name} has {value.shape[0]} rows, "
                                 f"expected {n}")
        for name in ("X", "Y", "word_vectors"):
            value = getattr(self, name)
            data = value.data if sp.issparse(value) else value
            if data is not None and np.issubdtype(np.asarray(data).dtype, np.number) \
                    and not np.all(np.isfinite(data)):
                raise ValueError(f"dataset {self.name!r}: {name} contains NaN or inf")
        if self.bow is not None and self.vocab is not None and self.bow.shape[1] != len(self.vocab):
            raise ValueError(f"dataset {self.name!r}: bow has {self.bow.shape[1]} columns but "
                             f"vocab has {len(self.vocab)} words")
        for name in ("train_idx", "test_idx"):
            idx = getattr(self, name)
            if idx is not None and idx.size and (idx.min() < 0 or idx.max() >= n):
                raise ValueError(f"dataset {self.name!r}: {name} out of range [0, {n})")
        return self


def _put(arrays: dict, key: str, value) -> None:
    if value is None:
        return
    if sp.issparse(value):
        csr = sp.csr_matrix(value)
        arrays[f"{key}.data"] = csr.data
        arrays[f"{key}.indices"] = csr.indices
        arrays[f"{key}.indptr"] = csr.indptr
        arrays[f"{key}.shape"] = np.asarray(csr.shape, dtype=np.int64)
    else:
        arr = np.asarray(value)
        if arr.dtype == object:
            arr = arr.astype(str)
        if arr.dtype.kind == "U" and arr.ndim == 1:
            # Fixed-width UTF-32 wastes space on documents of varied length:
            # store UTF-8 bytes and offsets instead.
            encoded = [v.encode("utf-8") for v in arr.tolist()]
            arrays[f"{key}.utf8"] = np.frombuffer(b"".join(encoded), dtype=np.uint8)
            arrays[f"{key}.offsets"] = np.cumsum([0] + [len(b) for b in encoded], dtype=np.int64)
        else:
            arrays[key] = arr


def _get(store: dict, key: str):
    if key in store:
        return store[key]
    if f"{key}.utf8" in store:
        raw = store[f"{key}.utf8"].tobytes()
        offsets = store[f"{key}.offsets"]
        return np.array([raw[a:b].decode("utf-8") for a, b in zip(offsets[:-1], offsets[1:])],
                        dtype=str)
    if f"{key}.data" in store:
        shape = tuple(int(s) for s in store[f"{key}.shape"])
        return sp.csr_matrix((store[f"{key}.data"], store[f"{key}.indices"],
                              store[f"{key}.indptr"]), shape=shape)
    return None


def save_dataset(dataset: Dataset, path) -> Path:
    """Validate ``dataset`` and write it to ``path`` (.npz) atomically.

    Examples
    --------
    >>> from lowdim.data import Dataset, load_dataset, save_dataset
    >>> data = Dataset(name="toy", kind="dense", X=np.eye(2), y=np.array([0, 1]))
    >>> path = save_dataset(data, tmp / "toy.npz")
    >>> load_dataset(path).X.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    dataset.validate()
    arrays = {}
    for name in _ARRAY_FIELDS:
        _put(arrays, name, getattr(dataset, name))
    for name, value in dataset.extra.items():
        _put(arrays, f"extra.{name}", value)
    meta = {**dataset.meta, "name": dataset.name, "kind": dataset.kind, "n": dataset.n}
    arrays["meta"] = np.asarray(json.dumps(meta, sort_keys=True, default=str))
    path = Path(path)
    with atomic_path(path, suffix=".npz") as tmp:
        # Uncompressed: random-valued synthetic matrices do not compress, and
        # compressing hundreds of MB costs more time than it saves on disk.
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)
    return path


#: What to do about a corrupt prepared file.
REPREPARE = ("delete it, or rerun `prepare` for it (snakemake --forcerun prepare), "
             "to prepare it again")


def read_dataset(path, name: str | None = None) -> Dataset:
    """Read a dataset written by :func:`save_dataset` (no pickle is ever loaded).

    Parameters
    ----------
    path : str or Path
    name : str, optional
        The dataset the file must hold; None accepts any.

    Raises
    ------
    CorruptFileError
        If the file is empty, truncated, not a prepared dataset, inconsistent
        (shapes that disagree, NaN features) or another dataset's; the message
        names the file and says to delete it or rerun ``prepare``.

    Examples
    --------
    >>> from lowdim.data import get_spec, load_dataset, save_dataset
    >>> path = save_dataset(get_spec("pang_lee").prepare(), tmp / "p.npz")
    >>> data = load_dataset(path)
    >>> data.name, data.kind, data.bow.shape[0], len(data.texts)
    ('pang_lee', 'text', 200, 200)
    """
    what = "a prepared dataset (lowdim.data.save_dataset)"
    store = read_npz(path, what=what, remedy=REPREPARE)
    try:
        meta = json.loads(str(store["meta"]))
        kind = meta["kind"]
        values = {field_name: _get(store, field_name) for field_name in _ARRAY_FIELDS}
        extra_keys = {k.split(".")[1] for k in store if k.startswith("extra.")}
        extra = {k: _get(store, f"extra.{k}") for k in sorted(extra_keys)}
        dataset = Dataset(name=meta["name"], kind=kind, extra=extra, meta=meta, **values)
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        dataset.validate()
    except (KeyError, TypeError, ValueError, IndexError, UnicodeDecodeError) as exc:
        problem = f"missing entry {exc}" if isinstance(exc, KeyError) else str(exc)
        raise CorruptFileError(path, f"not {what}, or damaged: {problem}", REPREPARE) from None
    if name is not None and dataset.name != name:
        raise CorruptFileError(path, f"it holds dataset {dataset.name!r}, not {name!r}",
                               REPREPARE)
    return dataset


def summarize(dataset: Dataset) -> dict:
    """One row for the dataset table: name, kind, n, dimensions, classes, source, licence.

    Examples
    --------
    >>> from lowdim.data import get_spec, summarize
    >>> row = summarize(get_spec("digits").prepare(n_rows=100))
    >>> {key: row[key] for key in ("dataset", "kind", "n", "dimensions", "classes")}
    {'dataset': 'digits', 'kind': 'dense', 'n': 100, 'dimensions': 'X: 64', 'classes': 10}
    >>> round(row["sparsity (fraction of zeros)"], 2)  # dense X counts its zeros too
    0.49
    """
    dims = []
    for name in ("X", "Y", "bow", "word_vectors"):
        value = getattr(dataset, name)
        if value is not None and getattr(value, "ndim", 1) == 2:
            dims.append(f"{name}: {value.shape[1]}")
    sparsity = None
    if dataset.X is not None:  # zeros of X, dense or sparse (stored zeros count as zeros)
        X = dataset.X
        nonzero = X.count_nonzero() if sp.issparse(X) else np.count_nonzero(X)
        sparsity = float(1.0 - nonzero / max(1, X.shape[0] * X.shape[1]))
    classes = int(len(np.unique(dataset.y))) if dataset.y is not None else None
    return {
        "dataset": dataset.name,
        "kind": dataset.kind,
        "n": dataset.n,
        "dimensions": ", ".join(dims) or "–",
        "classes": classes,
        "sparsity (fraction of zeros)": sparsity,
        "splits": int(dataset.train_idx.shape[0]) if dataset.train_idx is not None else None,
        "source": dataset.meta.get("source", ""),
        "licence": dataset.meta.get("licence", ""),
    }
