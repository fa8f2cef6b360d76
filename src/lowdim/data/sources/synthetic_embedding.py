"""Synthetic labelled data for the Vec2vec experiments (timing sweeps, tests).

- ``gaussian_blobs``: dense Gaussian clusters with known labels; the number of
  points sweep of Figure 3(a) ("digits-like": 64 features, 10 classes).
- ``sparse_blobs``: the same kind of clusters drawn in a small latent space and
  lifted to ``n_features`` sparse dimensions by a sparse random sign embedding
  (each latent coordinate is copied, with a random sign and weight
  ``1/sqrt(nnz_per_feature)``, into ``nnz_per_feature`` random columns). Inner
  products, hence cosines, are preserved up to column collisions, so the
  cluster structure is the same at every ``n_features``: the dimensionality
  sweep of Figure 3(b) changes the cost of a method, not the problem. Each row
  has at most ``n_latent * nnz_per_feature`` non-zeros whatever the dimension.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..._validation import ArgumentValueError
from ..prepared import Dataset
from ..registry import DatasetSpec, register
from .synthetic import _int

__all__ = ["gaussian_blobs", "sparse_sign_lift", "sparse_blobs"]

_CENTER_BOX = (-10.0, 10.0)


def gaussian_blobs(n_samples, n_features, n_classes, cluster_std, random_state=None):
    """Isotropic Gaussian clusters, centres uniform in [-10, 10]^n_features.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), int64

    Examples
    --------
    >>> from lowdim.data.sources.synthetic_embedding import gaussian_blobs
    >>> X, y = gaussian_blobs(100, 5, n_classes=4, cluster_std=1.0, random_state=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((100, 5), [0, 1, 2, 3])
    """
    from sklearn.datasets import make_blobs  # lazily: see lowdim.data.text.tokenize

    X, y = make_blobs(n_samples=n_samples, n_features=n_features, centers=n_classes,
                      cluster_std=cluster_std, center_box=_CENTER_BOX, random_state=random_state)
    return X.astype(np.float64), y.astype(np.int64)


def sparse_sign_lift(n_latent, n_features, nnz_per_feature, random_state=None):
    """Sparse random sign embedding ``R`` of shape (n_latent, n_features).

    Row ``i`` has ``nnz_per_feature`` entries ``+-1/sqrt(nnz_per_feature)`` in
    distinct random columns, so ``R R^T`` has unit diagonal and
    ``x R . x' R ~= x . x'``.

    Examples
    --------
    >>> from lowdim.data.sources.synthetic_embedding import sparse_sign_lift
    >>> R = sparse_sign_lift(5, 1000, nnz_per_feature=4, random_state=0)
    >>> R.shape, np.allclose((R @ R.T).diagonal(), 1.0)
    ((5, 1000), True)
    """
    if nnz_per_feature > n_features:
        raise ArgumentValueError(f"`nnz_per_feature` must be <= n_features = {n_features}, got "
                                 f"{nnz_per_feature}", "nnz_per_feature")
    from sklearn.utils import check_random_state

    rng = check_random_state(random_state)
    cols = np.concatenate([rng.choice(n_features, nnz_per_feature, replace=False)
                           for _ in range(n_latent)])
    signs = rng.choice([-1.0, 1.0], size=cols.size) / np.sqrt(nnz_per_feature)
    rows = np.repeat(np.arange(n_latent), nnz_per_feature)
    return sp.csr_matrix((signs, (rows, cols)), shape=(n_latent, n_features))


def sparse_blobs(n_samples, n_features, n_latent, n_classes, cluster_std, nnz_per_feature,
                 random_state=None):
    """Gaussian clusters in ``n_latent`` dimensions lifted sparsely to ``n_features``.

    The latent points depend only on (n_samples, n_latent, n_classes,
    cluster_std, random_state), not on ``n_features``.

    Returns
    -------
    X : csr_matrix of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), int64

    Examples
    --------
    >>> from lowdim.data.sources.synthetic_embedding import sparse_blobs
    >>> X, y = sparse_blobs(100, 10_000, n_latent=8, n_classes=3, cluster_std=1.0,
    ...                     nnz_per_feature=4, random_state=0)
    >>> X.shape, X.format, X.nnz <= 100 * 8 * 4
    ((100, 10000), 'csr', True)
    """
    from sklearn.utils import check_random_state

    rng = check_random_state(random_state)
    latent_seed, lift_seed = rng.randint(0, 2**31 - 1, size=2)
    Z, y = gaussian_blobs(n_samples, n_latent, n_classes, cluster_std, random_state=latent_seed)
    R = sparse_sign_lift(n_latent, n_features, nnz_per_feature, random_state=lift_seed)
    X = (sp.csr_matrix(Z) @ R).tocsr()
    X.eliminate_zeros()
    return X, y


def _blobs(raw_files, *, n_samples, n_features, n_classes, cluster_std, seed):
    X, y = gaussian_blobs(n_samples, n_features, n_classes, cluster_std, random_state=seed)
    return Dataset(name="gaussian_blobs", kind="dense", X=X, y=y,
                   label_names=np.array([str(c) for c in range(n_classes)]),
                   meta={"y": "generating cluster"})


def _sparse_blobs(raw_files, *, n_samples, n_features, n_latent, n_classes, cluster_std,
                  nnz_per_feature, seed):
    X, y = sparse_blobs(n_samples, n_features, n_latent, n_classes, cluster_std,
                        nnz_per_feature, random_state=seed)
    return Dataset(name="sparse_blobs", kind="sparse", X=X, y=y,
                   label_names=np.array([str(c) for c in range(n_classes)]),
                   meta={"y": "generating cluster"})


def _std(default):
    return {"type": "number", "exclusiveMinimum": 0, "default": default,
            "description": "standard deviation of each cluster (centres in [-10, 10]^d)"}


register(DatasetSpec(
    name="gaussian_blobs", kind="dense", parser=_blobs,
    description="Gaussian clusters with known labels (digits-like: 64 features, 10 classes)",
    source="lowdim synthetic generator gaussian_blobs (scikit-learn make_blobs)",
    licence="generated (no licence needed)",
    options_schema={
        "n_samples": _int(2000, description="rows"),
        "n_features": _int(64, description="dimensions"),
        "n_classes": _int(10, description="clusters (labels)"),
        "cluster_std": _std(12.0),
        "seed": _int(0, minimum=0, description="generator seed"),
    },
    sizes=lambda o: {"n": o["n_samples"], "p": o["n_features"]}))

register(DatasetSpec(
    name="sparse_blobs", kind="sparse", parser=_sparse_blobs,
    description="Gaussian clusters lifted to many sparse dimensions by a sparse sign embedding",
    source="lowdim synthetic generator sparse_blobs", licence="generated (no licence needed)",
    options_schema={
        "n_samples": _int(2000, description="rows"),
        "n_features": _int(100000, description="dimensions D of the sparse lift"),
        "n_latent": _int(64, description="dimensions of the latent clusters"),
        "n_classes": _int(10, description="clusters (labels)"),
        "cluster_std": _std(12.0),
        "nnz_per_feature": _int(4, description="columns each latent coordinate is copied to"),
        "seed": _int(0, minimum=0, description="generator seed"),
    },
    sizes=lambda o: {"n": o["n_samples"], "p": o["n_features"]}))
