"""Error-versus-sample-size sweeps (the paper's Figure 1): one method, or every method of a matrix."""

from __future__ import annotations

import logging
import time
from functools import partial

import numpy as np
import pandas as pd
import scipy.linalg

from .. import __version__
from .._validation import ArgumentValueError
from ..seeding import derive_seed
from ..similarity import DenseOracle
from ._linalg import lambda_min
from .cur import sicur, stacur
from .error import relative_frobenius_error
from .methods import METHOD_NAMES, method_options
from .nystrom import nystrom, shifted_nystrom_exact, sms_nystrom
from .optimal import optimal

__all__ = ["METHODS", "error_curve", "error_curves", "sample_size"]

logger = logging.getLogger("lowdim")

#: Method name (:data:`~lowdim.approx.methods.METHOD_NAMES`) ->
#: ``function(oracle, s, random_state, **options) -> LowRankApprox``.
METHODS = {name: function for name, function in zip(METHOD_NAMES, (
    nystrom, sms_nystrom, shifted_nystrom_exact, sicur, stacur, optimal,
    # variants of the authors' code, each its own name in result files
    partial(sms_nystrom, rescale=True), partial(stacur, rows="independent")))}


def sample_size(fraction, n) -> int:
    """``s = round(fraction * n)``, at least 2 (SiCUR needs ``s // 2 >= 1``).

    Parameters
    ----------
    fraction : float
        Sample fraction ``s / n``.
    n : int
        Items.

    Returns
    -------
    s : int
        The sample size.

    Examples
    --------
    >>> from lowdim.approx import sample_size
    >>> sample_size(0.1, 500), sample_size(0.001, 500)
    (50, 2)
    """
    if not 0.0 < fraction < 1.0:
        raise ArgumentValueError(f"`fraction` must be in (0, 1), got {fraction}", "fraction")
    return max(2, int(round(fraction * n)))


def _precompute(K, method):
    """Spectral quantities the full-matrix baselines need, computed once per sweep."""
    t0 = time.perf_counter()
    if method == "optimal":
        options = {"eigenpairs": scipy.linalg.eigh(K)}
    elif method == "shifted_nystrom_exact":
        options = {"lambda_min_K": lambda_min(K, solver="dense")}
    else:
        options = {}
    return options, time.perf_counter() - t0


def error_curve(K, method, fractions, n_seeds, base_seed, matrix, options=None) -> pd.DataFrame:
    """Relative Frobenius error of one method over sample fractions and seeds.

    Each run gets a fresh count of evaluations on a :class:`DenseOracle` over
    ``K`` and the seed ``derive_seed(base_seed, matrix, s, repetition)``;
    the seed does not depend on the method, so methods share landmarks
    (see :func:`lowdim.approx._linalg.draw_order`). ``seconds`` is the
    method's wall time with ``K`` already computed (entries are looked up),
    plus, for the full-matrix baselines, the eigendecomposition they need.

    Parameters
    ----------
    K : ndarray of shape (n, n), symmetric
        The exact matrix.
    method : str
        A key of :data:`METHODS`.
    fractions : sequence of float
        Sample fractions ``s / n``.
    n_seeds : int
        Repetitions per fraction.
    base_seed : int
        The run's seed, from which each run's seed is derived.
    matrix : str
        Name of the matrix (used in the seed and the output).
    options : dict, optional
        Keyword arguments for the method (e.g. ``multiplier``, ``alpha``).

    Returns
    -------
    table : DataFrame
        One row per run: ``matrix, method, s, s/n, repetition, seed, error,
        evaluations, seconds, shift, version`` (of lowdim).

    Examples
    --------
    >>> from lowdim.approx import error_curve
    >>> X = rng.standard_normal((40, 3))
    >>> table = error_curve(X @ X.T, "nystrom", fractions=[0.1, 0.2], n_seeds=2, base_seed=0,
    ...                     matrix="toy")
    >>> table[["s", "s/n", "repetition", "evaluations"]].to_numpy().tolist()
    [[4.0, 0.1, 0.0, 154.0], [4.0, 0.1, 1.0, 154.0], [8.0, 0.2, 0.0, 292.0], [8.0, 0.2, 1.0, 292.0]]
    >>> bool((table.error < 1e-8).all())
    True
    """
    if method not in METHODS:
        raise ArgumentValueError(f"`method` must be one of {sorted(METHODS)}, got {method!r}",
                                 "method")
    oracle = DenseOracle(K)
    n = oracle.n
    extra, setup_seconds = _precompute(oracle.K, method)
    options = {**(options or {}), **extra}
    rows = []
    for fraction in fractions:
        s = sample_size(fraction, n)
        for rep in range(int(n_seeds)):
            seed = derive_seed(base_seed, matrix, s, rep)
            oracle.reset()
            t0 = time.perf_counter()
            approx = METHODS[method](oracle, s, random_state=seed, **options)
            seconds = time.perf_counter() - t0 + setup_seconds
            rows.append({"matrix": matrix, "method": method, "s": s, "s/n": s / n,
                         "repetition": rep, "seed": seed,
                         "error": relative_frobenius_error(approx, oracle),
                         "evaluations": approx.evaluations, "seconds": seconds,
                         "shift": approx.info.get("shift", np.nan), "version": __version__})
        logger.info("%s %s s=%d: median error %.4g over %d seeds", matrix, method, s,
                    np.median([r["error"] for r in rows[-int(n_seeds):]]), n_seeds)
    return pd.DataFrame(rows)


def error_curves(K, methods, fractions, n_seeds, base_seed, matrix, sms=None) -> pd.DataFrame:
    """:func:`error_curve` of each of ``methods`` on one matrix, one table in their order.

    Parameters
    ----------
    K : ndarray of shape (n, n), symmetric
        The whole similarity matrix.
    methods : sequence of str
        Keys of :data:`METHODS`.
    fractions, n_seeds, base_seed, matrix
        As for :func:`error_curve`: the seeds do not depend on the method, so the methods
        share landmarks.
    sms : dict, optional
        SMS-Nyström's options (``multiplier``, ``alpha``, ``eigen_solver``), given to the
        methods that take them (:func:`lowdim.approx.methods.method_options`).

    Returns
    -------
    table : DataFrame
        The rows of every method's :func:`error_curve`, method after method.

    Examples
    --------
    >>> import numpy as np
    >>> from lowdim.approx import error_curves
    >>> X = np.random.default_rng(0).standard_normal((40, 3))
    >>> table = error_curves(X @ X.T, ["nystrom", "sms_nystrom"], fractions=[0.2], n_seeds=2,
    ...                      base_seed=0, matrix="toy", sms={"alpha": 1.5})
    >>> table.groupby("method", sort=False).size().to_dict()
    {'nystrom': 2, 'sms_nystrom': 2}
    """
    return pd.concat([error_curve(K, method, fractions, n_seeds, base_seed, matrix,
                                  options=method_options(method, sms)) for method in methods],
                     ignore_index=True)
