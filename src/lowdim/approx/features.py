"""Feature vectors from a low-rank approximation, for items in it and for new ones.

A linear classifier on features ``Z`` with ``Z Z^T = K~`` is a kernel machine
on the approximation ``K~``. Every approximation here yields features that
are a fixed linear map of an item's similarities to a few sampled items:

.. math::

    z(x) = W^\\top k_J(x), \\qquad k_J(x) = (K(x, j))_{j \\in J},

so an item outside the approximated matrix (a test document) gets its
features from ``|J|`` similarity evaluations, exactly like the items inside:

- Nyström family (:func:`~lowdim.approx.nystrom`, :func:`~lowdim.approx.sms_nystrom`):
  ``J = S1`` and ``W = (K[S1, S1] - shift I)^{-1/2}``, the map the
  SMS-Nyström paper feeds to a linear SVM (eigenvalues of the core that are
  not positive are dropped).
- CUR (:func:`~lowdim.approx.sicur`, :func:`~lowdim.approx.stacur`): ``J`` the
  sampled columns and rows; ``W`` factors the PSD part of the symmetric part
  ``(K~ + K~^T) / 2``, the factor :meth:`LowRankApprox.features` returns.
- Optimal (:func:`eigen_feature_map`): ``J`` all items and
  ``W = V_k Lambda_k^{-1/2}`` over the top eigenpairs of ``K``, so that
  ``Z = V_k Lambda_k^{1/2}`` (the Nyström extension of the eigenvectors).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.linalg

from .._validation import check_matrix, check_number
from ._linalg import check_rtol, default_rtol
from ._lowrank import LowRankApprox

__all__ = ["FeatureMap", "eigen_feature_map", "feature_map"]

#: Methods whose approximation is ``K[:, S] core K[S, :]`` with a symmetric core.
NYSTROM_FAMILY = ("nystrom", "sms_nystrom", "shifted_nystrom_exact")


@dataclass(eq=False)
class FeatureMap:
    """``z(x) = K(x, columns) @ weights``: features from similarities to sampled items.

    Parameters
    ----------
    columns : ndarray of int of shape (m,)
        Items (indices into the approximated matrix) whose similarities to an
        item define its features.
    weights : ndarray of shape (m, r)
    method : str
    info : dict
        Details: the rank kept, eigenvalues dropped.
    """

    columns: np.ndarray
    weights: np.ndarray
    method: str = ""
    info: dict = field(default_factory=dict)

    @property
    def n_features(self) -> int:
        """Dimension ``r`` of the feature vectors."""
        return self.weights.shape[1]

    def transform(self, similarities) -> np.ndarray:
        """Features of items from their similarities to ``columns``.

        Parameters
        ----------
        similarities : ndarray of shape (q, m)
            ``K(x_t, columns[j])`` for each item ``x_t``.

        Returns
        -------
        Z : ndarray of shape (q, r)
        """
        similarities = np.asarray(similarities, dtype=np.float64)
        if similarities.ndim != 2 or similarities.shape[1] != self.columns.size:
            raise ValueError(f"`similarities` must have shape (q, {self.columns.size}), got "
                             f"{similarities.shape}")
        return similarities @ self.weights


def _positive_root_weights(middle, rtol):
    """``V_+ sqrt(mu_+)`` of a symmetric matrix: a factor ``F`` with ``F F^T = middle_+``."""
    mu, V = scipy.linalg.eigh((middle + middle.T) / 2.0)
    keep = mu > rtol * max(np.abs(mu).max(initial=0.0), 1e-300)
    return V[:, keep] * np.sqrt(mu[keep]), int(np.sum(~keep))


def _cur_columns(approx):
    """The union ``J`` of sampled columns and rows and ``G = K[:, J]`` built from them."""
    cols = np.asarray(approx.landmarks, dtype=np.int64)
    rows = np.asarray(approx.info["rows"], dtype=np.int64)
    J = np.concatenate([cols, np.setdiff1d(rows, cols, assume_unique=False)])
    where = {int(j): t for t, j in enumerate(J)}
    G = np.empty((approx.n, J.size))
    G[:, [where[int(j)] for j in cols]] = approx.left
    G[:, [where[int(i)] for i in rows]] = approx.right.T  # K[:, rows] = K[rows, :]^T
    select_cols = np.zeros((J.size, cols.size))
    select_cols[[where[int(j)] for j in cols], np.arange(cols.size)] = 1.0
    select_rows = np.zeros((J.size, rows.size))
    select_rows[[where[int(i)] for i in rows], np.arange(rows.size)] = 1.0
    B = select_cols @ approx.core @ select_rows.T  # K~ = G B G^T
    return J, G, (B + B.T) / 2.0


def feature_map(approx, rtol=None) -> FeatureMap:
    """The feature map of a Nyström or CUR approximation of a symmetric matrix.

    Parameters
    ----------
    approx : LowRankApprox
        From :func:`~lowdim.approx.nystrom`, :func:`~lowdim.approx.sms_nystrom`,
        :func:`~lowdim.approx.shifted_nystrom_exact`, :func:`~lowdim.approx.sicur`
        or :func:`~lowdim.approx.stacur`, built on a symmetric matrix (CUR
        features read ``K[:, rows]`` as ``K[rows, :]^T``).
    rtol : float, optional
        Eigenvalues (and, for CUR, singular values of ``K[:, J]``) at most
        ``rtol`` times the largest are treated as zero; default
        ``max(shape) * eps``.

    Returns
    -------
    FeatureMap
        On the approximated items, ``K[:, columns] @ weights`` has Gram matrix
        ``K~_+``, the positive part of (the symmetric part of) ``K~``.
    """
    if not isinstance(approx, LowRankApprox):
        raise TypeError(f"`approx` must be a LowRankApprox, got {type(approx).__name__}")
    rtol = check_rtol(rtol)
    if approx.method in NYSTROM_FAMILY:
        core = approx.core
        W, dropped = _positive_root_weights(core, default_rtol(core.shape) if rtol is None
                                            else rtol)
        return FeatureMap(np.asarray(approx.landmarks, dtype=np.int64), W, approx.method,
                          {"rank": W.shape[1], "dropped_eigenvalues": dropped})
    if approx.method in ("sicur", "stacur"):
        J, G, B = _cur_columns(approx)
        U, sv, Vt = scipy.linalg.svd(G, full_matrices=False)
        tol = default_rtol(G.shape) if rtol is None else rtol
        keep = sv > tol * sv.max(initial=0.0)
        to_basis = Vt[keep].T / sv[keep]  # G @ to_basis = U[:, keep]
        middle = (sv[keep, None] * Vt[keep]) @ B @ (Vt[keep].T * sv[keep])
        root, dropped = _positive_root_weights(middle, tol)
        return FeatureMap(J, to_basis @ root, approx.method,
                          {"rank": root.shape[1], "dropped_eigenvalues": dropped})
    raise ValueError(f"`approx` comes from {approx.method!r}; feature_map handles "
                     f"{list(NYSTROM_FAMILY) + ['sicur', 'stacur']} (use eigen_feature_map "
                     f"for the optimal rank-k features)")


def eigen_feature_map(K, rank, eigenpairs=None) -> FeatureMap:
    """Rank-``k`` eigen-features of a whole symmetric matrix (the "Optimal" baseline).

    Keeps the ``rank`` eigenpairs of largest ``|lambda|`` (the best rank-k
    approximation of ``K``) and, of those, the positive ones:
    ``W = V_k Lambda_k^{-1/2}``, so the items' features are
    ``K @ W = V_k Lambda_k^{1/2}`` and, at full rank, their inner products are
    ``K_+`` (``K`` itself when ``K`` is PSD).

    Parameters
    ----------
    K : ndarray of shape (n, n), symmetric
    rank : int
        ``1 <= rank <= n``.
    eigenpairs : tuple (w, V), optional
        ``scipy.linalg.eigh(K)``, to reuse across ranks.

    Returns
    -------
    FeatureMap
        ``columns = arange(n)``.
    """
    K = check_matrix(K, "K", square=True, accept_sparse=False)
    n = K.shape[0]
    check_number(rank, "rank", integer=True)
    if not 1 <= rank <= n:
        raise ValueError(f"`rank` must be an integer in [1, n = {n}], got {rank!r}")
    w, V = scipy.linalg.eigh((K + K.T) / 2.0) if eigenpairs is None else eigenpairs
    top = np.argsort(-np.abs(w), kind="stable")[:rank]
    positive = top[w[top] > default_rtol(K.shape) * np.abs(w).max(initial=0.0)]
    positive = np.sort(positive)[::-1]
    W = V[:, positive] / np.sqrt(w[positive])
    return FeatureMap(np.arange(n, dtype=np.int64), W, "optimal",
                      {"rank": int(positive.size), "dropped_eigenvalues": int(rank - positive.size)})
