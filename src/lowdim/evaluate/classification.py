"""kNN classification accuracy of an embedding, as in the Vec2vec paper (Figure 4).

The number of neighbours k is chosen by grid search inside each training fold
(nested cross-validation), so the reported accuracy never sees its own test
fold during the choice. The authors' script chose k once on all data and then
cross-validated; the nested form is the unbiased version of the same protocol.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
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


def _knn_searches(k_grid, n_splits, standardize, random_state, n_jobs):
    """The inner grid search and the outer folds shared by both protocols."""
    outer_seed, inner_seed = (int(s) for s in spawn_seeds(random_state, 2))
    steps = [("scale", StandardScaler())] if standardize else []
    model = Pipeline(steps + [("knn", KNeighborsClassifier())])
    search = GridSearchCV(model, {"knn__n_neighbors": list(k_grid)}, n_jobs=n_jobs,
                          cv=StratifiedKFold(n_splits, shuffle=True, random_state=inner_seed))
    return search, StratifiedKFold(n_splits, shuffle=True, random_state=outer_seed)


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
    search, outer = _knn_searches(k_grid, n_splits, standardize, random_state, n_jobs)
    inner = np.empty((len(checked), n_splits))
    test = np.empty((len(checked), n_splits))
    ks = np.empty((len(checked), n_splits), dtype=np.int64)
    for fold, (train, held_out) in enumerate(outer.split(checked[0], y)):
        for i, Z in enumerate(checked):
            fitted = clone(search).fit(Z[train], y[train])
            inner[i, fold] = fitted.best_score_
            ks[i, fold] = fitted.best_params_["knn__n_neighbors"]
            test[i, fold] = fitted.score(Z[held_out], y[held_out])
    chosen = np.argmax(inner, axis=0)  # ties: the first candidate
    folds = np.arange(n_splits)
    return KNNSelection(fold_accuracy=test[chosen, folds], chosen=chosen,
                        best_k=ks[chosen, folds],
                        per_embedding=[KNNAccuracy(test[i], ks[i]) for i in range(len(checked))])


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
        Parallel grid-search fits.

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
    embedding, y = _check_labels(embedding, y, n_splits)
    search, outer = _knn_searches(k_grid, n_splits, standardize, random_state, n_jobs)
    result = cross_validate(search, embedding, y, return_estimator=True, cv=outer)
    best_k = np.array([est.best_params_["knn__n_neighbors"] for est in result["estimator"]])
    return KNNAccuracy(fold_accuracy=np.asarray(result["test_score"], dtype=np.float64),
                       best_k=best_k)
