"""Word mover's distance (Kusner et al. 2015) as a similarity oracle.

.. math::

    \\mathrm{WMD}(x, x') = \\min_{T \\ge 0,\\; T 1 = w,\\; T^\\top 1 = w'}
        \\sum_{a, b} T_{ab}\\, \\lVert v_a - v'_b \\rVert_2,
    \\qquad K_{xx'} = \\exp(-\\gamma\\, \\mathrm{WMD}(x, x')),

where ``w`` and ``w'`` are the documents' normalised bag-of-words weights and
``v`` their word vectors. Each transport problem is solved exactly by POT's
network simplex (:func:`ot.emd2`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import cdist

from .._validation import ArgumentValueError
from ._oracle import SimilarityOracle

__all__ = ["WMDOracle", "document_bags", "in_vocabulary_counts", "wmd_pairs"]


#: POT imports every array backend it finds (torch alone takes seconds); the oracle only
#: passes NumPy arrays, so the first import of ``ot`` from here skips them.
_POT_BACKEND_SWITCHES = ("POT_BACKEND_DISABLE_PYTORCH", "POT_BACKEND_DISABLE_JAX",
                         "POT_BACKEND_DISABLE_CUPY", "POT_BACKEND_DISABLE_TENSORFLOW")


def _import_ot():
    """Import POT; if nothing imported it yet, without its GPU/autodiff backends."""
    if "ot" in sys.modules:
        return sys.modules["ot"]
    added = [key for key in _POT_BACKEND_SWITCHES if key not in os.environ]
    os.environ.update({key: "1" for key in added})
    try:
        import ot
    finally:
        for key in added:
            os.environ.pop(key, None)
    return ot


def wmd_pairs(vectors, words, offsets, weights, i, j, num_iter_max=1_000_000):
    """Word mover's distances of document pairs ``(i[t], j[t])``.

    Parameters
    ----------
    vectors : ndarray of shape (n_words, dim), float64
        One vector per distinct word the documents use.
    words : ndarray of shape (total_words,), int64
        Rows of ``vectors``: the words of all documents, one document after another.
    offsets : ndarray of shape (n_docs + 1,), int64
        Document ``d`` owns ``words[offsets[d]:offsets[d + 1]]``.
    weights : ndarray of shape (total_words,), float64
        Normalised bag-of-words weights of ``words``, each document's summing to 1.
    i, j : ndarray of int of shape (m,)
        The documents of each pair.
    num_iter_max : int, default=1_000_000
        Network-simplex iteration limit of :func:`ot.emd2`.

    Returns
    -------
    distances : ndarray of shape (m,), float64
        In the units of the word vectors (Euclidean ground metric).

    Examples
    --------
    >>> from lowdim.similarity import wmd_pairs
    >>> vectors = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> words = np.array([0, 1, 1, 2])      # document 0: words 0 and 1; 1: word 1; 2: word 2
    >>> offsets = np.array([0, 2, 3, 4])
    >>> weights = np.array([0.5, 0.5, 1.0, 1.0])
    >>> np.round(wmd_pairs(vectors, words, offsets, weights, np.array([0, 1]), np.array([1, 2])), 3)
    array([0.5  , 1.414])
    """
    ot = _import_ot()
    # Plain arrays: joblib hands large arguments to workers as np.memmap, whose slices
    # are slow to make and take POT's generic (slower) backend path.
    vectors, words = np.asarray(vectors), np.asarray(words)
    offsets, weights = np.asarray(offsets), np.asarray(weights)
    out = np.empty(len(i), dtype=np.float64)
    last, rows_i, X_i = -1, None, None
    for t, (a, b) in enumerate(zip(i, j)):
        if a == b:
            out[t] = 0.0  # a document is at distance 0 from itself
            continue
        if a != last:  # pairs arrive sorted by row: reuse the row's vectors
            last, rows_i = a, slice(offsets[a], offsets[a + 1])
            X_i = vectors[words[rows_i]]
        rows_j = slice(offsets[b], offsets[b + 1])
        cost = cdist(X_i, vectors[words[rows_j]])
        out[t] = ot.emd2(weights[rows_i], weights[rows_j], cost,
                         numItermax=num_iter_max, check_marginals=False, center_dual=False)
    return out


def _wmd_kernel_pairs(vectors, words, offsets, weights, gamma, num_iter_max, i, j):
    return np.exp(-gamma * wmd_pairs(vectors, words, offsets, weights, i, j, num_iter_max))


class WMDOracle(SimilarityOracle):
    """The WMD kernel ``exp(-gamma * WMD)`` between documents, evaluated on demand.

    Parameters
    ----------
    docs : sequence of (word_indices, weights)
        One pair per document: ``word_indices`` (int array) indexes rows of
        ``word_vectors``; ``weights`` (non-negative counts or frequencies of the
        same length) are normalised to sum to 1. Repeated indices are merged.
    word_vectors : array-like of shape (V, dim)
        Word embedding matrix; the ground metric is Euclidean distance
        between its rows.
    gamma : float
        Kernel width, in inverse units of the word-vector distance; > 0.
    n_jobs : int, default=1
        Worker processes for a block (the solver's Python overhead holds the
        GIL, so processes rather than threads).
    cache : bool, default=True
        Keep evaluated entries, so none is paid for twice.
    chunk_size : int, default=512
        Pairs per task.
    num_iter_max : int, default=1_000_000
        Iteration limit of the network simplex.

    Attributes
    ----------
    n : int
        Number of documents.
    doc_lengths_ : ndarray of shape (n,)
        Distinct in-vocabulary words per document.

    Raises
    ------
    ValueError
        If a document has no in-vocabulary word (no index or zero total
        weight); the message gives how many and which documents.

    See Also
    --------
    WMDOracle.from_bow : build from a bag-of-words matrix and a vocabulary.

    Examples
    --------
    >>> from lowdim.similarity import WMDOracle
    >>> word_vectors = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> docs = [(np.array([0, 1]), np.array([1.0, 1.0])),  # words 0 and 1, equal weight
    ...         (np.array([1]), np.array([2.0])),
    ...         (np.array([2]), np.array([1.0]))]
    >>> oracle = WMDOracle(docs, word_vectors, gamma=1.0)
    >>> K = oracle([0, 1], [1, 2])  # exp(-WMD): WMD(0, 1) = 0.5, WMD(1, 2) = sqrt(2), ...
    >>> np.round(K, 3)
    array([[0.607, 0.299],
           [1.   , 0.243]])
    >>> oracle.evaluations
    4
    """

    _backend = "loky"

    def __init__(self, docs, word_vectors, gamma, n_jobs=1, cache=True, chunk_size=512,
                 num_iter_max=1_000_000):
        super().__init__(n_jobs=n_jobs, cache=cache, chunk_size=chunk_size)
        if not (np.isscalar(gamma) and np.isfinite(gamma) and gamma > 0):
            raise ArgumentValueError(f"`gamma` must be a finite number > 0, got {gamma!r}",
                                     "gamma")
        if not isinstance(num_iter_max, (int, np.integer)) or num_iter_max < 1:
            raise ArgumentValueError("`num_iter_max` must be a positive integer, got "
                                     f"{num_iter_max!r}", "num_iter_max")
        word_vectors = np.asarray(word_vectors)  # rows are cast to float64 when packed
        if word_vectors.ndim != 2 or not np.issubdtype(word_vectors.dtype, np.number):
            raise ArgumentValueError("`word_vectors` must be 2-D (V, dim), got shape "
                                     f"{word_vectors.shape}", "word_vectors")
        self.gamma = float(gamma)
        self.num_iter_max = int(num_iter_max)
        packed = _pack_documents(docs, word_vectors)
        self._vectors, self._words, self._offsets, self._weights = packed
        self._n = self._offsets.size - 1
        self.doc_lengths_ = np.diff(self._offsets)

    @classmethod
    def from_bow(cls, bow, vocab, word_vectors, gamma, stop_words=None, texts=None, **kwargs):
        """Build from a bag-of-words matrix over ``vocab`` and a word-vector table.

        Parameters
        ----------
        bow, vocab, word_vectors
            As in :func:`document_bags`.
        gamma : float
            Kernel width of ``exp(-gamma * WMD)``.
        stop_words
            As in :func:`document_bags` (Kusner et al. drop stop words).
        texts : sequence of str, optional
            Document texts, quoted in the error for an empty document.
        **kwargs
            Passed to :class:`WMDOracle`.
        """
        docs, table = document_bags(bow, vocab, word_vectors, stop_words)
        try:
            return cls(docs, table, gamma, **kwargs)
        except _EmptyDocuments as err:
            raise err.with_texts(texts) from None

    def _pair_task(self):
        return _wmd_kernel_pairs, (self._vectors, self._words, self._offsets, self._weights,
                                   self.gamma, self.num_iter_max)


def in_vocabulary_counts(bow, vocab, word_vectors, stop_words=None) -> np.ndarray:
    """Distinct in-vocabulary, non-stop words per document (0 marks a document WMD refuses).

    Parameters
    ----------
    bow : sparse or dense matrix of shape (n, V)
        Word counts per document over ``vocab``.
    vocab : sequence of str of shape (V,)
        The words of the columns of ``bow``.
    word_vectors : object with ``vocab`` and ``vectors``, or ndarray of shape (V, dim)
        The word-vector table, as :func:`document_bags` takes it.
    stop_words : collection of str, optional
        Words that do not count.

    Returns
    -------
    counts : ndarray of int64 of shape (n,)
        Words per document that WMD would use.

    Examples
    --------
    >>> from lowdim.similarity import in_vocabulary_counts
    >>> bow = np.array([[2, 0, 1], [0, 0, 1]])
    >>> vectors = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    >>> in_vocabulary_counts(bow, ["cat", "dog", "the"], vectors, stop_words={"the"})
    array([1, 0])
    """
    docs, _ = document_bags(bow, vocab, word_vectors, stop_words)
    return np.array([np.unique(idx).size for idx, _ in docs], dtype=np.int64)


def document_bags(bow, vocab, word_vectors, stop_words=None):
    """Documents as bags of rows of a compact word-vector table, as WMD reads them.

    Parameters
    ----------
    bow : sparse or dense matrix of shape (n, V)
        Word counts per document over ``vocab``.
    vocab : sequence of str of shape (V,)
        The words of the columns of ``bow``.
    word_vectors : object with ``vocab`` and ``vectors``, or ndarray of shape (V, dim)
        A table looked up by word (:class:`lowdim.data.word_vectors.WordVectors`)
        or vectors aligned with ``vocab`` (Kusner et al. files). Words without
        a vector are dropped.
    stop_words : collection of str, optional
        Words to drop as well.

    Returns
    -------
    docs : list of (ndarray of int64, ndarray of float64)
        Rows of ``table`` and counts of each document's known words.
    table : ndarray of shape (m, dim), float64
        Only the vectors some document uses.

    Examples
    --------
    >>> from lowdim.similarity.wmd import document_bags
    >>> bow = np.array([[2, 0, 1], [0, 1, 0]])
    >>> vectors = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    >>> docs, table = document_bags(bow, ["cat", "dog", "the"], vectors, stop_words={"the"})
    >>> [(rows.tolist(), counts.tolist()) for rows, counts in docs], table.tolist()
    ([([0], [2.0]), ([1], [1.0])], [[0.0, 1.0], [1.0, 0.0]])
    """
    bow = sp.csr_matrix(bow, dtype=np.float64)
    vocab = np.asarray(vocab).astype(str)
    if bow.shape[1] != vocab.size:
        raise ArgumentValueError(f"`bow` has {bow.shape[1]} columns but `vocab` has {vocab.size} "
                                 "words", "bow")
    column_rows, source = _align_vocab(vocab, word_vectors)
    if stop_words is not None:
        column_rows = np.where(np.isin(vocab, np.asarray(sorted(stop_words), dtype=str)), -1,
                               column_rows)
    used = np.unique(bow.indices[column_rows[bow.indices] >= 0])
    compact = np.full(vocab.size, -1, dtype=np.int64)
    compact[used] = np.arange(used.size)
    table = np.asarray(source[column_rows[used]], dtype=np.float64)
    docs = []
    for d in range(bow.shape[0]):
        cols = bow.indices[bow.indptr[d]:bow.indptr[d + 1]]
        counts = bow.data[bow.indptr[d]:bow.indptr[d + 1]]
        known = (compact[cols] >= 0) & (counts > 0)
        docs.append((compact[cols[known]], counts[known]))
    return docs, table


class _EmptyDocuments(ValueError):
    def __init__(self, empty, n):
        self.empty, self.n = empty, n
        super().__init__(self._message())

    def _message(self, texts=None):
        first = int(self.empty[0])
        quote = f" ({str(texts[first])[:60]!r})" if texts is not None else ""
        listed = ", ".join(map(str, self.empty[:10])) + (", ..." if self.empty.size > 10 else "")
        return (f"`docs`: {self.empty.size} of {self.n} documents have no in-vocabulary word, "
                f"first document {first}{quote}; documents: {listed}. Drop them or extend the "
                f"vocabulary.")

    def with_texts(self, texts):
        return ValueError(self._message(texts))


def _pack_documents(docs, word_vectors):
    """Distinct word vectors, the documents' words and normalised weights (see :func:`wmd_pairs`).

    Only the vectors of words some document uses are kept, once each, so the
    arrays shipped to worker processes stay small.
    """
    docs = list(docs)
    V = word_vectors.shape[0]
    indices, weights, lengths, empty = [], [], [], []
    for d, (idx, w) in enumerate(docs):
        idx = np.asarray(idx, dtype=np.int64).ravel()
        w = np.asarray(w, dtype=np.float64).ravel()
        if idx.shape != w.shape:
            raise ArgumentValueError(f"`docs[{d}]`: {idx.size} word indices but {w.size} "
                                     f"weights", "docs")
        if idx.size and (idx.min() < 0 or idx.max() >= V):
            raise ArgumentValueError(f"`docs[{d}]` has a word index outside [0, {V}) of "
                                     f"`word_vectors`", ("docs", "word_vectors"))
        if w.size and (not np.all(np.isfinite(w)) or w.min() < 0):
            raise ArgumentValueError(f"`docs[{d}]` has negative or non-finite weights", "docs")
        uniq, inverse = np.unique(idx, return_inverse=True)
        merged = np.bincount(inverse, weights=w, minlength=uniq.size)
        nonzero = merged > 0
        uniq, merged = uniq[nonzero], merged[nonzero]
        if uniq.size == 0:
            empty.append(d)
        indices.append(uniq)
        weights.append(merged / merged.sum() if merged.size else merged)
        lengths.append(uniq.size)
    if empty:
        raise _EmptyDocuments(np.asarray(empty), len(docs))
    if not docs:
        raise ArgumentValueError("`docs` is empty: need at least one document", "docs")
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    used, words = np.unique(np.concatenate(indices), return_inverse=True)
    vectors = np.ascontiguousarray(word_vectors[used], dtype=np.float64)
    if not np.all(np.isfinite(vectors)):
        raise ArgumentValueError("`word_vectors` has non-finite entries in rows the documents use",
                                 "word_vectors")
    return vectors, words.astype(np.int64), offsets, np.concatenate(weights)


def _align_vocab(vocab, word_vectors):
    """Map each vocabulary word to a row of a vector table (-1 when missing)."""
    if hasattr(word_vectors, "vocab") and hasattr(word_vectors, "vectors"):
        table = np.asarray(word_vectors.vectors)
        position = word_vectors.vocab  # word -> row (lowdim.data.word_vectors.WordVectors)
        if not isinstance(position, Mapping):  # or a sequence of words, one per row
            position = {str(w): k for k, w in enumerate(position)}
        rows = np.fromiter((position.get(w, -1) for w in vocab), dtype=np.int64, count=vocab.size)
        return rows, table
    table = np.asarray(word_vectors)
    if table.ndim != 2 or table.shape[0] != vocab.size:
        raise ArgumentValueError("`word_vectors` given as an array must have one row per vocab "
                                 f"word ({vocab.size}), got shape {table.shape}", "word_vectors")
    return np.arange(vocab.size, dtype=np.int64), table
