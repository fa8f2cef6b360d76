"""Exact (regularised) CCA: whiten, then SVD of the whitened cross-covariance."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, svds

from .._validation import ArgumentValueError
from ..memory import available_memory, format_bytes
from ._base import BaseCCA, flip_signs
from ._linalg import gram_matrices
from .flops import exact_cca_flops
from .methods import EXACT_METHODS, WHITENINGS

__all__ = ["ExactCCA", "exact_cca_from_grams", "exact_cca_memory", "FULL_SVD_MAX"]

#: Above this min(p1, p2), the whitened cross-covariance is never formed: its
#: top-k singular triplets come from ARPACK (``scipy.sparse.linalg.svds``,
#: converged to machine precision) applied through triangular solves.
FULL_SVD_MAX = 2000


def _svd_formed(p1: int, p2: int, k: int) -> bool:
    """Whether the whitened cross-covariance is formed and fully decomposed (see FULL_SVD_MAX)."""
    m = min(p1, p2)
    return m <= FULL_SVD_MAX or k >= m // 2


def exact_cca_memory(n: int, p1: int, p2: int, k: int, method: str, sparse_gram_entries=0) -> int:
    """Bytes of working memory exact CCA needs beyond the views, by whitening ``method``.

    Counts the float64 arrays alive at the peak: for 'cholesky' and 'eigh' the
    dense ``S_x, S_y, S_xy`` (p1² + p2² + p1·p2), eigh's eigenvectors and
    inverse square root (3·max(p1, p2)²), and, where it is formed
    (:data:`FULL_SVD_MAX`), the whitened cross-covariance, its copy and
    LAPACK's SVD factors and work space; for 'qr' the dense ridge-augmented
    views, their Q factors and R. ``sparse_gram_entries`` adds the sparse
    ``XᵀX`` that is densified (12 bytes per stored entry).

    Parameters
    ----------
    n : int
        Rows of the views.
    p1, p2 : int
        Columns of the two views.
    k : int
        Canonical pairs.
    method : {'cholesky', 'eigh', 'qr'}
        Whitening (see :class:`ExactCCA`).
    sparse_gram_entries : int, default=0
        Stored entries of the sparse Gram matrices that get densified.

    Returns
    -------
    bytes : int
        Bytes of float64 arrays alive at the peak.

    Examples
    --------
    >>> from lowdim.cca.exact import exact_cca_memory
    >>> memory = exact_cca_memory(n=100_000, p1=20_000, p2=20_000, k=20, method="cholesky")
    >>> f"{memory / 2**30:.1f} GiB"
    '9.0 GiB'
    """
    m = min(p1, p2)
    svd = 2 * p1 * p2 + m * (p1 + p2) + 4 * m * m if _svd_formed(p1, p2, k) else \
        (p1 + p2) * (2 * k + 2)
    if method == "qr":
        words = (n + p1) * p1 + p1 * p1 + 2 * (n + p2) * p2 + p2 * p2 + svd
    elif method in WHITENINGS:
        words = p1 * p1 + p2 * p2 + p1 * p2 + svd
        if method == "eigh":
            words += 3 * max(p1, p2) ** 2
    else:
        raise ArgumentValueError(f"`method` must be one of {list(WHITENINGS)}, got {method!r}",
                                 "method")
    return int(8 * words + 12 * sparse_gram_entries)


def _sparse_gram_entries(A) -> int:
    """Upper bound on the stored entries of sparse ``AᵀA``: Σ_i nnz(row i)², capped at p²."""
    if not sp.issparse(A):
        return 0
    counts = np.diff(A.indptr).astype(np.float64)
    return int(min(float(counts @ counts), float(A.shape[1]) ** 2))


def _top_svd(M, k: int):
    """Top-k SVD: full LAPACK SVD of a small matrix, ARPACK (to machine precision) otherwise."""
    if isinstance(M, np.ndarray) and (min(M.shape) <= FULL_SVD_MAX or k >= min(M.shape) // 2):
        U, s, Vt = la.svd(M, full_matrices=False)
        return U[:, :k], s[:k], Vt[:k]
    U, s, Vt = svds(M, k=k, tol=0, random_state=0)
    order = np.argsort(s)[::-1]
    return U[:, order], s[order], Vt[order]


def _whiten_cholesky(C):
    """Return ``(inv, inv_t)`` applying ``R⁻ᵀ`` and ``R⁻¹`` for ``C = RᵀR``.

    Factorises in place (``C.T`` is Fortran-ordered, so LAPACK needs no copy);
    only the lower triangle of ``C`` is overwritten. If ``C`` is not
    numerically positive definite, ``C`` is restored from its upper triangle
    and ``LinAlgError`` is raised.
    """
    diag = C.diagonal().copy()
    try:
        R, _ = la.cho_factor(C.T, lower=False, overwrite_a=True, check_finite=False)
    except la.LinAlgError:
        for i in range(1, C.shape[0]):
            C[i, :i] = C[:i, i]
        C[np.diag_indices_from(C)] = diag
        raise
    return (lambda A: la.solve_triangular(R, A, trans="T", overwrite_b=True, check_finite=False),
            lambda A: la.solve_triangular(R, A, check_finite=False))


def _whiten_eigh(C):
    """``C^{-1/2}`` on the numerically non-zero eigenspace (a pseudo-inverse for singular C)."""
    w, V = la.eigh(C, overwrite_a=True, check_finite=False)
    keep = w > max(w[-1], 0.0) * C.shape[0] * np.finfo(float).eps * 10
    inv_sqrt = (V[:, keep] / np.sqrt(w[keep])) @ V[:, keep].T
    return (lambda A: inv_sqrt @ A), (lambda A: inv_sqrt @ A)


def _whitener(C, method: str):
    """Whitening of ``C`` by ``method``; Cholesky falls back to eigh with a warning."""
    if method == "cholesky":
        try:
            return _whiten_cholesky(C), "cholesky"
        except la.LinAlgError:
            warnings.warn("S + reg·I is not numerically positive definite (raise `reg`); "
                          "whitening with the eigendecomposition instead", RuntimeWarning,
                          stacklevel=4)
    return _whiten_eigh(C), "eigh"


def exact_cca_from_grams(Sx, Sy, Sxy, k: int, reg: float, method: str = "cholesky"):
    r"""Top-k CCA of ``C_x = S_x + λI``, ``C_y = S_y + λI`` and ``S_xy``.

    With whitening ``W_x`` (``L⁻¹`` from Cholesky or ``C_x^{-1/2}`` from
    eigh), the SVD ``W_x S_xy W_yᵀ = UDVᵀ`` gives ``Φ = W_xᵀU_k``,
    ``Ψ = W_yᵀV_k`` (Lemma 1.1 of the paper) and correlations ``D_k``.
    All three inputs are overwritten.

    Parameters
    ----------
    Sx, Sy : ndarray of shape (p1, p1), (p2, p2)
        Second moments ``XᵀX/n`` and ``YᵀY/n`` (overwritten).
    Sxy : ndarray of shape (p1, p2)
        Cross moments ``XᵀY/n`` (overwritten).
    k : int
        Canonical pairs.
    reg : float
        Ridge λ added to the diagonals of ``Sx`` and ``Sy``.
    method : {'cholesky', 'eigh'}, default='cholesky'
        Whitening of each view.

    Returns
    -------
    Wx : ndarray of shape (p1, k)
    Wy : ndarray of shape (p2, k)
    rho : ndarray of shape (k,)
    method : str
        Whitening used per view, e.g. 'cholesky' or 'cholesky/eigh' (Cholesky
        falls back to eigh, with a warning, when ``C`` is not numerically
        positive definite).

    Examples
    --------
    >>> from lowdim.cca.exact import exact_cca_from_grams
    >>> X = rng.standard_normal((400, 3))
    >>> Y = X[:, :2] + 0.5 * rng.standard_normal((400, 2))
    >>> n = len(X)
    >>> Wx, Wy, rho, method = exact_cca_from_grams(X.T @ X / n, Y.T @ Y / n, X.T @ Y / n,
    ...                                            k=2, reg=0.0)
    >>> rho.round(2), method, Wx.shape, Wy.shape
    (array([0.9 , 0.87]), 'cholesky', (3, 2), (2, 2))
    """
    for S in (Sx, Sy):
        S[np.diag_indices_from(S)] += reg
    (x_inv, x_inv_t), mx = _whitener(Sx, method)
    (y_inv, y_inv_t), my = _whitener(Sy, method)
    p1, p2 = Sxy.shape
    if min(p1, p2) > FULL_SVD_MAX and k < min(p1, p2) // 2:
        # W_x S_xy W_yᵀ applied to vectors: O(p²) per product instead of O(p³) to form it
        M = LinearOperator((p1, p2), dtype=float,
                           matvec=lambda v: x_inv(Sxy @ y_inv_t(np.ravel(v))),
                           rmatvec=lambda u: y_inv(Sxy.T @ x_inv_t(np.ravel(u))))
    else:
        M = x_inv(np.asfortranarray(y_inv(Sxy.T).T))  # W_x S_xy W_yᵀ
    U, rho, Vt = _top_svd(M, k)
    return (*flip_signs(x_inv_t(U), y_inv_t(Vt.T)), rho, mx if mx == my else f"{mx}/{my}")


def _exact_cca_qr(X, Y, k: int, reg: float):
    """Björck–Golub route: QR of the ridge-augmented views, then SVD of ``Q_xᵀQ_y``.

    Sparse views are densified (a QR factor of sparse data is dense anyway);
    the memory check of :class:`ExactCCA` has counted it.
    """
    n = X.shape[0]
    factors = []
    for A in (X, Y):
        A = A.toarray() if sp.issparse(A) else A
        aug = np.vstack([A, np.sqrt(n * reg) * np.eye(A.shape[1])]) if reg > 0 else A
        Q, R = la.qr(aug, mode="economic", check_finite=False)
        factors.append((Q[:n], R))
    (Qx, Rx), (Qy, Ry) = factors
    U, rho, Vt = _top_svd(Qx.T @ Qy, k)
    scale = np.sqrt(n)  # so that ΦᵀC_xΦ = I with C_x = (XᵀX + nλI)/n
    return (*flip_signs(la.solve_triangular(Rx, U, check_finite=False) * scale,
                        la.solve_triangular(Ry, Vt.T, check_finite=False) * scale), rho)


class ExactCCA(BaseCCA):
    """Exact top-k regularised CCA: the reference solution of the paper's PCC.

    Solves the generalised eigenproblem of ``C_x = XᵀX/n + λI``,
    ``C_y = YᵀY/n + λI`` and ``S_xy = XᵀY/n`` (uncentred, as in the paper).
    Memory is O(p1² + p2²): this is the method AppGrad avoids.

    Parameters
    ----------
    n_components : int, default=2
        Canonical pairs k.
    reg : float, default=0.005
        Ridge λ; 0 is allowed (rank-deficient views then use the eigh
        pseudo-inverse).
    method : {'auto', 'cholesky', 'eigh', 'qr'}, default='auto'
        Whitening: Cholesky of ``C_x`` (fastest), symmetric eigendecomposition
        ``C_x^{-1/2}``, or the QR route of Björck & Golub (avoids squaring the
        condition number; sparse views are densified). 'auto' is 'cholesky',
        the route that needs least memory (QR's factors are (n + p)×p), and
        with a rank-deficient ``S_x + λI`` it falls back to 'eigh' (warning).
    memory_limit : 'available' or int, default='available'
        Bytes the fit may use beyond the views: 'available' is the memory the
        machine has free when ``fit`` starts. A fit that would need more
        (:func:`exact_cca_memory`) raises ``MemoryError`` up front, naming the
        memory it needs and pointing to :class:`~lowdim.cca.AppGradCCA`,
        instead of failing inside BLAS or NumPy.

    Attributes
    ----------
    x_weights_, y_weights_ : ndarray of shape (p1, k), (p2, k)
        Normalised so that ``ΦᵀC_xΦ = I``.
    canonical_correlations_ : ndarray of shape (k,)
        Regularised canonical correlations.
    method_ : str
        Whitening actually used.
    memory_needed_ : int
        Bytes of working memory the chosen whitening was estimated to need.
    flops_ : float
        See :func:`lowdim.cca.flops.exact_cca_flops`.

    Examples
    --------
    >>> from lowdim.cca import ExactCCA
    >>> X, Y = two_views
    >>> cca = ExactCCA(n_components=2).fit(X, Y)
    >>> cca.canonical_correlations_.round(2)
    array([0.89, 0.87])
    >>> U, V = cca.transform(X, Y)
    >>> U.shape, V.shape
    ((500, 2), (500, 2))
    """

    def __init__(self, n_components=2, *, reg=0.005, method="auto", memory_limit="available"):
        self.n_components = n_components
        self.reg = reg
        self.method = method
        self.memory_limit = memory_limit

    def _memory_limit(self) -> int:
        if isinstance(self.memory_limit, str) and self.memory_limit == "available":
            return available_memory()
        if isinstance(self.memory_limit, (bool, str)) or not isinstance(
                self.memory_limit, (int, float, np.integer, np.floating)) \
                or not self.memory_limit > 0:
            raise ArgumentValueError("`memory_limit` must be 'available' or a positive number of "
                                     f"bytes, got {self.memory_limit!r}", "memory_limit")
        return int(self.memory_limit)

    def _choose_method(self, X, Y, k):
        """The whitening to run and its memory estimate, or MemoryError if none fits."""
        if self.method not in EXACT_METHODS:
            raise ArgumentValueError(f"`method` must be one of {list(EXACT_METHODS)}, got "
                                     f"{self.method!r}", "method")
        (n, p1), p2 = X.shape, Y.shape[1]
        sparse_entries = max(_sparse_gram_entries(X), _sparse_gram_entries(Y))
        need = {m: exact_cca_memory(n, p1, p2, k, m, 0 if m == "qr" else sparse_entries)
                for m in ("cholesky", "eigh", "qr")}
        limit = self._memory_limit()
        method = "cholesky" if self.method == "auto" else self.method
        if need[method] <= limit:
            return method, need[method]
        appgrad = 8 * 2 * k * (p1 + p2) + 8 * 4 * k * n
        raise MemoryError(
            f"ExactCCA(method={self.method!r}) refused: whitening views of p1 = {p1:,} and "
            f"p2 = {p2:,} columns ({method}) needs about {format_bytes(need[method])} beyond the "
            f"data, more than the {format_bytes(limit)} of `memory_limit` "
            f"({'free memory now' if self.memory_limit == 'available' else 'given'}). "
            f"Use lowdim.cca.AppGradCCA: it never forms a p×p matrix (about "
            f"{format_bytes(appgrad)} here); with batch_size=50 its iterations take time "
            f"independent of p on sparse views")

    def _fit(self, X, Y, k):
        method, self.memory_needed_ = self._choose_method(X, Y, k)
        if method == "qr":
            Wx, Wy, rho = _exact_cca_qr(X, Y, k, float(self.reg))
        else:
            Wx, Wy, rho, method = exact_cca_from_grams(*gram_matrices(X, Y), k,
                                                       float(self.reg), method)
        self.canonical_correlations_ = rho
        self.method_ = method
        counted = "eigh" if "eigh" in method else method
        return Wx, Wy, exact_cca_flops(X.shape[0], X.shape[1], Y.shape[1], k, counted)
