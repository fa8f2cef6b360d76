"""An oracle over a scikit-learn pairwise kernel, and the median heuristic for its width.

:class:`KernelOracle` serves ``K[i, j] = k(x_i, x_j)`` for the rows of a data
matrix, with the same lazy, cached, counted protocol as the expensive
similarities (WMD, the pairwise MLP), so the Nyström methods count kernel
evaluations exactly as they count any other similarity's. Each entry is
computed from its own pair of rows (a paired distance or inner product), so
no block beyond the one asked for is ever formed; dense and scipy.sparse rows
are both accepted.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import paired_euclidean_distances, paired_manhattan_distances
from sklearn.preprocessing import normalize
from sklearn.utils import check_random_state

from .._validation import ArgumentValueError, check_matrix
from ._oracle import SimilarityOracle

__all__ = ["KERNELS", "KernelOracle", "median_gamma", "MEDIAN_SAMPLE"]

#: Kernels served by :class:`KernelOracle`, as named by scikit-learn's ``pairwise_kernels``.
KERNELS = ("rbf", "laplacian", "linear", "poly", "sigmoid", "cosine")

#: Kernels with a width ``gamma``.
GAMMA_KERNELS = ("rbf", "laplacian", "poly", "sigmoid")

#: Rows of the seeded subsample on which :func:`median_gamma` takes its median.
MEDIAN_SAMPLE = 200


def _rowwise_dot(A, B):
    """``<a_t, b_t>`` for every row t of two matrices of one shape, dense or CSR."""
    if sp.issparse(A):
        return np.asarray(A.multiply(B).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", A, B)


def _paired_dot(X, i, j):
    """``<x_i[t], x_j[t]>`` for every t, dense or CSR rows."""
    return _rowwise_dot(X[i], X[j])


def _kernel_pairs(X, kernel, gamma, degree, coef0, i, j):
    """``k(x_i[t], x_j[t])`` for the kernels of :data:`KERNELS` (scikit-learn's formulas)."""
    if kernel == "rbf":
        return np.exp(-gamma * paired_euclidean_distances(X[i], X[j]) ** 2)
    if kernel == "laplacian":
        return np.exp(-gamma * paired_manhattan_distances(X[i], X[j]))
    if kernel == "cosine":
        # scikit-learn's cosine_similarity: the dot of the normalised rows, a zero row staying
        # zero, so any entry with a zero row is 0 (1 - cosine distance gives 0.5 or 1 there)
        return _rowwise_dot(normalize(X[i]), normalize(X[j]))
    dot = _paired_dot(X, i, j)
    if kernel == "linear":
        return dot
    if kernel == "poly":
        return (gamma * dot + coef0) ** degree
    return np.tanh(gamma * dot + coef0)  # sigmoid


def _check_kernel(kernel, gamma, degree, coef0):
    if kernel not in KERNELS:
        raise ArgumentValueError(f"`kernel` must be one of {list(KERNELS)}, got {kernel!r}",
                                 "kernel")
    if kernel in GAMMA_KERNELS and not (isinstance(gamma, (int, float, np.floating))
                                        and not isinstance(gamma, bool) and np.isfinite(gamma)
                                        and gamma > 0):
        raise ArgumentValueError(f"`gamma` must be a positive number for the {kernel!r} kernel, "
                                 f"got {gamma!r}", "gamma")
    if kernel == "poly" and (isinstance(degree, bool) or not isinstance(degree, (int, np.integer))
                             or degree < 1):
        raise ArgumentValueError(f"`degree` must be a positive integer, got {degree!r}", "degree")
    if kernel in ("poly", "sigmoid") and not np.isfinite(coef0):
        raise ArgumentValueError(f"`coef0` must be a finite number, got {coef0!r}", "coef0")


class KernelOracle(SimilarityOracle):
    """A scikit-learn pairwise kernel over the rows of ``X``, served as a similarity oracle.

    ``K[i, j] = k(x_i, x_j)`` with scikit-learn's definitions
    (:func:`sklearn.metrics.pairwise.pairwise_kernels`):

    - ``rbf``: ``exp(-gamma ||x - y||^2)``; ``laplacian``: ``exp(-gamma ||x - y||_1)``;
    - ``linear``: ``<x, y>``; ``poly``: ``(gamma <x, y> + coef0)^degree``;
      ``sigmoid``: ``tanh(gamma <x, y> + coef0)``; ``cosine``: ``<x, y> / (||x|| ||y||)``,
      and 0 when ``x`` or ``y`` is a zero row.

    ``rbf``, ``laplacian``, ``linear`` and ``cosine`` are PSD; ``sigmoid`` is
    not in general, and ``poly`` with ``coef0 < 0`` need not be.

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n, p)
        Items, one per row; sparse rows stay sparse.
    kernel : {"rbf", "laplacian", "linear", "poly", "sigmoid", "cosine"}, default="rbf"
        The kernel, with scikit-learn's formulas above.
    gamma : float, optional
        Width of ``rbf``, ``laplacian``, ``poly`` and ``sigmoid`` (required for
        them; see :func:`median_gamma`); ignored by the others.
    degree : int, default=3
        Degree of ``poly``.
    coef0 : float, default=1.0
        Constant of ``poly`` and ``sigmoid``.
    n_jobs, cache, chunk_size
        See :class:`~lowdim.similarity.SimilarityOracle`.

    Examples
    --------
    >>> oracle = KernelOracle(np.eye(3), "rbf", gamma=0.5)
    >>> oracle([0, 1], [0, 1]).round(3), oracle.evaluations
    (array([[1.   , 0.368],
           [0.368, 1.   ]]), 3)
    """

    def __init__(self, X, kernel="rbf", *, gamma=None, degree=3, coef0=1.0, n_jobs=1, cache=True,
                 chunk_size=8192):
        super().__init__(n_jobs=n_jobs, cache=cache, chunk_size=chunk_size)
        # the data first: a NaN in X is the error to report, whatever gamma says
        self.X = check_matrix(X, "X")
        _check_kernel(kernel, gamma, degree, coef0)
        self.kernel, self.gamma, self.degree, self.coef0 = kernel, gamma, degree, float(coef0)
        self._n = self.X.shape[0]

    def _pair_task(self):
        gamma = None if self.gamma is None else float(self.gamma)
        return _kernel_pairs, (self.X, self.kernel, gamma, self.degree, self.coef0)


def median_gamma(X, kernel="rbf", n_samples=MEDIAN_SAMPLE, random_state=None):
    """Width of a kernel from the median heuristic on a seeded subsample of rows.

    With ``m = min(n, n_samples)`` rows drawn without replacement and ``d`` the
    median over their ``m (m - 1) / 2`` pairs:

    - ``rbf``: ``gamma = 1 / d^2``, ``d`` the median Euclidean distance, i.e.
      ``exp(-||x - y||^2 / median ||x - y||^2)`` (the convention of Garreau,
      Jitkrittum & Kanagawa 2017, "Large sample analysis of the median
      heuristic": bandwidth ``sigma^2 = d^2 / 2``);
    - ``laplacian``: ``gamma = 1 / d``, ``d`` the median L1 distance;
    - ``poly``, ``sigmoid``: ``gamma = 1 / median ||x||^2`` over the ``m`` rows,
      so that ``gamma <x, x>`` is about 1 for a typical row.

    When more than half of the sampled values are zero (many repeated rows),
    the median of the non-zero ones is used instead.

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n, p)
        The rows whose distances set the width.
    kernel : {"rbf", "laplacian", "poly", "sigmoid"}, default="rbf"
        The kernel whose gamma is set.
    n_samples : int, default=200
        Rows in the subsample, at least 2.
    random_state : int, RandomState or None
        Seeds the subsample.

    Returns
    -------
    gamma : float
        The width.
    evaluations : int
        Distances (or squared norms) computed: ``m (m - 1) / 2`` (``m``).

    Raises
    ------
    ValueError
        If every sampled distance (or norm) is zero: the rows carry no scale.

    Examples
    --------
    >>> from lowdim.similarity import median_gamma
    >>> X = np.array([[0.0], [1.0], [3.0]])
    >>> gamma, evaluations = median_gamma(X)  # distances 1, 2, 3: median 2
    >>> gamma, evaluations
    (0.25, 3)
    """
    X = check_matrix(X, "X")  # the data first, before any parameter
    if kernel not in GAMMA_KERNELS:
        raise ArgumentValueError(f"`kernel` must be one of {list(GAMMA_KERNELS)} to have a "
                                 f"gamma, got {kernel!r}", "kernel")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) \
            or n_samples < 2:
        raise ArgumentValueError(f"`n_samples` must be an integer >= 2, got {n_samples!r}",
                                 "n_samples")
    rng = check_random_state(random_state)
    m = min(X.shape[0], int(n_samples))
    rows = np.sort(rng.choice(X.shape[0], size=m, replace=False))
    if kernel in ("poly", "sigmoid"):
        values, evaluations = _paired_dot(X, rows, rows), m
    else:
        i, j = np.triu_indices(m, k=1)
        paired = paired_euclidean_distances if kernel == "rbf" else paired_manhattan_distances
        values, evaluations = paired(X[rows[i]], X[rows[j]]), i.size
    positive = values[values > 0]
    if positive.size == 0:
        what = "squared norms" if kernel in ("poly", "sigmoid") else "distances"
        raise ArgumentValueError(f"`X`: all {values.size} sampled {what} are zero; the median "
                                 "heuristic cannot set gamma (give it explicitly)", "X")
    d = float(np.median(values)) or float(np.median(positive))
    gamma = 1.0 / (d * d) if kernel == "rbf" else 1.0 / d
    return gamma, int(evaluations)
