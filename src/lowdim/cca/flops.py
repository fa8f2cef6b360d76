r"""Floating-point operation counts, the x-axis of the paper's figures.

Conventions (the same for every method, so counts are comparable):

- a multiply-add counts as 2 FLOPs, so a product of an (a×b) and a (b×c)
  matrix costs ``2abc``;
- a data matrix counts as *dense*: an n×p sparse matrix costs ``n·p`` per
  use, whatever its number of non-zeros. This is the paper's convention
  (its FLOP axes use ``n·p``) and makes counts independent of the storage;
- dense factorisations use the textbook counts of Golub & Van Loan,
  *Matrix Computations* (4th ed.): Cholesky ``p³/3``, symmetric
  eigendecomposition with vectors ``9p³``, thin SVD of an m×n matrix
  (m >= n) with both factors ``6mn² + 20n³``, Householder QR with the thin Q
  formed ``4mn² − 4n³/3``.

AppGrad uses the authors' formulas (MNIST code), written for two views of
widths ``p1, p2``:

.. math::

    \text{batch:}\quad 10\,k\,n\,(p_1+p_2) \text{ per iteration}
    \qquad
    \text{stochastic:}\quad k\,(p_1+p_2)\,(8b + 2s) \text{ per iteration}

With ``p1 = p2 = p`` and ``s = 10k`` these are the authors' ``n·p·20k`` and
``p·(16·k·b + 40·k²)``: per view and iteration, five n×p×k products
(batch), or four b×p×k products for the minibatch gradient plus one s×p×k
product for the normalisation (stochastic). They count the algorithm as
written, not our implementation, which reuses products (4 per iteration in
batch AppGrad) or precomputes Gram matrices when p is small.

The figures keep these formulas. Beside them, AppGrad records the FLOPs it
actually performs (``flops_performed`` in its trace): there a sparse product
costs ``2·nnz·k`` (:func:`stored_entries`), the stochastic solver touches only
the minibatch's rows and the normalisation subsample, and precomputed Gram
matrices are charged once.
"""

from __future__ import annotations

import scipy.sparse as sp

from .._validation import ArgumentValueError
from .methods import WHITENINGS

__all__ = [
    "stored_entries", "normalisation_flops", "appgrad_batch_flops", "appgrad_stochastic_flops", "gram_flops", "svd_flops",
    "qr_flops", "cholesky_flops", "eigh_flops", "randomized_svd_flops", "exact_cca_flops",
]


def appgrad_batch_flops(n: int, p1: int, p2: int, k: int, iterations: int = 1) -> float:
    """Batch AppGrad, the authors' count: ``10·k·n·(p1+p2)`` per iteration.

    Parameters
    ----------
    n : int
        Rows of the views.
    p1, p2 : int
        Columns of the two views.
    k : int
        Canonical pairs.
    iterations : int, default=1
        Iterations counted.

    Returns
    -------
    flops : float
        ``iterations · 10·k·n·(p1 + p2)``.

    Examples
    --------
    >>> from lowdim.cca.flops import appgrad_batch_flops
    >>> appgrad_batch_flops(n=60_000, p1=392, p2=392, k=20, iterations=100) == 100 * 10 * 20 * 60_000 * 784
    True
    """
    return 10.0 * k * n * (p1 + p2) * iterations


def appgrad_stochastic_flops(p1: int, p2: int, k: int, batch_size: int,
                             normalization_size: int, iterations: int = 1) -> float:
    """Stochastic AppGrad, the authors' count: ``k·(p1+p2)·(8b + 2s)`` per iteration.

    Parameters
    ----------
    p1, p2 : int
        Columns of the two views.
    k : int
        Canonical pairs.
    batch_size : int
        Minibatch rows b.
    normalization_size : int
        Rows s of the normalisation subsample.
    iterations : int, default=1
        Iterations counted.

    Returns
    -------
    flops : float
        ``iterations · k·(p1 + p2)·(8b + 2s)``.

    Examples
    --------
    >>> from lowdim.cca.flops import appgrad_stochastic_flops
    >>> appgrad_stochastic_flops(p1=392, p2=392, k=20, batch_size=50, normalization_size=200)
    12544000.0
    """
    return float(k) * (p1 + p2) * (8.0 * batch_size + 2.0 * normalization_size) * iterations


def gram_flops(n: int, p1: int, p2: int) -> float:
    """Forming ``XᵀX``, ``YᵀY`` and ``XᵀY`` as general products.

    Parameters
    ----------
    n : int
        Rows of the views.
    p1, p2 : int
        Columns of the two views.

    Returns
    -------
    flops : float
        ``2n(p1² + p2² + p1·p2)``.

    Examples
    --------
    >>> from lowdim.cca.flops import gram_flops
    >>> gram_flops(n=100, p1=3, p2=2) == 2 * 100 * (3 * 3 + 2 * 2 + 3 * 2)
    True
    """
    return 2.0 * n * (p1 * p1 + p2 * p2 + p1 * p2)


def cholesky_flops(p: int) -> float:
    """Cholesky factorisation of a p×p matrix.

    Parameters
    ----------
    p : int
        Order of the matrix.

    Returns
    -------
    flops : float
        ``p³/3``.

    Examples
    --------
    >>> from lowdim.cca.flops import cholesky_flops
    >>> cholesky_flops(300)
    9000000.0
    """
    return p ** 3 / 3.0


def eigh_flops(p: int) -> float:
    """Symmetric eigendecomposition with eigenvectors of a p×p matrix.

    Parameters
    ----------
    p : int
        Order of the matrix.

    Returns
    -------
    flops : float
        ``9p³``, the usual count for tridiagonalisation and QR iteration with vectors.

    Examples
    --------
    >>> from lowdim.cca.flops import eigh_flops
    >>> eigh_flops(300)
    243000000.0
    """
    return 9.0 * p ** 3


def svd_flops(m: int, n: int) -> float:
    """Thin SVD with both singular-vector factors of an m×n matrix.

    Parameters
    ----------
    m, n : int
        Shape of the matrix.

    Returns
    -------
    flops : float
        The usual Golub-Van Loan count of a thin SVD with both factors.

    Examples
    --------
    >>> from lowdim.cca.flops import svd_flops
    >>> svd_flops(100, 10)
    80000.0
    """
    m, n = max(m, n), min(m, n)
    return 6.0 * m * n * n + 20.0 * n ** 3


def qr_flops(m: int, n: int) -> float:
    """Householder QR of an m×n matrix (m >= n) with the thin Q formed.

    Parameters
    ----------
    m, n : int
        Shape of the matrix, ``m >= n``.

    Returns
    -------
    flops : float
        Householder factorisation plus forming the thin Q.

    Examples
    --------
    >>> from lowdim.cca.flops import qr_flops
    >>> qr_flops(1000, 10)
    398666.6666666667
    """
    return 4.0 * m * n * n - 4.0 * n ** 3 / 3.0


def randomized_svd_flops(product_cost: float, n_products: int, m: int, n: int,
                         width: int) -> float:
    """Randomized subspace iteration (Halko et al. 2011, Alg. 4.4) on an m×n operator.

    Parameters
    ----------
    product_cost : float
        FLOPs of one product of the operator (or its transpose) with a block
        of ``width`` vectors.
    n_products : int
        Number of such products.
    m, n : int
        Shape of the operator.
    width : int
        Block width ``k + oversample``.

    Returns
    -------
    flops : float
        The products plus the QR factorisations of the blocks and the small SVD.

    Examples
    --------
    >>> from lowdim.cca.flops import randomized_svd_flops
    >>> randomized_svd_flops(product_cost=2 * 500 * 500 * 30, n_products=10, m=500, n=500, width=30)
    170016000.0
    """
    qr_count = n_products - 1  # every product but the last is orthonormalised
    qr_cost = qr_count * qr_flops(max(m, n), width)
    return product_cost * n_products + qr_cost + svd_flops(width, n) + 2.0 * m * width * width


def exact_cca_flops(n: int, p1: int, p2: int, k: int, method: str) -> float:
    """Exact CCA: whitening, SVD of the whitened cross-covariance, back-mapping.

    Parameters
    ----------
    n : int
        Rows of the views.
    p1, p2 : int
        Columns of the two views.
    k : int
        Canonical pairs.
    method : {'cholesky', 'eigh', 'qr'}
        Whitening (see :class:`~lowdim.cca.ExactCCA`).

    Returns
    -------
    flops : float
        Dense-equivalent count of the whole solve, Gram matrices included.

    Examples
    --------
    >>> from lowdim.cca.flops import exact_cca_flops
    >>> f"{exact_cca_flops(n=60_000, p1=392, p2=392, k=20, method='cholesky'):.3g}"
    '5.71e+10'
    """
    svd = svd_flops(p1, p2)
    if method == "qr":
        # QR of the ridge-augmented views, QxᵀQy, SVD, triangular back-solves
        return (qr_flops(n + p1, p1) + qr_flops(n + p2, p2) + 2.0 * n * p1 * p2 + svd
                + (p1 * p1 + p2 * p2) * k)
    grams = gram_flops(n, p1, p2)
    if method == "cholesky":
        whiten = cholesky_flops(p1) + cholesky_flops(p2) + p1 * p1 * p2 + p1 * p2 * p2
        back = (p1 * p1 + p2 * p2) * k
    elif method == "eigh":
        whiten = (eigh_flops(p1) + eigh_flops(p2) + 2.0 * (p1 ** 3 + p2 ** 3)
                  + 2.0 * (p1 * p1 * p2 + p1 * p2 * p2))
        back = 2.0 * (p1 * p1 + p2 * p2) * k
    else:
        raise ArgumentValueError(f"`method` must be one of {list(WHITENINGS)}, got {method!r}",
                                 "method")
    return grams + whiten + svd + back


def stored_entries(A) -> int:
    """Entries a product with ``A`` reads: its non-zeros if sparse, all of them if dense.

    Parameters
    ----------
    A : ndarray or scipy.sparse matrix
        The matrix.

    Returns
    -------
    entries : int
        ``A.nnz`` for sparse ``A``, ``A.size`` otherwise.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lowdim.cca.flops import stored_entries
    >>> stored_entries(np.ones((3, 4))), stored_entries(sp.eye(3, 4, format="csr"))
    (12, 3)
    """
    return int(A.nnz) if sp.issparse(A) else int(A.size)


def normalisation_flops(rows: int, p: int, k: int) -> float:
    """One AppGrad normalisation beyond the data product ``Z = AΦ̃``.

    ``ZᵀZ`` (``rows`` high: n, the subsample s, or p on the Gram path),
    ``Φ̃ᵀΦ̃`` and ``Φ̃M`` (p×k), and the k×k eigendecomposition with the
    inverse square root formed (``9k³ + 2k³``).

    Parameters
    ----------
    rows : int
        Rows of ``Z`` (n, the subsample s, or p on the Gram path).
    p : int
        Columns of the view.
    k : int
        Canonical pairs.

    Returns
    -------
    flops : float
        FLOPs of the normalisation.

    Examples
    --------
    >>> from lowdim.cca.flops import normalisation_flops
    >>> normalisation_flops(rows=200, p=392, k=20)
    875200.0
    """
    return 2.0 * rows * k * k + 4.0 * p * k * k + 11.0 * k ** 3
