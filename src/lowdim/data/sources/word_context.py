"""Offline word/context two-view data from gensim's bundled corpora: a small PTB stand-in.

``word_context``: the AppGrad paper's Penn Treebank experiment (a CCA between
words and their context, Dhillon et al. 2011) on text that ships with gensim.
Documents are tokenised the way Mikolov's PTB is (lower case, numbers -> ``N``,
punctuation dropped, ``<eos>`` after each sentence) and turned into sparse
one-hot views by :func:`lowdim.data.sources.cca_data.word_context_views`, the
same construction as the ``ptb`` dataset. A seeded random fraction of the
documents is held out (``test_idx``) for out-of-sample PCC.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from ..parsing import split_indices
from ..prepared import Dataset
from ..registry import DatasetSpec, register
from .cca_data import word_context_views
from .embedded import _read_gensim_text

__all__ = ["CORPORA", "ptb_style_tokens"]

#: gensim test corpora of running English text (one document per line).
CORPORA = ("lee_background.cor", "lee.cor", "head500.noblanks.cor")

_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")
#: Words of letters of any script (``[^\W\d_]``), joined by an apostrophe or a hyphen; numbers.
_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*|\d+(?:[.,]\d+)*")


def ptb_style_tokens(text: str) -> list[str]:
    """Tokens of ``text`` in the style of Mikolov's PTB.

    Lower case (composed Unicode, NFC); every number becomes ``N``; punctuation is dropped; each
    sentence (ended by ``.``, ``!`` or ``?``) is followed by ``<eos>``.

    Examples
    --------
    >>> ptb_style_tokens("It cost $3.5 million. Prices rose!")
    ['it', 'cost', 'N', 'million', '<eos>', 'prices', 'rose', '<eos>']
    >>> ptb_style_tokens("Un café crème.")
    ['un', 'café', 'crème', '<eos>']
    """
    tokens = []
    for sentence in _SENTENCE_END.split(unicodedata.normalize("NFC", text).lower()):
        words = ["N" if w[0].isdigit() else w for w in _WORD.findall(sentence)]
        if words:
            tokens.extend(words + ["<eos>"])
    return tokens


def _read_documents(corpora) -> list[str]:
    return [line for name in corpora for line in _read_gensim_text(name)]


def _word_context(raw_files, *, corpora, vocab_size, window, test_fraction, seed):
    documents = _read_documents(corpora)
    rng = np.random.default_rng(seed)
    is_test_doc = np.zeros(len(documents), dtype=bool)
    is_test_doc[rng.choice(len(documents), size=int(round(test_fraction * len(documents))),
                           replace=False)] = True
    tokens, token_is_train = [], []
    for train_part in (True, False):  # training documents first, then held-out ones
        for doc, is_test in zip(documents, is_test_doc):
            if is_test != train_part:
                words = ptb_style_tokens(doc)
                tokens.extend(words)
                token_is_train.extend([train_part] * len(words))
    X, Y, vocab = word_context_views(tokens, vocab_size, window)
    in_vocab = np.isin(np.asarray(tokens), vocab)
    train_idx, test_idx = split_indices(np.asarray(token_is_train)[in_vocab])
    return Dataset(name="word_context", kind="two_view", X=X, Y=Y, vocab=vocab,
                   train_idx=train_idx, test_idx=test_idx,
                   meta={"views": f"X: word one-hot; Y: context one-hot at offsets "
                                  f"+-1..{window}, one block of {len(vocab)} columns each",
                         "corpora": list(corpora), "n_tokens": len(tokens),
                         "n_documents": len(documents), "n_test_documents": int(is_test_doc.sum())})


register(DatasetSpec(
    name="word_context", kind="two_view", parser=_word_context,
    description="word vs context one-hots from gensim's bundled English corpora (PTB stand-in)",
    source="gensim test corpora (Lee et al. 2005 news documents; Wikipedia excerpt)",
    licence="shipped with gensim (LGPL-2.1) as test data; research use",
    options_schema={
        "corpora": {"type": "array", "minItems": 1, "uniqueItems": True,
                    "items": {"type": "string", "enum": list(CORPORA)},
                    "default": ["lee_background.cor", "lee.cor"],
                    "description": "gensim corpora to concatenate (one document per line)"},
        "vocab_size": {"type": "integer", "minimum": 1, "default": 1000,
                       "description": "most frequent words kept (the paper keeps 10,000 of PTB)"},
        "window": {"type": "integer", "minimum": 1, "default": 1,
                   "description": "context words on each side, one block of columns per offset"},
        "test_fraction": {"type": "number", "minimum": 0, "maximum": 0.9, "default": 0.2,
                          "description": "fraction of documents held out (test_idx)"},
        "seed": {"type": "integer", "minimum": 0, "default": 0,
                 "description": "seed of the held-out document draw"}},
    labelled=False,
    sizes=lambda o: {"p1": o["vocab_size"], "p2": 2 * o["window"] * o["vocab_size"]}))
