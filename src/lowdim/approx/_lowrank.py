"""The factored result every approximation method returns."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.linalg

from .._validation import ArgumentValueError

__all__ = ["LowRankApprox"]


@dataclass(eq=False)
class LowRankApprox:
    """A low-rank approximation ``K~ = left @ core @ right`` of an ``n x n`` matrix.

    Parameters
    ----------
    left : ndarray of shape (n, k)
        Sampled columns ``K[:, S]`` (Nyström, CUR) or eigenvectors (optimal).
    core : ndarray of shape (k, l)
        The joining matrix, e.g. ``pinv(K[S, S] - shift * I)``.
    right : ndarray of shape (l, n)
        Sampled rows ``K[R, :]``; for the Nyström family ``left.T``.
    evaluations : int
        Similarity evaluations this approximation needed (distinct entries of
        ``K`` the oracle computed for it).
    landmarks : ndarray of int
        Sampled column indices ``S`` (``S1`` for SMS-Nyström; empty for
        ``optimal``).
    method : str
        Name of the method that built it.
    symmetric : bool
        True when ``right is left.T`` and ``core`` is symmetric, so ``K~`` is
        symmetric.
    info : dict
        Method details: sampled rows, shift, the tolerance of the
        pseudo-inverse and the rank it kept, ...

    Examples
    --------
    >>> from lowdim.approx import nystrom
    >>> X = rng.standard_normal((50, 3))
    >>> approx = nystrom(X @ X.T, 5, random_state=0)
    >>> approx.shape, approx.left.shape, approx.core.shape, approx.evaluations
    ((50, 50), (50, 5), (5, 5), 240)
    >>> np.allclose(approx.to_dense(), X @ X.T)
    True
    >>> approx.features().shape
    (50, 5)
    """

    left: np.ndarray
    core: np.ndarray
    right: np.ndarray
    evaluations: int
    landmarks: np.ndarray
    method: str = ""
    symmetric: bool = False
    info: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        """Number of rows (and columns) of the approximated matrix."""
        return self.left.shape[0]

    @property
    def shape(self) -> tuple[int, int]:
        """``(n, n)``."""
        return (self.left.shape[0], self.right.shape[1])

    def rows(self, index) -> np.ndarray:
        """Rows ``K~[index, :]`` without forming the whole matrix.

        Parameters
        ----------
        index : array-like of int
            Rows wanted.

        Returns
        -------
        rows : ndarray of shape (len(index), n)
            ``left[index] @ core @ right``.
        """
        return (self.left[index] @ self.core) @ self.right

    def to_dense(self) -> np.ndarray:
        """The full ``n x n`` approximation (``O(n^2)`` memory).

        Returns
        -------
        K_approx : ndarray of shape (n, n)
            ``left @ core @ right``.
        """
        return (self.left @ self.core) @ self.right

    def features(self, negative="clip") -> np.ndarray:
        """Feature vectors ``Z`` of the items of the approximation.

        For a symmetric approximation (the Nyström family) ``Z = left @ M^{1/2}``
        with ``M`` the core after ``negative`` (its negative eigenvalues dropped,
        or replaced by their magnitude), so ``Z Z^T = K[:, S1] M K[S1, :]``.
        That is ``K~`` when the core is PSD, as SMS-Nyström's is (``alpha >= 1``):
        then ``Z = K[:, S1] (K[S1, S1] - shift I)^{-1/2}``, the feature map the
        SMS-Nyström paper feeds to a linear SVM. With an indefinite core
        (classic Nyström on an indefinite ``K``) it is *not* the positive part
        of ``K~``. For a non-symmetric approximation (CUR) ``Z`` factors the
        symmetric part exactly: ``Z Z^T = ((K~ + K~^T) / 2)_+`` (``"clip"``) or
        ``|(K~ + K~^T) / 2|`` (``"abs"``).

        Parameters
        ----------
        negative : {"clip", "abs"}, default="clip"
            What to do with negative eigenvalues of the core (or of the
            symmetric part): drop them or keep their magnitude.

        Returns
        -------
        Z : ndarray of shape (n, r)
        """
        if negative not in ("clip", "abs"):
            raise ArgumentValueError(f"`negative` must be 'clip' or 'abs', got {negative!r}",
                                     "negative")
        if self.symmetric:
            basis, middle = self.left, (self.core + self.core.T) / 2.0
        else:
            basis, middle = _symmetric_part(self.left, self.core, self.right)
        mu, V = scipy.linalg.eigh(middle)
        mu = np.maximum(mu, 0.0) if negative == "clip" else np.abs(mu)
        root = (V * np.sqrt(mu)) @ V.T  # symmetric square root of the middle factor
        return basis @ root


def _symmetric_part(left, core, right):
    """Return ``(Q, M)`` with ``Q M Q.T = (L C R + (L C R).T) / 2`` and orthonormal ``Q``."""
    k = left.shape[1]
    Q, T = np.linalg.qr(np.hstack([left, right.T]))
    block = np.zeros((T.shape[1], T.shape[1]))
    block[:k, k:] = core / 2.0
    block[k:, :k] = core.T / 2.0
    return Q, T @ block @ T.T
