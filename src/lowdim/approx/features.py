"""Feature vectors from a low-rank approximation, for items in it and for new ones.

A linear classifier on features ``Z`` is a kernel machine on ``Z Z^T``. Every
map here is a fixed linear map of an item's similarities to a few sampled
items:

.. math::

    z(x) = W^\\top k_J(x), \\qquad k_J(x) = (K(x, j))_{j \\in J},

so an item outside the approximated matrix (a test document) gets its
features from ``|J|`` similarity evaluations, exactly like the items inside.
What ``Z Z^T`` is on the approximated items depends on the method:

- Nyström family (:func:`~lowdim.approx.nystrom`, :func:`~lowdim.approx.sms_nystrom`,
  :func:`~lowdim.approx.shifted_nystrom_exact`): ``J = S1`` and ``W`` a square
  root of the positive part of the core ``M = pinv(K[S1, S1] - shift I)``, so
  ``Z Z^T = K[:, S1] M_+ K[S1, :]``. That is ``K~`` itself when the core is PSD
  (SMS-Nyström with ``alpha >= 1``, the exact shift, classic Nyström on a PSD
  ``K``), and then ``W = (K[S1, S1] - shift I)^{-1/2}``, the map the
  SMS-Nyström paper feeds to a linear SVM. It is *not* the positive part of
  ``K~`` when the core is indefinite (classic Nyström on an indefinite ``K``):
  dropping the core's negative eigenvalues is not the same as dropping
  ``K~``'s.
- CUR (:func:`feature_map` of :func:`~lowdim.approx.sicur` or
  :func:`~lowdim.approx.stacur`): ``J`` the sampled columns and rows, and
  ``Z Z^T = ((K~ + K~^T) / 2)_+`` exactly, the positive part of the symmetric
  part of ``K~``.
- SiCUR as in the authors' classification code (:func:`sicur_feature_map`):
  ``J = C`` (``s // 2`` columns) and ``W = V Sigma^{-1/2}`` from the SVD
  ``K[R, C] = U Sigma V^T``, so
  ``Z Z^T = K[:, C] (K[R, C]^T K[R, C])^{-1/2} K[C, :]``, a PSD kernel from the
  same samples that is not a factor of ``K~``.
- Optimal (:func:`eigen_feature_map`): ``J`` all items and
  ``W = V_k Lambda_k^{-1/2}`` over the top eigenpairs of ``K`` with
  ``lambda > 0``, so ``Z = V_k Lambda_k^{1/2}`` (the Nyström extension of the
  eigenvectors) and ``Z Z^T`` the positive ones of the ``k`` eigenpairs of
  largest ``|lambda|``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
from sklearn.utils import check_random_state

from .._validation import ArgumentTypeError, ArgumentValueError, check_matrix, check_number
from ._linalg import as_oracle, check_rtol, check_sample_size, default_rtol
from ._lowrank import LowRankApprox
from .cur import sicur_samples

__all__ = ["FeatureMap", "eigen_feature_map", "feature_map", "sicur_feature_map"]

#: Methods whose approximation is ``K[:, S] core K[S, :]`` with a symmetric core.
NYSTROM_FAMILY = ("nystrom", "sms_nystrom", "sms_nystrom_rescale", "shifted_nystrom_exact")
#: CUR methods, whose approximation :func:`feature_map` symmetrises.
CUR_METHODS = ("sicur", "stacur", "stacur_independent")
#: Largest ``max |B - B^T| / max |B|`` of a sampled block ``B`` of a CUR approximation that
#: :func:`feature_map` takes for symmetric (:class:`~lowdim.similarity.DenseOracle`'s rule).
SYMMETRY_RTOL = 1e-10


@dataclass(eq=False)
class FeatureMap:
    """``z(x) = K(x, columns) @ weights``: features from similarities to sampled items.

    Parameters
    ----------
    columns : ndarray of int of shape (m,)
        Items (indices into the approximated matrix) whose similarities to an
        item define its features.
    weights : ndarray of shape (m, r)
        ``W``: the features of ``x`` are its similarities to ``columns`` times ``W``.
    method : str
        The approximation the map comes from.
    info : dict
        Details: the rank kept, eigenvalues dropped.

    Examples
    --------
    >>> from lowdim.approx.features import FeatureMap
    >>> fmap = FeatureMap(columns=np.array([0, 2]), weights=np.eye(2))
    >>> fmap.n_features
    2
    >>> fmap.transform(np.array([[1.0, 0.5], [0.2, 0.3]]))
    array([[1. , 0.5],
           [0.2, 0.3]])
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
            raise ArgumentValueError(f"`similarities` must have shape (q, {self.columns.size}), "
                                     f"got {similarities.shape}", "similarities")
        return similarities @ self.weights


def _positive_root_weights(middle, rtol):
    """``V_+ sqrt(mu_+)`` of a symmetric matrix: a factor ``F`` with ``F F^T = middle_+``."""
    mu, V = scipy.linalg.eigh((middle + middle.T) / 2.0)
    keep = mu > rtol * max(np.abs(mu).max(initial=0.0), 1e-300)
    return V[:, keep] * np.sqrt(mu[keep]), int(np.sum(~keep))


def _require_symmetric_samples(approx):
    """Refuse a CUR approximation whose sampled principal blocks show ``K`` is not symmetric.

    CUR features read ``K[:, rows]`` as ``K[rows, :]^T``. A LowRankApprox does not record
    whether its oracle was symmetric (its ``symmetric`` is about ``K~``, False for CUR), so
    the blocks ``K[rows, rows]`` and ``K[cols, cols]`` it holds stand in for ``K``.
    """
    cols = np.asarray(approx.landmarks, dtype=np.int64)
    rows = np.asarray(approx.info["rows"], dtype=np.int64)
    for label, block in (("K[rows, rows]", approx.right[:, rows]),
                         ("K[cols, cols]", approx.left[cols])):
        scale = float(np.abs(block).max(initial=0.0))
        gap = float(np.abs(block - block.T).max(initial=0.0))
        if gap > SYMMETRY_RTOL * max(scale, 1e-300):
            raise ArgumentValueError(
                f"`approx` must approximate a symmetric matrix: its sampled block {label} "
                f"differs from its transpose by {gap:.3g} (largest entry {scale:.3g}), and CUR "
                "features read K[:, rows] as K[rows, :]^T; symmetrise the oracle first "
                "(e.g. DenseOracle(K, symmetrize=True))", "approx")


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
        On the approximated items ``Z = K[:, columns] @ weights`` has Gram
        matrix ``K[:, S1] M_+ K[S1, :]`` for the Nyström family (``M`` the core;
        ``K~`` itself when ``M`` is PSD) and ``((K~ + K~^T) / 2)_+`` for CUR
        (see the module docstring).

    Raises
    ------
    ValueError
        ``approx`` comes from another method, or is a CUR approximation whose
        sampled blocks ``K[rows, rows]`` or ``K[cols, cols]`` are not symmetric
        (to ``SYMMETRY_RTOL`` of their largest entry): its features would not
        factor ``((K~ + K~^T) / 2)_+``. The Nyström family refuses a
        non-symmetric oracle itself. A non-symmetric ``K`` whose sampled blocks
        happen to be symmetric cannot be told apart from the approximation.

    Examples
    --------
    >>> from lowdim.approx import sms_nystrom
    >>> from lowdim.approx.features import feature_map
    >>> X = rng.standard_normal((30, 3))
    >>> K = X @ X.T
    >>> fmap = feature_map(sms_nystrom(K, 6, random_state=0))
    >>> Z = fmap.transform(K[:, fmap.columns])
    >>> Z.shape
    (30, 3)
    >>> bool(np.linalg.norm(Z @ Z.T - K) / np.linalg.norm(K) < 0.1)
    True
    """
    if not isinstance(approx, LowRankApprox):
        raise ArgumentTypeError(f"`approx` must be a LowRankApprox, got {type(approx).__name__}",
                                "approx")
    rtol = check_rtol(rtol)
    if approx.method in NYSTROM_FAMILY:
        core = approx.core
        W, dropped = _positive_root_weights(core, default_rtol(core.shape) if rtol is None
                                            else rtol)
        return FeatureMap(np.asarray(approx.landmarks, dtype=np.int64), W, approx.method,
                          {"rank": W.shape[1], "dropped_eigenvalues": dropped})
    if approx.method in CUR_METHODS:
        _require_symmetric_samples(approx)
        J, G, B = _cur_columns(approx)
        U, sv, Vt = scipy.linalg.svd(G, full_matrices=False)
        tol = default_rtol(G.shape) if rtol is None else rtol
        keep = sv > tol * sv.max(initial=0.0)
        to_basis = Vt[keep].T / sv[keep]  # G @ to_basis = U[:, keep]
        middle = (sv[keep, None] * Vt[keep]) @ B @ (Vt[keep].T * sv[keep])
        root, dropped = _positive_root_weights(middle, tol)
        return FeatureMap(J, to_basis @ root, approx.method,
                          {"rank": root.shape[1], "dropped_eigenvalues": dropped})
    raise ArgumentValueError(f"`approx` comes from {approx.method!r}; feature_map handles "
                             f"{list(NYSTROM_FAMILY + CUR_METHODS)} (use eigen_feature_map for "
                             "the optimal rank-k features)", "approx")


def sicur_feature_map(oracle, s, random_state=None, *, rtol=None) -> FeatureMap:
    """SiCUR features as in the authors' classification code: ``K[:, C] V Sigma^{-1/2}``.

    Draws SiCUR's rows ``R`` and columns ``C ⊂ R`` (the same draws as
    :func:`~lowdim.approx.sicur` with this ``random_state``), evaluates only
    ``K[:, C]`` (which holds ``K[R, C]``) and takes the SVD
    ``K[R, C] = U Sigma V^T``:

    .. math::

        Z = K_{:, C}\\, V \\Sigma^{-1/2}, \\qquad
        Z Z^\\top = K_{:, C}\\, (K_{R, C}^\\top K_{R, C})^{-1/2}\\, K_{C, :}.

    So there are ``s // 2`` features and a new item needs ``s // 2``
    similarities. This follows ``get_feat(..., "CUR_alt")`` in the authors'
    ``matrix_approximations/wme_appx.py``, with two differences: the authors
    multiply by ``vh`` (``V^T`` in NumPy's SVD), which we take for a slip for
    ``V``, and they overwrite ``K[R, C]``'s leading diagonal with
    ``K[c, c] + 1e-3`` against singularity, where we drop singular values at
    most ``rtol`` times the largest instead.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
        A symmetric oracle (``K[C, :]`` is read as ``K[:, C]^T``).
    s : int
        SiCUR's row sample size, ``2 <= s < n``.
    random_state : int, RandomState or None
        Seeds SiCUR's draws.
    rtol : float, optional
        Singular values of ``K[R, C]`` at most ``rtol * max`` are dropped;
        default ``max(shape) * eps``.

    Returns
    -------
    FeatureMap
        ``columns = C``; ``info`` holds ``rows`` (``R``), ``rank`` and
        ``evaluations`` (distinct entries of ``K`` read, counted by the oracle).

    Examples
    --------
    >>> from lowdim.approx.features import sicur_feature_map
    >>> X = rng.standard_normal((30, 3))
    >>> fmap = sicur_feature_map(X @ X.T, 8, random_state=0)
    >>> fmap.columns.size, fmap.n_features
    (4, 3)
    """
    oracle = as_oracle(oracle)
    n = oracle.n
    s = check_sample_size(s, n, minimum=2)
    rtol = check_rtol(rtol)
    R, C = sicur_samples(check_random_state(random_state), n, s)
    start = oracle.evaluations
    KC = oracle(np.arange(n), C)
    W = KC[R]
    _, sv, Vt = scipy.linalg.svd(W, full_matrices=False)
    tol = default_rtol(W.shape) if rtol is None else float(rtol)
    keep = sv > tol * sv.max(initial=0.0)
    weights = Vt[keep].T / np.sqrt(sv[keep])
    return FeatureMap(C, weights, "sicur",
                      {"rows": R, "rank": int(keep.sum()),
                       "dropped_singular_values": int((~keep).sum()),
                       "evaluations": oracle.evaluations - start})


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
        The whole matrix.
    rank : int
        ``1 <= rank <= n``.
    eigenpairs : tuple (w, V), optional
        ``scipy.linalg.eigh(K)``, to reuse across ranks.

    Returns
    -------
    FeatureMap
        ``columns = arange(n)``.

    Examples
    --------
    >>> from lowdim.approx.features import eigen_feature_map
    >>> X = rng.standard_normal((30, 3))
    >>> K = X @ X.T
    >>> fmap = eigen_feature_map(K, rank=3)
    >>> Z = fmap.transform(K[:, fmap.columns])
    >>> Z.shape, np.allclose(Z @ Z.T, K)
    ((30, 3), True)
    """
    K = check_matrix(K, "K", square=True, accept_sparse=False)
    n = K.shape[0]
    check_number(rank, "rank", integer=True)
    if not 1 <= rank <= n:
        raise ArgumentValueError(f"`rank` must be an integer in [1, n = {n}], got {rank!r}",
                                 "rank")
    w, V = scipy.linalg.eigh((K + K.T) / 2.0) if eigenpairs is None else eigenpairs
    top = np.argsort(-np.abs(w), kind="stable")[:rank]
    positive = top[w[top] > default_rtol(K.shape) * np.abs(w).max(initial=0.0)]
    positive = np.sort(positive)[::-1]
    W = V[:, positive] / np.sqrt(w[positive])
    return FeatureMap(np.arange(n, dtype=np.int64), W, "optimal",
                      {"rank": int(positive.size), "dropped_eigenvalues": int(rank - positive.size)})
