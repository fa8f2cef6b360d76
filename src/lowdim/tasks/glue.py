"""GLUE sentence-pair tasks predicted from an approximated cross-encoder similarity matrix.

The matrix ``K[i, j]`` is a cross-encoder's score of the sentence pair
``(s_i, s_j)``, symmetrised, over the distinct sentences of a task's labelled
pairs. An approximation ``K~`` built from a fraction of its entries predicts
every labelled pair ``(a, b)`` by ``K~[a, b]``; the prediction is scored as
GLUE scores the task:

- STS-B: Pearson and Spearman correlation of ``K~[a, b]`` with the gold score;
- MRPC: F1 of the "paraphrase" class, predicted where ``K~[a, b] >= threshold``;
- RTE: accuracy, "entailment" predicted where ``K~[a, b] >= threshold``.

The exact matrix's score (``method = "exact"``) is the ceiling each
approximation is compared with.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd
import scipy.stats
from sklearn.metrics import accuracy_score, f1_score
from sklearn.utils import check_random_state

from .._validation import ArgumentValueError
from ..approx import METHODS, sample_size
from ..io import load_npz, save_npz
from ..seeding import derive_seed
from ..similarity import DenseOracle, full_matrix

__all__ = ["GLUE_METRICS", "glue_matrix", "glue_scores", "labelled_pairs", "load_glue_matrix",
           "pair_metrics", "save_glue_matrix"]

logger = logging.getLogger("lowdim")

#: Dataset name -> the metrics GLUE reports for it.
GLUE_METRICS = {"stsb": ("pearson", "spearman"), "mrpc": ("f1",), "rte": ("accuracy",)}


def labelled_pairs(dataset, split="dev", n_pairs=0, seed=0):
    """The labelled pairs of one split and the distinct sentences they use.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
        A GLUE ``pairs`` dataset (``stsb``, ``mrpc``, ``rte``).
    split : str, default="dev"
        GLUE split; its pairs must carry gold labels (GLUE's test split does not).
    n_pairs : int, default=0
        Keep a seeded random subset of this many pairs; 0 keeps all.
    seed : int

    Returns
    -------
    sentences : list of str
        Distinct sentences, sorted.
    a, b : ndarray of int64 of shape (m,)
        Rows of the two sentences of each pair.
    gold : ndarray of float64 of shape (m,)
        Gold score (STS-B) or label (1 = paraphrase / entailment).

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.data.replicas import write_stsb
    >>> from lowdim.tasks.glue import labelled_pairs
    >>> files, _ = write_stsb(tmp, rng, n=12)
    >>> sentences, a, b, gold = labelled_pairs(get_spec("stsb").prepare(files), split="dev")
    >>> len(sentences), a.shape, gold.dtype
    (6, (12,), dtype('float64'))
    >>> bool(all(sentences[i] != sentences[j] for i, j in zip(a, b)))
    True
    """
    if dataset.kind != "pairs" or dataset.name not in GLUE_METRICS:
        raise ArgumentValueError("`dataset` must be one of the GLUE pair datasets "
                                 f"{list(GLUE_METRICS)}, got {dataset.name!r} ({dataset.kind})",
                                 "dataset")
    gold = (dataset.extra["score"] if "score" in dataset.extra
            else dataset.extra["label"]).astype(np.float64)
    splits = dataset.extra["split"].astype(str)
    rows = np.flatnonzero((splits == split) & np.isfinite(gold) & (gold >= 0))
    if rows.size == 0:
        raise ArgumentValueError(f"`split` {split!r} of {dataset.name!r} has no labelled pairs; "
                                 f"splits present: {sorted(set(splits.tolist()))}", "split")
    if 0 < n_pairs < rows.size:
        rows = np.sort(check_random_state(seed).choice(rows, size=n_pairs, replace=False))
    first = dataset.extra["sentence_a"][rows].astype(str)
    second = dataset.extra["sentence_b"][rows].astype(str)
    sentences, inverse = np.unique(np.concatenate([first, second]), return_inverse=True)
    inverse = inverse.astype(np.int64)
    return sentences.tolist(), inverse[:rows.size], inverse[rows.size:], gold[rows]


def glue_matrix(sentences, model, n_jobs=1, **options):
    """The symmetrised cross-encoder matrix over ``sentences`` (every entry evaluated).

    Parameters
    ----------
    sentences : list of str
    model : str or path
        A sequence-classification model (Hugging Face name or local directory).
    n_jobs : int
        Torch threads.
    **options
        ``score``, ``label_index``, ``batch_size``, ``max_length``, ``device`` of
        :class:`~lowdim.similarity.CrossEncoderOracle`.

    Returns
    -------
    K : ndarray of shape (n, n)
    info : dict
        ``seconds``, ``evaluations`` (pairs scored, each two forward passes).

    Examples
    --------
    >>> from lowdim.similarity.tiny_crossencoder import build_tiny_crossencoder
    >>> from lowdim.tasks.glue import glue_matrix
    >>> model = build_tiny_crossencoder(tmp / "tiny")  # random weights
    >>> K, info = glue_matrix(["a cat sat", "a dog sat", "the sea is calm"], model)
    >>> K.shape, np.allclose(K, K.T), info["evaluations"]   # each pair once, diagonal included
    ((3, 3), True, 6)
    """
    from ..similarity import CrossEncoderOracle

    oracle = CrossEncoderOracle(sentences, model, symmetrize=True, n_jobs=n_jobs, cache=False,
                                **options)
    t0 = time.perf_counter()
    K = full_matrix(oracle)
    return K, {"seconds": time.perf_counter() - t0, "evaluations": int(oracle.evaluations),
               "score": oracle.score}


def save_glue_matrix(path, K, a, b, gold, info) -> None:
    """Write a task's matrix, its labelled pairs and ``info`` (JSON) to an .npz atomically.

    Examples
    --------
    >>> from lowdim.tasks.glue import load_glue_matrix, save_glue_matrix
    >>> path = tmp / "stsb.npz"
    >>> save_glue_matrix(path, np.eye(3), [0, 1], [1, 2], [4.5, 1.0], {"task": "stsb"})
    >>> K, a, b, gold, info = load_glue_matrix(path)
    >>> K.shape, a.tolist(), gold.tolist(), info
    ((3, 3), [0, 1], [4.5, 1.0], {'task': 'stsb'})
    """
    save_npz(path, info, K=np.asarray(K, np.float64), a=np.asarray(a, np.int64),
             b=np.asarray(b, np.int64), gold=np.asarray(gold, np.float64))


def load_glue_matrix(path):
    """Read what :func:`save_glue_matrix` wrote: ``(K, a, b, gold, info)``.

    Examples
    --------
    >>> from lowdim.tasks.glue import load_glue_matrix, save_glue_matrix
    >>> path = tmp / "rte.npz"
    >>> save_glue_matrix(path, np.eye(2), [0], [1], [1.0], {"task": "rte"})
    >>> K, a, b, gold, info = load_glue_matrix(path)
    >>> b.tolist(), info["task"]
    ([1], 'rte')
    """
    arrays, info = load_npz(path)
    return arrays["K"], arrays["a"], arrays["b"], arrays["gold"], info


def pair_metrics(task, predicted, gold, threshold=0.5) -> dict:
    """GLUE's metrics of ``task`` for predicted pair scores.

    Parameters
    ----------
    task : {"stsb", "mrpc", "rte"}
    predicted, gold : ndarray of shape (m,)
    threshold : float, default=0.5
        MRPC and RTE predict the positive class where ``predicted >= threshold``.

    Returns
    -------
    metrics : dict of str -> float

    Examples
    --------
    >>> from lowdim.tasks.glue import pair_metrics
    >>> gold = np.array([1.0, 0.0, 1.0, 1.0])
    >>> pair_metrics("rte", np.array([0.9, 0.2, 0.4, 0.7]), gold)
    {'accuracy': 0.75}
    >>> {k: round(v, 3) for k, v in pair_metrics("stsb", np.array([4.0, 1.0, 3.5, 3.0]),
    ...                                            np.array([5.0, 0.5, 3.0, 3.5])).items()}
    {'pearson': 0.948, 'spearman': 0.8}
    """
    if task not in GLUE_METRICS:
        raise ArgumentValueError(f"`task` must be one of {list(GLUE_METRICS)}, got {task!r}",
                                 "task")
    predicted = np.asarray(predicted, dtype=np.float64)
    if task == "stsb":
        return {"pearson": float(scipy.stats.pearsonr(predicted, gold)[0]),
                "spearman": float(scipy.stats.spearmanr(predicted, gold)[0])}
    labels = (predicted >= threshold).astype(np.int64)
    gold = np.asarray(gold).astype(np.int64)
    if task == "mrpc":
        return {"f1": float(f1_score(gold, labels, zero_division=0.0))}
    return {"accuracy": float(accuracy_score(gold, labels))}


def _entries(approx, a, b):
    """``K~[a[t], b[t]]`` without forming ``K~``."""
    return np.einsum("ij,ji->i", approx.left[a] @ approx.core, approx.right[:, b])


def glue_scores(K, a, b, gold, task, methods, fractions, n_runs=10, seed=0, threshold=0.5,
                options=None) -> pd.DataFrame:
    """Scores of the pair predictions of each method, fraction and run, beside the exact ones.

    Parameters
    ----------
    K : ndarray of shape (n, n), symmetric
        The exact cross-encoder matrix (:func:`glue_matrix`).
    a, b, gold
        From :func:`labelled_pairs`.
    task : {"stsb", "mrpc", "rte"}
    methods : sequence of str
        Sampling methods of :data:`lowdim.approx.METHODS`.
    fractions : sequence of float
        Sample fractions ``s / n``.
    n_runs : int
        Repetitions (seeds ``derive_seed(seed, s, run)``, shared by the methods).
    seed : int
    threshold : float
    options : dict, optional
        method -> keyword arguments (e.g. SMS-Nyström's ``multiplier``).

    Returns
    -------
    rows : DataFrame
        One row per method, fraction, run and metric: ``task, method,
        fraction, s, run, metric, value, exact, evaluations,
        full_evaluations``; ``method = "exact"`` rows have fraction 1.

    Examples
    --------
    >>> from lowdim.tasks.glue import glue_scores
    >>> E = rng.standard_normal((40, 5))
    >>> K = E @ E.T / 5                              # a stand-in for a cross-encoder matrix
    >>> a, b = np.arange(0, 40, 2), np.arange(1, 40, 2)
    >>> gold = (K[a, b] >= 0.5).astype(float)   # the exact matrix is right
    >>> rows = glue_scores(K, a, b, gold, "mrpc", ["nystrom"], fractions=[0.25], n_runs=2)
    >>> rows[["method", "fraction", "run", "metric"]].to_numpy().tolist()
    [['exact', 1.0, 0, 'f1'], ['nystrom', 0.25, 0, 'f1'], ['nystrom', 0.25, 1, 'f1']]
    >>> rows.groupby("method").value.mean().round(2).to_dict()
    {'exact': 1.0, 'nystrom': 1.0}
    """
    oracle = DenseOracle(K)
    n = oracle.n
    full = n * (n + 1) // 2
    exact = pair_metrics(task, K[a, b], gold, threshold)
    rows = [{"method": "exact", "fraction": 1.0, "s": n, "run": 0, "metric": m, "value": v,
             "evaluations": full} for m, v in exact.items()]
    for method in methods:
        for fraction in fractions:
            s = sample_size(fraction, n)
            for run in range(n_runs):
                oracle.reset()
                approx = METHODS[method](oracle, s, random_state=derive_seed(seed, s, run),
                                         **(options or {}).get(method, {}))
                metrics = pair_metrics(task, _entries(approx, a, b), gold, threshold)
                rows.extend({"method": method, "fraction": fraction, "s": s, "run": run,
                             "metric": m, "value": v, "evaluations": approx.evaluations}
                            for m, v in metrics.items())
        logger.info("%s %s: %d fractions x %d runs", task, method, len(fractions), n_runs)
    table = pd.DataFrame(rows)
    table.insert(0, "task", task)
    table["exact"] = table["metric"].map(exact)
    table["full_evaluations"] = full
    return table
