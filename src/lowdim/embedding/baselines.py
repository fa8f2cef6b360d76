"""The paper's baselines, one scikit-learn-style wrapper each.

PCA (centred also on sparse input, without densifying), metric MDS by SMACOF
and classical MDS (:mod:`.mds`), Isomap, LLE, Laplacian Eigenmaps (scikit-learn
``SpectralEmbedding``) and UMAP. Every
wrapper has ``fit``, ``fit_transform`` and ``embedding_`` (float64), takes
``n_components`` and, where the method has them, ``n_neighbors``,
``random_state`` and ``n_jobs``; the fitted library object is ``estimator_``.
PCA, Isomap, LLE and UMAP also have ``transform``, which embeds new rows with
the wrapped library's own out-of-sample map; MDS, classical MDS and Laplacian
Eigenmaps are fit-only (their libraries embed only the rows they were fitted on).
:func:`make_embedder` builds any method, Vec2vec included, by name.
"""

from __future__ import annotations

import functools
import logging

import numpy as np
import scipy.sparse as sp
from scipy import linalg

from sklearn.utils.validation import check_is_fitted

from .._numba_cache import cache_jit_functions
from .._validation import ArgumentTypeError, ArgumentValueError
from ._base import EmbeddingEstimator
from ._validation import (check_embedding_input, check_float, check_n_components,
                          check_n_neighbors)
from .mds import ClassicalMDS, MDSEmbedding
from .methods import NEIGHBOR_PARAMETER
from .vec2vec import Vec2Vec

__all__ = ["PCAEmbedding", "IsomapEmbedding", "LLEEmbedding", "LaplacianEigenmaps",
           "UMAPEmbedding", "METHODS", "make_embedder",
           "isometric_dense_rows"]

logger = logging.getLogger("lowdim")


class _LibraryEmbedding(EmbeddingEstimator):
    """Common fit logic: validate, build the library estimator, store ``embedding_``."""

    #: Whether ``n_neighbors=None`` means a default (Laplacian Eigenmaps) rather than a mistake.
    _n_neighbors_none_ok = False

    def fit(self, X, y=None):
        """Compute the embedding of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The rows to embed (sparse only where the method takes it).
        y : None
            Ignored.

        Returns
        -------
        self : EmbeddingEstimator
            The fitted estimator, with ``embedding_`` and ``estimator_``.
        """
        X = check_embedding_input(self, X, accept_sparse=self._accepts_sparse)
        check_n_components(self.n_components, X.shape[0])
        if hasattr(self, "n_neighbors") and (self.n_neighbors is not None
                                             or not self._n_neighbors_none_ok):
            check_n_neighbors(self.n_neighbors, X.shape[0])
        self.estimator_ = self._make_estimator(X)
        self.embedding_ = np.asarray(self.estimator_.fit_transform(self._prepare(X)),
                                     dtype=np.float64)
        return self

    def _prepare(self, X):
        return X


class _OutOfSampleEmbedding(_LibraryEmbedding):
    """A baseline whose library maps new rows into a fitted embedding."""

    def transform(self, X):
        """Embed new rows with the fitted library estimator's own ``transform``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            New rows, with the features of the rows given to ``fit``.

        Returns
        -------
        embedding : ndarray of shape (n_samples, n_components)
            Their coordinates in the fitted embedding, float64.
        """
        check_is_fitted(self)
        X = check_embedding_input(self, X, accept_sparse=self._accepts_sparse, min_samples=1,
                                  reset=False)
        return np.asarray(self.estimator_.transform(self._prepare_new(X)), dtype=np.float64)

    def _prepare_new(self, X):
        return self._prepare(X)


class PCAEmbedding(_OutOfSampleEmbedding):
    """PCA scores of the centred data, sparse input included.

    Sparse input stays sparse: scikit-learn's ARPACK solver centres it
    implicitly (a linear operator ``X - 1 mean^T``), which gives the PCA of
    the densified matrix, as the authors computed it, without the n x D copy.
    ``transform`` projects new rows on the fitted components (scikit-learn's
    ``PCA.transform``).

    Parameters
    ----------
    n_components : int, default=2
        Dimension d of the embedding.
    random_state : int, RandomState instance or None, default=None
        For the randomized solvers.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The PCA scores of the rows given to ``fit``.
    estimator_ : sklearn.decomposition.PCA
        The fitted scikit-learn estimator.
    n_features_in_ : int
        Number of features seen by ``fit``.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lowdim.embedding import PCAEmbedding
    >>> from lowdim.evaluate.classification import knn_cv_accuracy
    >>> X, y = digits
    >>> Z = PCAEmbedding(n_components=10, random_state=0).fit_transform(X)
    >>> Z.shape, round(knn_cv_accuracy(Z, y, random_state=0).mean, 2)
    ((300, 10), 0.9...)
    >>> PCAEmbedding(n_components=2, random_state=0).fit_transform(sp.csr_matrix(X)).shape
    (300, 2)
    """

    def __init__(self, n_components=2, *, random_state=None):
        self.n_components = n_components
        self.random_state = random_state

    def _make_estimator(self, X):
        from sklearn.decomposition import PCA

        if sp.issparse(X):
            if self.n_components >= X.shape[1]:
                raise ArgumentValueError(f"`n_components` must be < n_features = {X.shape[1]} "
                                         f"for sparse input (ARPACK), got {self.n_components}",
                                         "n_components")
            return PCA(self.n_components, svd_solver="arpack", random_state=self.random_state)
        if self.n_components > X.shape[1]:
            raise ArgumentValueError(f"`n_components` must be <= n_features = {X.shape[1]}, got "
                                     f"{self.n_components}", "n_components")
        return PCA(self.n_components, random_state=self.random_state)


class IsomapEmbedding(_OutOfSampleEmbedding):
    """Isomap (scikit-learn): geodesic distances on the kNN graph + kernel PCA.

    ``transform`` embeds new rows by scikit-learn's out-of-sample extension:
    their geodesic distances to the training rows through their nearest
    training neighbours, mapped by the fitted kernel PCA.

    Parameters
    ----------
    n_components : int, default=2
        Dimension d of the embedding.
    n_neighbors : int, default=5
        Neighbours of each row in the kNN graph.
    n_jobs : int or None, default=None
        Processes of the neighbour search (None: one).

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The embedding of the rows given to ``fit``.
    estimator_ : sklearn.manifold.Isomap
        The fitted scikit-learn estimator.
    n_features_in_ : int
        Number of features seen by ``fit``.

    Examples
    --------
    >>> from lowdim.embedding import IsomapEmbedding
    >>> from lowdim.evaluate.classification import knn_cv_accuracy
    >>> X, y = digits
    >>> Z = IsomapEmbedding(n_components=10, n_neighbors=15).fit_transform(X)
    >>> round(knn_cv_accuracy(Z, y, random_state=0).mean, 2)
    0.9...
    """

    def __init__(self, n_components=2, *, n_neighbors=5, n_jobs=None):
        self.n_components = n_components
        self.n_neighbors = n_neighbors
        self.n_jobs = n_jobs

    def _make_estimator(self, X):
        from sklearn.manifold import Isomap

        return Isomap(n_neighbors=self.n_neighbors, n_components=self.n_components,
                      n_jobs=self.n_jobs)


def isometric_dense_rows(X):
    """Dense rows with the same pairwise inner products as ``X``.

    Sparse ``X`` of shape (n, D) with D > n is replaced by ``V sqrt(L)`` from the
    eigendecomposition ``X X^T = V L V^T`` (at most n columns): every distance and
    local Gram matrix is unchanged, so LLE gives the same embedding without
    an n x D dense copy. Sparse input with D <= n is densified; dense input is
    returned as is.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n, D)
        Rows to map.

    Returns
    -------
    Z : ndarray of shape (n, r)
        ``r = D`` for dense input or sparse input with ``D <= n``; otherwise
        ``r <= n``, the rank of ``X``.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lowdim.embedding import isometric_dense_rows
    >>> X = sp.random(5, 1000, density=0.01, random_state=0, format="csr")
    >>> Z = isometric_dense_rows(X)
    >>> Z.shape, np.allclose(Z @ Z.T, (X @ X.T).toarray())
    ((5, 5), True)
    """
    return _isometry(X)[0]


def _isometry(X):
    """``(Z, row_map)``: :func:`isometric_dense_rows` and, when it replaced wide sparse
    rows, ``row_map = V L^{-1/2}``, which sends any row ``x`` to ``(x X^T) row_map``
    (``Z`` itself for the rows of ``X``); None otherwise."""
    if not sp.issparse(X):
        return X, None
    n, d = X.shape
    if d <= n:
        return X.toarray(), None
    gram = (X @ X.T).toarray().astype(np.float64)
    w, V = linalg.eigh(gram)
    keep = w > max(w[-1], 0.0) * n * np.finfo(np.float64).eps
    return V[:, keep] * np.sqrt(w[keep]), V[:, keep] / np.sqrt(w[keep])


class LLEEmbedding(_OutOfSampleEmbedding):
    """Standard locally linear embedding (scikit-learn).

    scikit-learn's LLE needs dense input; sparse wide input is first mapped
    to at most n dense columns with the same inner products
    (:func:`isometric_dense_rows`), which leaves LLE's result unchanged.

    ``transform`` embeds new rows as scikit-learn's ``LocallyLinearEmbedding``
    does: barycentre weights over their nearest training rows, applied to
    ``embedding_``. After a fit on sparse wide rows, new rows go through the
    same map, which keeps their inner products with the training rows and
    drops their part outside the training rows' span: the neighbours and the
    local Gram matrix change by a constant only, so the weights change only
    through LLE's regulariser (``reg`` times the Gram matrix's trace).

    Parameters
    ----------
    n_components : int, default=2
        Dimension d of the embedding.
    n_neighbors : int, default=5
        Neighbours of each row whose barycentre reconstructs it.
    random_state : int, RandomState instance or None, default=None
        Seeds the ARPACK start vector.
    n_jobs : int or None, default=None
        Processes of the neighbour search (None: one).

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The embedding of the rows given to ``fit``.
    estimator_ : sklearn.manifold.LocallyLinearEmbedding
        The fitted scikit-learn estimator (fitted on the mapped rows when the
        input was sparse and wide).
    isometry_ : tuple (training rows, row map) or None
        For sparse wide input, what ``transform`` maps new rows with.
    n_features_in_ : int
        Number of features seen by ``fit``.

    Examples
    --------
    Sparse input as wide as TF-IDF rows is first turned into dense rows of equal inner
    products (:func:`isometric_dense_rows`):

    >>> import scipy.sparse as sp
    >>> from lowdim.embedding import LLEEmbedding
    >>> X = sp.random(60, 5000, density=0.01, random_state=0, format="csr")
    >>> LLEEmbedding(n_components=3, n_neighbors=10, random_state=0).fit_transform(X).shape
    (60, 3)
    """

    def __init__(self, n_components=2, *, n_neighbors=5, random_state=None, n_jobs=None):
        self.n_components = n_components
        self.n_neighbors = n_neighbors
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _make_estimator(self, X):
        from sklearn.manifold import LocallyLinearEmbedding

        return LocallyLinearEmbedding(n_neighbors=self.n_neighbors,
                                      n_components=self.n_components,
                                      random_state=self.random_state, n_jobs=self.n_jobs)

    def _prepare(self, X):
        Z, row_map = _isometry(X)
        self.isometry_ = None if row_map is None else (X, row_map)
        X = Z
        if self.n_components > X.shape[1]:
            raise ArgumentValueError(f"`n_components` must be <= n_features = {X.shape[1]} for "
                                     "LLE (the rank of X when it is sparse and wide), got "
                                     f"{self.n_components}", "n_components")
        return X

    def _prepare_new(self, X):
        if self.isometry_ is None:
            return X.toarray() if sp.issparse(X) else X
        rows, row_map = self.isometry_
        return np.asarray(X @ rows.T @ row_map) if sp.issparse(X) else (rows @ X.T).T @ row_map


class LaplacianEigenmaps(_LibraryEmbedding):
    """Laplacian Eigenmaps: scikit-learn ``SpectralEmbedding`` on the kNN graph.

    Fit-only: there is no ``transform``. The embedding is the bottom
    eigenvectors of the graph Laplacian of the fitted rows, and scikit-learn's
    ``SpectralEmbedding`` has no out-of-sample map for new rows (a new row
    changes the graph and so every eigenvector); refit on all the rows.

    Parameters
    ----------
    n_components : int, default=2
        Dimension d of the embedding.
    n_neighbors : int or None, default=None
        Neighbours of each row in the kNN graph; None: scikit-learn's default,
        max(n_samples / 10, 1).
    random_state : int, RandomState instance or None, default=None
        Seeds the eigensolver's start vector.
    n_jobs : int or None, default=None
        Processes of the neighbour search (None: one).

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The embedding of the rows given to ``fit``.
    estimator_ : sklearn.manifold.SpectralEmbedding
        The fitted scikit-learn estimator.
    n_features_in_ : int
        Number of features seen by ``fit``.

    Examples
    --------
    Dense and sparse input give the same kNN graph, so embeddings that agree up to sign and
    the eigensolver's tolerance:

    >>> import scipy.sparse as sp
    >>> from lowdim.embedding import LaplacianEigenmaps
    >>> X, _ = digits
    >>> le = LaplacianEigenmaps(n_components=2, n_neighbors=15, random_state=0)
    >>> dense, sparse = le.fit_transform(X), le.fit_transform(sp.csr_matrix(X))
    >>> np.allclose(abs(dense), abs(sparse), atol=1e-3)
    True
    """

    _n_neighbors_none_ok = True

    def __init__(self, n_components=2, *, n_neighbors=None, random_state=None, n_jobs=None):
        self.n_components = n_components
        self.n_neighbors = n_neighbors
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X, y=None):
        """Compute the embedding of ``X``.

        On a kNN graph of several connected components the eigenvalue 0 is repeated, and
        any basis of its eigenvectors is a spectral embedding: ARPACK's follows the
        rounding, which differs from one process to the next. There the embedding is
        rebuilt from a basis fixed by the graph alone (:func:`_disconnected_embedding`).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The rows to embed.
        y : None
            Ignored.

        Returns
        -------
        self : LaplacianEigenmaps
            The fitted estimator, with ``embedding_`` and ``estimator_``.
        """
        super().fit(X, y)
        from scipy.sparse.csgraph import connected_components

        graph = sp.csr_matrix(self.estimator_.affinity_matrix_)
        n_parts, labels = connected_components(graph, directed=False)
        if n_parts > 1:
            self.embedding_ = _disconnected_embedding(graph, labels, self.n_components,
                                                      self.random_state)
        return self

    def _make_estimator(self, X):
        from sklearn.manifold import SpectralEmbedding

        if self.n_components > X.shape[0] - 2:
            # The spectral embedding drops the constant eigenvector, so it needs
            # n_components + 1 eigenvectors, fewer than n_samples (ARPACK).
            raise ArgumentValueError("`n_components` must be <= n_samples - 2 = "
                                     f"{X.shape[0] - 2} for Laplacian Eigenmaps, got "
                                     f"{self.n_components}", "n_components")
        # scikit-learn's "nearest_neighbors" affinity falls back to an RBF kernel on sparse
        # input; the kNN graph is built here instead (see _prepare), so both inputs get it.
        affinity = "precomputed" if sp.issparse(X) else "nearest_neighbors"
        return SpectralEmbedding(n_components=self.n_components, affinity=affinity,
                                 n_neighbors=self.n_neighbors, random_state=self.random_state,
                                 n_jobs=self.n_jobs)

    def _prepare(self, X):
        if not sp.issparse(X):
            return X
        from sklearn.neighbors import kneighbors_graph

        # The graph SpectralEmbedding builds for dense input: k neighbours, self included,
        # 0/1 weights, symmetrised as (A + A.T) / 2.
        k = self.n_neighbors if self.n_neighbors is not None else max(X.shape[0] // 10, 1)
        graph = kneighbors_graph(X, k, include_self=True, n_jobs=self.n_jobs)
        return 0.5 * (graph + graph.T)


#: Eigenvalues of the normalised Laplacian closer than this are one repeated eigenvalue.
_EIGENVALUE_TIE = 1e-8


def _disconnected_embedding(graph, labels, n_components, random_state):
    """Laplacian Eigenmaps of a graph of several components, in a basis the graph fixes.

    The normalised Laplacian's eigenvalue 0 has one eigenvector per component,
    :math:`D^{1/2} 1_C`. The basis kept starts, as scikit-learn's, with the one it drops,
    :math:`D^{1/2} 1`, and goes on with the components' vectors in the order of their
    first row, each made orthogonal to those before; further eigenvectors come from
    ARPACK (scikit-learn's shift-invert call), each repeated eigenvalue's in the basis of
    :func:`_canonical_basis`. Signs: scikit-learn's (largest entry positive).

    Parameters
    ----------
    graph : sparse matrix of shape (n, n)
        Symmetric, non-negative affinities (scikit-learn's ``affinity_matrix_``).
    labels : ndarray of int of shape (n,)
        Connected component of each row, numbered in the order of their first row.
    n_components : int
        Dimension d of the embedding.
    random_state : int, RandomState instance or None
        Seeds ARPACK's start vector.

    Returns
    -------
    embedding : ndarray of shape (n, n_components)
    """
    from scipy.sparse.csgraph import laplacian
    from scipy.sparse.linalg import eigsh
    from sklearn.utils._arpack import _init_arpack_v0
    from sklearn.utils.extmath import _deterministic_vector_sign_flip

    k = n_components + 1
    lap, dd = laplacian(graph, normed=True, return_diag=True)
    lap = sp.csr_matrix(lap)
    # As scikit-learn: diagonal 1, so a row with no neighbour but itself has eigenvalue 1
    # and the eigenvalue 0 one eigenvector per component of two rows or more.
    lap.setdiag(1.0)
    parts = np.flatnonzero(np.bincount(labels) > 1).tolist()
    in_parts = np.isin(labels, parts)
    # no edge at all: no eigenvalue 0, every eigenvector from ARPACK
    vectors = [np.where(in_parts, dd, 0.0) / np.linalg.norm(dd[in_parts])] if parts else []
    for part in parts[:-1]:  # the last one adds nothing: the first minus the others
        v = np.where(labels == part, dd, 0.0)
        for u in vectors:
            v = v - (u @ v) * u
        vectors.append(v / np.linalg.norm(v))
    if len(vectors) < k:
        n = graph.shape[0]
        m = min(n - 1, 2 * k + len(parts))  # eigenvalues past k, to see a tie across k
        values, found = eigsh(lap, k=m, sigma=-1e-5, which="LM",
                              v0=_init_arpack_v0(n, random_state))  # scikit-learn's call
        order = np.argsort(values)[len(parts):]
        values, found = values[order], found[:, order]
        if vectors:
            null = np.column_stack(vectors)
            found = found - null @ (null.T @ found)  # orthogonal to the exact null space
        # runs of eigenvalues closer than the tie: one repeated eigenvalue each
        ties = np.split(np.arange(len(values)),
                        np.flatnonzero(np.diff(values) >= _EIGENVALUE_TIE) + 1)
        for tie in ties:
            if len(vectors) >= k:
                break
            vectors.extend(_canonical_basis(np.linalg.qr(found[:, tie])[0]).T)
    embedding = np.column_stack(vectors[:k]).T / dd
    return _deterministic_vector_sign_flip(embedding)[1:k].T


def _canonical_basis(basis):
    """An orthonormal basis of the span of ``basis``'s columns that does not depend on
    which basis of that span was given: the projections of the unit vectors of the rows
    where the span is largest, each made orthogonal to those before.

    Parameters
    ----------
    basis : ndarray of shape (n, p)
        Orthonormal columns.

    Returns
    -------
    canonical : ndarray of shape (n, p)

    Examples
    --------
    >>> from lowdim.embedding.baselines import _canonical_basis
    >>> basis = np.linalg.qr(np.random.default_rng(0).normal(size=(6, 2)))[0]
    >>> turn = np.array([[0.6, -0.8], [0.8, 0.6]])
    >>> np.allclose(_canonical_basis(basis), _canonical_basis(basis @ turn))
    True
    """
    rows = np.array(basis, dtype=np.float64)
    out = []
    for _ in range(basis.shape[1]):
        norms = np.linalg.norm(rows, axis=1)
        # the first row within rounding of the largest: ties go to the lower index
        pivot = int(np.flatnonzero(norms >= norms.max() * (1 - 1e-9))[0])
        direction = rows[pivot] / norms[pivot]
        out.append(basis @ direction)
        rows = rows - np.outer(rows @ direction, direction)
    return np.column_stack(out)


class UMAPEmbedding(_OutOfSampleEmbedding):
    """UMAP (umap-learn) with its defaults but for the swept ``n_neighbors``.

    ``transform`` embeds new rows by umap-learn's ``UMAP.transform``: their
    neighbours among the training rows (through the fitted nearest-neighbour
    index) give an initial position, refined by a few epochs of the same
    layout optimisation with the training rows held fixed.

    Parameters
    ----------
    n_components : int, default=2
        Dimension d of the embedding.
    n_neighbors : int, default=15
        Neighbours of each row in UMAP's fuzzy graph.
    min_dist : float, default=0.1
        Smallest distance between embedded points.
    metric : str, default="euclidean"
        Metric of the input space (umap-learn's names, or a numba function).
    random_state : int, RandomState instance or None, default=None
        A fixed seed makes umap-learn single-threaded (reproducible).
    n_jobs : int or None, default=None
        Threads when ``random_state`` is None (None -> all).

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The embedding of the rows given to ``fit``.
    estimator_ : umap.UMAP
        The fitted umap-learn estimator.
    n_features_in_ : int
        Number of features seen by ``fit``.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from lowdim.embedding import UMAPEmbedding
    >>> X, y = make_blobs(100, n_features=8, centers=2, random_state=0)
    >>> Z = UMAPEmbedding(n_components=2, n_neighbors=10, random_state=0).fit_transform(X)
    >>> Z.shape
    (100, 2)
    >>> centres = [Z[y == c].mean(axis=0) for c in (0, 1)]  # the two blobs stay apart
    >>> bool(np.linalg.norm(centres[0] - centres[1]) > 3 * Z[y == 0].std(axis=0).max())
    True
    """

    def __init__(self, n_components=2, *, n_neighbors=15, min_dist=0.1, metric="euclidean",
                 random_state=None, n_jobs=None):
        self.n_components = n_components
        self.n_neighbors = n_neighbors
        self.min_dist = min_dist
        self.metric = metric
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _make_estimator(self, X):
        from umap import UMAP

        cache_jit_functions("umap", "pynndescent")
        check_float(self.min_dist, "min_dist", min_val=0.0)
        if not isinstance(self.metric, str) and not callable(self.metric):
            raise ArgumentTypeError("`metric` must be a metric name or a function, got "
                                    f"{self.metric!r}", "metric")

        # umap-learn forces one thread (and warns) when seeded: ask for that directly.
        n_jobs = 1 if self.random_state is not None else (-1 if self.n_jobs is None
                                                          else self.n_jobs)
        return UMAP(n_components=self.n_components, n_neighbors=self.n_neighbors,
                    min_dist=self.min_dist, metric=self.metric,
                    random_state=self.random_state, n_jobs=n_jobs)

    def _prepare(self, X):
        # umap-learn's small-data path fails on scipy sparse *arrays*; its own
        # sparse-matrix path handles CSR without densifying.
        return sp.csr_matrix(X) if sp.issparse(X) else X


#: Method name (:data:`lowdim.embedding.methods.METHOD_NAMES`, in its order) -> estimator
#: class (or a factory fixing some of its parameters).
METHODS = {
    "vec2vec": Vec2Vec,
    "vec2vec_cooccurrence": functools.partial(Vec2Vec, solver="cooccurrence"),
    "pca": PCAEmbedding,
    "mds": MDSEmbedding,
    "cmds": ClassicalMDS,
    "isomap": IsomapEmbedding,
    "lle": LLEEmbedding,
    "le": LaplacianEigenmaps,
    "umap": UMAPEmbedding,
}


def make_embedder(method, *, random_state=None, n_jobs=None, **params):
    """Build the estimator of ``method`` with ``params``.

    ``random_state`` and ``n_jobs`` are passed only to methods that take them.

    Parameters
    ----------
    method : str
        A key of :data:`METHODS` (``"vec2vec"``, ``"pca"``, ``"umap"``, ...).
    random_state : int, RandomState instance or None, default=None
        Seed of the methods that take one.
    n_jobs : int or None, default=None
        Threads of the methods that take them.
    **params
        Further parameters of the method's estimator.

    Returns
    -------
    estimator : EmbeddingEstimator
        The unfitted estimator.

    Raises
    ------
    ValueError
        For an unknown method or a parameter the method does not take.

    Examples
    --------
    >>> from lowdim.embedding import make_embedder
    >>> make_embedder("isomap", n_neighbors=7, n_components=3)
    IsomapEmbedding(n_components=3, n_neighbors=7)
    >>> make_embedder("pca", n_neighbors=7)
    Traceback (most recent call last):
        ...
    lowdim._validation.ArgumentValueError: method 'pca' takes no parameter(s) ['n_neighbors']; it takes ['n_components', 'random_state']
    """
    if method not in METHODS:
        raise ArgumentValueError(f"`method` must be one of {sorted(METHODS)}, got {method!r}",
                                 "method")
    estimator = METHODS[method]()
    accepted = estimator.get_params()
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ArgumentValueError(f"method {method!r} takes no parameter(s) {unknown}; it takes "
                                 f"{sorted(accepted)}", "params")
    common = {"random_state": random_state, "n_jobs": n_jobs}
    params.update({k: v for k, v in common.items() if k in accepted})
    return estimator.set_params(**params)
