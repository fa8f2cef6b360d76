"""CUR decompositions: SiCUR (the paper's simple variant) and StaCUR (Drineas et al. 2006).

Both take columns ``C = K[:, J]`` and rows ``R = K[I, :]`` and a small joining
matrix ``U``; neither needs ``K`` to be symmetric or PSD.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

from ._linalg import as_oracle, check_rtol, check_sample_size, draw_order, pinv
from ._lowrank import LowRankApprox

__all__ = ["sicur", "stacur"]


def sicur(oracle, s, random_state=None, *, rtol=None):
    """Simple CUR: ``K[:, C] pinv(K[R, C]) K[R, :]`` with ``C ⊂ R``.

    ``R`` is a uniform sample of ``s`` indices and ``C`` a uniform sample of
    ``s // 2`` of them, as in the authors' code, so the approximation has
    rank at most ``s // 2`` and ``K[R, C]`` is a tall, usually well-conditioned
    block of the sampled rows.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
    s : int
        Number of sampled rows, ``2 <= s < n``.
    random_state : int, RandomState or None
    rtol : float, optional
        Singular values of ``K[R, C]`` at most ``rtol * max`` are dropped;
        default ``s * eps``.

    Returns
    -------
    LowRankApprox
        ``left = K[:, C]`` (n, s // 2), ``core = pinv(K[R, C])`` (s // 2, s),
        ``right = K[R, :]`` (s, n); ``landmarks = C``, ``info["rows"] = R``.
    """
    oracle = as_oracle(oracle)
    n = oracle.n
    s = check_sample_size(s, n, minimum=2)
    rtol = check_rtol(rtol)
    rng = check_random_state(random_state)
    start = oracle.evaluations
    R = draw_order(rng, n)[:s]
    C = R[: s // 2]
    left = oracle(np.arange(n), C)
    right = oracle(R, np.arange(n))
    core, kept = pinv(right[:, C], rtol=rtol)
    info = {"rows": R, "core_rank": kept, "pinv_rtol": rtol}
    return LowRankApprox(left, core, right, oracle.evaluations - start, C, "sicur", False, info)


def stacur(oracle, s, random_state=None, *, rtol=None):
    """Linear-time CUR (Drineas, Kannan & Mahoney 2006) with uniform probabilities.

    Samples ``c = s`` columns ``J`` and, independently, ``r = s`` rows ``I``
    uniformly without replacement, rescales them by ``1 / sqrt(c p_j)`` and
    ``1 / sqrt(r q_i)`` (here ``p = q = 1/n``) and joins them with
    ``U = (C^T C)^+ Psi^T``, ``Psi`` the sampled, rescaled rows of ``C``. With
    the constants collected this is

    .. math::

        \\tilde K = \\frac{n}{r}\\, K_{:, J}\\, (K_{:, J}^\\top K_{:, J})^{+}\\,
                    K_{I, J}^\\top\\, K_{I, :},

    which is what the authors' code computes (no rank-k truncation of ``U``).

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
    s : int
        Number of sampled columns and of sampled rows, ``1 <= s < n``.
    random_state : int, RandomState or None
    rtol : float, optional
        Relative tolerance of the pseudo-inverse of ``C^T C``; default ``s * eps``.

    Returns
    -------
    LowRankApprox
        ``landmarks = J``, ``info["rows"] = I``.
    """
    oracle = as_oracle(oracle)
    n = oracle.n
    s = check_sample_size(s, n)
    rtol = check_rtol(rtol)
    rng = check_random_state(random_state)
    start = oracle.evaluations
    J = draw_order(rng, n)[:s]
    I = draw_order(rng, n)[:s]  # noqa: E741 - the paper's name for the row sample
    left = oracle(np.arange(n), J)
    right = oracle(I, np.arange(n))
    gram_pinv, kept = pinv(left.T @ left, rtol=rtol)
    core = (n / s) * gram_pinv @ right[:, J].T
    info = {"rows": I, "core_rank": kept, "pinv_rtol": rtol}
    return LowRankApprox(left, core, right, oracle.evaluations - start, J, "stacur", False, info)
