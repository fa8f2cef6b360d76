"""CUR decompositions: SiCUR (the paper's simple variant) and StaCUR (Drineas et al. 2006).

Both take columns ``C = K[:, J]`` and rows ``R = K[I, :]`` and a small joining
matrix ``U``; neither needs ``K`` to be symmetric or PSD.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice
from ._linalg import check_random_state
from ._linalg import (as_oracle, check_rtol, check_sample_size, draw_order, pinv,
                      pinv_symmetric)
from ._lowrank import LowRankApprox

__all__ = ["STACUR_ROWS", "sicur", "sicur_samples", "stacur"]


def sicur_samples(rng, n, s):
    """SiCUR's rows ``R`` (``s`` uniform indices) and columns ``C = R[: s // 2]``.

    Parameters
    ----------
    rng : numpy.random.RandomState
        The generator of the draw.
    n : int
        Items to sample from.
    s : int
        Rows sampled.

    Returns
    -------
    R : ndarray of int of shape (s,)
        Sampled rows.
    C : ndarray of int of shape (s // 2,)
        Sampled columns, the first ``s // 2`` rows.

    Examples
    --------
    >>> from lowdim.approx.cur import sicur_samples
    >>> R, C = sicur_samples(np.random.RandomState(0), 20, 6)
    >>> len(R), len(C), bool(set(C) <= set(R))
    (6, 3, True)
    """
    R = draw_order(rng, n)[:s]
    return R, R[: s // 2]


def sicur(oracle, s, random_state=None, *, rtol=None):
    """Simple CUR: ``K[:, C] pinv(K[R, C]) K[R, :]`` with ``C ⊂ R``.

    ``R`` is a uniform sample of ``s`` indices and ``C`` a uniform sample of
    ``s // 2`` of them, as in the authors' code, so the approximation has
    rank at most ``s // 2`` and ``K[R, C]`` is a tall, usually well-conditioned
    block of the sampled rows.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
        The similarity oracle (an array is wrapped in a DenseOracle); it need not be
        symmetric.
    s : int
        Number of sampled rows, ``2 <= s < n``.
    random_state : int, RandomState or None
        Seeds the samples.
    rtol : float, optional
        Singular values of ``K[R, C]`` at most ``rtol * max`` are dropped;
        default ``s * eps``.

    Returns
    -------
    LowRankApprox
        ``left = K[:, C]`` (n, s // 2), ``core = pinv(K[R, C])`` (s // 2, s),
        ``right = K[R, :]`` (s, n); ``landmarks = C``, ``info["rows"] = R``.

    Notes
    -----
    With rows :math:`R` and columns :math:`C \\subset R` sampled uniformly,

    .. math::

        \\tilde K = K_{:, C}\\, (K_{R, C})^{+}\\, K_{R, :},

    the skeleton (CUR) approximation whose core is the pseudo-inverse of the
    sampled intersection. Unlike Nyström it needs no symmetry and no positive
    core: :math:`K_{R, C}` is a tall block, whose smallest singular value is
    usually far from zero even when :math:`K` is indefinite.

    Examples
    --------
    >>> from lowdim.approx import sicur
    >>> X = rng.standard_normal((60, 4))
    >>> approx = sicur(X @ X.T, 10, random_state=0)
    >>> approx.left.shape, approx.core.shape, approx.right.shape
    ((60, 5), (5, 10), (10, 60))
    >>> np.allclose(approx.to_dense(), X @ X.T)
    True
    """
    oracle = as_oracle(oracle)
    n = oracle.n
    s = check_sample_size(s, n, minimum=2)
    rtol = check_rtol(rtol)
    rng = check_random_state(random_state)
    start = oracle.evaluations
    R, C = sicur_samples(rng, n, s)
    left = oracle(np.arange(n), C)
    right = oracle(R, np.arange(n))
    core, kept = pinv(right[:, C], rtol=rtol)
    info = {"rows": R, "core_rank": kept, "pinv_rtol": rtol}
    return LowRankApprox(left, core, right, oracle.evaluations - start, C, "sicur", False, info)


#: StaCUR's row samples: the sampled columns themselves, or rows drawn independently.
STACUR_ROWS = ("same", "independent")


def stacur(oracle, s, random_state=None, *, rows="same", rtol=None):
    """Linear-time CUR (Drineas, Kannan & Mahoney 2006) with uniform probabilities.

    Samples ``c = s`` columns ``J`` and ``r = s`` rows ``I`` uniformly without
    replacement, rescales them by ``1 / sqrt(c p_j)`` and ``1 / sqrt(r q_i)``
    (here ``p = q = 1/n``) and joins them with ``U = (C^T C)^+ Psi^T``, ``Psi``
    the sampled, rescaled rows of ``C``. With the constants collected this is

    .. math::

        \\tilde K = \\frac{n}{r}\\, K_{:, J}\\, (K_{:, J}^\\top K_{:, J})^{+}\\,
                    K_{I, J}^\\top\\, K_{I, :},

    with no rank-k truncation of ``U``. Equivalently ``K~ = (n / r) Q Q[I, :]^T K[I, :]``
    with ``Q`` an orthonormal basis of the range of ``K[:, J]``: the projection
    ``Q Q^T K`` of ``K`` onto its sampled columns, with ``Q^T K`` estimated from
    the ``r`` sampled rows.

    The authors' code has both row protocols: their Figure 1 script
    (``matrix_approximations/direct_nystrom_with_and_without_eig_corr.py``)
    plots ``CUR(..., same=True)`` (``I = J``) and ``same=False`` (``I`` drawn
    independently), their WMD-classification and GLUE code
    (``matrix_approximations/approximator.py``, ``GLUE_BERT_STSB.py``) default
    to ``I = J`` and their coreference code (``cross_doc_cor/low_rank.py``) to
    independent rows. ``I = J`` is the default here: it costs the evaluations of
    classic Nyström on a symmetric oracle, and its error falls with ``s``. With
    independent rows every direction of ``Q`` carries the sampling noise of the
    estimate of ``Q^T K``, however little of ``K`` lies in it, and on near-PSD
    matrices the error can grow with ``s``.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
        The similarity oracle (an array is wrapped in a DenseOracle); it need not be
        symmetric.
    s : int
        Number of sampled columns and of sampled rows, ``1 <= s < n``.
    random_state : int, RandomState or None
        Seeds the samples.
    rows : {"same", "independent"}, default="same"
        ``"same"``: the rows are the sampled columns (``I = J``, the authors'
        ``same=True``); ``"independent"``: a second uniform sample (``same=False``).
    rtol : float, optional
        Relative tolerance of the pseudo-inverse of ``C^T C``; default ``s * eps``.

    Returns
    -------
    LowRankApprox
        ``landmarks = J``, ``info["rows"] = I``; ``method`` is ``"stacur"``
        (``I = J``) or ``"stacur_independent"``.

    Notes
    -----
    With :math:`Q` an orthonormal basis of the range of the sampled columns
    :math:`K_{:, J}`, StaCUR is the projection of :math:`K` onto them with
    :math:`Q^\\top K` estimated from the :math:`r` sampled rows :math:`I`:

    .. math::

        \\tilde K = \\frac{n}{r}\\, Q\\, Q_{I, :}^\\top K_{I, :}
        \\approx Q Q^\\top K,

    an unbiased estimate of :math:`Q Q^\\top K` over uniform row samples.

    Examples
    --------
    An indefinite similarity matrix of rank 5 (CUR assumes neither symmetry nor positive
    semi-definiteness):

    >>> from lowdim.approx import relative_frobenius_error, stacur
    >>> A = rng.standard_normal((200, 5))
    >>> K = A @ np.diag([3.0, 2.0, 1.0, -1.0, -2.0]) @ A.T
    >>> approx = stacur(K, 20, random_state=0)
    >>> approx.method, approx.evaluations
    ('stacur', 3810)
    >>> [round(relative_frobenius_error(stacur(K, s, random_state=0), K), 2) for s in (10, 20, 60)]
    [0.7, 0.54, 0.27]
    """
    check_choice(rows, "rows", STACUR_ROWS)
    oracle = as_oracle(oracle)
    n = oracle.n
    s = check_sample_size(s, n)
    rtol = check_rtol(rtol)
    rng = check_random_state(random_state)
    start = oracle.evaluations
    J = draw_order(rng, n)[:s]
    # The independent rows come from a second order, so ``J`` is the same in both protocols.
    I = J if rows == "same" else draw_order(rng, n)[:s]  # noqa: E741 - the paper's name
    left = oracle(np.arange(n), J)
    right = oracle(I, np.arange(n))
    # C^T C is symmetric PSD: its eigendecomposition is its SVD, and several times faster.
    gram_pinv, kept = pinv_symmetric(left.T @ left, rtol=rtol)
    core = (n / s) * gram_pinv @ right[:, J].T
    info = {"rows": I, "row_protocol": rows, "core_rank": kept, "pinv_rtol": rtol}
    method = "stacur" if rows == "same" else "stacur_independent"
    return LowRankApprox(left, core, right, oracle.evaluations - start, J, method, False, info)
