"""Spectral clustering of an embedding scored by ARI (Table 3 of the Vec2vec paper).

Spectral clustering with an RBF affinity ``exp(-gamma ||z_i - z_j||^2)`` and as
many clusters as classes; the paper sweeps gamma from 1e-6 to 1e1 and reports
the adjusted Rand index against the class labels.

The algorithm is scikit-learn's ``SpectralClustering(affinity="rbf")``
(normalised Laplacian with the affinity's diagonal ignored, eigenvectors
scaled by D^-1/2, sign-fixed, then k-means with 10 initialisations), but the
eigenvectors come from a dense LAPACK solver instead of ARPACK: at the ends
of the paper's gamma range the Laplacian is nearly degenerate (all affinities
~1, or ~0) and ARPACK's shift-invert iterations stall for minutes, while the
dense solver takes O(n^3) time, about a second at n = 2,000, whatever gamma.
Memory is O(n^2).
"""

from __future__ import annotations

import logging
import warnings

import numpy as np
from scipy import linalg
from sklearn.cluster import k_means
from sklearn.metrics import adjusted_rand_score
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import StandardScaler
from sklearn.utils import check_random_state
from sklearn.utils.extmath import _deterministic_vector_sign_flip

__all__ = ["GAMMA_GRID", "spectral_clustering_labels", "spectral_ari", "spectral_ari_sweep"]

logger = logging.getLogger("lowdim")

#: The paper's gamma range, one value per decade: 1e-6, 1e-5, ..., 1e1.
GAMMA_GRID = tuple(10.0 ** e for e in range(-6, 2))
#: Largest spectral map coordinate whose squares k-means sums without overflow (n <= 1e7).
_MAX_MAP = 1e150


def spectral_clustering_labels(affinity, n_clusters, random_state=None):
    """Normalised spectral clustering of a dense affinity matrix.

    Parameters
    ----------
    affinity : ndarray of shape (n, n)
        Symmetric, non-negative; its diagonal is ignored.
    n_clusters : int
        Clusters wanted.
    random_state : int, RandomState instance or None
        Seeds k-means.

    Returns
    -------
    labels : ndarray of int of shape (n,)

    Examples
    --------
    >>> from lowdim.evaluate.clustering import spectral_clustering_labels
    >>> affinity = np.kron(np.eye(2), np.ones((3, 3))) + 0.01
    >>> spectral_clustering_labels(affinity, n_clusters=2, random_state=0).tolist()
    [1, 1, 1, 0, 0, 0]
    """
    A = np.array(affinity, dtype=np.float64)
    n = A.shape[0]
    np.fill_diagonal(A, 0.0)
    degree = A.sum(axis=1)
    if not np.any(degree > 0):
        raise ValueError("every affinity between two points is 0 (gamma too large for the "
                         "embedding's distances): no graph to cluster")
    # Isolated nodes get degree 1, as in scipy's normalised csgraph Laplacian.
    scale = 1.0 / np.sqrt(np.where(degree > 0, degree, 1.0))
    A *= scale[:, None]
    A *= scale[None, :]
    # Smallest eigenvectors of I - D^-1/2 A D^-1/2 = largest of D^-1/2 A D^-1/2.
    # evx (bisection + inverse iteration) copes best with the clustered spectra of
    # extreme gammas; MRRR (evr) and full solvers are several times slower there.
    _, vectors = linalg.eigh(A, subset_by_index=[n - n_clusters, n - 1], overwrite_a=True,
                             driver="evx")
    maps = _deterministic_vector_sign_flip(vectors[:, ::-1].T).T * scale[:, None]
    if not np.all(np.abs(maps) < _MAX_MAP):  # also NaN
        # Affinities that all but underflow (subnormal degrees) scale a node's map by
        # up to 1e154, and k-means' squared distances overflow: its labels would be noise.
        raise ValueError(f"the normalised spectral maps overflow: the smallest positive "
                         f"degree is {degree[degree > 0].min():.3g}, the affinities have "
                         f"underflowed (gamma too large for the embedding's distances)")
    _, labels, _ = k_means(maps, n_clusters, random_state=check_random_state(random_state),
                           n_init=10)
    return labels


def spectral_ari(embedding, y, gamma, *, n_clusters=None, random_state=None):
    """ARI of RBF spectral clustering of ``embedding`` against ``y``.

    Parameters
    ----------
    embedding : ndarray of shape (n_samples, n_components)
        The embedded rows.
    y : ndarray of shape (n_samples,)
        Class labels, the reference partition.
    gamma : float
        RBF kernel coefficient, in 1 / (embedding units)^2.
    n_clusters : int or None
        None: the number of classes in ``y``.
    random_state : int or None
        Seeds the eigensolver start and k-means label assignment.

    Returns
    -------
    ari : float
        In [-1, 1]; NaN when the eigensolver fails, or when the affinities underflow so
        far that every one is 0 or the normalised maps overflow (a gamma far too large for
        the embedding's distances), each logged.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from lowdim.evaluate.clustering import spectral_ari
    >>> X, y = make_blobs(150, n_features=2, centers=3, random_state=0)
    >>> round(spectral_ari(X, y, gamma=1.0, random_state=0), 2)
    0.7...
    """
    y = np.asarray(y)
    n_clusters = len(np.unique(y)) if n_clusters is None else int(n_clusters)
    affinity = rbf_kernel(np.asarray(embedding, dtype=np.float64), gamma=float(gamma))
    try:
        with warnings.catch_warnings():
            # k-means on degenerate maps (extreme gamma) may find fewer distinct
            # clusters; the ARI shows that, a warning per gamma adds nothing.
            warnings.filterwarnings("ignore", message=".*distinct clusters.*")
            labels = spectral_clustering_labels(affinity, n_clusters, random_state)
    except (np.linalg.LinAlgError, ValueError) as exc:
        logger.warning("spectral clustering failed at gamma=%g: %s", gamma, exc)
        return float("nan")
    return float(adjusted_rand_score(y, labels))


def spectral_ari_sweep(embedding, y, *, gammas=GAMMA_GRID, standardize=False, n_clusters=None,
                       random_state=None):
    """ARI of spectral clustering for every gamma of ``gammas``.

    Parameters
    ----------
    embedding, y
        As in :func:`spectral_ari`.
    gammas : sequence of float, default=1e-6 ... 1e1
        RBF kernel coefficients, one clustering each.
    standardize : bool, default=False
        Scale coordinates to unit variance first (the authors' clustering
        script does not; the wide gamma range absorbs the embeddings' scales).
    n_clusters, random_state
        As in :func:`spectral_ari`.

    Returns
    -------
    ari : ndarray of shape (len(gammas),)

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from lowdim.evaluate.clustering import spectral_ari_sweep
    >>> X, y = make_blobs(150, n_features=2, centers=3, random_state=0)
    >>> spectral_ari_sweep(X, y, gammas=[1e-4, 1.0], random_state=0).round(2)
    array([0.7..., 0.7...])
    """
    embedding = np.asarray(embedding, dtype=np.float64)
    if standardize:
        embedding = StandardScaler().fit_transform(embedding)
    return np.array([spectral_ari(embedding, y, g, n_clusters=n_clusters,
                                  random_state=random_state) for g in gammas])
