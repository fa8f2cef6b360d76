"""Nyström approximations: classic, SMS-Nyström and the exact-shift baseline.

All three sample landmark columns ``S1`` and return

.. math::

    \\tilde K = K_{:, S_1}\\, (K_{S_1 S_1} - \\sigma I)^{+}\\, K_{S_1, :},

with shift ``sigma = 0`` (classic), ``sigma = alpha * min(0, lambda_min(K[S2, S2]))``
(SMS-Nyström, ``S2`` a larger sample containing ``S1``) or
``sigma = min(0, lambda_min(K))`` (exact shift, needs all of ``K``). The shift
is applied to the core only, as in the authors' code.

``s >= n`` makes every item a landmark (``s = n``, with a ``UserWarning``): the
whole matrix is evaluated, and classic Nyström then returns ``K`` itself for a
PSD ``K``. :class:`lowdim.cca.KernelCCA` treats ``n_landmarks >= n_samples`` the
same way.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._validation import check_choice, check_number
from ..similarity import full_matrix
from ._linalg import check_random_state
from ._linalg import (EIGEN_SOLVERS, as_oracle, check_rtol, draw_order, lambda_min,
                      landmark_count, pinv_symmetric, require_symmetric)
from ._lowrank import LowRankApprox

__all__ = ["nystrom", "sms_nystrom", "shifted_nystrom_exact"]


def _shifted_core(oracle, landmarks, shift, rtol):
    """Return ``C = K[:, S]``, ``pinv(K[S, S] - shift I)`` and the details for ``info``."""
    C = oracle(np.arange(oracle.n), landmarks)
    core, kept = pinv_symmetric(C[landmarks] - shift * np.eye(landmarks.size), rtol=rtol)
    return C, core, {"shift": float(shift), "core_rank": kept, "pinv_rtol": rtol}


def nystrom(oracle, s, random_state=None, *, rtol=None):
    """Classic Nyström: ``K[:, S] pinv(K[S, S]) K[S, :]`` with ``s`` uniform landmarks.

    Exact when ``K`` is PSD with ``rank(K) <= s`` and the landmark rows are
    independent; unstable on indefinite ``K``, whose principal submatrices can
    have eigenvalues near zero that the pseudo-inverse blows up.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
        A symmetric similarity oracle (an array is wrapped in a DenseOracle).
    s : int
        Number of landmarks, at least 1; ``s >= n`` uses every item (with a
        warning): the whole matrix.
    random_state : int, RandomState or None
        Seeds the landmarks.
    rtol : float, optional
        Eigenvalues of the core with ``|mu| <= rtol * max|mu|`` are dropped by the
        pseudo-inverse; default ``s * eps``.

    Returns
    -------
    LowRankApprox
        ``left = K[:, S]``, ``core = pinv(K[S, S])``, ``right = left.T``;
        ``evaluations = n s - s (s - 1) / 2`` on a fresh symmetric oracle.

    Notes
    -----
    With landmarks :math:`S` drawn uniformly, :math:`|S| = s`,

    .. math::

        \\tilde K = K_{:, S}\\, K_{S S}^{+}\\, K_{S, :},

    the projection of :math:`K^{1/2}`'s rows onto the span of the landmarks' rows
    when :math:`K` is PSD, so :math:`K - \\tilde K \\succeq 0`. On an indefinite
    :math:`K` an eigenvalue of :math:`K_{SS}` near zero makes :math:`K_{SS}^{+}`,
    and so :math:`\\tilde K`, blow up.

    Examples
    --------
    >>> from lowdim.approx import nystrom, relative_frobenius_error
    >>> X = rng.standard_normal((100, 5))
    >>> K = X @ X.T
    >>> approx = nystrom(K, 10, random_state=0)
    >>> approx.evaluations == 100 * 10 - 10 * 9 // 2
    True
    >>> bool(relative_frobenius_error(approx, K) < 1e-8)
    True
    """
    oracle = as_oracle(oracle)
    require_symmetric(oracle, "nystrom")
    s = landmark_count(s, oracle.n)
    rtol = check_rtol(rtol)
    rng = check_random_state(random_state)
    start = oracle.evaluations
    S = draw_order(rng, oracle.n)[:s]
    C, core, info = _shifted_core(oracle, S, 0.0, rtol)
    return LowRankApprox(C, core, C.T, oracle.evaluations - start, S, "nystrom", True, info)


def sms_nystrom(oracle, s, random_state=None, *, multiplier=2, alpha=1.5, eigen_solver="auto",
                rtol=None, rescale=False):
    """Submatrix-shifted Nyström (SMS-Nyström, Algorithm 1 of the paper).

    Samples ``S2`` of size ``multiplier * s`` and ``S1 ⊆ S2`` of size ``s``;
    computes ``e = min(0, lambda_min(K[S2, S2]))`` and returns the Nyström
    approximation with core ``pinv(K[S1, S1] - alpha * e * I)``. Since
    ``lambda_min(K[S1, S1]) >= e`` (interlacing), the shifted core is PSD for
    every ``alpha >= 1``, and for ``alpha > 1`` its eigenvalues are at least
    ``(alpha - 1) |e|``, so none is near zero to blow up. An ``alpha < 1``
    loses that guarantee (``alpha = 0`` is classic Nyström): it is accepted,
    for sweeps, with a warning.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
        A symmetric similarity oracle.
    s : int
        Number of landmarks ``s1``, at least 1; ``s >= n`` uses every item (with
        a warning), and the shift is then estimated from the whole matrix.
    random_state : int, RandomState or None
        Seeds the samples S2 and S1 and the Lanczos start vector.
    multiplier : float, default=2
        ``|S2| = min(round(multiplier * s), n)``, Python's ``round`` (halves to
        even: ``round(1.5 * 3) = 4``); must be ``>= 1``. The paper's
        ``s2 = 2 s1`` is the default.
    alpha : float, default=1.5
        Safety factor on the shift (the paper's alpha, "> 1", typically 1.5).
        Values in ``[0, 1)`` raise a ``UserWarning``: the core may then be
        indefinite.
    eigen_solver : {"auto", "dense", "lanczos"}, default="auto"
        How ``lambda_min(K[S2, S2])`` is computed (see :func:`lambda_min`).
    rtol : float, optional
        Pseudo-inverse tolerance, as in :func:`nystrom`.
    rescale : bool, default=False
        Multiply the core by ``||K[S1, S1] - 2 shift I||_F / ||K[S1, S1] - shift I||_F``,
        i.e. divide ``K~`` by ``||A||_F / ||A - shift I||_F`` with ``A`` the
        shifted core block: the ``sms_nystrom_rescale`` variant of the authors'
        coreference code (``new_rescale=True`` of
        ``nystrom_with_eig_estimate_sub`` in ``cross_doc_cor/low_rank.py``),
        which undoes part of the shrinkage the shift causes. The paper does
        not rescale.

    Returns
    -------
    LowRankApprox
        ``info`` holds ``S2``, ``lambda_min_S2``, ``shift`` (= alpha * e) and
        ``rescale`` (the factor applied to the core, 1 without rescaling);
        ``method`` is ``"sms_nystrom"`` or ``"sms_nystrom_rescale"``.
        The extra evaluations beyond classic Nyström are the
        ``m (m + 1) / 2`` entries of ``K[S2 \\ S1, S2 \\ S1]``, ``m = |S2| - s``.

    Notes
    -----
    With :math:`S_1 \\subset S_2`, :math:`|S_1| = s`,
    :math:`|S_2| = \\min(\\operatorname{round}(m s), n)` (``multiplier`` m; the paper
    typically sets :math:`s_2 = 2 s_1`, which needs no rounding) and
    :math:`e = \\min(0, \\lambda_{\\min}(K_{S_2 S_2}))`,

    .. math::

        \\tilde K = K_{:, S_1}\\, (K_{S_1 S_1} - \\alpha e I)^{+}\\, K_{S_1, :}.

    Eigenvalue interlacing gives :math:`\\lambda_{\\min}(K_{S_1 S_1}) \\ge e`, so the
    shifted core has eigenvalues at least :math:`(\\alpha - 1)|e|`: none near zero
    for :math:`\\alpha > 1`. The cost is :math:`ns` evaluations plus the
    :math:`O(s^2)` of :math:`K_{S_2 S_2}`, and one extreme eigenvalue.

    Examples
    --------
    >>> from lowdim.approx import nystrom, relative_frobenius_error, sms_nystrom
    >>> X = rng.standard_normal((300, 10))
    >>> K = np.tanh(X @ X.T / 5 + 1)  # a sigmoid kernel: indefinite
    >>> round(float(np.linalg.eigvalsh(K)[0]), 2)
    -9.86
    >>> sms = sms_nystrom(K, 20, random_state=0)
    >>> round(sms.info["shift"], 2)
    -4.27
    >>> round(relative_frobenius_error(sms, K), 2)
    0.41
    >>> bool(relative_frobenius_error(nystrom(K, 20, random_state=0), K) > 5)  # classic: blows up
    True
    """
    oracle = as_oracle(oracle)
    require_symmetric(oracle, "sms_nystrom")
    n = oracle.n
    s = landmark_count(s, n)
    check_number(multiplier, "multiplier", minimum=1)
    check_number(alpha, "alpha", minimum=0)
    check_choice(eigen_solver, "eigen_solver", EIGEN_SOLVERS)
    rtol = check_rtol(rtol)
    if alpha < 1:
        warnings.warn(f"`alpha` = {alpha} < 1: the shifted core K[S1, S1] - alpha * e * I is "
                      "no longer guaranteed to be PSD (the paper uses alpha > 1, "
                      "typically 1.5)", UserWarning, stacklevel=2)
    s2 = min(int(round(multiplier * s)), n)  # S2 is at most every item
    rng = check_random_state(random_state)
    start = oracle.evaluations
    S2 = draw_order(rng, n)[:s2]
    S1 = S2[:s]
    lam = lambda_min(oracle(S2, S2), solver=eigen_solver, random_state=rng)
    # K[S2, S1] is cached by now, so the columns cost only the rows outside S2.
    shift = alpha * min(0.0, lam)
    C, core, info = _shifted_core(oracle, S1, shift, rtol)
    factor = _rescale_factor(C[S1], shift) if rescale else 1.0
    info.update(S2=S2, lambda_min_S2=lam, alpha=float(alpha), rescale=factor)
    method = "sms_nystrom_rescale" if rescale else "sms_nystrom"
    return LowRankApprox(C, factor * core, C.T, oracle.evaluations - start, S1, method, True,
                         info)


def _rescale_factor(W, shift) -> float:
    """``||W - 2 shift I||_F / ||W - shift I||_F``: 1 / alpha of the authors' ``new_rescale``."""
    eye = np.eye(W.shape[0])
    shifted = np.linalg.norm(W - shift * eye)
    return float(np.linalg.norm(W - 2.0 * shift * eye) / shifted) if shifted > 0 else 1.0


def shifted_nystrom_exact(oracle, s, random_state=None, *, lambda_min_K=None, rtol=None):
    """Nyström on ``K - lambda_min(K) I`` (shift on the core): the full-matrix baseline.

    Needs ``lambda_min`` of the whole matrix, so it forms ``K`` through the
    oracle (unless ``lambda_min_K`` is given) and is charged the whole matrix:
    ``n (n + 1) / 2`` evaluations.

    Parameters
    ----------
    oracle : SimilarityOracle or ndarray of shape (n, n)
        A symmetric similarity oracle (an array is wrapped in a DenseOracle).
    s : int
        Number of landmarks, at least 1; ``s >= n`` uses every item (with a
        warning).
    random_state : int, RandomState or None
        Seeds the landmarks.
    lambda_min_K : float, optional
        ``lambda_min(K)`` if already known (saves forming ``K`` again when
        sweeping ``s`` and seeds).
    rtol : float, optional
        Pseudo-inverse tolerance, as in :func:`nystrom`.

    Returns
    -------
    LowRankApprox
        ``info`` holds ``shift`` (= ``min(0, lambda_min(K))``) and ``lambda_min_K``.

    Examples
    --------
    >>> from lowdim.approx import shifted_nystrom_exact
    >>> X = rng.standard_normal((50, 5))
    >>> K = np.tanh(X @ X.T / 5)
    >>> approx = shifted_nystrom_exact(K, 10, random_state=0)
    >>> approx.evaluations == 50 * 51 // 2
    True
    >>> bool(np.isclose(approx.info["shift"], np.linalg.eigvalsh(K)[0]))
    True
    """
    oracle = as_oracle(oracle)
    require_symmetric(oracle, "shifted_nystrom_exact")
    n = oracle.n
    s = landmark_count(s, n)
    rtol = check_rtol(rtol)
    lambda_min_K = check_number(lambda_min_K, "lambda_min_K", none_ok=True)
    rng = check_random_state(random_state)
    start = oracle.evaluations
    if lambda_min_K is None:
        lambda_min_K = lambda_min(full_matrix(oracle), solver="dense")
    shift = min(0.0, float(lambda_min_K))
    S = draw_order(rng, n)[:s]
    C, core, info = _shifted_core(oracle, S, shift, rtol)
    info["lambda_min_K"] = float(lambda_min_K)
    evaluations = max(oracle.evaluations - start, n * (n + 1) // 2)
    return LowRankApprox(C, core, C.T, evaluations, S, "shifted_nystrom_exact", True, info)
