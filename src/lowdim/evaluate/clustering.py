"""Spectral clustering of an embedding scored by ARI (Table 3 of the Vec2vec paper).

Spectral clustering with an RBF affinity ``exp(-gamma ||z_i - z_j||^2)`` and as
many clusters as classes; the paper sweeps gamma from 1e-6 to 1e1 and reports
the adjusted Rand index against the class labels.
"""

from __future__ import annotations

import logging
import warnings

import numpy as np
from sklearn.cluster import SpectralClustering
from sklearn.metrics import adjusted_rand_score
from sklearn.preprocessing import StandardScaler

__all__ = ["GAMMA_GRID", "spectral_ari", "spectral_ari_sweep"]

logger = logging.getLogger("lowdim")

#: The paper's gamma range, one value per decade: 1e-6, 1e-5, ..., 1e1.
GAMMA_GRID = tuple(10.0 ** e for e in range(-6, 2))


def spectral_ari(embedding, y, gamma, *, n_clusters=None, random_state=None, n_jobs=None):
    """ARI of RBF spectral clustering of ``embedding`` against ``y``.

    Parameters
    ----------
    embedding : ndarray of shape (n_samples, n_components)
    y : ndarray of shape (n_samples,)
    gamma : float
        RBF kernel coefficient, in 1 / (embedding units)^2.
    n_clusters : int or None
        None: the number of classes in ``y``.
    random_state : int or None
        Seeds the eigensolver start and k-means label assignment.
    n_jobs : int or None

    Returns
    -------
    ari : float
        In [-1, 1]; NaN when the eigensolver fails (logged).
    """
    y = np.asarray(y)
    n_clusters = len(np.unique(y)) if n_clusters is None else int(n_clusters)
    model = SpectralClustering(n_clusters=n_clusters, affinity="rbf", gamma=float(gamma),
                               random_state=random_state, n_jobs=n_jobs)
    try:
        with warnings.catch_warnings():
            # A tiny or huge gamma gives a (nearly) disconnected affinity graph; the
            # ARI then shows the failure, a warning per gamma adds nothing.
            warnings.filterwarnings("ignore", message=".*not fully connected.*")
            labels = model.fit_predict(np.asarray(embedding, dtype=np.float64))
    except (np.linalg.LinAlgError, ValueError, RuntimeError) as exc:
        logger.warning("spectral clustering failed at gamma=%g: %s", gamma, exc)
        return float("nan")
    return float(adjusted_rand_score(y, labels))


def spectral_ari_sweep(embedding, y, *, gammas=GAMMA_GRID, standardize=False, n_clusters=None,
                       random_state=None, n_jobs=None):
    """ARI of spectral clustering for every gamma of ``gammas``.

    Parameters
    ----------
    embedding, y, n_clusters, random_state, n_jobs
        As in :func:`spectral_ari`.
    gammas : sequence of float, default=1e-6 ... 1e1
    standardize : bool, default=False
        Scale coordinates to unit variance first (the authors' clustering
        script does not; the wide gamma range absorbs the embeddings' scales).

    Returns
    -------
    ari : ndarray of shape (len(gammas),)
    """
    embedding = np.asarray(embedding, dtype=np.float64)
    if standardize:
        embedding = StandardScaler().fit_transform(embedding)
    return np.array([spectral_ari(embedding, y, g, n_clusters=n_clusters,
                                  random_state=random_state, n_jobs=n_jobs) for g in gammas])
