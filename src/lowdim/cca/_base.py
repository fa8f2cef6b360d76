"""Shared interface of every CCA estimator in :mod:`lowdim.cca`."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import ArgumentValueError
from ._validation import check_n_components, check_positive, check_view, check_views
from .metrics import canonical_correlations

__all__ = ["BaseCCA", "align_to_canonical", "flip_signs"]


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


def flip_signs(Wx, Wy):
    """Flip each pair of columns so the x-column's largest-magnitude entry is positive."""
    rows = np.argmax(np.abs(Wx), axis=0)
    signs = np.sign(Wx[rows, np.arange(Wx.shape[1])])
    signs[signs == 0] = 1.0
    return Wx * signs, Wy * signs


class BaseCCA(TransformerMixin, BaseEstimator):
    """Fit two views, project them, report their canonical correlations.

    Subclasses implement ``_fit(X, Y, k)`` returning ``(Wx, Wy, flops)``.
    Moments are uncentred, as in the paper (``S_x = XᵀX / n``): centre dense
    views beforehand if centred correlations are wanted. Constant columns are
    fine, the ridge term ``reg`` keeps ``S_x + reg·I`` invertible.
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

    def fit(self, X, Y):
        """Fit the canonical weights.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows.

        Returns
        -------
        self : BaseCCA
            The fitted estimator.
        """
        X, Y, k = self._check_fit_inputs(X, Y)
        Wx, Wy, flops = self._fit(X, Y, k)
        self._set_fitted(X, Y, Wx, Wy)
        self.flops_ = float(flops)
        return self

    def _set_fitted(self, X, Y, Wx, Wy):
        self.x_weights_ = np.ascontiguousarray(Wx)
        self.y_weights_ = np.ascontiguousarray(Wy)
        validate_data(self, X, reset=True, skip_check_array=True)  # sets n_features_in_
        self.n_features_y_ = Y.shape[1]

    def transform(self, X, Y=None):
        """Project views onto the canonical weights.

        Parameters
        ----------
        X : array-like or sparse of shape (n_samples, p1)
            First view, the columns of ``fit``.
        Y : array-like or sparse of shape (n_samples, p2), optional
            Second view; projected too when given.

        Returns
        -------
        x_scores : ndarray of shape (n_samples, n_components)
            ``X @ x_weights_``; with ``Y``, the tuple ``(x_scores, y_scores)``.
        """
        check_is_fitted(self)
        X = check_view(X, "X")
        validate_data(self, X, reset=False, skip_check_array=True)  # same feature count as fit
        x_scores = X @ self.x_weights_
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
        Y = y if Y is None else Y
        return self.fit(X, Y).transform(X, Y)

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
        x_scores, y_scores = self._scores(X, Y if Y is not None else y)
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
        x_scores, y_scores = self.transform(X, Y)
        if x_scores.shape[0] != y_scores.shape[0]:
            raise ArgumentValueError(f"`Y` must have as many rows as `X` ({x_scores.shape[0]}), "
                                     f"got {y_scores.shape[0]} rows", ("Y", "X"))
        return x_scores, y_scores
