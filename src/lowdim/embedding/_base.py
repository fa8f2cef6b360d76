"""What every embedding estimator shares: scikit-learn plumbing around ``embedding_``."""

from __future__ import annotations

from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin

__all__ = ["EmbeddingEstimator"]


class EmbeddingEstimator(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Base of the embedding estimators: ``fit(X)`` sets ``embedding_``.

    ``embedding_`` has shape (n_samples, n_components); output features are
    named after the class (``vec2vec0``, ``vec2vec1``, ...). Subclasses that
    refuse sparse input set ``_accepts_sparse = False``.
    """

    _accepts_sparse = True

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The rows to embed.
        y : None
            Ignored.

        Returns
        -------
        embedding : ndarray of shape (n_samples, n_components)
            ``embedding_`` of the fitted estimator.
        """
        return self.fit(X).embedding_

    @property
    def _n_features_out(self):
        return self.embedding_.shape[1]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self._accepts_sparse
        return tags
