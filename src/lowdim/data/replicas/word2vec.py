"""Replica of the word2vec GoogleNews binary (gensim-data release, gzipped)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._containers import gzip_bytes, write_bytes

__all__ = ["write_word2vec"]


def write_word2vec(directory: Path, rng, n_words=6, dim=5):
    """word2vec-google-news-300.gz: gzip of '<V> <dim>\\n' then '<word> <dim float32 LE>\\n'.

    The layout word2vec's C tool writes (a newline after each vector).

    Examples
    --------
    >>> from lowdim.data.replicas import write_word2vec
    >>> from lowdim.data.word_vectors import load_word2vec_binary
    >>> files, truth = write_word2vec(tmp, rng)
    >>> vectors = load_word2vec_binary(files["word2vec-google-news-300.gz"])
    >>> len(vectors), vectors.dim
    (6, 5)
    """
    words = ["the", "New_York", "café", "</s>", "in", "UK"][:n_words]
    words += [f"word{k}" for k in range(n_words - len(words))]
    vectors = rng.normal(size=(n_words, dim)).astype(np.float32)
    body = f"{n_words} {dim}\n".encode()
    for word, vec in zip(words, vectors):
        body += word.encode("utf-8") + b" " + vec.astype("<f4").tobytes() + b"\n"
    path = write_bytes(directory / "word2vec-google-news-300.gz", gzip_bytes(body))
    return {"word2vec-google-news-300.gz": path}, {"words": words, "vectors": vectors}
