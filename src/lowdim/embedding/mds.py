"""Multidimensional scaling: the paper's MDS baseline (SMACOF) and classical MDS.

The Vec2vec paper's "MDS"/"CMDS" numbers come from scikit-learn's
``sklearn.manifold.MDS`` (metric SMACOF stress majorisation; wxnudt/vec2vec,
``vec2vec/DimensionReduction-Algorithms-Comparison.py``): :class:`MDSEmbedding`,
method ``mds``. Classical (Torgerson) MDS, which equals PCA's scores on
Euclidean distances, is kept as :class:`ClassicalMDS`, method ``cmds``.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg
from sklearn.metrics import euclidean_distances
from sklearn.utils.extmath import svd_flip

from .._validation import ArgumentValueError, check_matrix, check_number
from ._base import EmbeddingEstimator
from ._validation import check_embedding_input, check_int, check_n_components

__all__ = ["ClassicalMDS", "MDSEmbedding", "classical_mds"]


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
        Dimension d of the embedding, at most n.

    Returns
    -------
    embedding : ndarray of shape (n, n_components)
        Deterministic signs (largest-magnitude entry of each column positive).
    eigenvalues : ndarray of shape (n_components,)
        Largest eigenvalues of ``B``, decreasing (before clipping).

    Examples
    --------
    >>> from lowdim.embedding import classical_mds
    >>> points = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]])
    >>> D2 = ((points[:, None] - points[None]) ** 2).sum(-1)
    >>> Z, eigenvalues = classical_mds(D2, 2)
    >>> ((Z[:, None] - Z[None]) ** 2).sum(-1).round(6)
    array([[ 0.,  9., 16.],
           [ 9.,  0., 25.],
           [16., 25.,  0.]])
    """
    B = check_matrix(squared_distances, "squared_distances", square=True, accept_sparse=False)
    n = B.shape[0]
    n_components = check_number(n_components, "n_components", integer=True, minimum=1, maximum=n)
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

    Fit-only: there is no ``transform``. Classical MDS embeds the rows whose
    distances it was given; its out-of-sample extensions (Gower's formula,
    landmark MDS) are in none of the libraries the workflow compares and the
    paper uses none. On Euclidean distances :class:`PCAEmbedding` gives the
    same embedding and has ``transform``.

    Parameters
    ----------
    n_components : int, default=2
        Dimension d of the embedding.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    eigenvalues_ : ndarray of shape (n_components,)
    n_features_in_ : int

    Examples
    --------
    >>> from lowdim.embedding import ClassicalMDS, PCAEmbedding
    >>> X = rng.standard_normal((50, 5))
    >>> Z = ClassicalMDS(n_components=2).fit_transform(X)
    >>> P = PCAEmbedding(n_components=2).fit_transform(X)
    >>> np.allclose(np.abs(Z), np.abs(P))  # PCA's scores, up to signs
    True
    """

    def __init__(self, n_components=2):
        self.n_components = n_components

    def fit(self, X, y=None):
        """Compute the embedding of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The rows to embed; sparse rows are not densified.
        y : None
            Ignored.

        Returns
        -------
        self : ClassicalMDS
            The fitted estimator, with ``embedding_``.
        """
        X = check_embedding_input(self, X)
        k = check_n_components(self.n_components, X.shape[0])
        D2 = euclidean_distances(X, squared=True)
        self.embedding_, self.eigenvalues_ = classical_mds(D2, k)
        return self


class MDSEmbedding(EmbeddingEstimator):
    """Metric MDS by SMACOF (scikit-learn ``MDS``), the paper's MDS baseline.

    Minimises the raw stress :math:`\\sum_{i<j} (\\lVert z_i - z_j \\rVert - d_{ij})^2`
    over the Euclidean distances :math:`d_{ij}` of the rows of ``X`` by stress
    majorisation from random starts, keeping the start of lowest stress. The
    authors called ``MDS(n_components)`` with the defaults of their
    scikit-learn: ``n_init=4``, ``max_iter=300``, random initialisation.
    Time and memory are O(n^2) per iteration; sparse input is not densified
    (only the n x n distance matrix is dense).

    Fit-only: there is no ``transform``. SMACOF moves every point against
    every other to lower the stress of the fitted rows; scikit-learn's ``MDS``
    has no map for new rows (placing one would be a new stress minimisation
    with the fitted points held fixed). Refit on all the rows.

    Parameters
    ----------
    n_components : int, default=2
        Dimension d of the embedding.
    n_init : int, default=4
        SMACOF runs from different random starts.
    max_iter : int, default=300
        Iterations per run.
    random_state : int, RandomState instance or None, default=None
        Seeds the starts.
    n_jobs : int or None, default=None
        SMACOF runs done in parallel (worker processes). With one run
        (``n_init=1``) there is nothing to share out: it runs in this process,
        and the embedding is the one ``n_jobs=1`` gives.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    stress_ : float
        Raw stress of the kept run.
    n_features_in_ : int

    Examples
    --------
    >>> from scipy.spatial.distance import pdist
    >>> from lowdim.embedding import MDSEmbedding
    >>> X = rng.standard_normal((40, 3))
    >>> mds = MDSEmbedding(n_components=3, n_init=1, random_state=0)
    >>> Z = mds.fit_transform(X)
    >>> Z.shape, bool(np.corrcoef(pdist(Z), pdist(X))[0, 1] > 0.99)
    ((40, 3), True)
    """

    def __init__(self, n_components=2, *, n_init=4, max_iter=300, random_state=None,
                 n_jobs=None):
        self.n_components = n_components
        self.n_init = n_init
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X, y=None):
        """Compute the embedding of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The rows to embed; sparse rows are not densified.
        y : None
            Ignored.

        Returns
        -------
        self : MDSEmbedding
            The fitted estimator, with ``embedding_``.
        """
        from sklearn.manifold import MDS

        X = check_embedding_input(self, X)
        k = check_n_components(self.n_components, X.shape[0])
        check_int(self.n_init, "n_init", min_val=1)
        check_int(self.max_iter, "max_iter", min_val=1)
        if self.n_jobs is not None and check_int(self.n_jobs, "n_jobs") == 0:
            raise ArgumentValueError("`n_jobs` must be a positive int, -1 or None, got 0",
                                     "n_jobs")
        # scikit-learn's MDS needs dense X; its distances of sparse rows are exact.
        distances = euclidean_distances(X)
        # scikit-learn would start worker processes (seconds of imports) for a single run,
        # and seed it differently from the one-process path
        n_jobs = None if self.n_init == 1 else self.n_jobs
        model = MDS(n_components=k, metric_mds=True, n_init=self.n_init, init="random",
                    max_iter=self.max_iter, metric="precomputed",
                    normalized_stress=False, random_state=self.random_state,
                    n_jobs=n_jobs)
        self.embedding_ = np.asarray(model.fit_transform(distances), dtype=np.float64)
        self.stress_ = float(model.stress_)
        return self
