"""The kernel CCA experiment as plain functions: one call per workflow job.

One *setting* is a two-view dataset with a similarity per view (a named kernel,
or the indefinite pairwise MLP trained on rows set aside for it). On its held-out
rows the experiment measures the total correlation captured (TCC, the sum of
the k canonical correlations) and the first canonical correlation of

- :class:`~lowdim.cca.KernelCCA` with Nyström or SMS-Nyström features, for each
  number of landmarks and seed (``kernel_cca_nystrom``, ``kernel_cca_sms_nystrom``);
- linear CCA on the centred views (``linear_cca``, no similarity evaluated);
- exact regularised kernel CCA from the two ``n x n`` matrices
  (``exact_kernel_cca``, :func:`~lowdim.cca.exact_kernel_cca`), where n is small.

Each row counts the similarity evaluations of both views: ``evaluations_fit``
(the approximation, or the whole matrix, plus the median heuristic's distances)
and ``evaluations_heldout`` (each held-out row against the landmarks, or against
every training row for the exact reference). With ``gamma`` None the width of
each view's kernel is set once per setting and shared by every run and the
reference, so that all of them approximate the same kernel matrices; every row
is still charged the heuristic's distances, as a run on its own would be.
"""

from __future__ import annotations

import functools
import logging
import time

import numpy as np
import pandas as pd

from .._validation import ArgumentValueError
from ..seeding import derive_seed
from ..similarity.kernel import KERNELS
from .exact import ExactCCA
from .experiments import Views, _max_abs
from .kernel import KernelCCA, _stack_rows, exact_kernel_cca, make_oracle
from .methods import RESCALINGS
from .metrics import canonical_correlations

__all__ = ["KERNEL_CCA_COLUMNS", "SIMILARITIES", "kernel_cca_experiment", "run_exact_kernel_cca",
           "run_kernel_cca", "run_linear_cca", "setting_views", "train_mlp_kernels"]

logger = logging.getLogger("lowdim")

#: A setting's similarity per view: a named kernel, or the pairwise MLP trained on reserved
#: rows.
SIMILARITIES = (*KERNELS, "mlp")

#: Columns of every row the experiment writes (tidy: one row per fitted model).
KERNEL_CCA_COLUMNS = ["setting", "dataset", "similarity", "method", "approximation",
                      "n_landmarks", "seed", "n_train", "n_heldout", "n_components", "reg",
                      "evaluations_fit", "evaluations_heldout", "evaluations", "seconds",
                      "tcc_in", "tcc_out", "rho1_out", "shift_x", "shift_y"]


def setting_views(dataset, *, rescale="none", heldout_fraction=0.2, reserve=0, n_rows=0, seed=0):
    """Cut a two-view dataset into rows reserved (for training a similarity), training, held out.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
        ``kind == "two_view"``.
    rescale : {"none", "max_abs"}, default="none"
        "max_abs" divides each view by its largest absolute value (over all rows,
        so reserved, training and held-out rows share one scale).
    heldout_fraction : float, default=0.2
        Of the rows not reserved.
    reserve : int, default=0
        Rows set aside first (seeded), e.g. to train a pairwise MLP on.
    n_rows : int, default=0
        Rows kept for CCA (training and held out), a seeded subset of those not
        reserved; 0 keeps them all.
    seed : int, default=0

    Returns
    -------
    views : Views
    reserved : tuple (X, Y, y)
        The reserved rows of both views and their labels (``y`` None when the
        dataset has none).

    Examples
    --------
    >>> from lowdim.cca.kernel_experiments import setting_views
    >>> from lowdim.data import get_spec
    >>> data = get_spec("digits_halves").prepare(n_rows=400)
    >>> views, (X_res, Y_res, y_res) = setting_views(data, reserve=100, n_rows=200, seed=0)
    >>> views.X.shape, views.X_test.shape, X_res.shape, y_res.shape
    ((160, 32), (40, 32), (100, 32), (100,))
    """
    if dataset.kind != "two_view" or dataset.Y is None:
        raise ArgumentValueError(f"dataset {dataset.name!r} is not a two-view dataset "
                                 f"(kind {dataset.kind!r})", "dataset")
    if rescale not in RESCALINGS:
        raise ArgumentValueError(f"`rescale` must be one of {list(RESCALINGS)}, got {rescale!r}",
                                 "rescale")
    X, Y = dataset.X, dataset.Y
    if rescale == "max_abs":
        X, Y = X / max(_max_abs(X), 1e-300), Y / max(_max_abs(Y), 1e-300)
    n = X.shape[0]
    if not 0 <= reserve <= n - 4:
        raise ArgumentValueError(f"`reserve` = {reserve} must leave at least 4 of the {n} rows "
                                 f"of {dataset.name!r} for CCA", "reserve")
    order = np.random.default_rng(seed).permutation(n)
    rest = order[reserve:] if n_rows <= 0 else order[reserve:reserve + n_rows]
    cut = rest.size - int(round(heldout_fraction * rest.size))
    train, test, kept = np.sort(rest[:cut]), np.sort(rest[cut:]), np.sort(order[:reserve])
    y = None if dataset.y is None else dataset.y[kept]
    return Views(X[train], Y[train], X[test], Y[test]), (X[kept], Y[kept], y)


def train_mlp_kernels(reserved, options, seed):
    """One pairwise MLP per view, trained on the reserved rows' labels: oracle factories.

    Parameters
    ----------
    reserved : tuple (X, Y, y)
        From :func:`setting_views`.
    options : dict
        :class:`~lowdim.similarity.PairwiseMLP` options (``hidden_layer_sizes``,
        ``n_pairs``, ``positive_fraction``, ``alpha``, ``max_iter``) and ``score``
        (``probability`` or ``logit``).
    seed : int

    Returns
    -------
    kernels : tuple of two callables
        ``rows -> PairwiseMLPOracle`` for the x and y views.

    Examples
    --------
    >>> from lowdim.cca.kernel_experiments import setting_views, train_mlp_kernels
    >>> from lowdim.data import get_spec
    >>> data = get_spec("digits_halves").prepare(n_rows=400)
    >>> views, reserved = setting_views(data, reserve=200, n_rows=100, seed=0)
    >>> kernel_x, kernel_y = train_mlp_kernels(reserved, {"hidden_layer_sizes": [16],
    ...                                                   "n_pairs": 2000, "max_iter": 20}, seed=0)
    >>> oracle = kernel_x(views.X)
    >>> oracle.n, oracle([0], [1]).shape
    (80, (1, 1))
    """
    from ..similarity.mlp import PairwiseMLP, PairwiseMLPOracle

    X, Y, y = reserved
    if y is None:
        raise ArgumentValueError("the pairwise MLP similarity needs labels to train on; the "
                                 "dataset has none", "reserved")
    options = dict(options)
    score = options.pop("score", "probability")
    options["hidden_layer_sizes"] = tuple(options.get("hidden_layer_sizes", (64,)))
    kernels = []
    for view, A in zip("xy", (X, Y)):
        start = time.perf_counter()
        model = PairwiseMLP(**options, random_state=derive_seed(seed, "mlp", view))
        model.fit(A, y)
        logger.info("pairwise MLP of view %s trained on %d rows in %.1f s", view, len(y),
                    time.perf_counter() - start)
        kernels.append(functools.partial(PairwiseMLPOracle, model=model, score=score))
    return tuple(kernels)


def _row(method, approximation, n_landmarks, seed, views, k, reg, fit, heldout, seconds,
         tcc_in, rho_out, shifts=(0.0, 0.0)):
    return {"method": method, "approximation": approximation, "n_landmarks": n_landmarks,
            "seed": seed, "n_train": views.X.shape[0], "n_heldout": views.X_test.shape[0],
            "n_components": k, "reg": reg, "evaluations_fit": int(fit),
            "evaluations_heldout": int(heldout), "evaluations": int(fit + heldout),
            "seconds": seconds, "tcc_in": float(tcc_in), "tcc_out": float(np.sum(rho_out)),
            "rho1_out": float(rho_out[0]), "shift_x": shifts[0], "shift_y": shifts[1]}


def run_kernel_cca(views, *, kernel, gamma=None, approximation, n_landmarks, n_components, reg,
                   solver="appgrad", max_iter=1000, tol=1e-6, seed=0) -> dict:
    """Fit :class:`~lowdim.cca.KernelCCA` on the training rows, score the held-out rows.

    Returns
    -------
    row : dict
        The columns of :data:`KERNEL_CCA_COLUMNS` (but setting, dataset, similarity).

    Examples
    --------
    >>> from lowdim.cca.kernel_experiments import run_kernel_cca, setting_views
    >>> from lowdim.data import get_spec
    >>> views, _ = setting_views(get_spec("nonlinear_two_view").prepare(n=300), seed=0)
    >>> row = run_kernel_cca(views, kernel="rbf", approximation="nystrom", n_landmarks=100,
    ...                      n_components=2, reg=1e-3, solver="exact")
    >>> row["n_train"], row["evaluations_fit"], round(row["tcc_out"], 1)
    (240, 77900, 1.3)
    """
    start = time.perf_counter()
    est = KernelCCA(n_components, kernel=kernel, gamma=gamma, n_landmarks=n_landmarks,
                    approximation=approximation, solver=solver, reg=reg, max_iter=max_iter,
                    tol=tol, random_state=seed)
    train_scores = est.fit_transform(views.X, views.Y)  # no similarity evaluated twice
    rho_out = est.score_components(views.X_test, views.Y_test)
    seconds = time.perf_counter() - start
    s = est.landmark_indices_.size
    heldout = 2 * views.X_test.shape[0] * s  # each held-out row against the s landmarks, per view
    tcc_in = float(np.sum(canonical_correlations(*train_scores)))
    return _row(f"kernel_cca_{approximation}", approximation, s, seed, views, n_components, reg,
                sum(est.evaluations_), heldout, seconds, tcc_in, rho_out, est.shift_)


def run_linear_cca(views, *, n_components, reg) -> dict:
    """Exact linear CCA on the views centred by their training means (no similarity at all).

    Examples
    --------
    >>> from lowdim.cca.kernel_experiments import run_linear_cca, setting_views
    >>> from lowdim.data import get_spec
    >>> views, _ = setting_views(get_spec("nonlinear_two_view").prepare(n=300), seed=0)
    >>> row = run_linear_cca(views, n_components=2, reg=1e-3)
    >>> row["method"], row["evaluations"], round(row["tcc_out"], 1)
    ('linear_cca', 0, 0.3)
    """
    start = time.perf_counter()
    mx, my = views.X.mean(axis=0), views.Y.mean(axis=0)
    est = ExactCCA(n_components, reg=reg).fit(views.X - mx, views.Y - my)
    rho_out = est.score_components(views.X_test - mx, views.Y_test - my)
    seconds = time.perf_counter() - start
    tcc_in = float(np.sum(est.score_components(views.X - mx, views.Y - my)))
    return _row("linear_cca", "", 0, 0, views, n_components, reg, 0, 0, seconds, tcc_in, rho_out)


def _pair(value):
    """``(x, y)`` of a value given once or per view."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def _setting_gammas(views, kernel, gamma, seed):
    """The width of each view's kernel, set once for every run of a setting.

    With ``gamma=None`` the median heuristic subsamples 200 training rows; were
    each run to draw its own subsample, every Nyström run and the exact
    reference would approximate a slightly different kernel matrix.

    Parameters
    ----------
    views : Views
        The training rows ``views.X`` and ``views.Y`` set the widths.
    kernel : str, callable or pair of them
    gamma : float, None or pair of them
    seed : int

    Returns
    -------
    gammas : tuple of two (float or None)
        None for a callable kernel or one without a width.
    evaluations : tuple of two int
        Distances the heuristic computed per view (0 when ``gamma`` was given).

    Examples
    --------
    >>> from lowdim.cca.kernel_experiments import _setting_gammas, setting_views
    >>> from lowdim.data import get_spec
    >>> views, _ = setting_views(get_spec("nonlinear_two_view").prepare(n=300), seed=0)
    >>> gammas, evaluations = _setting_gammas(views, "rbf", None, seed=0)
    >>> [round(g, 2) for g in gammas], evaluations
    ([0.26, 0.25], (19900, 19900))
    """
    from ..similarity.kernel import GAMMA_KERNELS, median_gamma

    widths = []
    for view, kern, width, A in zip("xy", _pair(kernel), _pair(gamma), (views.X, views.Y)):
        if width is None and not callable(kern) and kern in GAMMA_KERNELS:
            widths.append(median_gamma(A, kern, random_state=derive_seed(seed, "gamma", view)))
        else:
            widths.append((width, 0))
    (gx, ex), (gy, ey) = widths
    return (gx, gy), (int(ex), int(ey))


def _with_heuristic(row, evaluations):
    """Charge a run the heuristic's distances, as when it computed the width itself."""
    row["evaluations_fit"] += evaluations
    row["evaluations"] += evaluations
    return row


def _exact_view(kernel, gamma, A, A_test, seed):
    """Training matrix, held-out rows and evaluations of one view's exact kernel."""
    from ..similarity import full_matrix
    from ..similarity.kernel import GAMMA_KERNELS, median_gamma

    heuristic = 0
    if gamma is None and not callable(kernel) and kernel in GAMMA_KERNELS:
        gamma, heuristic = median_gamma(A, kernel, random_state=seed)
    oracle = make_oracle(kernel, A, gamma=gamma)
    oracle.cache = False
    K = full_matrix(oracle)
    n = A.shape[0]
    stacked = make_oracle(kernel, _stack_rows(A, A_test), gamma=gamma)
    K_test = stacked(np.arange(n, n + A_test.shape[0]), np.arange(n))
    return K, K_test, oracle.evaluations + heuristic, stacked.evaluations


def run_exact_kernel_cca(views, *, kernel, gamma=None, n_components, reg, seed=0) -> dict:
    """Exact regularised kernel CCA from the two ``n x n`` training matrices (the reference).

    ``kernel`` and ``gamma`` are each one value or a pair ``(x, y)``, as
    :class:`~lowdim.cca.KernelCCA` takes them; with ``gamma=None`` a named
    kernel's width comes from the same median heuristic, on a subsample of its
    own (give the width of the runs it is compared with to use their kernel).

    Examples
    --------
    >>> from lowdim.cca.kernel_experiments import run_exact_kernel_cca, setting_views
    >>> from lowdim.data import get_spec
    >>> views, _ = setting_views(get_spec("nonlinear_two_view").prepare(n=300), seed=0)
    >>> row = run_exact_kernel_cca(views, kernel="rbf", n_components=2, reg=1e-3)
    >>> row["method"], row["evaluations_fit"], round(row["tcc_out"], 1)
    ('exact_kernel_cca', 97640, 1.3)
    """
    from sklearn.preprocessing import KernelCenterer

    start = time.perf_counter()
    kernels, gammas = _pair(kernel), _pair(gamma)
    parts = [_exact_view(kern, width, A, A_test, derive_seed(seed, "gamma", view))
             for view, kern, width, A, A_test in zip("xy", kernels, gammas, (views.X, views.Y),
                                                     (views.X_test, views.Y_test))]
    (Kx, Kx_test, fit_x, out_x), (Ky, Ky_test, fit_y, out_y) = parts
    _, alpha, beta = exact_kernel_cca(Kx, Ky, n_components, reg=reg)
    cx, cy = KernelCenterer().fit(Kx), KernelCenterer().fit(Ky)
    rho_out = canonical_correlations(cx.transform(Kx_test) @ alpha, cy.transform(Ky_test) @ beta)
    seconds = time.perf_counter() - start
    tcc_in = float(np.sum(canonical_correlations(cx.transform(Kx) @ alpha,
                                                 cy.transform(Ky) @ beta)))
    return _row("exact_kernel_cca", "", views.X.shape[0], seed, views, n_components, reg,
                fit_x + fit_y, out_x + out_y, seconds, tcc_in, rho_out)


def kernel_cca_experiment(dataset, setting, *, seed=0) -> pd.DataFrame:
    """Every measurement of one setting: kernel CCA per approximation, landmarks and seed,
    linear CCA, and exact kernel CCA when the training rows are at most ``exact_max_n``.

    Parameters
    ----------
    dataset : lowdim.data.Dataset
    setting : dict
        ``name``, ``similarity`` (a kernel name or ``mlp``), ``gamma`` (None =
        median heuristic), ``approximations``, ``landmarks``, ``n_seeds``,
        ``n_components``, ``reg``, ``solver``, ``max_iter``, ``tol``,
        ``rescale``, ``n_rows``, ``heldout_fraction``, ``exact_max_n``, and ``mlp`` (the
        pairwise MLP's options, with ``train_items`` rows reserved for it).
    seed : int
        The job's seed; every run derives its own from it.

    Returns
    -------
    rows : DataFrame
        Columns :data:`KERNEL_CCA_COLUMNS`.

    Examples
    --------
    >>> from lowdim.cca.kernel_experiments import kernel_cca_experiment
    >>> from lowdim.data import get_spec
    >>> data = get_spec("nonlinear_two_view").prepare(n=300)
    >>> setting = {"name": "demo", "similarity": "rbf", "gamma": None,
    ...            "approximations": ["nystrom"], "landmarks": [100], "n_seeds": 1,
    ...            "n_components": 2, "reg": 1e-3, "solver": "exact", "max_iter": 100,
    ...            "tol": 1e-6, "rescale": "none", "n_rows": 0, "heldout_fraction": 0.2,
    ...            "exact_max_n": 0, "mlp": {}}
    >>> rows = kernel_cca_experiment(data, setting, seed=0)
    >>> rows[["method", "n_landmarks", "n_train", "tcc_out"]].round(1).to_numpy().tolist()
    [['linear_cca', 0, 240, 0.2], ['kernel_cca_nystrom', 100, 240, 1.5]]
    """
    is_mlp = setting["similarity"] == "mlp"
    reserve = int(setting["mlp"]["train_items"]) if is_mlp else 0
    views, reserved = setting_views(dataset, rescale=setting["rescale"],
                                    heldout_fraction=setting["heldout_fraction"],
                                    reserve=reserve, n_rows=setting.get("n_rows", 0),
                                    seed=derive_seed(seed, "split"))
    if is_mlp:
        mlp = {key: value for key, value in setting["mlp"].items() if key != "train_items"}
        kernel = train_mlp_kernels(reserved, mlp, derive_seed(seed, "mlp"))
    else:
        kernel = setting["similarity"]
    k, reg = setting["n_components"], setting["reg"]
    gammas, heuristic = _setting_gammas(views, kernel, setting.get("gamma"),
                                        derive_seed(seed, "gamma"))
    rows = [run_linear_cca(views, n_components=k, reg=reg)]
    for approximation in setting["approximations"]:
        for s in setting["landmarks"]:
            for repetition in range(setting["n_seeds"]):
                rows.append(_with_heuristic(run_kernel_cca(
                    views, kernel=kernel, gamma=gammas, approximation=approximation,
                    n_landmarks=s, n_components=k, reg=reg, solver=setting["solver"],
                    max_iter=setting["max_iter"], tol=setting["tol"],
                    seed=derive_seed(seed, "landmarks", s, repetition)), sum(heuristic)))
                logger.info("%s, s = %d, seed %d: held-out TCC %.3f", rows[-1]["method"], s,
                            repetition, rows[-1]["tcc_out"])
    if views.X.shape[0] <= setting["exact_max_n"]:
        rows.append(_with_heuristic(run_exact_kernel_cca(
            views, kernel=kernel, gamma=gammas, n_components=k, reg=reg,
            seed=derive_seed(seed, "exact")), sum(heuristic)))
    table = pd.DataFrame(rows)
    table.insert(0, "similarity", setting["similarity"])
    table.insert(0, "dataset", dataset.name)
    table.insert(0, "setting", setting["name"])
    return table[KERNEL_CCA_COLUMNS]
