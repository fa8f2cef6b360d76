"""Datasets that ship inside our dependencies: they need no network.

- ``digits``: scikit-learn's handwritten digits (1,797 x 64, 10 classes).
- ``digits_halves``: the same images as two views (left/right or top/bottom halves).
- ``pang_lee``: gensim's ``pang_lee_polarity.cor``, 200 labelled movie-review sentences.
- ``lee``: gensim's ``lee_background.cor``, 300 news documents (unlabelled).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from ..parsing import kept_rows, subsample, text_lines
from ..prepared import Dataset
from ..registry import DatasetSpec, register
from ..text import bag_of_words, tokenize
from ..views import SPLITS, split_image_halves

_SKLEARN = "scikit-learn load_digits (UCI Optical Recognition of Handwritten Digits test set)"
_SKLEARN_LICENCE = "CC BY 4.0 (UCI); shipped with scikit-learn (BSD-3-Clause)"
_GENSIM_LICENCE = "shipped with gensim (LGPL-2.1) as test data; research use"


def _digits(raw_files, *, n_rows: int, seed: int):
    from sklearn.datasets import load_digits

    digits = load_digits()
    X, y = digits.data.astype(np.float64), digits.target.astype(np.int64)
    rows = subsample(len(y), n_rows, seed)
    return Dataset(name="digits", kind="dense", X=X[rows], y=y[rows],
                   label_names=np.array([str(c) for c in range(10)]),
                   meta={"image_shape": [8, 8], "units": "grey level 0-16"})


def _digits_halves(raw_files, *, split: str, n_rows: int, seed: int):
    base = _digits(raw_files, n_rows=n_rows, seed=seed)
    first, second = split_image_halves(base.X, (8, 8), split)
    return Dataset(name="digits_halves", kind="two_view", X=first, Y=second, y=base.y,
                   label_names=base.label_names,
                   meta={"split": split, "image_shape": [8, 8]})


def _gensim_test_data(name: str) -> Path:
    """Path of gensim's bundled test file ``name`` (``gensim.test.utils.datapath``), found
    without importing gensim (a second of start-up for a file name)."""
    spec = importlib.util.find_spec("gensim")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("gensim is not installed; its bundled corpora need it")
    return Path(spec.submodule_search_locations[0]) / "test" / "test_data" / name


def _read_gensim_text(name: str) -> list[str]:
    """The non-blank lines of one of gensim's test corpora, stripped.

    The corpora come in two encodings: ``head500.noblanks.cor`` is UTF-8, while the polarity
    sentences (``clich\xe9s``, ``\x97`` for a dash) and ``lee.cor`` (``\xa3``) are Windows-1252,
    which is not valid UTF-8. Read as Latin-1, UTF-8 letters became two (``Ã©``).
    """
    raw = _gensim_test_data(name).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252")
    return [line.strip() for line in text_lines(text) if line.strip()]


def _text_dataset(name, texts, y=None, label_names=None, min_count=1):
    tokens = [tokenize(t) for t in texts]
    bow, vocab = bag_of_words(tokens, min_count=min_count)
    return Dataset(name=name, kind="text", texts=np.asarray(texts, dtype=str), bow=bow,
                   vocab=vocab, y=y, label_names=label_names,
                   meta={"tokenizer": "lowdim.data.text.tokenize (lower-case, English stop "
                                      "words removed)"})


def _pang_lee(raw_files):
    labels, texts = [], []
    for line in _read_gensim_text("pang_lee_polarity.cor"):
        label, _, text = line.partition(" ")
        if not label.startswith("__label__"):
            raise ValueError(f"pang_lee_polarity.cor: expected '__label__<class> <text>', "
                             f"got {line[:40]!r}")
        labels.append(label[len("__label__"):])
        texts.append(text)
    names = np.array(sorted(set(labels)))
    y = np.searchsorted(names, labels).astype(np.int64)
    return _text_dataset("pang_lee", texts, y=y, label_names=names)


def _lee(raw_files):
    return _text_dataset("lee", _read_gensim_text("lee_background.cor"))


_ROWS = {"type": "integer", "minimum": 0, "default": 0,
         "description": "rows to keep (random, seeded); 0 keeps all"}
_SEED = {"type": "integer", "minimum": 0, "default": 0, "description": "seed for row sampling"}

register(DatasetSpec(
    name="digits", kind="dense", parser=_digits,
    description="8x8 handwritten digit images, 10 classes",
    source=_SKLEARN, licence=_SKLEARN_LICENCE,
    options_schema={"n_rows": _ROWS, "seed": _SEED},
    sizes=lambda o: {"n": kept_rows(1797, o["n_rows"]), "p": 64}))

register(DatasetSpec(
    name="digits_halves", kind="two_view", parser=_digits_halves,
    description="digits as two views: image halves (CCA)",
    source=_SKLEARN, licence=_SKLEARN_LICENCE,
    options_schema={"split": {"type": "string", "enum": list(SPLITS), "default": "left_right",
                              "description": "left_right (the AppGrad paper's text) or "
                                             "top_bottom (the authors' MNIST code)"},
                    "n_rows": _ROWS, "seed": _SEED},
    sizes=lambda o: {"n": kept_rows(1797, o["n_rows"]), "p1": 32, "p2": 32}))

register(DatasetSpec(
    name="pang_lee", kind="text", parser=_pang_lee,
    description="movie-review sentences labelled positive/negative (Pang & Lee)",
    source="gensim test data pang_lee_polarity.cor", licence=_GENSIM_LICENCE,
    sizes=lambda o: {"n": 200}))

register(DatasetSpec(
    name="lee", kind="text", parser=_lee,
    description="Lee et al. (2005) background news corpus, unlabelled",
    source="gensim test data lee_background.cor", licence=_GENSIM_LICENCE,
    labelled=False, sizes=lambda o: {"n": 300}))
