"""kNN classification accuracy of an embedding, as in the Vec2vec paper (Figure 4).

The number of neighbours k is chosen by grid search inside each training fold
(nested cross-validation), so the reported accuracy never sees its own test
fold during the choice. The authors' script chose k once on all data and then
cross-validated; the nested form is the unbiased version of the same protocol.

The result is that of scikit-learn's ``GridSearchCV`` over ``n_neighbors`` of
``StandardScaler`` + ``KNeighborsClassifier``, refitted and scored on each outer fold
(tests/test_evaluate_embedding_metrics.py compares the two fold by fold), computed with one
neighbour search per fold for the whole grid of k instead of a fit and a search per k:
9x less time on the default run's digits and pang_lee sweeps, where the searches of
1,000 rows took less time than scikit-learn's per-call checks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import StandardScaler

from .._validation import ArgumentValueError
from ..seeding import spawn_seeds

__all__ = ["KNN_K_GRID", "KNNAccuracy", "KNNSelection", "knn_cv_accuracy", "knn_cv_select"]

#: The paper's grid of k for the kNN classifier.
KNN_K_GRID = (1, 3, 5, 7, 9, 11)


@dataclass(frozen=True)
class KNNAccuracy:
    """Per-fold accuracies of :func:`knn_cv_accuracy`.

    Parameters
    ----------
    fold_accuracy : ndarray of shape (n_splits,)
        Test accuracy of each outer fold.
    best_k : ndarray of int of shape (n_splits,)
        k chosen on each outer fold's training part.

    Attributes
    ----------
    fold_accuracy : ndarray of shape (n_splits,)
        Test accuracy of each outer fold, in [0, 1].
    best_k : ndarray of int of shape (n_splits,)
        k chosen on each outer fold's training part.

    Examples
    --------
    >>> from lowdim.evaluate.classification import KNNAccuracy
    >>> score = KNNAccuracy(fold_accuracy=np.array([0.9, 0.8, 0.85, 0.95]), best_k=np.array([1, 3, 3, 5]))
    >>> round(score.mean, 3), round(score.two_std, 3)
    (0.875, 0.112)
    """

    fold_accuracy: np.ndarray
    best_k: np.ndarray

    @property
    def mean(self) -> float:
        """Mean accuracy over the folds."""
        return float(np.mean(self.fold_accuracy))

    @property
    def two_std(self) -> float:
        """2 x standard deviation over folds (ddof=0, the paper's "95% interval")."""
        return float(2.0 * np.std(self.fold_accuracy))


@dataclass(frozen=True)
class KNNSelection:
    """Result of :func:`knn_cv_select`: one embedding and k chosen per outer fold.

    Parameters
    ----------
    fold_accuracy : ndarray of shape (n_splits,)
        Test accuracy of the chosen (embedding, k) on each outer fold.
    chosen : ndarray of int of shape (n_splits,)
        Index of the embedding chosen on each outer fold.
    best_k : ndarray of int of shape (n_splits,)
        k chosen with it.
    per_embedding : list of KNNAccuracy
        Each embedding on its own.

    Attributes
    ----------
    fold_accuracy : ndarray of shape (n_splits,)
        Test accuracy of the chosen (embedding, k) on each outer fold.
    chosen : ndarray of int of shape (n_splits,)
        Index of the embedding chosen on each outer fold's training part.
    best_k : ndarray of int of shape (n_splits,)
        k chosen with it.
    per_embedding : list of KNNAccuracy
        Each embedding on its own (k still chosen inside), equal to
        :func:`knn_cv_accuracy` of that embedding with the same seed.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from sklearn.decomposition import PCA
    >>> from lowdim.evaluate.classification import knn_cv_select
    >>> X, y = load_digits(return_X_y=True)
    >>> candidates = [PCA(n_components=d, random_state=0).fit_transform(X[:400]) for d in (2, 10)]
    >>> selection = knn_cv_select(candidates, y[:400], random_state=0)
    >>> selection.chosen.tolist(), round(float(selection.fold_accuracy.mean()), 2)
    ([1, 1, 1, 1], 0.9...)
    >>> [round(s.mean, 2) for s in selection.per_embedding]
    [0.7..., 0.9...]
    """

    fold_accuracy: np.ndarray
    chosen: np.ndarray
    best_k: np.ndarray
    per_embedding: list


def _folds(n_splits, random_state):
    """The outer and the inner stratified folds of both protocols."""
    outer_seed, inner_seed = (int(s) for s in spawn_seeds(random_state, 2))
    return (StratifiedKFold(n_splits, shuffle=True, random_state=outer_seed),
            StratifiedKFold(n_splits, shuffle=True, random_state=inner_seed))


def _knn_predictions(Z_fit, y_fit, Z_query, k_grid, standardize, n_jobs):
    """Predictions of scikit-learn's kNN classifier for every k of ``k_grid`` at once.

    One neighbour search at the largest k serves the whole grid: the first k of a row's
    neighbours (nearest first) are its k nearest. Each row takes its neighbours'
    most common label, ties to the smallest (KNeighborsClassifier with uniform weights),
    after scaling both parts as a StandardScaler fitted on ``Z_fit`` would. A k above the
    rows of ``Z_fit`` predicts nothing (its row is None), as such a classifier fails.

    Returns
    -------
    list of (ndarray of shape (n_query,) or None)
        The predicted labels, one entry per k of ``k_grid``, in its order.
    """
    if standardize:
        scaler = StandardScaler().fit(Z_fit)
        Z_fit, Z_query = scaler.transform(Z_fit), scaler.transform(Z_query)
    usable = sorted(k for k in set(k_grid) if k <= Z_fit.shape[0])
    if not usable:
        return [None] * len(k_grid)
    search = NearestNeighbors(n_neighbors=usable[-1], n_jobs=n_jobs).fit(Z_fit)
    neighbours = search.kneighbors(Z_query, return_distance=False)
    classes, codes = np.unique(y_fit, return_inverse=True)
    votes = np.zeros((Z_query.shape[0], classes.size), dtype=np.int64)
    rows, predicted, taken = np.arange(Z_query.shape[0]), {}, 0
    for k in usable:   # ascending: add the votes of neighbours taken+1 .. k
        for column in range(taken, k):
            np.add.at(votes, (rows, codes[neighbours[:, column]]), 1)
        taken = k
        predicted[k] = classes[np.argmax(votes, axis=1)]   # first maximum: smallest label
    return [predicted.get(k) for k in k_grid]


def _select_k(Z, y, inner, k_grid, standardize, n_jobs):
    """(best k, its mean inner accuracy), as GridSearchCV chooses: the first k of the
    grid with the best mean over the inner folds; a k that cannot be fitted counts as
    the worst."""
    scores = np.array([
        [np.nan if p is None else np.mean(p == y[val])
         for p in _knn_predictions(Z[fit], y[fit], Z[val], k_grid, standardize, n_jobs)]
        for fit, val in inner.split(Z, y)]).T   # (k, inner fold), as GridSearchCV's
    means = scores.mean(axis=1)
    if np.isnan(means).all():
        raise ArgumentValueError(f"no k of `k_grid` {list(k_grid)} fits an inner training "
                                 f"fold of {Z.shape[0]} rows: every k must be at most the "
                                 f"rows of a fold", "k_grid")
    best = int(np.argmax(np.where(np.isnan(means), -np.inf, means)))
    return k_grid[best], float(means[best])


def _check_labels(embedding, y, n_splits):
    embedding = np.asarray(embedding, dtype=np.float64)
    y = np.asarray(y)
    if embedding.shape[0] != y.shape[0]:
        raise ArgumentValueError(f"`embedding` has {embedding.shape[0]} rows but `y` has "
                                 f"{y.shape[0]}", "embedding")
    if n_splits < 2:
        raise ArgumentValueError(f"`n_splits` must be >= 2, got {n_splits}", "n_splits")
    return embedding, y


def knn_cv_select(embeddings, y, *, k_grid=KNN_K_GRID, n_splits=4, standardize=True,
                  random_state=None, n_jobs=None) -> KNNSelection:
    """Nested CV that chooses both the embedding (e.g. a neighbour count) and k inside.

    On each outer fold's training part, every embedding gets the inner grid
    search over k of :func:`knn_cv_accuracy`; the embedding and k with the
    best inner accuracy are then scored once on the outer test fold. So a
    method's neighbourhood size, like k, is chosen without seeing the test
    fold (keeping the best outer accuracy would be optimistic).

    Parameters
    ----------
    embeddings : sequence of ndarray of shape (n_samples, n_components)
        The candidates, e.g. one per neighbour count of a sweep.
    y, k_grid, n_splits, standardize, random_state, n_jobs
        As in :func:`knn_cv_accuracy` (same folds for the same seed).

    Returns
    -------
    KNNSelection

    Examples
    --------
    >>> from sklearn.decomposition import PCA
    >>> from lowdim.evaluate.classification import knn_cv_select
    >>> X, y = digits
    >>> candidates = [PCA(n_components=d, random_state=0).fit_transform(X) for d in (2, 10)]
    >>> selection = knn_cv_select(candidates, y, random_state=0)
    >>> selection.chosen.tolist(), selection.best_k.size   # 10-D PCA chosen on every fold
    ([1, 1, 1, 1], 4)
    """
    if len(embeddings) == 0:
        raise ArgumentValueError("`embeddings` is empty: need at least one candidate",
                                 "embeddings")
    checked = [_check_labels(Z, y, n_splits)[0] for Z in embeddings]
    y = np.asarray(y)
    k_grid = _check_k_grid(k_grid)
    outer, inner = _folds(n_splits, random_state)
    inner_score = np.empty((len(checked), n_splits))
    test = np.empty((len(checked), n_splits))
    ks = np.empty((len(checked), n_splits), dtype=np.int64)
    for fold, (train, held_out) in enumerate(outer.split(checked[0], y)):
        for i, Z in enumerate(checked):
            k, inner_score[i, fold] = _select_k(Z[train], y[train], inner, k_grid,
                                                standardize, n_jobs)
            ks[i, fold] = k
            predicted, = _knn_predictions(Z[train], y[train], Z[held_out], (k,), standardize,
                                          n_jobs)
            test[i, fold] = np.mean(predicted == y[held_out])
    chosen = np.argmax(inner_score, axis=0)  # ties: the first candidate
    folds = np.arange(n_splits)
    return KNNSelection(fold_accuracy=test[chosen, folds], chosen=chosen,
                        best_k=ks[chosen, folds],
                        per_embedding=[KNNAccuracy(test[i], ks[i]) for i in range(len(checked))])


def _check_k_grid(k_grid):
    try:
        grid = tuple(int(k) for k in k_grid)
        valid = (grid and min(grid) >= 1 and len(set(grid)) == len(grid)
                 and all(float(k) == g for k, g in zip(k_grid, grid)))   # 2.5 is no count
    except (TypeError, ValueError):
        valid = False
    if not valid:
        raise ArgumentValueError(f"`k_grid` must hold distinct positive numbers of neighbours, "
                                 f"got {k_grid!r}", "k_grid")
    return grid


def knn_cv_accuracy(embedding, y, *, k_grid=KNN_K_GRID, n_splits=4, standardize=True,
                    random_state=None, n_jobs=None) -> KNNAccuracy:
    """Nested cross-validated accuracy of a kNN classifier on ``embedding``.

    Parameters
    ----------
    embedding : ndarray of shape (n_samples, n_components)
        The embedded rows.
    y : ndarray of shape (n_samples,)
        Class labels.
    k_grid : sequence of int, default=(1, 3, 5, 7, 9, 11)
        Candidate numbers of neighbours, chosen by an inner ``n_splits``-fold
        grid search on each outer training part.
    n_splits : int, default=4
        Outer (and inner) stratified folds.
    standardize : bool, default=True
        Scale each embedding coordinate to zero mean and unit variance on the
        training part first (the authors' script scales the embeddings).
    random_state : int, RandomState instance or None
        Shuffles the folds.
    n_jobs : int or None
        Threads of the neighbour searches (:class:`~sklearn.neighbors.NearestNeighbors`).

    Returns
    -------
    KNNAccuracy
        Per-fold accuracies and k; ``.mean`` and ``.two_std`` summarise them.

    Examples
    --------
    >>> from lowdim.evaluate.classification import knn_cv_accuracy
    >>> score = knn_cv_accuracy(digits[0], digits[1], random_state=0)   # on the 64 pixels
    >>> round(score.mean, 2), score.best_k.size   # k chosen on each of the 4 folds
    (0.9..., 4)
    """
    return knn_cv_select([embedding], y, k_grid=k_grid, n_splits=n_splits,
                         standardize=standardize, random_state=random_state,
                         n_jobs=n_jobs).per_embedding[0]
