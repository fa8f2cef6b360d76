"""The paper's CCA experiments as plain functions: one call per workflow job.

Each function takes a prepared two-view :class:`~lowdim.data.Dataset` (or the
train/held-out views cut from it) and returns tidy rows: one row per
measurement, with the method, the setting, FLOPs, seconds and TCC in-sample
(``tcc_in``, training rows) and out-of-sample (``tcc_out``, held-out rows).
"""

from __future__ import annotations

import importlib
import logging
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._validation import ArgumentValueError
from ..seeding import derive_seed
from .methods import APPGRAD_METHODS, HEURISTIC_METHODS, RESCALINGS

logger = logging.getLogger("lowdim")

# The estimators (and scikit-learn with them) load on first use: the tidy and table jobs
# that read add_pcc, tcc_points and table_datasets from here start without them.
__all__ = ["Views", "training_views", "load_views", "dataset_stats", "checkpoint_iterations",
           "run_exact", "run_appgrad", "run_heuristic", "replicate_seeds", "run_replicates",
           "add_pcc", "tcc_points",
           "table_datasets", "HEURISTICS", "TCC_COLUMNS"]

#: Heuristic method name -> name of its estimator class in lowdim.cca.heuristics (Figure 2)
_HEURISTIC_CLASSES = {"nw_cca": "NWCCA", "dw_cca": "DWCCA", "pca_cca": "PCACCA"}

#: Heuristic method name -> estimator class (Figure 2); the classes are imported on first
#: access (``__getattr__`` below), so that this annotation declares it without a value.
HEURISTICS: dict[str, type]


def __getattr__(name):
    if name == "HEURISTICS":
        module = importlib.import_module(".heuristics", __package__)
        return {method: getattr(module, cls) for method, cls in _HEURISTIC_CLASSES.items()}
    if name == "checkpoint_iterations":
        return importlib.import_module(".appgrad", __package__).checkpoint_iterations
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class Views:
    """Training and held-out views (held-out may be None).

    Examples
    --------
    >>> from lowdim.cca.experiments import Views
    >>> views = Views(np.ones((8, 3)), np.ones((8, 2)), np.ones((2, 3)), np.ones((2, 2)))
    >>> [a.shape for a in views.heldout]
    [(2, 3), (2, 2)]
    >>> Views(np.ones((8, 3)), np.ones((8, 2))).heldout is None
    True
    """

    X: object
    Y: object
    X_test: object = None
    Y_test: object = None

    @property
    def heldout(self):
        return None if self.X_test is None else (self.X_test, self.Y_test)


def _max_abs(A) -> float:
    data = A.data if sp.issparse(A) else A
    return float(np.max(np.abs(data))) if data.size else 0.0


def training_views(dataset, *, rescale: str = "none", heldout_fraction: float = 0.2,
                   seed: int = 0) -> Views:
    """Cut a two-view dataset into training and held-out views.

    The dataset's own split (``train_idx[0]``/``test_idx[0]``) is used when it
    has one; otherwise a seeded random ``heldout_fraction`` of the rows is
    held out (none when 0).

    Parameters
    ----------
    dataset : lowdim.data.Dataset
        ``kind == "two_view"``.
    rescale : {"none", "max_abs"}, default="none"
        "max_abs" divides each view by its largest absolute training value
        (MNIST grey levels 0-255 become 0-1, as in the authors' code), which
        sets the scale the ridge ``reg`` acts on. Sparse views stay sparse.
    heldout_fraction : float, default=0.2
    seed : int, default=0

    Returns
    -------
    Views

    Examples
    --------
    >>> from lowdim.cca.experiments import training_views
    >>> from lowdim.data import get_spec
    >>> digits = get_spec("digits_halves").prepare(n_rows=500)
    >>> views = training_views(digits, rescale="max_abs", heldout_fraction=0.2, seed=0)
    >>> views.X.shape, views.Y.shape, views.X_test.shape, float(views.X.max())
    ((400, 32), (400, 32), (100, 32), 1.0)
    """
    if dataset.kind != "two_view" or dataset.Y is None:
        raise ArgumentValueError(f"dataset {dataset.name!r} is not a two-view dataset "
                                 f"(kind {dataset.kind!r})", "dataset")
    if rescale not in RESCALINGS:
        raise ArgumentValueError(f"`rescale` must be one of {list(RESCALINGS)}, got {rescale!r}",
                                 "rescale")
    n = dataset.X.shape[0]
    if dataset.train_idx is not None and dataset.test_idx is not None:
        train, test = dataset.train_idx[0], dataset.test_idx[0]
    elif heldout_fraction > 0:
        order = np.random.default_rng(seed).permutation(n)
        cut = n - int(round(heldout_fraction * n))
        train, test = np.sort(order[:cut]), np.sort(order[cut:])
    else:
        train, test = np.arange(n), None
    views = [dataset.X[train], dataset.Y[train]]
    views += [dataset.X[test], dataset.Y[test]] if test is not None and test.size else [None, None]
    if rescale == "max_abs":
        factors = [1.0 / max(_max_abs(views[0]), 1e-300), 1.0 / max(_max_abs(views[1]), 1e-300)]
        views = [None if v is None else v * factors[i % 2] for i, v in enumerate(views)]
    return Views(*views)


def load_views(path, settings: dict):
    """Read a prepared two-view dataset and cut it with ``settings`` (a workflow job's params).

    Returns
    -------
    name : str
    views : Views

    Examples
    --------
    >>> from lowdim.cca.experiments import load_views
    >>> from lowdim.data import get_spec, save_dataset
    >>> path = save_dataset(get_spec("digits_halves").prepare(n_rows=100), tmp / "d.npz")
    >>> name, views = load_views(path, {"rescale": "none", "heldout_fraction": 0.2,
    ...                                 "split_seed": 0})
    >>> name, views.X.shape, views.X_test.shape
    ('digits_halves', (80, 32), (20, 32))
    """
    from ..data import load_dataset

    dataset = load_dataset(path)
    views = training_views(dataset, rescale=settings["rescale"],
                           heldout_fraction=settings["heldout_fraction"],
                           seed=settings["split_seed"])
    return dataset.name, views


def dataset_stats(name: str, views: Views) -> dict:
    """One row of Table 1: rows, widths and sparsity (fraction of zeros) of both views.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lowdim.cca.experiments import Views, dataset_stats
    >>> views = Views(sp.eye(4, 6, format="csr"), np.ones((4, 2)))
    >>> stats = dataset_stats("toy", views)
    >>> stats["p1"], stats["p2"], round(stats["sparsity_x"], 3), stats["storage"]
    (6, 2, 0.833, 'sparse')
    """
    def zeros(A):
        nnz = A.nnz if sp.issparse(A) else np.count_nonzero(A)
        return 1.0 - nnz / max(1, A.shape[0] * A.shape[1])

    return {"dataset": name, "n_train": views.X.shape[0],
            "n_test": 0 if views.X_test is None else views.X_test.shape[0],
            "p1": views.X.shape[1], "p2": views.Y.shape[1],
            "sparsity_x": zeros(views.X), "sparsity_y": zeros(views.Y),
            "storage": "sparse" if sp.issparse(views.X) else "dense"}


def _tcc(est, X, Y) -> float:
    return float(np.sum(est.score_components(X, Y))) if X is not None else np.nan


def run_exact(views: Views, *, n_components: int, reg: float, method: str = "auto") -> dict:
    """Exact CCA on the training views: the denominator of PCC.

    Returns
    -------
    row : dict
        method, n_components, reg, flops, seconds, tcc_in, tcc_out.

    Examples
    --------
    >>> from lowdim.cca.experiments import Views, run_exact
    >>> X, Y = two_views
    >>> row = run_exact(Views(X[:400], Y[:400], X[400:], Y[400:]), n_components=2, reg=0.005)
    >>> round(row["tcc_in"], 2), round(row["tcc_out"], 2), row["flops"] > 0
    (1.78, 1.8, True)
    """
    from .exact import ExactCCA

    start = time.perf_counter()
    est = ExactCCA(n_components, reg=reg, method=method).fit(views.X, views.Y)
    seconds = time.perf_counter() - start
    return {"method": "exact_cca", "n_components": n_components, "reg": reg,
            "flops": est.flops_, "seconds": seconds, "tcc_in": _tcc(est, views.X, views.Y),
            "tcc_out": _tcc(est, views.X_test, views.Y_test), "whitening": est.method_}


def run_appgrad(views: Views, *, method: str, n_components: int, reg: float, step_size,
                max_iter: int, checkpoints, batch_size=None, normalization_size=None,
                seed: int = 0, normalization: str = "paper") -> pd.DataFrame:
    """Batch (``method='appgrad'``) or stochastic (``'sappgrad'``) AppGrad with a TCC trace.

    ``normalization``: 'paper' or 'authors' (see :class:`~lowdim.cca.AppGradCCA`).

    Returns
    -------
    trace : pandas.DataFrame
        One row per checkpoint: method, iteration, flops (the authors'
        formula), flops_performed, seconds, cpu_seconds, tcc_in, tcc_out, step_size_x,
        step_size_y, solver.

    Examples
    --------
    >>> from lowdim.cca.experiments import Views, run_appgrad
    >>> X, Y = two_views
    >>> trace = run_appgrad(Views(X[:400], Y[:400], X[400:], Y[400:]), method="appgrad",
    ...                     n_components=2, reg=0.005, step_size="auto", max_iter=100,
    ...                     checkpoints=[1, 10, 100])
    >>> trace[["iteration", "tcc_in"]].round(2).to_numpy().tolist()
    [[1.0, 1.77], [10.0, 1.78], [100.0, 1.78]]
    """
    from .appgrad import AppGradCCA

    if method not in APPGRAD_METHODS:
        raise ArgumentValueError(f"`method` must be one of {list(APPGRAD_METHODS)}, got "
                                 f"{method!r}", "method")
    est = AppGradCCA(n_components, reg=reg, step_size=step_size, max_iter=max_iter, tol=0,
                     batch_size=batch_size if method == "sappgrad" else None,
                     normalization_size=normalization_size if method == "sappgrad" else None,
                     checkpoints=list(checkpoints),
                     trace_tcc=True, random_state=seed, normalization=normalization)
    est.fit(views.X, views.Y, heldout=views.heldout)
    trace = est.trace_.rename(columns={"tcc_train": "tcc_in", "tcc_heldout": "tcc_out"})
    trace.insert(0, "method", method)
    trace["step_size_x"], trace["step_size_y"] = est.step_size_
    trace["solver"] = est.solver_
    return trace


def run_heuristic(views: Views, *, method: str, n_components: int, reg: float,
                  n_pca_components: int = 100, oversample: int = 10, n_iter: int = 4,
                  seed: int = 0) -> dict:
    """One of NW-CCA, DW-CCA, PCA-CCA (Figure 2): a single (FLOPs, TCC) point.

    Examples
    --------
    >>> from lowdim.cca.experiments import Views, run_heuristic
    >>> X, Y = two_views
    >>> row = run_heuristic(Views(X, Y), method="pca_cca", n_components=2, reg=0.005,
    ...                     n_pca_components=4, seed=0)
    >>> row["method"], row["setting"], round(row["tcc_in"], 2)
    ('pca_cca', 'm=4', 1.64)
    """
    if method not in HEURISTIC_METHODS:
        raise ArgumentValueError(f"`method` must be one of {sorted(HEURISTIC_METHODS)}, got "
                                 f"{method!r}", "method")
    kw = dict(reg=reg, oversample=oversample, n_iter=n_iter, random_state=seed)
    if method == "pca_cca":
        kw["n_pca_components"] = n_pca_components
    from . import heuristics

    start = time.perf_counter()
    est = getattr(heuristics, _HEURISTIC_CLASSES[method])(n_components, **kw).fit(views.X, views.Y)
    seconds = time.perf_counter() - start
    return {"method": method, "setting": f"m={n_pca_components}" if method == "pca_cca" else "",
            "flops": est.flops_, "seconds": seconds, "tcc_in": _tcc(est, views.X, views.Y),
            "tcc_out": _tcc(est, views.X_test, views.Y_test)}


def replicate_seeds(seed: int, n_seeds: int) -> list[int]:
    """Random states of ``n_seeds`` replicate runs: ``seed`` itself, then seeds derived
    from it, so that one replicate runs exactly as a single seeded run.

    Examples
    --------
    >>> from lowdim.cca.experiments import replicate_seeds
    >>> replicate_seeds(7, 1)
    [7]
    >>> seeds = replicate_seeds(7, 3)
    >>> seeds[0], len(set(seeds)), seeds == replicate_seeds(7, 3)
    (7, 3, True)
    """
    if isinstance(n_seeds, bool) or not isinstance(n_seeds, (int, np.integer)) or n_seeds < 1:
        raise ArgumentValueError(f"`n_seeds` must be an integer >= 1, got {n_seeds!r}",
                                 "n_seeds")
    return [int(seed)] + [derive_seed(seed, "replicate", r) for r in range(1, n_seeds)]


def run_replicates(run, views: Views, *, seed: int, n_seeds: int, **kwargs) -> pd.DataFrame:
    """``run(views, seed=s, **kwargs)`` once per replicate seed (:func:`replicate_seeds`).

    Parameters
    ----------
    run : callable
        :func:`run_appgrad` (returns a trace) or :func:`run_heuristic` (returns a row).
    views : Views
    seed, n_seeds : int
        Replicate 0's random state, and the number of replicates.
    **kwargs
        Passed to ``run``.

    Returns
    -------
    DataFrame
        ``run``'s rows, each with ``seed`` (the replicate, 0 to ``n_seeds`` - 1: what the
        scorecard groups runs by) and ``random_state`` (the seed ``run`` was given).

    Examples
    --------
    >>> from lowdim.cca.experiments import Views, run_heuristic, run_replicates
    >>> X, Y = two_views
    >>> rows = run_replicates(run_heuristic, Views(X, Y), seed=0, n_seeds=2, method="pca_cca",
    ...                       n_components=2, reg=0.005, n_pca_components=4)
    >>> rows[["seed", "random_state"]].to_numpy().tolist()
    [[0, 0], [1, 2998773684]]
    """
    frames = []
    states = replicate_seeds(seed, n_seeds)
    for replicate, state in enumerate(states):
        if n_seeds > 1:
            logger.info("replicate %d of %d (random_state %d)", replicate + 1, n_seeds, state)
        out = run(views, seed=state, **kwargs)
        frame = out if isinstance(out, pd.DataFrame) else pd.DataFrame([out])
        frames.append(frame.assign(seed=replicate, random_state=state))
    return pd.concat(frames, ignore_index=True)


def add_pcc(trace: pd.DataFrame, exact: pd.DataFrame) -> pd.DataFrame:
    """Add ``pcc_in``/``pcc_out`` (fractions) and ``log_flops`` (natural log) to a trace.

    Parameters
    ----------
    trace : DataFrame
        Rows with ``dataset``, ``tcc_in``, ``tcc_out``, ``flops``.
    exact : DataFrame
        One row per dataset with ``dataset``, ``tcc_in``, ``tcc_out`` of exact CCA.

    Examples
    --------
    >>> from lowdim.cca.experiments import add_pcc
    >>> trace = pd.DataFrame({"dataset": ["a", "a"], "tcc_in": [1.0, 1.8],
    ...                       "tcc_out": [0.9, 1.5], "flops": [1e6, 1e7]})
    >>> exact = pd.DataFrame({"dataset": ["a"], "tcc_in": [2.0], "tcc_out": [1.6]})
    >>> add_pcc(trace, exact)[["pcc_in", "pcc_out", "log_flops"]].round(3)
       pcc_in  pcc_out  log_flops
    0     0.5    0.562     13.816
    1     0.9    0.938     16.118
    """
    ref = exact.set_index("dataset")[["tcc_in", "tcc_out"]]
    out = trace.copy()
    out["pcc_in"] = out["tcc_in"] / out["dataset"].map(ref["tcc_in"])
    out["pcc_out"] = out["tcc_out"] / out["dataset"].map(ref["tcc_out"])
    out["log_flops"] = np.log(out["flops"])
    return out


#: Columns of Figure 2's tidy points (:func:`tcc_points`), in order.
TCC_COLUMNS = ["dataset", "method", "setting", "seed", "random_state", "iteration", "flops",
               "log_flops", "flops_performed", "seconds", "tcc_in", "tcc_out"]


def tcc_points(traces, heuristics) -> pd.DataFrame:
    """Figure 2's points: stochastic AppGrad's checkpoints and one row per heuristic run.

    Parameters
    ----------
    traces : list of DataFrame
        :func:`run_appgrad` traces (``method="sappgrad"``) with a ``dataset`` column.
    heuristics : list of DataFrame
        :func:`run_heuristic` rows with a ``dataset`` column.

    Returns
    -------
    DataFrame
        Columns :data:`TCC_COLUMNS`: a trace's ``setting`` is empty (a heuristic's is
        ``m=<m>`` for PCA-CCA), ``log_flops`` the natural log of ``flops``, and columns
        a row does not have are empty (a heuristic has no ``iteration``).

    Examples
    --------
    >>> from lowdim.cca.experiments import Views, run_appgrad, run_heuristic, tcc_points
    >>> X, Y = two_views
    >>> views = Views(X, Y)
    >>> trace = run_appgrad(views, method="sappgrad", n_components=2, reg=0.005, step_size="auto",
    ...                     max_iter=100, checkpoints=[10, 100], batch_size=50).assign(dataset="toy")
    >>> heuristic = pd.DataFrame([run_heuristic(views, method="pca_cca", n_components=2, reg=0.005,
    ...                                         n_pca_components=4)]).assign(dataset="toy")
    >>> points = tcc_points([trace], [heuristic])
    >>> points[["method", "setting", "iteration"]].to_dict("records")
    [{'method': 'sappgrad', 'setting': '', 'iteration': 10.0}, {'method': 'sappgrad', 'setting': '', 'iteration': 100.0}, {'method': 'pca_cca', 'setting': 'm=4', 'iteration': nan}]
    """
    points = pd.concat([trace.assign(setting="") for trace in traces] + list(heuristics),
                       ignore_index=True)
    points["log_flops"] = np.log(points["flops"])
    return points.reindex(columns=TCC_COLUMNS)


def table_datasets(stats: pd.DataFrame) -> pd.DataFrame:
    """Table 1 from :func:`dataset_stats` rows: n, p1, p2 and sparsity per dataset.

    Examples
    --------
    >>> from lowdim.cca.experiments import table_datasets
    >>> stats = pd.DataFrame([{"dataset": "toy", "n_train": 80, "n_test": 20, "p1": 6, "p2": 2,
    ...                        "sparsity_x": 0.8333, "sparsity_y": 0.0, "storage": "sparse"}])
    >>> table_datasets(stats).iloc[0].to_dict()
    {'dataset': 'toy', 'n (training)': 80, 'n (held out)': 20, 'p1': 6, 'p2': 2, 'sparsity X': '0.8333', 'sparsity Y': '0', 'storage': 'sparse'}
    """
    return pd.DataFrame({
        "dataset": stats["dataset"],
        "n (training)": stats["n_train"],
        "n (held out)": stats["n_test"],
        "p1": stats["p1"],
        "p2": stats["p2"],
        "sparsity X": stats["sparsity_x"].map(lambda v: f"{v:.4g}"),
        "sparsity Y": stats["sparsity_y"].map(lambda v: f"{v:.4g}"),
        "storage": stats["storage"],
    })
