"""WMD document classification on approximate kernel features (the SMS-Nyström paper's main table).

For each train/test split, each kernel width ``gamma`` and each rank (sample
size) ``s``, a method turns the WMD kernel ``K = exp(-gamma WMD)`` into
feature vectors; a linear SVM with C chosen by cross-validation on the
training documents classifies them:

- ``nystrom``, ``sms_nystrom``, ``sicur``, ``stacur``: the approximation is
  built from the training documents only (every sampled document is a
  training document) and a test document's features come from its
  similarities to the sampled ones (:mod:`lowdim.approx.features`). SiCUR's
  features are by default the authors' ``K[:, C] V Sigma^{-1/2}`` (``s / 2``
  features, :func:`~lowdim.approx.features.sicur_feature_map`); StaCUR
  samples rows ``I = J`` (the authors' default here) and factors the positive
  part of its symmetric part (``s`` features);
- ``optimal``: rank-``s`` eigen-features of the training kernel;
- ``wmd_kernel``: an SVM on the exact kernel (precomputed Gram matrix);
- ``wme``: Word Mover's Embedding, ``s`` random documents (:mod:`lowdim.approx.wme`).

``gamma`` (and WME's ``D_max``) and C are chosen by cross-validated accuracy
on the training part; so are the reported ranks (the best rank up to a limit,
see :func:`best_rank_rows`). The test part never informs a choice.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd
import scipy.linalg
from sklearn.model_selection import StratifiedShuffleSplit

from .._validation import ArgumentValueError
from ..approx import METHODS
from ..approx.features import eigen_feature_map, feature_map, sicur_feature_map
from ..approx.wme import document_bags, random_documents, wme_features, wme_similarities
from ..evaluate.svm import TunedSVM, check_class_counts
from ..seeding import derive_seed
from ..similarity import DenseOracle
from ..tables.select import best_rank_rows

__all__ = ["CLASSIFICATION_METHODS", "best_rank_rows", "classify_documents", "corpus_splits",
           "corpus_wme_similarities", "document_splits", "kernel_power", "rank_schedule",
           "SICUR_FEATURES", "approx_features"]

logger = logging.getLogger("lowdim")

APPROX_METHODS = ("nystrom", "sms_nystrom", "sicur", "stacur")
#: Methods of :func:`classify_documents`: the sampling approximations, the optimal
#: rank-s approximation, the exact WMD kernel and Word Mover's Embedding.
CLASSIFICATION_METHODS = APPROX_METHODS + ("optimal", "wmd_kernel", "wme")
#: SiCUR's feature maps: the authors' ``K[:, C] V Sigma^{-1/2}`` or the symmetric part's factor.
SICUR_FEATURES = ("authors", "symmetric")


def kernel_power(K, gamma, gamma0) -> np.ndarray:
    """``exp(-gamma WMD)`` from ``K0 = exp(-gamma0 WMD)``: ``K0 ** (gamma / gamma0)``.

    Raises
    ------
    ValueError
        If ``K0`` has entries ``<= 0`` (``exp(-gamma0 WMD)`` underflowed, so the
        distance cannot be recovered; use a smaller ``gamma0``).

    Examples
    --------
    >>> from lowdim.tasks.wmd_classification import kernel_power
    >>> K0 = np.exp(-0.1 * np.array([[0.0, 2.0], [2.0, 0.0]]))
    >>> np.allclose(kernel_power(K0, gamma=0.3, gamma0=0.1), np.exp(-0.3 * np.array([[0, 2], [2, 0]])))
    True
    """
    K = np.asarray(K, dtype=np.float64)
    if K.size and K.min() <= 0:
        raise ArgumentValueError(f"the kernel exp(-{gamma0} * WMD) has entries <= 0 (min "
                                 f"{K.min()}); the distances cannot be recovered from it",
                                 ("gamma0", "K"))
    return K ** (float(gamma) / float(gamma0))


def document_splits(y, n_splits=5, test_fraction=0.3, seed=0, train_idx=None, test_idx=None,
                    items=None):
    """Train/test splits as positions into the documents the kernel covers.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels of the kernel's documents.
    n_splits, test_fraction, seed
        Random stratified splits, used when ``train_idx`` is None.
    train_idx, test_idx : ndarray of shape (n_given, m), optional
        The dataset's own splits, as dataset row indices.
    items : ndarray of int of shape (n,), optional
        Dataset row of each kernel document (needed with ``train_idx``;
        rows not in ``items``, e.g. documents without known words, are left out).

    Returns
    -------
    splits : list of (ndarray, ndarray)

    Examples
    --------
    >>> from lowdim.tasks.wmd_classification import document_splits
    >>> y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    >>> splits = document_splits(y, n_splits=2, test_fraction=0.3, seed=0)
    >>> [(len(train), len(test)) for train, test in splits]
    [(7, 3), (7, 3)]
    >>> [sorted(y[test].tolist()) for _, test in splits]
    [[0, 1, 1], [0, 1, 1]]
    """
    y = np.asarray(y)
    if train_idx is None:
        check_class_counts(y, "the corpus")
        splitter = StratifiedShuffleSplit(n_splits=n_splits, test_size=test_fraction,
                                          random_state=seed)
        return [(np.sort(a), np.sort(b)) for a, b in splitter.split(np.zeros(y.size), y)]
    items = np.arange(y.size) if items is None else np.asarray(items)
    position = np.full(int(max(items.max(), np.max(train_idx), np.max(test_idx))) + 1, -1)
    position[items] = np.arange(items.size)
    splits = []
    for train, test in zip(np.atleast_2d(train_idx), np.atleast_2d(test_idx)):
        train, test = position[train], position[test]
        splits.append((np.sort(train[train >= 0]), np.sort(test[test >= 0])))
    return splits


def corpus_splits(dataset, items, n_splits=5, test_fraction=0.3, seed=0):
    """Labels of a kernel's documents and the train/test splits to classify them on.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
        A labelled text dataset; its own splits (``train_idx``/``test_idx``)
        are used when it has them, else ``n_splits`` random stratified ones.
    items : ndarray of int
        Dataset row of each document of the kernel.

    Returns
    -------
    y : ndarray of shape (len(items),)
    splits : list of (train, test)
    info : dict
        ``given_splits`` (bool) and ``left_out`` (split documents not in the kernel).

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.tasks.wmd_classification import corpus_splits
    >>> pang_lee = get_spec("pang_lee").prepare()
    >>> y, splits, info = corpus_splits(pang_lee, np.arange(0, 200, 2), n_splits=3, seed=0)
    >>> y.shape, len(splits), info
    ((100,), 3, {'given_splits': False, 'left_out': 0})
    """
    if dataset.y is None:
        raise ArgumentValueError(f"dataset {dataset.name!r} has no labels to classify",
                                 "dataset")
    y = np.asarray(dataset.y)[items]
    given = dataset.train_idx is not None and dataset.test_idx is not None
    splits = document_splits(y, n_splits, test_fraction, seed,
                             dataset.train_idx if given else None,
                             dataset.test_idx if given else None, items)
    left_out = 0
    if given:
        total = np.atleast_2d(dataset.train_idx).shape[1] + np.atleast_2d(dataset.test_idx).shape[1]
        left_out = int(total - splits[0][0].size - splits[0][1].size)
    return y, splits, {"given_splits": bool(given), "left_out": left_out}


def corpus_wme_similarities(dataset, items, word_vectors, n_random, d_max, unit_norm=True,
                            seed=0, n_jobs=1):
    """``exp(-WMD)`` from each of a corpus' documents to ``n_random`` WME random documents.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
        A text dataset (``bow``, ``vocab``; its own ``word_vectors`` if it has them).
    items : ndarray of int
        The documents (dataset rows), as in the WMD kernel.
    word_vectors : WordVectors
        Used when the dataset has no vectors of its own.
    n_random, d_max : int
    unit_norm : bool
    seed, n_jobs : int

    Returns
    -------
    S : ndarray of shape (len(items), n_random)
    info : dict
        ``evaluations``, ``low``/``high`` (the box of the random words).

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.data.word_vectors import load_word_vectors
    >>> from lowdim.tasks.wmd_classification import corpus_wme_similarities
    >>> pang_lee = get_spec("pang_lee").prepare()
    >>> S, info = corpus_wme_similarities(pang_lee, np.arange(10), load_word_vectors("glove50"),
    ...                                   n_random=4, d_max=3, seed=0)
    >>> S.shape, info["evaluations"], bool(((S > 0) & (S < 1)).all())
    ((10, 4), 40, True)
    """
    vectors = dataset.word_vectors if dataset.word_vectors is not None else word_vectors
    docs, table = document_bags(dataset.bow[items], dataset.vocab, vectors)
    low, high = float(table.min()), float(table.max())
    randoms = random_documents(n_random, d_max, table.shape[1], low, high, unit_norm, seed)
    S, evaluations = wme_similarities(docs, table, randoms, n_jobs=n_jobs)
    return S, {"evaluations": evaluations, "low": low, "high": high, "d_max": int(d_max),
               "n_random": int(n_random), "unit_norm": bool(unit_norm)}


def rank_schedule(method, ranks, n_train, multiplier=2.0, n_random=None) -> list[dict]:
    """The ranks a method can use on ``n_train`` documents: each too-large rank is capped.

    Caps: every rank at ``n_train`` (the training-set size); sampling methods
    below it (``s < n_train``), SMS-Nyström at ``n_train / multiplier``
    (``|S2| <= n_train``), WME at the random documents computed.

    Returns
    -------
    schedule : list of dict
        ``rank_requested``, ``rank`` (used) and ``capped_by`` (why, or ``""``),
        one entry per distinct rank used, for the smallest rank requested.

    Examples
    --------
    >>> from lowdim.tasks.wmd_classification import rank_schedule
    >>> rank_schedule("sms_nystrom", [16, 64, 128], n_train=100)
    [{'rank_requested': 16, 'rank': 16, 'capped_by': ''}, {'rank_requested': 64, 'rank': 50, 'capped_by': '2 s <= n_train = 100'}]
    """
    limits = [(n_train, f"n_train = {n_train}")]
    if method in APPROX_METHODS:
        limits.append((n_train - 1, f"s < n_train = {n_train}"))
    if method == "sms_nystrom":
        limits.append((int(n_train // multiplier), f"{multiplier:g} s <= n_train = {n_train}"))
    if method == "wme" and n_random is not None:
        limits.append((n_random, f"{n_random} random documents computed"))
    schedule, seen = [], set()
    for requested in sorted(int(r) for r in ranks):
        rank, why = requested, ""
        for limit, reason in limits:
            if limit < rank:
                rank, why = limit, reason
        if rank >= 2 and rank not in seen:
            seen.add(rank)
            schedule.append({"rank_requested": requested, "rank": rank, "capped_by": why})
    return schedule


def approx_features(method, K_train, K_test_train, rank, seed, options=None,
                    sicur_features="authors"):
    """Training and test features of one sampling method and the evaluations they need.

    Parameters
    ----------
    method : {"nystrom", "sms_nystrom", "sicur", "stacur"}
    K_train : ndarray of shape (n_train, n_train)
        The kernel between training documents; the method samples from it.
    K_test_train : ndarray of shape (n_test, n_train)
        The kernel from test to training documents; only the columns of the
        sampled documents are read.
    rank : int
        The sample size ``s``.
    seed : int
    options : dict, optional
        Keyword arguments of the method.
    sicur_features : {"authors", "symmetric"}, default="authors"
        See :func:`classify_documents`.

    Returns
    -------
    Z_train : ndarray of shape (n_train, r)
    Z_test : ndarray of shape (n_test, r)
    evaluations : int
        What the oracle computed for the map on the training documents (the
        authors' SiCUR map reads only ``K[:, C]``, so ``K[R, :]`` is not
        charged), plus each test document's similarities to the sampled
        documents the map reads (``fmap.columns``).

    Examples
    --------
    >>> from scipy.spatial.distance import cdist
    >>> from lowdim.tasks.wmd_classification import approx_features
    >>> points = rng.random((200, 5))
    >>> K = np.exp(-cdist(points, points))   # a stand-in for exp(-gamma0 * WMD)
    >>> Z_train, Z_test, evaluations = approx_features("sms_nystrom", K[:150, :150], K[150:, :150],
    ...                                                rank=20, seed=0)
    >>> Z_train.shape, Z_test.shape, evaluations
    ((150, 20), (50, 20), 4020)
    """
    options = dict(options or {})
    oracle = DenseOracle(K_train)
    if method == "sicur" and sicur_features == "authors":
        fmap = sicur_feature_map(oracle, rank, random_state=seed)
    else:
        fmap = feature_map(METHODS[method](oracle, rank, random_state=seed, **options))
    Z_train = fmap.transform(K_train[:, fmap.columns])
    Z_test = fmap.transform(K_test_train[:, fmap.columns])
    return Z_train, Z_test, oracle.evaluations + K_test_train.shape[0] * fmap.columns.size


class _Best:
    """Keep the candidate with the highest cross-validated accuracy (first on ties)."""

    def __init__(self):
        self.cv, self.row, self.payload = -np.inf, None, None

    def offer(self, cv, row, payload):
        if cv > self.cv + 1e-12:
            self.cv, self.row, self.payload = cv, row, payload


def _unit_scale(train, test, gram=False):
    """Divide by one constant so training vectors have mean squared norm 1.

    A common factor leaves the kernel's geometry unchanged (it rescales C), so
    one C grid serves every method, gamma and rank.
    """
    scale = np.mean(np.diag(train)) if gram else np.mean(np.sum(train ** 2, axis=1))
    scale = scale if scale > 0 else 1.0
    factor = 1.0 / scale if gram else 1.0 / np.sqrt(scale)
    return train * factor, test * factor


def _candidates(method, K_tr, K_te, gamma, schedule, s, split, wme_rows, n_tr, full):
    """Yield ``(rank, d_max, kernel, Z_train, Z_test, n_features, evaluations)`` at one gamma.

    ``wme_rows`` maps D_max to the WME similarities of the training then test documents.
    """
    if method == "wmd_kernel":
        yield schedule[0]["rank"], None, "precomputed", K_tr, K_te, n_tr, full
        return
    eig = scipy.linalg.eigh(K_tr) if method == "optimal" else None
    for entry in schedule:
        r = entry["rank"]
        if method == "wme":
            for d_max, S in wme_rows.items():
                Z = wme_features(S, gamma, r)
                yield r, d_max, "linear", Z[:n_tr], Z[n_tr:], r, S.shape[0] * r
        elif method == "optimal":
            fmap = eigen_feature_map(K_tr, r, eigenpairs=eig)
            yield (r, None, "linear", fmap.transform(K_tr), fmap.transform(K_te),
                   fmap.n_features, full)
        else:
            seed = derive_seed(s["seed"], "landmarks", split, r)
            Z_tr, Z_te, evaluations = approx_features(method, K_tr, K_te, r, seed, s["options"],
                                                      s["sicur_features"])
            yield r, None, "linear", Z_tr, Z_te, Z_tr.shape[1], evaluations


def _schedule(method, n_tr, s):
    if method == "wmd_kernel":
        return [{"rank_requested": n_tr, "rank": n_tr, "capped_by": ""}]
    n_random = min(S.shape[1] for S in s["wme"].values()) if method == "wme" else None
    return rank_schedule(method, s["ranks"], n_tr, s["options"].get("multiplier", 2.0), n_random)


def _rows_for_split(method, K, y, train, test, s, split):
    """One row per rank for one split: the best (gamma, D_max, C) by CV and its test accuracy."""
    y_tr, y_te = y[train], y[test]
    check_class_counts(y_tr, f"the training part of split {split}")
    cv_seed = derive_seed(s["seed"], "cv", split)
    n_tr, n_te = train.size, test.size
    full = n_tr * (n_tr + 1) // 2 + n_te * n_tr
    schedule = _schedule(method, n_tr, s)
    entries = {entry["rank"]: entry for entry in schedule}
    best = {rank: _Best() for rank in entries}
    # Rows of the training then test documents, taken once for every gamma.
    docs = np.r_[train, test]
    block = K[np.ix_(docs, train)] if method != "wme" else None
    wme_rows = {d_max: S[docs] for d_max, S in s["wme"].items()} if method == "wme" else {}
    for gamma in s["gammas"]:
        t0 = time.perf_counter()
        K_tr = K_te = None
        if method != "wme":
            Kg = kernel_power(block, gamma, s["gamma0"])
            K_tr, K_te = Kg[:n_tr], Kg[n_tr:]
        for r, d_max, kind, Z_tr, Z_te, n_features, evaluations in _candidates(
                method, K_tr, K_te, gamma, schedule, s, split, wme_rows, n_tr, full):
            Z_tr, Z_te = _unit_scale(Z_tr, Z_te, gram=kind == "precomputed")
            svm = TunedSVM(kernel=kind, C_grid=s["C_grid"], n_folds=s["n_folds"],
                           random_state=cv_seed, max_iter=s["max_iter"]).fit(Z_tr, y_tr)
            row = {**entries[r], "gamma": gamma, "d_max": d_max, "C": svm.C_,
                   "cv_folds": svm.n_folds_, "cv_accuracy": svm.cv_accuracy_,
                   "n_features": n_features, "evaluations": int(evaluations),
                   "full_evaluations": int(full), "seconds": time.perf_counter() - t0}
            best[r].offer(svm.cv_accuracy_, row, (svm, Z_te))
            t0 = time.perf_counter()  # the next candidate's features are made on demand
    rows = []
    for rank, chosen in best.items():
        svm, Z_te = chosen.payload
        accuracy = float(np.mean(svm.predict(Z_te) == y_te))
        rows.append({"split": split, "method": method, "n_train": n_tr, "n_test": n_te,
                     **chosen.row, "test_accuracy": accuracy,
                     "cost_fraction": chosen.row["evaluations"] / full})
    return rows


def classify_documents(method, K, y, splits, *, gamma0, gammas, ranks=(), C_grid=(0.1, 1, 10),
                       n_folds=5, seed=0, options=None, wme=None, max_iter=20000,
                       sicur_features="authors") -> pd.DataFrame:
    """Accuracy of one method over splits and ranks, every choice made by CV on training data.

    Parameters
    ----------
    method : str
        One of :data:`CLASSIFICATION_METHODS`.
    K : ndarray of shape (n, n), or None for ``wme``
        The exact kernel ``exp(-gamma0 * WMD)`` between all documents. The
        sampling methods read only the entries their approximation samples
        (their oracle counts them); ``wme`` does not read it.
    y : ndarray of shape (n,)
    splits : list of (train, test)
        Positions into the documents (:func:`document_splits`).
    gamma0 : float
        The kernel width of ``K``.
    gammas : sequence of float
        Candidate widths ``gamma`` (in inverse word-vector distance units).
    ranks : sequence of int
        Candidate ranks (sample sizes, or WME's number of random documents).
    C_grid, n_folds
        The SVM's grid and cross-validation (:class:`~lowdim.evaluate.svm.TunedSVM`).
    seed : int
        Seeds landmarks (paired across methods: the same for every method at a
        given split and rank) and the cross-validation folds.
    options : dict, optional
        Keyword arguments of the approximation method (e.g. SMS-Nyström's
        ``multiplier``, ``alpha``).
    wme : dict of int -> ndarray of shape (n, R_max), optional
        For ``wme``: ``D_max`` -> ``exp(-WMD)`` to the random documents.
    max_iter : int, default=20000
        The SVM's iterations (:class:`~lowdim.evaluate.svm.TunedSVM`).
    sicur_features : {"authors", "symmetric"}, default="authors"
        SiCUR's features: ``K[:, C] V Sigma^{-1/2}`` from the SVD of ``K[R, C]``
        (``s // 2`` features and similarities per test document, the authors'
        ``get_feat``) or the factor of the positive part of the symmetric
        part of ``K~`` (the ``s`` sampled rows; :func:`~lowdim.approx.features.feature_map`).

    Returns
    -------
    rows : DataFrame
        One row per split and rank: the chosen ``gamma``, ``d_max``, ``C``,
        ``cv_accuracy``, ``test_accuracy``, ``evaluations`` (similarities
        computed for training and test features), ``full_evaluations`` (those of
        the exact kernel: train x train and test x train), ``cost_fraction``,
        ``rank_requested``, ``rank``, ``capped_by``.

    Examples
    --------
    >>> from scipy.spatial.distance import cdist
    >>> from lowdim.tasks.wmd_classification import classify_documents, document_splits
    >>> X, y = digits
    >>> K = np.exp(-0.1 * cdist(X / 16, X / 16))   # a stand-in for exp(-gamma0 * WMD)
    >>> splits = document_splits(y, n_splits=2, seed=0)
    >>> rows = classify_documents("nystrom", K, y, splits, gamma0=0.1, gammas=[0.1, 0.3],
    ...                           ranks=[10, 40], seed=0)
    >>> rows[["split", "rank"]].to_numpy().tolist(), set(rows.gamma) <= {0.1, 0.3}
    ([[0, 10], [0, 40], [1, 10], [1, 40]], True)
    >>> bool(rows.test_accuracy.min() > 0.5), bool((rows.cost_fraction < 1).all())
    (True, True)
    """
    if method not in CLASSIFICATION_METHODS:
        raise ArgumentValueError(f"`method` must be one of {list(CLASSIFICATION_METHODS)}, got "
                                 f"{method!r}", "method")
    if method == "wme" and not wme:
        raise ArgumentValueError("method 'wme' needs `wme`: D_max -> exp(-WMD) to random "
                                 "documents", "wme")
    if sicur_features not in SICUR_FEATURES:
        raise ArgumentValueError(f"`sicur_features` must be one of {SICUR_FEATURES}, got "
                                 f"{sicur_features!r}", "sicur_features")
    if method != "wmd_kernel" and not len(ranks):
        raise ArgumentValueError(f"`ranks` is empty: method {method!r} needs at least one rank",
                                 "ranks")
    settings = {"gamma0": gamma0, "gammas": list(gammas), "ranks": list(ranks),
                "C_grid": tuple(C_grid), "n_folds": n_folds, "seed": seed,
                "options": dict(options or {}) if method in APPROX_METHODS else {},
                "wme": dict(wme or {}), "max_iter": max_iter, "sicur_features": sicur_features}
    y = np.asarray(y)
    rows = []
    for split, (train, test) in enumerate(splits):
        t0 = time.perf_counter()
        rows.extend(_rows_for_split(method, K, y, np.asarray(train), np.asarray(test),
                                    settings, split))
        logger.info("%s split %d: %d ranks in %.1f s, test accuracy %s", method, split,
                    sum(r["split"] == split for r in rows), time.perf_counter() - t0,
                    ", ".join(f"{r['test_accuracy']:.3f}" for r in rows if r["split"] == split))
    return pd.DataFrame(rows)
