"""Similarity matrices of the SMS-Nyström experiments, built from a prepared dataset.

A *matrix spec* (one entry of the workflow's ``similarity.matrices``) names a
dataset and a similarity:

- ``wmd``: the WMD kernel ``exp(-gamma * WMD)`` between the documents of a
  ``text`` dataset, with the dataset's own word vectors (Kusner et al. files)
  or a named word-vector table (GloVe 6B 50d offline);
- ``mlp``: a :class:`PairwiseMLP` trained on labelled items (a ``dense``
  dataset's rows, a ``text`` dataset's mean word vectors, or a ``mentions``
  dataset's mean vectors of mention and sentence), scoring other items;
- ``crossencoder``: a transformer cross-encoder over the distinct sentences of
  a ``pairs`` dataset.

:func:`build_oracle` returns the oracle and which dataset items it covers;
the same function serves the downstream tasks, which keep the oracle lazy.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import scipy.sparse as sp

from .._validation import ArgumentValueError
from ..io import load_npz, save_npz
from .full import full_matrix
from .wmd import WMDOracle, in_vocabulary_counts

__all__ = ["MATRIX_KINDS", "build_oracle", "build_matrix", "item_embeddings", "load_matrix",
           "load_matrix_items", "save_matrix"]

logger = logging.getLogger("lowdim")

#: The similarities a matrix spec can name (``kind``).
MATRIX_KINDS = ("wmd", "mlp", "crossencoder")


def _word_vectors(dataset, name):
    """The dataset's own vectors (aligned with its vocabulary) or a named table."""
    if dataset.word_vectors is not None:
        return dataset.word_vectors
    from ..data.word_vectors import load_word_vectors

    return load_word_vectors(name)


def _choose(candidates, n_items, rng):
    """``n_items`` of ``candidates`` at random, kept in order (all when 0 or too few)."""
    candidates = np.asarray(candidates, dtype=np.int64)
    if n_items <= 0 or n_items >= candidates.size:
        return candidates
    return np.sort(rng.choice(candidates, size=n_items, replace=False))


def _in_split(dataset, split, name="split"):
    """Mask of items whose ``extra["split"]`` is ``split`` (all items when ``split`` is empty)."""
    if not split:
        return np.ones(dataset.n, dtype=bool)
    if "split" not in dataset.extra:
        raise ArgumentValueError(f"`{name}` is {split!r} but dataset {dataset.name!r} has no "
                                 "splits", name)
    mask = dataset.extra["split"].astype(str) == split
    if not mask.any():
        known = sorted(set(dataset.extra["split"].astype(str).tolist()))
        raise ArgumentValueError(f"`{name}`: dataset {dataset.name!r} has no split {split!r}; it "
                                 f"has {known}", name)
    return mask


def _mean_vectors(bow, vocab, word_vectors):
    """Count-weighted mean word vector of each bag-of-words row; zero rows where none known."""
    from .wmd import _align_vocab

    rows, table = _align_vocab(np.asarray(vocab).astype(str), word_vectors)
    known = np.flatnonzero(rows >= 0)
    counts = sp.csr_matrix(bow, dtype=np.float64)[:, known]
    total = np.asarray(counts.sum(axis=1)).ravel()
    sums = counts @ np.asarray(table[rows[known]], dtype=np.float64)
    return sums / np.maximum(total, 1.0)[:, None], total > 0


def item_embeddings(dataset, word_vectors="glove50"):
    """Vectors for the items of a dataset, as a pairwise MLP takes them.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
        ``dense``/``sparse``: standardised rows of ``X``; ``text``: mean word
        vector of each document; ``mentions``: mean word vector of the mention
        text concatenated with that of its sentence (a stand-in for the
        paper's RoBERTa mention embeddings).
    word_vectors : str, default="glove50"
        Table for text without its own vectors (see
        :func:`lowdim.data.word_vectors.load_word_vectors`).

    Returns
    -------
    X : ndarray of shape (n, d), float64
    usable : ndarray of bool of shape (n,)
        False for items with no known word.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.similarity.matrices import item_embeddings
    >>> X, usable = item_embeddings(get_spec("digits").prepare(n_rows=100))
    >>> X.shape, bool(usable.all()), abs(float(X.mean())) < 1e-12
    ((100, 64), True, True)
    """
    if dataset.kind in ("dense", "sparse"):
        from sklearn.preprocessing import StandardScaler

        X = dataset.X.toarray() if sp.issparse(dataset.X) else np.asarray(dataset.X, float)
        return StandardScaler().fit_transform(X), np.ones(X.shape[0], dtype=bool)
    if dataset.kind == "text":
        return _mean_vectors(dataset.bow, dataset.vocab, _word_vectors(dataset, word_vectors))
    if dataset.kind == "mentions":
        from ..data.text import bag_of_words, tokenize

        table = _word_vectors(dataset, word_vectors)
        parts, usable = [], np.ones(dataset.n, dtype=bool)
        for texts in (dataset.texts, dataset.extra["sentence"]):
            bow, vocab = bag_of_words([tokenize(str(t), stop_words=()) for t in texts])
            means, known = _mean_vectors(bow, vocab, table)
            parts.append(means)
            usable &= known
        return np.hstack(parts), usable
    raise ArgumentValueError(f"an `mlp` matrix needs a dense, sparse, text or mentions "
                             f"dataset; {dataset.name!r} is {dataset.kind!r}", "dataset")


def _wmd_oracle(spec, dataset, rng, n_jobs):
    if dataset.kind != "text":
        raise ArgumentValueError(f"a `wmd` matrix needs a text dataset; {dataset.name!r} is "
                                 f"{dataset.kind!r}", "dataset")
    options = spec.get("wmd", {})
    vectors = _word_vectors(dataset, options.get("word_vectors", "glove50"))
    counts = in_vocabulary_counts(dataset.bow, dataset.vocab, vectors)
    usable = (counts > 0) & _in_split(dataset, spec.get("split", ""))
    items = _choose(np.flatnonzero(usable), spec.get("n_items", 0), rng)
    oracle = WMDOracle.from_bow(dataset.bow[items], dataset.vocab, vectors,
                                gamma=options.get("gamma", 0.1), n_jobs=n_jobs)
    return oracle, items, {"dropped_empty": int(np.sum(counts == 0)),
                           "mean_words": float(oracle.doc_lengths_.mean())}


def _mlp_oracle(spec, dataset, rng, n_jobs):
    from .mlp import PairwiseMLP, PairwiseMLPOracle

    options = dict(spec.get("mlp", {}))
    if dataset.y is None:
        raise ArgumentValueError(f"an `mlp` matrix needs labels to train on; {dataset.name!r} "
                                 f"has none", "dataset")
    X, usable = item_embeddings(dataset, options.pop("word_vectors", "glove50"))
    usable &= dataset.y >= 0
    n_train = int(options.pop("train_items", 0))
    train_split = options.pop("train_split", "")
    candidates = usable & _in_split(dataset, spec.get("split", ""))
    if train_split:  # the dataset's own split: train on it, build the matrix from the rest
        in_train = _in_split(dataset, train_split, "train_split")
        train = _choose(np.flatnonzero(usable & in_train), n_train, rng)
        rest = np.flatnonzero(candidates & ~in_train)
    elif n_train > 0:  # a random training set, disjoint from the matrix items
        pool = rng.permutation(np.flatnonzero(candidates))
        train, rest = np.sort(pool[:n_train]), np.sort(pool[n_train:])
    else:  # train on the matrix items themselves
        train, rest = None, np.flatnonzero(candidates)
    items = _choose(rest, spec.get("n_items", 0), rng)
    train = items if train is None else train
    score = options.pop("score", "probability")
    options["hidden_layer_sizes"] = tuple(options.get("hidden_layer_sizes", (64,)))
    model = PairwiseMLP(**options, random_state=rng.randint(2**31 - 1))
    t0 = time.perf_counter()
    model.fit(X[train], dataset.y[train])
    logger.info("pairwise MLP trained on %d items in %.1f s (%d epochs)", train.size,
                time.perf_counter() - t0, model.mlp_.n_iter_)
    oracle = PairwiseMLPOracle(X[items], model, score=score, n_jobs=n_jobs)
    return oracle, items, {"train_items": int(train.size), "score": score,
                           "train_disjoint": bool(train_split) or n_train > 0}


def _crossencoder_oracle(spec, dataset, rng, n_jobs):
    from .crossencoder import CrossEncoderOracle

    if dataset.kind != "pairs":
        raise ArgumentValueError(f"a `crossencoder` matrix needs a pairs dataset; "
                                 f"{dataset.name!r} is {dataset.kind!r}", "dataset")
    both = np.concatenate([dataset.extra["sentence_a"], dataset.extra["sentence_b"]])
    in_split = np.tile(_in_split(dataset, spec.get("split", "")), 2)
    _, first = np.unique(np.where(in_split, both, ""), return_index=True)
    first = first[in_split[first]]
    distinct = np.sort(first[np.char.strip(both[first].astype(str)) != ""])
    items = _choose(distinct, spec.get("n_items", 0), rng)
    options = dict(spec.get("crossencoder", {}))
    oracle = CrossEncoderOracle(both[items].tolist(), options.pop("model"), n_jobs=n_jobs,
                                **options)
    # items index sentence_a for i < n_pairs and sentence_b[i - n_pairs] beyond
    return oracle, items, {"n_pairs": int(dataset.n)}


_BUILDERS = {"wmd": _wmd_oracle, "mlp": _mlp_oracle, "crossencoder": _crossencoder_oracle}


def build_oracle(spec, dataset, seed=0, n_jobs=1):
    """Build the similarity oracle a matrix spec describes.

    Parameters
    ----------
    spec : dict
        ``kind`` (one of :data:`MATRIX_KINDS`), ``n_items`` (0 = every usable
        item), ``split`` (only items of this ``extra["split"]``; empty = all)
        and the kind's options under ``spec[kind]`` (see config/README.md).
    dataset : lowdim.data.Dataset
        The prepared dataset whose items the oracle is over.
    seed : int
        Seeds item sampling and training.
    n_jobs : int
        Workers of the oracle.

    Returns
    -------
    oracle : SimilarityOracle
    items : ndarray of int64
        Which dataset items (rows, documents, mentions) the oracle's rows are;
        for ``crossencoder``, indices into ``concat(sentence_a, sentence_b)``.
    info : dict

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.similarity.matrices import build_oracle
    >>> digits = get_spec("digits").prepare(n_rows=200)
    >>> spec = {"kind": "mlp", "n_items": 50, "mlp": {"train_items": 150, "n_pairs": 2000,
    ...                                                "hidden_layer_sizes": [16], "max_iter": 20}}
    >>> oracle, items, info = build_oracle(spec, digits, seed=0)
    >>> oracle.n, items.size, info["train_items"], info["train_disjoint"]
    (50, 50, 150, True)
    >>> block = oracle([0, 1], [2, 3])
    >>> block.shape, oracle.evaluations
    ((2, 2), 4)
    """
    kind = spec.get("kind")
    if kind not in _BUILDERS:
        raise ArgumentValueError(f"`kind` must be one of {list(MATRIX_KINDS)}, got {kind!r}",
                                 "kind")
    # imported here: the jobs that only load a matrix (errors, spectra) skip scikit-learn's
    # second of start-up
    from sklearn.utils import check_random_state

    rng = check_random_state(seed)
    oracle, items, info = _BUILDERS[kind](spec, dataset, rng, n_jobs)
    if items.size < 4:
        raise ArgumentValueError(f"matrix of {dataset.name!r} would have {items.size} items; "
                                 f"need >= 4", "n_items")
    return oracle, items, {"kind": kind, "dataset": dataset.name, "n": int(items.size), **info}


def build_matrix(spec, dataset, seed=0, n_jobs=1):
    """Build the oracle of ``spec`` and evaluate its whole matrix.

    Parameters
    ----------
    spec : dict
        A matrix spec, as :func:`build_oracle` takes it.
    dataset : lowdim.data.Dataset
        The prepared dataset whose items the matrix is over.
    seed : int, default=0
        Seeds item sampling and training.
    n_jobs : int, default=1
        Workers of the oracle.

    Returns
    -------
    K : ndarray of shape (n, n)
        The whole matrix.
    items : ndarray of int64
        The dataset items of its rows.
    info : dict
        :func:`build_oracle`'s info plus ``seconds`` (to evaluate ``K``),
        ``evaluations``, ``entries_per_second``, ``seed`` and ``version`` (of lowdim).

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.similarity.matrices import build_matrix
    >>> spec = {"kind": "mlp", "n_items": 40,
    ...         "mlp": {"train_items": 150, "n_pairs": 2000, "hidden_layer_sizes": [16], "max_iter": 20}}
    >>> K, items, info = build_matrix(spec, get_spec("digits").prepare(n_rows=200), seed=0)
    >>> K.shape, np.allclose(K, K.T), info["evaluations"] == 40 * 41 // 2
    ((40, 40), True, True)
    """
    oracle, items, info = build_oracle(spec, dataset, seed=seed, n_jobs=n_jobs)
    oracle.cache = False  # every entry is computed once; a cache would only cost memory
    t0 = time.perf_counter()
    K = full_matrix(oracle)
    seconds = time.perf_counter() - t0
    from .. import __version__

    info.update(seconds=seconds, evaluations=int(oracle.evaluations),
                entries_per_second=oracle.evaluations / max(seconds, 1e-12), seed=int(seed),
                version=__version__)
    return K, items, info


def save_matrix(path, K, items, info) -> None:
    """Write a matrix, its items and its info (JSON) to ``path`` (.npz) atomically.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.npz`` file to write.
    K : ndarray of shape (n, n)
        The matrix.
    items : array-like of int of shape (n,)
        The dataset items of its rows.
    info : dict
        JSON-serialisable details of the build.

    Examples
    --------
    >>> from lowdim.similarity.matrices import load_matrix, save_matrix
    >>> save_matrix(tmp / "K.npz", np.eye(3), [4, 7, 9], {"kind": "toy"})
    >>> K, items, info = load_matrix(tmp / "K.npz")
    >>> K.shape, items.tolist(), info["kind"]
    ((3, 3), [4, 7, 9], 'toy')
    """
    save_npz(path, info, K=np.asarray(K, dtype=np.float64), items=np.asarray(items, np.int64))


def load_matrix(path):
    """Read what :func:`save_matrix` wrote: ``(K, items, info)``; no pickle is loaded.

    Parameters
    ----------
    path : str or pathlib.Path
        A file :func:`save_matrix` wrote.

    Returns
    -------
    K : ndarray of shape (n, n)
        The matrix.
    items : ndarray of int64
        The dataset items of its rows.
    info : dict
        What the build recorded.

    Examples
    --------
    >>> from lowdim.similarity.matrices import load_matrix, save_matrix
    >>> save_matrix(tmp / "K.npz", np.eye(2), [0, 5], {"dataset": "toy"})
    >>> K, items, info = load_matrix(tmp / "K.npz")
    >>> K.tolist(), items.tolist(), info
    ([[1.0, 0.0], [0.0, 1.0]], [0, 5], {'dataset': 'toy'})
    """
    arrays, info = load_npz(path)
    return arrays["K"], arrays["items"], info


def load_matrix_items(path) -> np.ndarray:
    """Only the ``items`` of a :func:`save_matrix` file (the n x n matrix is not read).

    Parameters
    ----------
    path : str or pathlib.Path
        A file :func:`save_matrix` wrote.

    Returns
    -------
    items : ndarray of int64
        The dataset items of the matrix's rows.

    Examples
    --------
    >>> from lowdim.similarity.matrices import load_matrix_items, save_matrix
    >>> save_matrix(tmp / "K.npz", np.eye(3), [4, 7, 9], {})
    >>> items = load_matrix_items(tmp / "K.npz")
    >>> items.tolist()
    [4, 7, 9]
    """
    with np.load(path, allow_pickle=False) as store:
        return store["items"]
