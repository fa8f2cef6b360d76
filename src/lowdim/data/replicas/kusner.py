"""Replicas of Kusner et al.'s WMD corpora: MATLAB v5 files of cell arrays, as published."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._containers import balanced_labels, savemat

__all__ = ["write_kusner_split", "write_kusner_fixed"]


def _kusner_corpus(rng, y, n_words=9, dim=300, doc_words=(1, 5), last_reuses=False):
    """Documents over a shared vocabulary, cells as Kusner stores them, plus the truth.

    Words of a document's own class are three times as likely as others, and
    their vectors lie near a class centre, so WMD separates the classes. Document 2 is empty, as in twitter.
    With ``last_reuses``, the last document uses only words seen before (as
    recipe2's last document, whose names are recovered from earlier documents).
    """
    vocab = [f"word{k}" for k in range(n_words)]
    n_classes = int(np.max(y)) + 1
    # word2vec-like scale (norms about 2-3, WMDs about 1-4); word k leans to class k % C
    centers = rng.normal(size=(n_classes, dim))
    table = 0.1 * centers[np.arange(n_words) % n_classes] + 0.1 * rng.normal(size=(n_words, dim))
    X, BOW, words, bags = [], [], [], []
    for i, label in enumerate(y):
        size = 0 if i == 1 else int(rng.integers(*doc_words))
        weights = np.where(np.arange(n_words) % n_classes == label, 3.0, 1.0)
        if last_reuses and i == len(y) - 1:
            seen = {vocab.index(w) for bag in bags for w in bag}
            weights = np.where(np.isin(np.arange(n_words), list(seen)), weights, 0.0)
            size = min(size, len(seen))
        ids = rng.choice(n_words, size=min(size, n_words), replace=False, p=weights / weights.sum())
        counts = rng.integers(1, 4, size=ids.size).astype(np.float64)
        X.append(table[ids].T.reshape(dim, ids.size))
        BOW.append(counts.reshape(1, ids.size))
        cell = np.empty((1, ids.size), dtype=object)
        for j, k in enumerate(ids):
            cell[0, j] = np.array([vocab[k]])
        words.append(cell)
        bags.append({vocab[k]: c for k, c in zip(ids, counts)})
    return X, BOW, words, bags, dict(zip(vocab, table))


def _cell_row(items) -> np.ndarray:
    row = np.empty((1, len(items)), dtype=object)
    for i, item in enumerate(items):
        row[0, i] = item
    return row


def write_kusner_split(directory: Path, rng, filename="bbcsport-emd_tr_te_split.mat", n_docs=8,
                       words_variable="words", shift_words_at=None, omit_variable=None,
                       n_classes=3, n_words=9, doc_words=(1, 5)):
    """A five-split Kusner file: X, BOW_X, words (or the_words), Y, TR, TE (1-based).

    ``shift_words_at=i`` reproduces recipe2's defect: an empty cell is inserted
    before document ``i`` in the word lists, shifting the later ones (the last
    document's words fall off the end).

    Examples
    --------
    >>> from lowdim.data.replicas import write_kusner_split
    >>> sorted(write_kusner_split(tmp, rng)[0])   # the file names of the real download
    ['bbcsport-emd_tr_te_split.mat']
    """
    labels = balanced_labels(rng, n_docs, n_classes)
    X, BOW, words, bags, table = _kusner_corpus(rng, labels, n_words, doc_words=doc_words,
                                                last_reuses=shift_words_at is not None)
    Y = (labels + 1).astype(np.float64).reshape(1, n_docs)
    perms = [rng.permutation(n_docs) + 1 for _ in range(5)]
    n_train = n_docs - max(3, n_docs // 3)
    TR = np.array([p[:n_train] for p in perms], dtype=np.float64)
    TE = np.array([p[n_train:] for p in perms], dtype=np.float64)
    if shift_words_at is not None:
        words = words[:shift_words_at] + [np.empty((0, 0), dtype=object)] + words[shift_words_at:-1]
    variables = {"X": _cell_row(X), "BOW_X": _cell_row(BOW), words_variable: _cell_row(words),
                 "Y": Y, "TR": TR, "TE": TE}
    if omit_variable:
        variables.pop(omit_variable)
    savemat(directory / filename, variables)
    return {filename: directory / filename}, {
        "bags": bags, "table": table, "y": Y.ravel(), "TR": TR.astype(int) - 1,
        "TE": TE.astype(int) - 1}


def write_kusner_fixed(directory: Path, rng, filename="r8-emd_tr_te3.mat", n_train=6, n_test=4,
                       with_words=True, n_classes=4, n_words=9, doc_words=(1, 5)):
    """A fixed-split Kusner file: xtr/xte, BOW_xtr/BOW_xte, ytr/yte, words_tr/words_te.

    Examples
    --------
    >>> from lowdim.data.replicas import write_kusner_fixed
    >>> sorted(write_kusner_fixed(tmp, rng)[0])   # the file names of the real download
    ['r8-emd_tr_te3.mat']
    """
    labels = np.concatenate([balanced_labels(rng, n_train, n_classes),
                             balanced_labels(rng, n_test, n_classes)])
    X, BOW, words, bags, table = _kusner_corpus(rng, labels, n_words, doc_words=doc_words)
    y = (labels + 1).astype(np.float64)
    variables = {"xtr": _cell_row(X[:n_train]), "xte": _cell_row(X[n_train:]),
                 "BOW_xtr": _cell_row(BOW[:n_train]), "BOW_xte": _cell_row(BOW[n_train:]),
                 "ytr": y[None, :n_train], "yte": y[None, n_train:]}
    if with_words:
        variables["words_tr"] = _cell_row(words[:n_train])
        variables["words_te"] = _cell_row(words[n_train:])
    savemat(directory / filename, variables)
    return {filename: directory / filename}, {"bags": bags, "table": table, "y": y,
                                              "n_train": n_train}
