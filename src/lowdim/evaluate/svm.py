"""A support vector classifier whose C is chosen by cross-validation on the training data.

The SMS-Nyström paper (following Wu et al. 2018) classifies documents with a
linear SVM on approximate kernel features and picks the regularisation by
cross-validation on the training split; the WMD-kernel baseline is the same
SVM on the exact (precomputed) kernel.
"""

from __future__ import annotations

import logging
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC, LinearSVC
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import ArgumentValueError, check_label_count, check_number, naming

__all__ = ["TunedSVM", "check_class_counts"]

logger = logging.getLogger("lowdim")


def check_class_counts(y, where="the training data", minimum=2) -> np.ndarray:
    """Return the class counts of ``y`` after checking every class has ``minimum`` items.

    Parameters
    ----------
    y : array-like of shape (n,)
        Class labels.
    where : str
        Names the data in the error, e.g. ``"the training part of split 3"``.
    minimum : int, default=2
        Cross-validation stratified by class needs at least two items per class.

    Returns
    -------
    counts : ndarray of int
        Items per class, in the order of ``np.unique(y)``.

    Raises
    ------
    ValueError
        Naming the first class with fewer items and how many it has.

    Examples
    --------
    >>> from lowdim.evaluate.svm import check_class_counts
    >>> check_class_counts([0, 0, 1, 1, 1])
    array([2, 3])
    >>> check_class_counts([0, 0, 1], where="the training part of split 3")
    Traceback (most recent call last):
        ...
    lowdim._validation.ArgumentValueError: the training part of split 3: class 1 has a single document; cross-validation needs at least 2 per class (1 classes affected)
    """
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    if labels.size < 2:
        raise ArgumentValueError(f"{where} has one class ({labels.tolist()}); a classifier "
                                 f"needs at least two", "y")
    small = np.flatnonzero(counts < minimum)
    if small.size:
        first = small[0]
        noun = "a single document" if counts[first] == 1 else f"{counts[first]} documents"
        raise ArgumentValueError(f"{where}: class {labels[first].item()!r} has {noun}; "
                                 f"cross-validation needs at least {minimum} per class "
                                 f"({small.size} classes affected)", "y")
    return counts


class TunedSVM(ClassifierMixin, BaseEstimator):
    """Linear or precomputed-kernel SVM with C chosen by stratified k-fold CV.

    Parameters
    ----------
    kernel : {"linear", "precomputed"}, default="linear"
        ``"linear"``: :class:`sklearn.svm.LinearSVC` (liblinear, squared hinge
        loss, as the WME code's ``-s 2``) on feature vectors; ``"precomputed"``:
        :class:`sklearn.svm.SVC` on a Gram matrix, ``X[i, j] = k(x_i, x_j)``
        between the items to predict and the training items.
    C_grid : sequence of float, default=(0.01, 0.1, 1, 10, 100)
        Candidate regularisation constants.
    n_folds : int, default=5
        Folds of the stratified cross-validation; lowered to the size of the
        smallest class when that is smaller (logged).
    max_iter : int, default=20000
        Iteration limit of each fit.
    random_state : int, RandomState or None
        Shuffles the folds and seeds liblinear.

    Attributes
    ----------
    C_ : float
        The chosen C (ties go to the smallest).
    cv_accuracy_ : float
        Mean cross-validated accuracy at ``C_``.
    n_folds_ : int
        Folds actually used.
    estimator_ : LinearSVC or SVC
        Refitted on all the training data with ``C_``.
    classes_ : ndarray
    n_features_in_ : int
    n_iter_ : int
        Iterations of the final fit.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from lowdim.evaluate.svm import TunedSVM
    >>> X, y = load_digits(return_X_y=True)
    >>> svm = TunedSVM(C_grid=(0.001, 0.1), n_folds=3, random_state=0).fit(X[:500] / 16, y[:500])
    >>> svm.C_, round(svm.cv_accuracy_, 2), round(svm.score(X[500:800] / 16, y[500:800]), 2)
    (0.1, 0.9..., 0.8...)
    """

    def __init__(self, kernel="linear", C_grid=(0.01, 0.1, 1.0, 10.0, 100.0), n_folds=5,
                 max_iter=20000, random_state=None):
        self.kernel = kernel
        self.C_grid = C_grid
        self.n_folds = n_folds
        self.max_iter = max_iter
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self.kernel == "linear"
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags

    def _check_params(self):
        if self.kernel not in ("linear", "precomputed"):
            raise ArgumentValueError("`kernel` must be 'linear' or 'precomputed', got "
                                     f"{self.kernel!r}", "kernel")
        try:
            # a string is no grid, although NumPy reads "1" as the number 1
            if isinstance(self.C_grid, (str, bytes)):
                raise TypeError
            grid = np.asarray(self.C_grid, dtype=float).ravel()
        except (TypeError, ValueError):
            grid = np.array([np.nan])
        if grid.size == 0 or not np.all(np.isfinite(grid)) or grid.min() <= 0:
            raise ArgumentValueError(f"`C_grid` must hold positive numbers, got {self.C_grid!r}",
                                     "C_grid")
        check_number(self.n_folds, "n_folds", integer=True, minimum=2)
        check_number(self.max_iter, "max_iter", integer=True, minimum=1)
        return np.sort(grid)

    def fit(self, X, y):
        """Choose C by cross-validation on ``(X, y)``, then refit on all of it.

        Parameters
        ----------
        X : array-like of shape (n, d), or (n, n) Gram matrix for ``kernel="precomputed"``
            Training features, or their kernel values against each other.
        y : array-like of shape (n,)
            Class labels.

        Returns
        -------
        self : TunedSVM
            The fitted estimator.
        """
        grid = self._check_params()
        if y is None:
            raise ArgumentValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None: "
                "`y` holds one class label per row of `X`", "y")
        if hasattr(X, "shape") and len(X.shape) == 2:
            check_label_count(y, X.shape[0])
        with naming("X"):
            X, y = validate_data(self, X, y, dtype=np.float64,
                                 accept_sparse="csr" if self.kernel == "linear" else False)
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ArgumentValueError("`X` must be the square Gram matrix of the training items "
                                     f"for kernel='precomputed', got shape {X.shape}", "X")
        check_classification_targets(y)
        counts = check_class_counts(y)
        self.n_folds_ = int(min(self.n_folds, counts.min()))
        if self.n_folds_ < self.n_folds:
            logger.info("cross-validation with %d folds instead of %d: the smallest class has "
                        "%d items", self.n_folds_, self.n_folds, counts.min())
        rng = check_random_state(self.random_state)
        seed = int(rng.randint(2**31 - 1))
        folds = StratifiedKFold(self.n_folds_, shuffle=True, random_state=seed)
        accuracy = np.zeros((self.n_folds_, grid.size))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            for k, (fit_rows, held_out) in enumerate(folds.split(np.zeros(y.size), y)):
                X_fit, X_held = self._blocks(X, fit_rows, held_out)
                for c, C in enumerate(grid):
                    model = self._model(C, seed, X_fit).fit(X_fit, y[fit_rows])
                    accuracy[k, c] = np.mean(model.predict(X_held) == y[held_out])
            mean = accuracy.mean(axis=0)
            best = int(np.argmax(mean))  # the first maximum: the smallest C
            self.C_, self.cv_accuracy_ = float(grid[best]), float(mean[best])
            self.estimator_ = self._model(self.C_, seed, X).fit(X, y)
        unconverged = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
        if unconverged:
            logger.debug("%d of %d SVM fits hit max_iter=%d", unconverged,
                         grid.size * self.n_folds_ + 1, self.max_iter)
        self.classes_ = self.estimator_.classes_
        self.n_iter_ = int(np.max(self.estimator_.n_iter_))
        return self

    def _blocks(self, X, fit_rows, held_out):
        if self.kernel == "precomputed":
            return X[np.ix_(fit_rows, fit_rows)], X[np.ix_(held_out, fit_rows)]
        return X[fit_rows], X[held_out]

    def _model(self, C, seed, X):
        if self.kernel == "precomputed":
            return SVC(kernel="precomputed", C=C, max_iter=self.max_iter * 100)
        # The primal solver (liblinear -s 2, as the WME code), also with more features than
        # items: there the dual's coordinate descent needed up to 10,000 passes at C = 100
        # (separable training folds), the primal's Newton steps a few (WME on pang_lee at
        # rank 128: 11x less time over the grid, 1 of 36,000 test predictions changed).
        return LinearSVC(C=C, dual=False, max_iter=self.max_iter, random_state=seed)

    def predict(self, X):
        """Class of each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (m, d), or (m, n) for ``kernel="precomputed"``
            Features, or kernel values against the n training items.

        Returns
        -------
        labels : ndarray of shape (m,)
            Predicted class of each row.
        """
        check_is_fitted(self, "estimator_")
        X = validate_data(self, X, accept_sparse="csr" if self.kernel == "linear" else False,
                          dtype=np.float64, reset=False)
        return self.estimator_.predict(X)
