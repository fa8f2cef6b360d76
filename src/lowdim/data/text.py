"""Text helpers shared by every text dataset: tokenising, bags of words, the text Dataset."""

from __future__ import annotations

import re
import unicodedata

import numpy as np
import scipy.sparse as sp

from .parsing import encode_labels, split_indices, subsample
from .prepared import Dataset

__all__ = ["tokenize", "bag_of_words", "text_dataset"]

#: A letter or digit of any script, then letters, digits, apostrophes and hyphens, ending in a
#: letter or digit: ``[^\W_]`` is ``\w`` without the underscore (``[a-z0-9]`` cut "clichés" in two).
_TOKEN = re.compile(r"[^\W_](?:[^\W_]|['\-])*[^\W_]|[^\W_]")


def tokenize(text: str, stop_words=None, min_length: int = 1) -> list[str]:
    """Lower-case word tokens of ``text``, without stop words.

    A token is a run of letters and digits of any script, with apostrophes and hyphens
    inside it ("don't", "rom-com", "clichés"); the text is put in Unicode's composed form
    (NFC) first, so that "é" typed as "e" and a combining accent is one letter.

    Kusner et al. (2015) remove the SMART stop list before computing WMD; we use
    scikit-learn's English stop list, which serves the same purpose and ships
    offline. Pass ``stop_words=()`` to keep every word.

    Parameters
    ----------
    text : str
    stop_words : collection of str, default=None
        None: scikit-learn's ``ENGLISH_STOP_WORDS``.
    min_length : int, default=1
        Drop tokens shorter than this.

    Returns
    -------
    tokens : list of str

    Examples
    --------
    >>> from lowdim.data.text import tokenize
    >>> tokenize("The cat sat on the mat!")
    ['cat', 'sat', 'mat']
    >>> tokenize("The cat sat on the mat!", stop_words=())
    ['the', 'cat', 'sat', 'on', 'the', 'mat']
    >>> tokenize("Clichés of the rom-com, ¿verdad?")
    ['clichés', 'rom-com', 'verdad']
    """
    if stop_words is None:
        # Imported here: the dataset registry (hence every Snakemake start-up, two per
        # cluster job) imports this module, and scikit-learn is most of its import time.
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS as stop_words
    tokens = _TOKEN.findall(unicodedata.normalize("NFC", text).lower())
    return [t for t in tokens if len(t) >= min_length and t not in stop_words]


def bag_of_words(token_lists, vocab=None, min_count: int = 1):
    """Count matrix of documents over a vocabulary.

    Parameters
    ----------
    token_lists : sequence of list of str
        One token list per document.
    vocab : sequence of str, optional
        Fixed vocabulary (words outside it are dropped). By default every word
        seen at least ``min_count`` times, sorted alphabetically.
    min_count : int, default=1

    Returns
    -------
    bow : scipy.sparse.csr_matrix of shape (n_docs, len(vocab)), float64
    vocab : ndarray of str of shape (V,)

    Examples
    --------
    >>> from lowdim.data.text import bag_of_words
    >>> bow, vocab = bag_of_words([["cat", "sat", "cat"], ["dog"]])
    >>> vocab.tolist(), bow.toarray()
    (['cat', 'dog', 'sat'], array([[2., 0., 1.],
           [0., 1., 0.]]))
    """
    if vocab is None:
        counts: dict[str, int] = {}
        for tokens in token_lists:
            for t in tokens:
                counts[t] = counts.get(t, 0) + 1
        vocab = sorted(w for w, c in counts.items() if c >= min_count)
    vocab = np.asarray(list(vocab), dtype=str)
    index = {w: i for i, w in enumerate(vocab.tolist())}
    rows, cols = [], []
    for r, tokens in enumerate(token_lists):
        ids = [index[t] for t in tokens if t in index]
        rows.extend([r] * len(ids))
        cols.extend(ids)
    data = np.ones(len(rows), dtype=np.float64)
    bow = sp.csr_matrix((data, (rows, cols)), shape=(len(token_lists), len(vocab)))
    bow.sum_duplicates()
    return bow, vocab


def text_dataset(name, texts, labels, is_train=None, *, n_rows=0, seed=0, min_count=1,
                 label_names=None, **meta):
    """Tokenise, drop empty documents, sample rows and count words into a text Dataset.

    Examples
    --------
    >>> from lowdim.data.text import text_dataset
    >>> data = text_dataset("toy", ["Cats sleep.", "the", "Dogs bark loudly."], ["a", "a", "b"])
    >>> data.n, data.meta["dropped_empty"], data.vocab.tolist(), data.y.tolist()
    (2, 1, ['bark', 'cats', 'dogs', 'loudly', 'sleep'], [0, 1])
    """
    tokens = [tokenize(t) for t in texts]
    keep = np.flatnonzero([len(t) > 0 for t in tokens])
    rows = keep[subsample(len(keep), n_rows, seed)]
    y, names = encode_labels([labels[i] for i in rows], names=label_names)
    bow, vocab = bag_of_words([tokens[i] for i in rows], min_count=min_count)
    train_idx, test_idx = (split_indices(np.asarray(is_train)[rows]) if is_train is not None
                           else (None, None))
    return Dataset(name=name, kind="text", texts=np.asarray([texts[i] for i in rows], dtype=str),
                   bow=bow, vocab=vocab, y=y, label_names=names, train_idx=train_idx,
                   test_idx=test_idx,
                   meta={"dropped_empty": int(len(texts) - len(keep)),
                         "tokenizer": "lowdim.data.text.tokenize (lower-case, English stop "
                                      "words removed)", **meta})
