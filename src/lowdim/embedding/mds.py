"""Classical (Torgerson) multidimensional scaling, the paper's CMDS baseline."""

from __future__ import annotations

import numpy as np
from scipy import linalg
from sklearn.metrics import euclidean_distances
from sklearn.utils.extmath import svd_flip

from ._base import EmbeddingEstimator
from ._validation import check_embedding_input, check_n_components

__all__ = ["ClassicalMDS", "classical_mds"]


def classical_mds(squared_distances, n_components):
    """Embed points from their squared distances by double centring.

    .. math:: B = -\\tfrac12 J D^{(2)} J,\\quad J = I - \\tfrac1n \\mathbf{1}\\mathbf{1}^T,
              \\qquad Z = V_d \\Lambda_d^{1/2}

    with :math:`(\\Lambda_d, V_d)` the ``n_components`` largest eigenpairs of
    :math:`B`. Negative eigenvalues (non-Euclidean input) are clipped to 0.

    Parameters
    ----------
    squared_distances : ndarray of shape (n, n)
        Symmetric squared distances; overwritten with ``B``.
    n_components : int

    Returns
    -------
    embedding : ndarray of shape (n, n_components)
        Deterministic signs (largest-magnitude entry of each column positive).
    eigenvalues : ndarray of shape (n_components,)
        Largest eigenvalues of ``B``, decreasing (before clipping).
    """
    B = np.asarray(squared_distances, dtype=np.float64)
    n = B.shape[0]
    B -= B.mean(axis=0, keepdims=True)
    B -= B.mean(axis=1, keepdims=True)
    B *= -0.5
    w, V = linalg.eigh(B, subset_by_index=[n - n_components, n - 1], overwrite_a=True,
                       driver="evr")
    w, V = w[::-1], V[:, ::-1]
    V, _ = svd_flip(V, None)
    return V * np.sqrt(np.clip(w, 0.0, None)), w


class ClassicalMDS(EmbeddingEstimator):
    """Classical MDS on Euclidean distances (not scikit-learn's SMACOF ``MDS``).

    Double-centres the matrix of squared Euclidean distances and keeps the top
    eigenvectors scaled by the square roots of their eigenvalues. Only the top
    ``n_components`` eigenpairs are computed. Sparse input is not densified
    (only the n x n distance matrix is dense).

    With Euclidean distances the result equals the PCA scores up to signs; the
    paper's lower CMDS numbers come from scikit-learn's SMACOF ``MDS``.

    Parameters
    ----------
    n_components : int, default=2

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    eigenvalues_ : ndarray of shape (n_components,)
    n_features_in_ : int
    """

    def __init__(self, n_components=2):
        self.n_components = n_components

    def fit(self, X, y=None):
        """Compute the embedding of ``X`` (n_samples, n_features); ``y`` is ignored."""
        X = check_embedding_input(self, X)
        k = check_n_components(self.n_components, X.shape[0])
        D2 = euclidean_distances(X, squared=True)
        self.embedding_, self.eigenvalues_ = classical_mds(D2, k)
        return self
