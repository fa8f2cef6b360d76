"""Coreference-style clustering on an approximated pairwise similarity (Cattan et al. 2020).

Items (mentions) are grouped in *topics*; within each topic a pairwise MLP
gives the similarity matrix ``K`` (symmetrised), an approximation ``K~`` is
built from a fraction of its entries, and average-linkage agglomerative
clustering on the distance ``1 - K~`` merges clusters while their average
distance is at most a threshold. The threshold is tuned on the tuning
topics (pooled CoNLL F1) and applied to the held-out test topics, whose
predicted clusters are pooled and scored with MUC, B³, CEAF-e and the CoNLL F1
(:mod:`lowdim.evaluate.coref`).

Topics: ECB+ (``mentions`` datasets) has its own topics and topic splits
(the MLP is trained on ``train`` topics, the threshold tuned on ``dev``, the
score taken on ``test``). A labelled dataset without topics (e.g. digits)
gets pseudo-topics: disjoint random groups of ``topic_size`` items whose gold
clusters are their classes.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform
from sklearn.utils import check_random_state

from .._validation import ArgumentValueError
from ..approx import METHODS, SMS_METHODS, sample_size
from ..approx.methods import method_options
from ..evaluate.coref import conll_f1, coreference_scores
from ..io import load_npz, save_npz
from ..seeding import derive_seed
from ..similarity import DenseOracle, full_matrix

__all__ = ["average_linkage", "cluster_topics", "coreference_method", "coreference_methods",
           "load_topics", "make_topics", "save_topics", "topic_matrices"]

logger = logging.getLogger("lowdim")


def make_topics(dataset, usable=None, *, train_split="train", tune_split="dev",
                test_split="test", train_items=600, topic_size=150, tune_topics=2,
                test_topics=4, seed=0):
    """Training items of the pairwise model and the tuning and test topics.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
        Labelled items: ``y`` are gold cluster ids (mentions) or classes.
    usable : ndarray of bool of shape (n,), optional
        Items that have an embedding; the others are left out.
    train_split, tune_split, test_split : str
        Topic splits of a ``mentions`` dataset (``extra["split"]``).
    train_items, topic_size, tune_topics, test_topics : int
        Pseudo-topics of a dataset without topics: ``train_items`` random
        items train the model, then ``tune_topics + test_topics`` disjoint
        random groups of ``topic_size`` items.
    seed : int

    Returns
    -------
    train : ndarray of int64
        Dataset rows the pairwise model is trained on.
    topics : list of dict
        ``topic`` (name), ``split`` ("tune" or "test"), ``items`` (dataset rows).

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.tasks.coreference import make_topics
    >>> digits = get_spec("digits").prepare(n_rows=600)
    >>> train, topics = make_topics(digits, train_items=300, topic_size=50, tune_topics=1,
    ...                             test_topics=2, seed=0)
    >>> train.size, [(t["topic"], t["split"], t["items"].size) for t in topics]
    (300, [('tune0', 'tune', 50), ('test1', 'test', 50), ('test2', 'test', 50)])
    """
    n = dataset.n
    usable = np.ones(n, dtype=bool) if usable is None else np.asarray(usable, dtype=bool)
    usable &= np.asarray(dataset.y) >= 0
    if dataset.kind == "mentions":
        splits = dataset.extra["split"].astype(str)
        topic = dataset.extra["topic"]
        train = np.flatnonzero(usable & (splits == train_split))
        topics = [{"topic": str(t), "split": role, "items": np.flatnonzero(usable & (topic == t))}
                  for role, name in (("tune", tune_split), ("test", test_split))
                  for t in np.unique(topic[usable & (splits == name)])]
    else:
        needed = train_items + (tune_topics + test_topics) * topic_size
        pool = check_random_state(seed).permutation(np.flatnonzero(usable))
        if needed > pool.size:
            raise ArgumentValueError("`train_items` + (`tune_topics` + `test_topics`) * "
                                     f"`topic_size` = {needed} exceeds the {pool.size} usable "
                                     f"items of {dataset.name!r}",
                                     ("train_items", "tune_topics", "test_topics", "topic_size"))
        train = np.sort(pool[:train_items])
        groups = pool[train_items:needed].reshape(tune_topics + test_topics, topic_size)
        topics = [{"topic": f"{'tune' if k < tune_topics else 'test'}{k}",
                   "split": "tune" if k < tune_topics else "test", "items": np.sort(group)}
                  for k, group in enumerate(groups)]
    for role in ("tune", "test"):
        if not any(t["split"] == role for t in topics):
            raise ArgumentValueError(f"{dataset.name!r}: no {role} topics (check the topic "
                                     f"splits)", (f"{role}_topics", f"{role}_split"))
    if train.size < 2:
        raise ArgumentValueError(f"{dataset.name!r}: {train.size} training items for the "
                                 f"pairwise model", ("train_items", "train_split"))
    return train, topics


def topic_matrices(X, y, train, topics, mlp=None, seed=0, n_jobs=1):
    """Train the pairwise MLP on ``train`` and evaluate its matrix on every topic.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Item embeddings.
    y : ndarray of shape (n,)
        Gold cluster (or class) of each item.
    train : ndarray of int
    topics : list of dict
        From :func:`make_topics`.
    mlp : dict, optional
        Parameters of :class:`~lowdim.similarity.PairwiseMLP`.
    seed, n_jobs : int

    Returns
    -------
    topics : list of dict
        The input topics with ``K`` (the symmetrised probability that two
        items corefer) and ``gold`` (their gold labels) added.
    info : dict
        ``train_items``, ``train_seconds``, ``epochs``, ``evaluations``.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.similarity.matrices import item_embeddings
    >>> from lowdim.tasks.coreference import make_topics, topic_matrices
    >>> digits = get_spec("digits").prepare(n_rows=600)
    >>> X, usable = item_embeddings(digits)
    >>> train, topics = make_topics(digits, usable, train_items=300, topic_size=50,
    ...                             tune_topics=1, test_topics=2, seed=0)
    >>> topics, info = topic_matrices(X, digits.y, train, topics,
    ...                               mlp={"hidden_layer_sizes": (16,), "n_pairs": 3000}, seed=0)
    >>> [(t["topic"], t["K"].shape) for t in topics], info["train_items"]
    ([('tune0', (50, 50)), ('test1', (50, 50)), ('test2', (50, 50))], 300)
    """
    from ..similarity import PairwiseMLP, PairwiseMLPOracle

    params = dict(mlp or {})
    if "hidden_layer_sizes" in params:
        params["hidden_layer_sizes"] = tuple(params["hidden_layer_sizes"])
    t0 = time.perf_counter()
    model = PairwiseMLP(**params, random_state=seed).fit(X[train], y[train])
    info = {"train_items": int(train.size), "train_seconds": time.perf_counter() - t0,
            "epochs": int(model.mlp_.n_iter_), "evaluations": 0}
    out = []
    for topic in topics:
        oracle = PairwiseMLPOracle(X[topic["items"]], model, n_jobs=n_jobs, cache=False)
        out.append({**topic, "K": full_matrix(oracle), "gold": np.asarray(y)[topic["items"]]})
        info["evaluations"] += oracle.evaluations
    return out, info


def save_topics(path, topics, info) -> None:
    """Write topic matrices (``K``, ``gold``, ``items`` per topic) and ``info`` to an .npz.

    Examples
    --------
    >>> from lowdim.tasks.coreference import load_topics, save_topics
    >>> topic = {"topic": "test0", "split": "test", "K": np.eye(3), "gold": [0, 0, 1],
    ...          "items": [4, 7, 9]}
    >>> save_topics(tmp / "topics.npz", [topic], {"train_items": 300})
    >>> loaded, info = load_topics(tmp / "topics.npz")
    >>> loaded[0]["topic"], loaded[0]["gold"].tolist(), info["train_items"]
    ('test0', [0, 0, 1], 300)
    """
    arrays = {}
    for k, topic in enumerate(topics):
        arrays.update({f"K_{k}": topic["K"], f"gold_{k}": np.asarray(topic["gold"], np.int64),
                       f"items_{k}": np.asarray(topic["items"], np.int64)})
    meta = {**info, "topics": [{"topic": t["topic"], "split": t["split"]} for t in topics]}
    save_npz(path, meta, info_key="meta", **arrays)


def load_topics(path):
    """Read what :func:`save_topics` wrote: ``(topics, info)``; no pickle is loaded.

    Examples
    --------
    >>> from lowdim.tasks.coreference import load_topics, save_topics
    >>> K = rng.random((4, 4))
    >>> save_topics(tmp / "t.npz", [{"topic": "tune0", "split": "tune", "K": K,
    ...                             "gold": [0, 1, 1, 2], "items": [0, 1, 2, 3]}], {})
    >>> topics, _ = load_topics(tmp / "t.npz")
    >>> np.array_equal(topics[0]["K"], K), topics[0]["split"]
    (True, 'tune')
    """
    arrays, info = load_npz(path, info_key="meta")
    topics = [{**t, "K": arrays[f"K_{k}"], "gold": arrays[f"gold_{k}"],
               "items": arrays[f"items_{k}"]} for k, t in enumerate(info.pop("topics"))]
    return topics, info


def average_linkage(K):
    """Average-linkage tree of the distance ``1 - (K + K^T) / 2``.

    Returns
    -------
    Z : ndarray of shape (n - 1, 4)
        Scipy linkage matrix; merge heights are the distances shifted by
        ``offset`` so that none is negative (average linkage commutes with
        adding a constant, so the tree is that of the unshifted distances).
    offset : float

    Examples
    --------
    >>> from lowdim.tasks.coreference import average_linkage
    >>> K = np.array([[1.0, 0.9, 0.1], [0.9, 1.0, 0.2], [0.1, 0.2, 1.0]])
    >>> Z, offset = average_linkage(K)
    >>> Z[:, :2].astype(int).tolist(), np.round(Z[:, 2] - offset, 2).tolist()
    ([[0, 1], [2, 3]], [0.1, 0.85])
    """
    K = np.asarray(K, dtype=np.float64)
    D = 1.0 - (K + K.T) / 2.0
    np.fill_diagonal(D, 0.0)
    condensed = squareform(D, checks=False)
    offset = max(0.0, -float(condensed.min(initial=0.0)))
    return linkage(condensed + offset, method="average"), offset


def cluster_topics(trees, threshold):
    """Flat clusters of each topic: merge while the average distance is ``<= threshold``.

    Parameters
    ----------
    trees : list of (Z, offset, n)
        :func:`average_linkage` of each topic and its size.
    threshold : float
        Distance threshold on ``1 - K~``.

    Returns
    -------
    labels : list of ndarray of int

    Examples
    --------
    >>> from lowdim.tasks.coreference import average_linkage, cluster_topics
    >>> K = np.array([[1.0, 0.9, 0.1], [0.9, 1.0, 0.2], [0.1, 0.2, 1.0]])
    >>> Z, offset = average_linkage(K)
    >>> [labels.tolist() for labels in cluster_topics([(Z, offset, 3)], threshold=0.5)]
    [[1, 1, 2]]
    """
    out = []
    for Z, offset, n in trees:
        out.append(np.zeros(1, dtype=np.int64) if n == 1
                   else fcluster(Z, threshold + offset, criterion="distance"))
    return out


def _pooled(labels_per_topic):
    """Concatenate per-topic labels so that no cluster spans two topics."""
    pooled, base = [], 0
    for labels in labels_per_topic:
        codes = np.unique(labels, return_inverse=True)[1]
        pooled.append(codes + base)
        base += int(codes.max(initial=-1)) + 1
    return np.concatenate(pooled)


def _approximate(K, method, fraction, seed, options):
    """``K~`` of one topic, its evaluations, and whether the topic was too small to sample."""
    n = K.shape[0]
    if method == "exact":
        return K, n * (n + 1) // 2, False
    s = sample_size(fraction, n) if n > 2 else n
    multiplier = options.get("multiplier", 2) if method in SMS_METHODS else 1
    if s >= n or round(multiplier * s) > n:
        return K, n * (n + 1) // 2, True
    approx = METHODS[method](DenseOracle(K), s, random_state=seed, **options)
    return approx.to_dense(), approx.evaluations, False


def _run(topics, method, fraction, run, thresholds, seed, options):
    """Tune the threshold on the tuning topics, score the test topics: one row per scope."""
    trees, evaluations, small = [], 0, 0
    for topic in topics:
        K_approx, ev, too_small = _approximate(topic["K"], method, fraction,
                                               derive_seed(seed, topic["topic"], fraction, run),
                                               options)
        n = K_approx.shape[0]
        trees.append(average_linkage(K_approx) + (n,) if n > 1 else (None, 0.0, 1))
        if topic["split"] == "test":
            evaluations, small = evaluations + ev, small + too_small
    tune = [k for k, t in enumerate(topics) if t["split"] == "tune"]
    test = [k for k, t in enumerate(topics) if t["split"] == "test"]
    gold_tune = _pooled([topics[k]["gold"] for k in tune])
    tune_scores = [conll_f1(gold_tune, _pooled(cluster_topics([trees[k] for k in tune], t)))
                   for t in thresholds]
    best = int(np.argmax(tune_scores))
    threshold = float(thresholds[best])
    predicted = cluster_topics([trees[k] for k in test], threshold)
    base = {"method": method, "fraction": fraction, "run": run, "threshold": threshold,
            "tune_conll_f1": float(tune_scores[best])}
    full = sum(topics[k]["K"].shape[0] * (topics[k]["K"].shape[0] + 1) // 2 for k in test)
    rows = [{**base, "topic": "pooled", "n_items": sum(topics[k]["K"].shape[0] for k in test),
             **coreference_scores(_pooled([topics[k]["gold"] for k in test]),
                                  _pooled(predicted)),
             "evaluations": evaluations, "full_evaluations": full, "unsampled_topics": small}]
    for k, labels in zip(test, predicted):
        rows.append({**base, "topic": topics[k]["topic"], "n_items": topics[k]["K"].shape[0],
                     **coreference_scores(topics[k]["gold"], labels)})
    return rows


def coreference_method(topics, method, fractions=(0.1,), n_runs=1, thresholds=None, seed=0,
                       options=None) -> pd.DataFrame:
    """CoNLL F1 of clustering on one method's approximations, per fraction and run.

    Parameters
    ----------
    topics : list of dict
        From :func:`topic_matrices` (``topic``, ``split``, ``K``, ``gold``).
    method : str
        ``"exact"`` (the matrix itself; one run) or a sampling method of
        :data:`lowdim.approx.METHODS`.
    fractions : sequence of float
        Landmark fractions ``s / n`` of each topic's matrix.
    n_runs : int
        Repetitions; the seed of a topic, fraction and run is shared by the
        methods (paired comparison).
    thresholds : sequence of float, optional
        Candidate distance thresholds; default ``0.05, 0.10, ..., 0.95``.
    seed : int
    options : dict, optional
        Keyword arguments of the method.

    Returns
    -------
    rows : DataFrame
        One row per fraction, run and scope (``topic = "pooled"`` for all test
        topics together, else one test topic): the tuned ``threshold``, its
        ``tune_conll_f1``, MUC/B³/CEAF-e precision, recall, F1 and
        ``conll_f1`` (fractions of 1), ``evaluations`` of the test topics and
        ``unsampled_topics`` (test topics too small to sample, used exactly).

    Examples
    --------
    Two test topics of the digits (items of one class corefer; see :func:`topic_matrices`):

    >>> from lowdim.tasks.coreference import coreference_method
    >>> exact = coreference_method(digit_topics, "exact")
    >>> approx = coreference_method(digit_topics, "sms_nystrom", fractions=(0.3,), seed=0)
    >>> exact.topic.tolist()
    ['pooled', 'test1', 'test2']
    >>> pooled = [rows[rows.topic == "pooled"].iloc[0] for rows in (exact, approx)]
    >>> [bool(0 < row.conll_f1 <= 1) for row in pooled], bool(pooled[1].evaluations < pooled[0].evaluations)
    ([True, True], True)
    """
    if method != "exact" and method not in METHODS:
        raise ArgumentValueError(f"`method` must be 'exact' or one of {sorted(METHODS)}, got "
                                 f"{method!r}", "method")
    thresholds = np.round(np.arange(0.05, 0.951, 0.05), 2) if thresholds is None \
        else np.asarray(thresholds, dtype=float)
    if thresholds.size == 0:
        raise ArgumentValueError("`thresholds` is empty", "thresholds")
    settings = [(1.0, 0)] if method == "exact" else \
        [(float(f), run) for f in fractions for run in range(int(n_runs))]
    rows = []
    for fraction, run in settings:
        rows.extend(_run(topics, method, fraction, run, thresholds, seed, dict(options or {})))
    table = pd.DataFrame(rows)
    pooled = table[table["topic"] == "pooled"]
    logger.info("%s: pooled CoNLL F1 %s", method, ", ".join(
        f"{f:g}: {v:.3f}" for f, v in pooled.groupby("fraction")["conll_f1"].mean().items()))
    return table


def coreference_methods(topics, methods, fractions=(0.1,), n_runs=1, thresholds=None, seed=0,
                        sms=None) -> pd.DataFrame:
    """:func:`coreference_method` of each of ``methods`` on the same topics, one table.

    Parameters
    ----------
    topics : list of dict
        From :func:`topic_matrices`.
    methods : sequence of str
        ``"exact"`` (one run, no fractions) or sampling methods of
        :data:`lowdim.approx.METHODS`.
    fractions, n_runs, thresholds, seed
        As for :func:`coreference_method`; the seed is shared, so each method samples the
        landmarks the others do (a paired comparison).
    sms : dict, optional
        SMS-Nyström's options, given to the methods that take them
        (:func:`lowdim.approx.methods.method_options`).

    Returns
    -------
    rows : DataFrame
        The rows of every method's :func:`coreference_method`, method after method.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.similarity.matrices import item_embeddings
    >>> from lowdim.tasks.coreference import coreference_methods, make_topics, topic_matrices
    >>> digits = get_spec("digits").prepare(n_rows=400)
    >>> X, usable = item_embeddings(digits)
    >>> train, topics = make_topics(digits, usable, train_items=200, topic_size=50,
    ...                             tune_topics=1, test_topics=1, seed=0)
    >>> topics, info = topic_matrices(X, digits.y, train, topics,
    ...                               mlp={"hidden_layer_sizes": (8,), "n_pairs": 1000}, seed=0)
    >>> rows = coreference_methods(topics, ["exact", "nystrom"], fractions=(0.3,), n_runs=2)
    >>> rows.groupby("method", sort=False).size().to_dict()
    {'exact': 2, 'nystrom': 4}
    """
    return pd.concat([coreference_method(topics, method, fractions, n_runs, thresholds, seed=seed,
                                         options=method_options(method, sms))
                      for method in methods], ignore_index=True)
