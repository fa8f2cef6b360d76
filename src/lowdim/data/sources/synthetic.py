"""Synthetic datasets with known ground truth.

- ``planted_cca``: dense two-view data whose population canonical correlations
  are planted exactly (AppGrad experiments; PCC against a known truth).
- ``sparse_two_view``: sparse, high-dimensional binary two-view data shaped like
  URL Reputation (millions of features, tens of non-zeros per row), with a
  latent factor shared by both views.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from ..prepared import Dataset
from ..registry import DatasetSpec, register

__all__ = ["planted_two_view", "sparse_two_view"]


def planted_two_view(n, p1, p2, correlations, condition=100.0, random_state=None):
    """Two Gaussian views whose population canonical correlations are ``correlations``.

    Whitened coordinates ``a ~ N(0, I_p1)`` and ``b ~ N(0, I_p2)`` are drawn with
    ``cov(a_i, b_i) = rho_i`` for ``i < k`` and no other cross-covariance; the
    views are ``X = a M_x^T`` and ``Y = b M_y^T`` with random invertible mixing
    matrices whose covariance has condition number ``condition``. Mixing changes
    neither the canonical correlations nor the canonical subspace's
    correlations, only how hard whitening is.

    Parameters
    ----------
    n, p1, p2 : int
    correlations : array-like of shape (k,)
        Planted correlations in (0, 1), k <= min(p1, p2).
    condition : float, default=100.0
        Condition number of each view's covariance (>= 1).
    random_state : int, RandomState or None

    Returns
    -------
    X : ndarray of shape (n, p1)
    Y : ndarray of shape (n, p2)
    correlations : ndarray of shape (k,)
        Sorted in decreasing order.
    """
    rho = np.sort(np.asarray(correlations, dtype=float))[::-1]
    k = rho.size
    if k > min(p1, p2):
        raise ValueError(f"`correlations` has {k} entries; at most min(p1, p2) = "
                         f"{min(p1, p2)} can be planted")
    if k and (rho.max() >= 1 or rho.min() <= 0):
        raise ValueError(f"`correlations` must lie in (0, 1), got range "
                         f"[{rho.min()}, {rho.max()}]")
    if condition < 1:
        raise ValueError(f"`condition` must be >= 1, got {condition}")
    rng = check_random_state(random_state)
    a = rng.standard_normal((n, p1))
    b = rng.standard_normal((n, p2))
    b[:, :k] = rho * a[:, :k] + np.sqrt(1.0 - rho**2) * b[:, :k]
    X = a @ _mixing(p1, condition, rng).T
    Y = b @ _mixing(p2, condition, rng).T
    return X, Y, rho


def _mixing(p, condition, rng):
    """Random Q diag(s) with s**2 log-spaced over [1/condition, 1]."""
    q, _ = np.linalg.qr(rng.standard_normal((p, p)))
    scales = np.sqrt(np.logspace(0.0, -np.log10(condition), p))
    return q * scales


def sparse_two_view(n, p1, p2, n_factors=200, signal_nnz=10, noise_nnz=20,
                    block=500, random_state=None):
    """Sparse binary two-view data sharing one latent factor per row.

    Each row draws a factor ``c`` (``y``). In each view it switches on
    ``signal_nnz`` features drawn (Zipf-like) from factor ``c``'s own block of
    ``block`` features, plus ``noise_nnz`` features uniform over the view. The
    shared factor makes the views correlated; ``y`` is the ground truth.

    Returns
    -------
    X : csr_matrix of shape (n, p1), float64 with values in {0, 1}
    Y : csr_matrix of shape (n, p2)
    y : ndarray of shape (n,), int64
    """
    rng = check_random_state(random_state)
    y = rng.randint(n_factors, size=n).astype(np.int64)
    X = _sparse_view(y, p1, n_factors, signal_nnz, noise_nnz, block, rng)
    Y = _sparse_view(y, p2, n_factors, signal_nnz, noise_nnz, block, rng)
    return X, Y, y


def _sparse_view(y, p, n_factors, signal_nnz, noise_nnz, block, rng):
    n = y.size
    block = min(block, p)
    # Each factor owns a random block of features; within it, Zipf-like popularity.
    owners = np.stack([rng.choice(p, size=block, replace=False) for _ in range(n_factors)])
    weights = 1.0 / np.arange(1, block + 1)
    picks = rng.choice(block, size=(n, signal_nnz), p=weights / weights.sum())
    signal = owners[y[:, None], picks]
    noise = rng.randint(p, size=(n, noise_nnz))
    cols = np.concatenate([signal, noise], axis=1).ravel()
    rows = np.repeat(np.arange(n), signal_nnz + noise_nnz)
    view = sp.csr_matrix((np.ones(cols.size), (rows, cols)), shape=(n, p))
    view.sum_duplicates()
    view.data[:] = 1.0  # binary features, as in URL Reputation
    return view


def _planted(raw_files, *, n, p1, p2, n_planted, max_correlation, min_correlation,
             condition, seed):
    rho = np.linspace(max_correlation, min_correlation, n_planted)
    X, Y, rho = planted_two_view(n, p1, p2, rho, condition=condition, random_state=seed)
    return Dataset(name="planted_cca", kind="two_view", X=X, Y=Y,
                   extra={"true_correlations": rho},
                   meta={"true_correlations": "extra.true_correlations (population values)"})


def _sparse(raw_files, *, n, p1, p2, n_factors, signal_nnz, noise_nnz, block, seed):
    X, Y, y = sparse_two_view(n, p1, p2, n_factors, signal_nnz, noise_nnz, block,
                              random_state=seed)
    return Dataset(name="sparse_two_view", kind="two_view", X=X, Y=Y, y=y,
                   meta={"y": "latent factor shared by both views"})


def _int(default, minimum=1, description=""):
    return {"type": "integer", "minimum": minimum, "default": default, "description": description}


def _num(default, minimum=0.0, maximum=None, description=""):
    prop = {"type": "number", "minimum": minimum, "default": default, "description": description}
    if maximum is not None:
        prop["maximum"] = maximum
    return prop


register(DatasetSpec(
    name="planted_cca", kind="two_view", parser=_planted,
    description="Gaussian two-view data with planted canonical correlations",
    source="lowdim synthetic generator planted_two_view", licence="generated (no licence needed)",
    options_schema={
        "n": _int(50000, description="rows"),
        "p1": _int(500, description="features of view X"),
        "p2": _int(500, description="features of view Y"),
        "n_planted": _int(40, minimum=0, description="number of non-zero canonical correlations"),
        "max_correlation": _num(0.95, maximum=0.999, description="largest planted correlation"),
        "min_correlation": _num(0.05, maximum=0.999, description="smallest planted correlation"),
        "condition": _num(100.0, minimum=1.0, description="condition number of each view's "
                                                          "covariance"),
        "seed": _int(0, minimum=0, description="generator seed"),
    }))

register(DatasetSpec(
    name="sparse_two_view", kind="two_view", parser=_sparse,
    description="sparse binary two-view data shaped like URL Reputation",
    source="lowdim synthetic generator sparse_two_view", licence="generated (no licence needed)",
    options_schema={
        "n": _int(200000, description="rows"),
        "p1": _int(100000, description="features of view X"),
        "p2": _int(100000, description="features of view Y"),
        "n_factors": _int(200, description="latent factors shared by the views"),
        "signal_nnz": _int(10, minimum=0, description="features per row from the row's factor"),
        "noise_nnz": _int(20, minimum=0, description="uniform noise features per row"),
        "block": _int(500, description="features owned by each factor"),
        "seed": _int(0, minimum=0, description="generator seed"),
    }))
