"""Replicas of the CCA datasets: Mediamill (bz2 svmlight), PTB (text), URL Reputation (tar.gz)."""

from __future__ import annotations

import bz2
from pathlib import Path

import numpy as np

from ._containers import svmlight_line, tar_gz, write_bytes

__all__ = ["write_mediamill", "write_ptb", "write_url_reputation"]


def write_mediamill(directory: Path, rng, n_train=6, n_test=3, n_concepts=8):
    """{train,test}-exp1.svm.bz2: multilabel svmlight, labels 0-100, features 1-120.

    Each keyframe shows one of ``n_concepts`` latent concepts, which picks both
    most of its labels and most of its features: the views are correlated.

    Examples
    --------
    >>> from lowdim.data.replicas import write_mediamill
    >>> sorted(write_mediamill(tmp, rng)[0])   # the file names of the real download
    ['test-exp1.svm.bz2', 'train-exp1.svm.bz2']
    """
    concept_labels = [rng.choice(101, size=6, replace=False) for _ in range(n_concepts)]
    concept_features = [rng.choice(np.arange(1, 121), size=20, replace=False)
                        for _ in range(n_concepts)]
    files, X, Y = {}, [], []
    for part, n in (("train", n_train), ("test", n_test)):
        lines = []
        for i in range(n):
            c = int(rng.integers(n_concepts))
            labels = [] if i == 1 else sorted(rng.choice(concept_labels[c], 3, False).tolist())
            columns = np.union1d(rng.choice(concept_features[c], 6, replace=False),
                                 rng.choice(np.arange(1, 121), 2, replace=False))
            feats = {int(j): float(rng.uniform(0.01, 1)) for j in columns}
            lines.append(svmlight_line(labels, feats))
            x = np.zeros(120)
            x[[j - 1 for j in feats]] = list(feats.values())
            X.append(x)
            y = np.zeros(101)
            y[labels] = 1
            Y.append(y)
        name = f"{part}-exp1.svm.bz2"
        files[name] = write_bytes(directory / name, bz2.compress("".join(lines).encode()))
    return files, {"X": np.array(X), "Y": np.array(Y), "n_train": n_train}


_PTB_WORDS = ["the", "of", "<unk>", "market", "n't", "stock", "$", "N"]


def write_ptb(directory: Path, rng, sentences=(5, 2, 2), n_words=0, sentence_words=(2, 6)):
    """ptb.{train,valid,test}.txt: one sentence per line, leading space, <unk> tokens.

    With ``n_words`` > 0 the vocabulary also has that many generated words and
    sentences follow a random first-order Markov chain (each word has three
    likely successors), so a word and its context are correlated.

    Examples
    --------
    >>> from lowdim.data.replicas import write_ptb
    >>> sorted(write_ptb(tmp, rng)[0])   # the file names of the real download
    ['ptb.test.txt', 'ptb.train.txt', 'ptb.valid.txt']
    """
    words = _PTB_WORDS + [f"w{k}" for k in range(n_words)]
    successors = rng.integers(0, len(words), size=(len(words), 3))
    files, lines_by_part = {}, {}
    for part, n in zip(("train", "valid", "test"), sentences):
        lines = []
        for _ in range(n):
            length = int(rng.integers(*sentence_words))
            if n_words:
                ids = [int(rng.integers(len(words)))]
                while len(ids) < length:
                    ids.append(int(successors[ids[-1], rng.integers(3)]) if rng.random() < 0.8
                               else int(rng.integers(len(words))))
                sentence = [words[k] for k in ids]
            else:
                sentence = list(rng.choice(words, length))
            lines.append(" " + " ".join(sentence) + " ")
        files[f"ptb.{part}.txt"] = write_bytes(directory / f"ptb.{part}.txt",
                                               ("\n".join(lines) + "\n").encode())
        lines_by_part[part] = lines
    return files, lines_by_part


def write_url_reputation(directory: Path, rng, n_days=3, rows_per_day=4, n_features=40,
                         real=(1, 2, 5), drop_member=None, nnz_per_row=6, real_per_row=0):
    """url_svmlight.tar.gz: url_svmlight/Day<k>.svm (labels +1/-1, 1-based indices), FeatureTypes.

    The feature space grows over days, as in the real data; the archive lists the
    days out of numeric order (Day10 before Day2) to check day ordering. With
    ``real_per_row`` > 0 each row also has that many real-valued features, whose
    values depend on the label, as do its binary features' columns.

    Examples
    --------
    >>> from lowdim.data.replicas import write_url_reputation
    >>> sorted(write_url_reputation(tmp, rng)[0])   # the file names of the real download
    ['url_svmlight.tar.gz']
    """
    real = [int(j) for j in real]
    members, X_days, y_days = {}, [], []
    for day in range(n_days):
        width = n_features - 5 * (n_days - 1 - day)
        lines, X = [], np.zeros((rows_per_day, n_features))
        y = rng.choice([-1, 1], size=rows_per_day)
        for i in range(rows_per_day):
            band = np.arange(1, width + 1)
            if real_per_row:  # malicious URLs favour the upper half of the binary features
                band = band[band > width // 2] if y[i] > 0 else band
            cols = rng.choice(band, size=min(nnz_per_row, band.size), replace=False)
            if real_per_row:
                cols = np.union1d(cols, rng.choice(real, size=min(real_per_row, len(real)),
                                                   replace=False))
            feats = {int(j): (float(rng.uniform(0.1, 9) + 2 * (y[i] > 0)) if j in real else 1.0)
                     for j in cols}
            lines.append(f"{'+1' if y[i] > 0 else '-1'} " +
                         " ".join(f"{j}:{v:.6g}" for j, v in sorted(feats.items())) + "\n")
            X[i, [j - 1 for j in feats]] = list(feats.values())
        members[f"url_svmlight/Day{day}.svm"] = "".join(lines).encode()
        X_days.append(X)
        y_days.append(y)
    members["url_svmlight/FeatureTypes"] = "".join(f"{j}\n" for j in real).encode()
    order = sorted(members, key=lambda n: n[::-1])     # not day order
    if drop_member:
        order.remove(f"url_svmlight/{drop_member}")
    path = tar_gz(directory / "url_svmlight.tar.gz", {k: members[k] for k in order})
    X = np.vstack(X_days)
    width = max(np.flatnonzero(X.any(axis=0))) + 1
    return {"url_svmlight.tar.gz": path}, {"X": X[:, :width], "y": np.concatenate(y_days),
                                           "real": [j - 1 for j in real]}
