"""word2vec GoogleNews 300d vectors (Mikolov et al. 2013), in word2vec's binary format.

Registered for uses beyond the Kusner corpora (whose ``.mat`` files already hold
the vectors of their words, so WMD needs no download of this 1.7 GB file).
Read with gensim's word2vec reader (no pickle). The gensim-data release is the
primary address; gensim-data publishes its size and an MD5 digest
(``a5e5354d40acb95f9ec66d5977d140ef``, gensim-data ``list.json``) but no
SHA-256, so the SHA-256 is pinned on first download.
"""

from __future__ import annotations

import numpy as np

from ..parsing import kept_rows
from ..prepared import Dataset
from ..registry import DatasetSpec, RemoteFile, register
from ..word_vectors import load_word2vec_binary


def _word2vec(raw_files, *, limit: int):
    vectors = load_word2vec_binary(raw_files["word2vec-google-news-300.gz"], limit=limit or None,
                                   name="word2vec-google-news-300")
    words = sorted(vectors.vocab, key=vectors.vocab.get)
    return Dataset(name="word2vec_googlenews", kind="word_vectors",
                   vocab=np.asarray(words, dtype=str),
                   word_vectors=np.asarray(vectors.vectors, dtype=np.float32),
                   meta={"dim": int(vectors.dim), "order": "by frequency, as in the file"})


register(DatasetSpec(
    name="word2vec_googlenews", kind="word_vectors", parser=_word2vec,
    files=(RemoteFile("word2vec-google-news-300.gz",
                      ("https://github.com/RaRe-Technologies/gensim-data/releases/download/"
                       "word2vec-google-news-300/word2vec-google-news-300.gz",),
                      None, 1743563840),),
    description="word2vec GoogleNews vectors, 3,000,000 words and phrases x 300",
    source="Mikolov et al. 2013, via gensim-data (word2vec-google-news-300)",
    licence="Apache-2.0 (word2vec project page)",
    options_schema={"limit": {"type": "integer", "minimum": 0, "default": 0,
                              "description": "read only the first (most frequent) words; "
                                             "0 reads all 3,000,000"}},
    labelled=False, sizes=lambda o: {"n": kept_rows(3000000, o["limit"])}))
