"""Shared interface of every CCA estimator in :mod:`lowdim.cca`."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import (_check_feature_names, _check_n_features, check_is_fitted,
                                      validate_data)

from .._validation import ArgumentValueError
from ._validation import check_n_components, check_positive, check_view, check_views
from .metrics import canonical_correlations

__all__ = ["BaseCCA", "align_to_canonical", "flip_signs", "second_view"]


def projected_moments(Zx, Zy, Wx, Wy, reg):
    """``(WxᵀSxWx + λWxᵀWx, WyᵀSyWy + λWyᵀWy, WxᵀSxyWy)`` from projections ``Z = X W``.

    ``Zx``, ``Zy`` have shape (n, k); the sample moments divide by n.
    """
    n = Zx.shape[0]
    return (Zx.T @ Zx / n + reg * Wx.T @ Wx, Zy.T @ Zy / n + reg * Wy.T @ Wy, Zx.T @ Zy / n)


def align_to_canonical(Wx, Wy, Cxx, Cyy, Cxy):
    """Rotate weights within their spans so columns are ordered canonical pairs.

    Solves the k-dimensional (regularised) CCA between the projections:
    with ``Cxx = WxᵀC_xWx``, ``Cyy = WyᵀC_yWy`` and ``Cxy = WxᵀS_xyWy``, returns
    ``Wx Cxx^{-1/2} U`` and ``Wy Cyy^{-1/2} V`` where ``UDVᵀ`` is the SVD of
    ``Cxx^{-1/2} Cxy Cyy^{-1/2}``. The spans, and so the TCC, are unchanged.
    Signs are fixed so that each x-column's largest entry is positive.

    Returns
    -------
    Wx, Wy : ndarray of shape (p1, k) and (p2, k)
    rho : ndarray of shape (k,)
        The (regularised) correlations of the aligned pairs, decreasing.
    """
    from ._linalg import inv_sqrt_psd

    Ax, Ay = inv_sqrt_psd(Cxx), inv_sqrt_psd(Cyy)
    U, rho, Vt = np.linalg.svd(Ax @ Cxy @ Ay)
    Wx, Wy = flip_signs(Wx @ (Ax @ U), Wy @ (Ay @ Vt.T))
    return Wx, Wy, rho


def second_view(Y, y):
    """The second view given as ``Y`` or as its alias ``y``; ``Y`` when both are given.

    scikit-learn's tools pass the second view as ``y`` (``Pipeline``, ``GridSearchCV``,
    ``CCA.fit(X, y)``); every method of the CCA estimators that takes ``Y`` accepts it so.
    """
    return y if Y is None else Y


def flip_signs(Wx, Wy):
    """Flip each pair of columns so the x-column's largest-magnitude entry is positive."""
    rows = np.argmax(np.abs(Wx), axis=0)
    signs = np.sign(Wx[rows, np.arange(Wx.shape[1])])
    signs[signs == 0] = 1.0
    return Wx * signs, Wy * signs


class BaseCCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Fit two views, project them, report their canonical correlations.

    Subclasses implement ``_fit(X, Y, k)`` returning ``(Wx, Wy, flops)``.
    Moments are uncentred, as in the paper (``S_x = XᵀX / n``): centre dense
    views beforehand if centred correlations are wanted. Constant columns are
    fine, the ridge term ``reg`` keeps ``S_x + reg·I`` invertible.

    As scikit-learn's :class:`~sklearn.cross_decomposition.CCA`: ``fit`` sets
    ``n_features_in_`` and, when ``X`` is a DataFrame with string column names,
    ``feature_names_in_``, which ``transform`` and ``score`` check (same names, same
    order); only ``X``'s names are recorded and checked, ``Y``'s columns only by their
    count (``n_features_y_``). ``get_feature_names_out()`` names the components
    ``<class name in lower case><j>`` (``exactcca0``, ...), and ``set_output`` makes
    ``transform`` and ``fit_transform`` return ``x_scores`` as a DataFrame (``y_scores``
    of the tuple they return with ``Y`` stays an array, as with scikit-learn's CCA).
    The second view may be passed as ``y`` too, scikit-learn's name.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags

    def _check_fit_inputs(self, X, Y):
        X, Y = check_views(X, Y)
        k = check_n_components(self.n_components, X.shape[1], Y.shape[1])
        check_positive(self.reg, "reg", allow_zero=True)
        return X, Y, k

    def fit(self, X, Y=None, y=None):
        """Fit the canonical weights.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view. A DataFrame's column names are recorded in ``feature_names_in_``.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows.
        y : array-like or scipy.sparse matrix of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling (``Y`` is used when both are given).

        Returns
        -------
        self : BaseCCA
            The fitted estimator.
        """
        X_in = X
        X, Y, k = self._check_fit_inputs(X, second_view(Y, y))
        Wx, Wy, flops = self._fit(X, Y, k)
        self._set_fitted(X_in, Y, Wx, Wy)
        self.flops_ = float(flops)
        return self

    def _set_fitted(self, X, Y, Wx, Wy):
        """Store the weights; ``X`` as given to ``fit`` (see :meth:`_record_views`)."""
        self._record_views(X, Y)  # first: it raises on column names of mixed types
        self.x_weights_ = np.ascontiguousarray(Wx)
        self.y_weights_ = np.ascontiguousarray(Wy)

    def _record_views(self, X, Y):
        """Set ``n_features_in_``, ``feature_names_in_`` and ``n_features_y_``.

        ``X`` is the first view as given to ``fit``, before :func:`check_views`
        converted it: a DataFrame's column names are gone from the array.
        ``Y`` is the converted second view: its column count only, as scikit-learn's
        CCA keeps no names of its target.
        """
        validate_data(self, X, reset=True, skip_check_array=True)
        self.n_features_y_ = Y.shape[1]

    @property
    def _n_features_out(self):
        """Components: the columns of ``transform``'s output (``get_feature_names_out``)."""
        return self.x_weights_.shape[1]

    def _check_x(self, X):
        """``X`` of ``transform`` converted, its columns checked against ``fit``'s.

        In the order of scikit-learn's ``validate_data``: a DataFrame's column names
        against ``feature_names_in_`` (same names, same order) on ``X`` as given, before
        conversion loses them; then :func:`check_view`; then the column count against
        ``n_features_in_``.
        """
        check_is_fitted(self)
        _check_feature_names(self, X, reset=False)
        A = check_view(X, "X")
        _check_n_features(self, A, reset=False)
        return A

    def transform(self, X, Y=None, y=None):
        """Project views onto the canonical weights.

        Parameters
        ----------
        X : array-like or sparse of shape (n_samples, p1)
            First view, the columns of ``fit`` (a DataFrame's by name, in ``fit``'s order).
        Y : array-like or sparse of shape (n_samples, p2), optional
            Second view; projected too when given.
        y : array-like or sparse of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling (``Y`` is used when both are given).

        Returns
        -------
        x_scores : ndarray of shape (n_samples, n_components)
            ``X @ x_weights_``; with ``Y``, the tuple ``(x_scores, y_scores)``. With
            ``set_output(transform="pandas")``, ``x_scores`` is a DataFrame with the
            columns ``get_feature_names_out()`` (``y_scores`` stays an array).
        """
        return self._project(X, second_view(Y, y))

    def _project(self, X, Y=None):
        """``transform`` without ``set_output``'s container: arrays."""
        x_scores = self._check_x(X) @ self.x_weights_
        if Y is None:
            return x_scores
        return x_scores, check_view(Y, "Y", self.n_features_y_) @ self.y_weights_

    def fit_transform(self, X, Y=None, y=None):
        """Fit, then return ``(x_scores, y_scores)`` for the training views.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows.
        y : array-like or scipy.sparse matrix of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling.

        Returns
        -------
        x_scores, y_scores : ndarray of shape (n_samples, n_components)
            The training views projected on the canonical weights.
        """
        Y = second_view(Y, y)
        return self.fit(X, Y)._project(X, Y)

    def score_components(self, X, Y=None, y=None):
        """Canonical correlation of each component on the given views.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view, the same columns as in ``fit``.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows as ``X``.
        y : array-like or scipy.sparse matrix of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling (``GridSearchCV`` passes the
            second view as ``y``).

        Returns
        -------
        rho : ndarray of shape (n_components,)
            Uncentred correlation between ``X @ x_weights_[:, j]`` and
            ``Y @ y_weights_[:, j]`` for each component ``j``, after aligning the
            pairs within the fitted spans (:func:`~lowdim.cca.canonical_correlations`),
            decreasing; their sum is the total correlation captured,
            :func:`~lowdim.cca.tcc`.
        """
        x_scores, y_scores = self._scores(X, second_view(Y, y))
        return canonical_correlations(x_scores, y_scores)

    def score(self, X, Y=None, y=None):
        """Mean canonical correlation of the components on the given views.

        The one number scikit-learn's tools (``cross_val_score``, ``GridSearchCV``)
        maximise: ``score_components(X, Y).mean()``, the total correlation captured
        divided by ``n_components`` (so at most 1). Held-out views give the
        out-of-sample correlation.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view, the same columns as in ``fit``.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows as ``X``.
        y : array-like or scipy.sparse matrix of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling.

        Returns
        -------
        score : float
            Mean of :meth:`score_components`, in [0, 1].
        """
        return float(np.mean(self.score_components(X, Y, y)))

    def _scores(self, X, Y):
        """``(x_scores, y_scores)`` of two views with as many rows."""
        if Y is None:
            raise ArgumentValueError("`Y` is required to score: canonical correlations need both "
                                     "views", "Y")
        x_scores, y_scores = self._project(X, Y)
        if x_scores.shape[0] != y_scores.shape[0]:
            raise ArgumentValueError(f"`Y` must have as many rows as `X` ({x_scores.shape[0]}), "
                                     f"got {y_scores.shape[0]} rows", ("Y", "X"))
        return x_scores, y_scores
