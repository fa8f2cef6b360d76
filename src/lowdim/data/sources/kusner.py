"""The eight document-classification corpora of Kusner et al. (2015), as used for WMD.

Kusner's ``.mat`` files (MATLAB v5) hold, per document, the word2vec vectors of
its distinct words (a 300 x u matrix), their counts and, for most corpora, the
words themselves:

- bbcsport, twitter, recipe2, classic, amazon: cells ``X``, ``BOW_X``, ``words``
  (recipe2: ``the_words``), labels ``Y`` and five random splits ``TR``/``TE``
  (1-based document indices, one split per row).
- ohsumed, r8, 20ng2_500: fixed splits stored as ``xtr``/``xte``,
  ``BOW_xtr``/``BOW_xte``, ``ytr``/``yte`` and (ohsumed, r8) ``words_tr``/``words_te``;
  20ng2_500 has no words at all.

The prepared dataset (kind ``text``) has ``bow`` (n, V) counts over ``vocab``,
``word_vectors`` (V, 300) taken from the ``X`` cells, so WMD needs no 3.6 GB
word2vec download, labels ``y`` and ``train_idx``/``test_idx`` (0-based).

Vocabulary entries are identified by their vector, which is exactly what WMD
uses: this stays correct where the word lists are missing (20ng2_500, named
``<w123>``) or misaligned (recipe2's ``the_words`` has empty cells inserted,
shifting later documents; we re-align them by length and name the rest from
the vector of the same word elsewhere). No checksums are published for these
files: they are pinned on first download.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..parsing import FormatError, load_mat, require_variables
from ..prepared import Dataset
from ..registry import DatasetSpec, RemoteFile, register

__all__ = ["KUSNER_CORPORA", "KUSNER_TABLE", "parse_kusner"]

_DROPBOX = "https://www.dropbox.com/sh/nf532hddgdt68ix"
#: Registry name -> (file name, Dropbox id, description, documents as published).
KUSNER_CORPORA = {
    "wmd_bbcsport": ("bbcsport-emd_tr_te_split.mat", "AAArRFEToUmSJg8G9v120rBQa",
                     "BBC sports articles, 5 classes, 737 documents, 5 splits"),
    "wmd_twitter": ("twitter-emd_tr_te_split.mat", "AABg21VwvpVlEXkAGwf4c3bxa",
                    "tweets labelled by sentiment, 3 classes, 3,108 documents, 5 splits"),
    "wmd_recipe": ("recipe2-emd_tr_te_split.mat", "AAAbRqPilTT2Yn9EO-eqsPdOa",
                   "recipe procedures labelled by cuisine (Recipe-L), 15 classes, "
                   "4,370 documents, 5 splits"),
    "wmd_classic": ("classic-emd_tr_te_split.mat", "AABLYdubbTlj5-VgiCNKTTopa",
                    "CLASSIC sets of abstracts, 4 classes, 7,093 documents, 5 splits"),
    "wmd_amazon": ("amazon-emd_tr_te_split.mat", "AABNO4w-1T6ozVLCxrRNjCgGa",
                   "Amazon reviews by product category, 4 classes, 8,000 documents, 5 splits"),
    "wmd_ohsumed": ("ohsumed-emd_tr_te_ix.mat", "AAD31LaD0o04z7YSdxsfmZIca",
                    "Ohsumed medical abstracts, 10 classes, 9,152 documents, fixed split"),
    "wmd_r8": ("r8-emd_tr_te3.mat", "AAD6gtc0gtB4n7zWwwnuPqrYa",
               "Reuters-21578 R8 news, 8 classes, 7,674 documents, fixed split"),
    "wmd_20news": ("20ng2_500-emd_tr_te.mat", "AACtd7NIdxXUfrxSvP-OUci4a",
                   "20 Newsgroups (at most 500 words per post), 20 classes, 18,829 documents, "
                   "fixed split"),
}


#: registry name -> (documents, mean distinct words per document, train/test splits) as
#: Kusner et al. (2015) describe the corpora (their Table 1; five random splits or one fixed).
KUSNER_TABLE = {"wmd_bbcsport": (737, 117.0, 5), "wmd_twitter": (3108, 9.9, 5),
                "wmd_recipe": (4370, 48.5, 5), "wmd_classic": (7093, 38.6, 5),
                "wmd_amazon": (8000, 45.0, 5), "wmd_ohsumed": (9152, 59.2, 1),
                "wmd_r8": (7674, 22.6, 1), "wmd_20news": (18829, 72.0, 1)}


def _cells(mat, name) -> list:
    return list(np.asarray(mat[name], dtype=object).ravel())


def _word(value):
    arr = np.asarray(value)
    if arr.dtype == object:
        return _word(arr.ravel()[0]) if arr.size == 1 else None
    return str(arr.ravel()[0]) if arr.size and arr.dtype.kind == "U" else None


def _doc_words(cell) -> list:
    arr = np.asarray(cell)
    if arr.size == 0:
        return []
    if arr.dtype.kind == "U":
        return [str(w) for w in arr.ravel()]
    return [_word(w) for w in arr.ravel()]


def _align_words(word_cells, widths) -> list:
    """Word lists per document, re-aligned where empty cells were inserted (recipe2)."""
    lists = [_doc_words(c) for c in word_cells]
    aligned, j = [], 0
    for u in widths:
        if u > 0:
            while j < len(lists) and not lists[j]:
                j += 1
        if j < len(lists) and len(lists[j]) == u:
            aligned.append(lists[j])
            j += 1
        else:
            aligned.append([None] * u)
    return aligned


def _columns(doc, dataset, path):
    arr = np.asarray(doc, dtype=np.float64)
    if arr.size == 0:
        return np.zeros((0, 0))
    if arr.ndim != 2:
        raise FormatError(dataset, path, f"word-vector cells of shape (dim, u), got {arr.shape}")
    return arr.T


def _vocabulary(docs, counts, words, dataset, path):
    """Vector-keyed vocabulary: bow (n, V), vocab names and (V, dim) vectors."""
    index, vectors, names = {}, [], []
    rows, cols, vals = [], [], []
    for i, (vecs, cnt, wds) in enumerate(zip(docs, counts, words)):
        if len(cnt) != len(vecs):
            raise FormatError(dataset, path, f"document {i + 1}: {len(vecs)} word vectors and "
                                             f"as many counts, got {len(cnt)} counts")
        for v, c, w in zip(vecs, cnt, wds):
            key = v.tobytes()
            col = index.get(key)
            if col is None:
                col = index[key] = len(vectors)
                vectors.append(v)
                names.append(w)
            elif names[col] is None:
                names[col] = w
            rows.append(i)
            cols.append(col)
            vals.append(c)
    dim = vectors[0].shape[0] if vectors else 0
    names = [w if w is not None else f"<w{k}>" for k, w in enumerate(names)]
    bow = sp.csr_matrix((np.asarray(vals, dtype=np.float64), (rows, cols)),
                        shape=(len(docs), len(vectors)))
    bow.sum_duplicates()
    return bow, np.asarray(names, dtype=str), np.asarray(vectors, dtype=np.float32).reshape(-1, dim)


def _labels(values):
    values = np.asarray(values, dtype=np.float64).ravel()
    classes = np.unique(values)
    y = np.searchsorted(classes, values).astype(np.int64)
    names = np.asarray([f"{c:g}" for c in classes], dtype=str)
    return y, names


def _split_matrix(mat, name, n, dataset, path):
    idx = np.atleast_2d(np.asarray(mat[name], dtype=np.float64)).astype(np.int64) - 1
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise FormatError(dataset, path, f"{name} with 1-based indices in [1, {n}], got "
                                         f"[{idx.min() + 1}, {idx.max() + 1}]")
    return idx


def _read_split_format(mat, dataset, path):
    docs = [_columns(d, dataset, path) for d in _cells(mat, "X")]
    counts = [np.asarray(c, dtype=np.float64).ravel() for c in _cells(mat, "BOW_X")]
    word_var = "words" if "words" in mat else ("the_words" if "the_words" in mat else None)
    words = (_align_words(_cells(mat, word_var), [len(d) for d in docs]) if word_var
             else [[None] * len(d) for d in docs])
    n = len(docs)
    splits = (_split_matrix(mat, "TR", n, dataset, path), _split_matrix(mat, "TE", n, dataset, path))
    return docs, counts, words, np.asarray(mat["Y"]).ravel(), splits


def _read_fixed_format(mat, dataset, path):
    parts = {}
    for part in ("tr", "te"):
        docs = [_columns(d, dataset, path) for d in _cells(mat, f"x{part}")]
        counts = [np.asarray(c, dtype=np.float64).ravel() for c in _cells(mat, f"BOW_x{part}")]
        words = (_align_words(_cells(mat, f"words_{part}"), [len(d) for d in docs])
                 if f"words_{part}" in mat else [[None] * len(d) for d in docs])
        parts[part] = (docs, counts, words, np.asarray(mat[f"y{part}"]).ravel())
    n_tr, n_te = len(parts["tr"][0]), len(parts["te"][0])
    splits = (np.arange(n_tr)[None, :], np.arange(n_tr, n_tr + n_te)[None, :])
    joined = [parts["tr"][k] + parts["te"][k] for k in range(3)]
    return (*joined, np.concatenate([parts["tr"][3], parts["te"][3]]), splits)


def parse_kusner(path, dataset: str) -> Dataset:
    """Read one of Kusner's ``.mat`` files into a prepared text dataset.

    Examples
    --------
    >>> from lowdim.data.replicas import write_kusner_split
    >>> from lowdim.data.sources.kusner import parse_kusner
    >>> files, truth = write_kusner_split(tmp, rng)
    >>> data = parse_kusner(files["bbcsport-emd_tr_te_split.mat"], "wmd_bbcsport")
    >>> data.kind, data.n, data.train_idx.shape[0], data.word_vectors.shape[1] > 0
    ('text', 8, 5, True)
    """
    mat = load_mat(path, dataset, any_of=(("X", "xtr"),))
    if "X" in mat:
        require_variables(mat, ("BOW_X", "Y", "TR", "TE"), dataset, path)
        reader = _read_split_format
    else:
        require_variables(mat, ("xte", "BOW_xtr", "BOW_xte", "ytr", "yte"), dataset, path)
        reader = _read_fixed_format
    docs, counts, words, labels, (train_idx, test_idx) = reader(mat, dataset, path)
    if len(labels) != len(docs) or len(counts) != len(docs):
        raise FormatError(dataset, path, f"as many labels and count cells as documents "
                                         f"({len(docs)}), got {len(labels)} and {len(counts)}")
    bow, vocab, vectors = _vocabulary(docs, counts, words, dataset, path)
    y, names = _labels(labels)
    empty = int(np.sum(np.diff(bow.indptr) == 0))
    return Dataset(name=dataset, kind="text", bow=bow, vocab=vocab, word_vectors=vectors, y=y,
                   label_names=names, train_idx=train_idx, test_idx=test_idx,
                   meta={"empty_documents": empty, "word_vectors": "word2vec GoogleNews 300d, "
                         "as stored in the .mat file", "unnamed_words": int(sum(
                             v.startswith("<w") for v in vocab.tolist()))})


def _parser(name, filename):
    def parse(raw_files):
        return parse_kusner(raw_files[filename], name)

    parse.__name__ = f"_parse_{name}"
    return parse


for _name, (_filename, _dropbox_id, _description) in KUSNER_CORPORA.items():
    register(DatasetSpec(
        name=_name, kind="text", parser=_parser(_name, _filename),
        files=(RemoteFile(_filename, (f"{_DROPBOX}/{_dropbox_id}/{_filename}?dl=1",)),),
        description=_description,
        source=f"Kusner et al. 2015 (github.com/mkusner/wmd), {_filename}",
        licence="research use; derived from the original corpora (see Kusner et al. 2015); "
                "word2vec vectors Apache-2.0",
        sizes=lambda o, n=KUSNER_TABLE[_name][0]: {"n": n}))
