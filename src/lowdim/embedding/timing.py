"""Timing runs of Figure 3: one method on synthetic data of growing n or D.

Figure 3(a) varies the number of points n on dense Gaussian blobs
(``gaussian_blobs``, D fixed); Figure 3(b) varies the input dimensionality D
on the same kind of clusters lifted to D sparse dimensions (``sparse_blobs``,
n fixed). One workflow job times one method along both axes, alone on its machine
(:func:`timing_runs`): per axis it first fits the method twice on a small problem of
the same kind (the warm-up, whose first fit pays for numba's compilation and lazy
imports), then fits each value ``repeats`` times, recording each fit's wall and CPU
time. So the curves (the median of the repeats) show how each algorithm's own cost
grows, the spread shows the noise, and the one-off cost is recorded apart
(``compile_seconds``); the job's wall time from Snakemake's ``benchmark:`` file is kept
as well.
"""

from __future__ import annotations

import time

import pandas as pd

from .._validation import ArgumentValueError, check_number
from ..data import get_spec
from ..io import read_benchmark
from .methods import NEIGHBOR_PARAMETER

__all__ = ["TIMING_DATA", "WARMUP_SAMPLES", "fits_seeded", "timing_data", "timing_runs",
           "timing_sweep", "timing_table", "timing_values"]

#: Each axis of Figure 3 -> (registry dataset, option varied, option held at ``fixed``).
TIMING_DATA = {"n_samples": ("gaussian_blobs", "n_samples", "n_features"),
               "n_features": ("sparse_blobs", "n_features", "n_samples")}

#: Rows of the warm-up problem (at most the smallest timed problem's).
WARMUP_SAMPLES = 300
#: Fits of each size, of which Figure 3 draws the median.
REPEATS = 3


def timing_data(axis, value, fixed, seed=0):
    """The synthetic dataset of one timing point.

    Parameters
    ----------
    axis : {"n_samples", "n_features"}
        What grows: the rows or the features.
    value : int
        n (axis "n_samples") or D (axis "n_features").
    fixed : int
        D of the blobs (axis "n_samples") or n of the lifted blobs (axis "n_features").
    seed : int
        Seeds the blobs.

    Returns
    -------
    Dataset

    Examples
    --------
    >>> from lowdim.embedding.timing import timing_data
    >>> data = timing_data("n_features", 10_000, fixed=200)
    >>> data.kind, data.X.shape
    ('sparse', (200, 10000))
    >>> timing_data("n_samples", 300, fixed=64).X.shape
    (300, 64)
    """
    if axis not in TIMING_DATA:
        raise ArgumentValueError(f"`axis` must be one of {sorted(TIMING_DATA)}, got {axis!r}",
                                 "axis")
    name, varied, held = TIMING_DATA[axis]
    return get_spec(name).prepare(**{varied: int(value), held: int(fixed), "seed": int(seed)})


def _n_samples(axis, value, fixed):
    return int(value) if axis == "n_samples" else int(fixed)


def timing_values(axis, values, fixed, max_samples=None):
    """The values of ``axis`` to time for a method whose n is capped at ``max_samples``.

    Values whose problem has more than ``max_samples`` rows are dropped (e.g.
    SMACOF MDS, whose cost grows as n^2 per iteration); None keeps them all.

    Parameters
    ----------
    axis : {"n_samples", "n_features"}
        What grows: the rows or the features.
    values : list of int
        The n (or D) of each point.
    fixed : int
        D (axis "n_samples") or n (axis "n_features").
    max_samples : int or None, default=None
        The method's cap on n.

    Returns
    -------
    values : list of int
        The values kept, in order.

    Examples
    --------
    >>> from lowdim.embedding.timing import timing_values
    >>> timing_values("n_samples", [100, 1000, 10000], fixed=64, max_samples=3000)
    [100, 1000]
    >>> timing_values("n_features", [100, 1000], fixed=500, max_samples=3000)
    [100, 1000]
    """
    return [int(v) for v in values
            if max_samples is None or _n_samples(axis, v, fixed) <= int(max_samples)]


def fits_seeded(n_jobs) -> bool:
    """Whether the timed fits on ``n_jobs`` threads take the seed (the data always do).

    A user times a method as it runs: seeded on one thread, where every method has a
    deterministic path, and unseeded on several, where UMAP runs its parallel code only
    without a seed (a seed keeps it on one thread) and gensim's workers are not
    reproducible anyway. So a seeded, deterministic fit is compared with seeded peers, and
    a free-running parallel one with free-running peers, never one of each.

    Parameters
    ----------
    n_jobs : int or None
        Threads of the fits; None (the estimators' defaults, one thread for most) counts
        as one.

    Returns
    -------
    bool

    Examples
    --------
    >>> from lowdim.embedding.timing import fits_seeded
    >>> fits_seeded(1), fits_seeded(None), fits_seeded(2), fits_seeded(-1)
    (True, True, False, False)
    """
    return n_jobs is None or int(n_jobs) == 1


def timing_sweep(axis, values, method, *, fixed, n_components, n_neighbors, params=None,
                 seed=0, n_jobs=None, warmup_samples=WARMUP_SAMPLES, repeats=REPEATS) -> list:
    """Warm ``method`` up, then time ``repeats`` fits per value of ``axis``.

    ``n_neighbors`` is used by Isomap, LLE, LE and UMAP; Vec2vec uses ``params``
    (its ``topk``); PCA and the MDS variants take neither.

    Parameters
    ----------
    axis : {"n_samples", "n_features"}
        What grows: the rows or the features.
    values : list of int
        The n (or D) of each timed fit.
    method : str
        A method of :data:`lowdim.embedding.METHODS`.
    fixed : int
        D (axis "n_samples") or n (axis "n_features").
    n_components : int
        Dimension d of the embeddings.
    n_neighbors : int or None
        ``n_neighbors`` of the methods that take it (Isomap, LLE, LE, UMAP); not read for
        the others (Vec2vec's ``topk`` comes in ``params``).
    params : dict, optional
        Further parameters of the method (Vec2vec's ``topk``, ...).
    seed : int, default=0
        Seeds the data, and the fits on one thread (:func:`fits_seeded`).
    n_jobs : int or None, default=None
        Threads of the methods that take them; above 1 the fits run unseeded.
    warmup_samples : int, default=300
        Rows of the warm-up problem (at most the largest timed n), of the same
        kind as the first timed one. Methods whose code path changes with n
        (UMAP's approximate neighbours from 4,096 rows, Vec2vec's from 5,000) are
        compiled for the large path only if it is reached here.
    repeats : int, default=3
        Timed fits of each value, one after the other on the same data.

    Returns
    -------
    list of dict
        One record per timed fit: ``axis``, ``value``, ``repeat`` (0 to ``repeats`` - 1),
        ``method``, ``n_samples``, ``n_features``, ``nnz``, ``fit_seconds`` (wall time of
        the fit), ``cpu_seconds`` (CPU time of the process during it, every thread's),
        ``cpu_over_wall`` (their ratio: about the threads kept busy), ``compile_seconds``
        (first warm-up fit minus the second: compilation and lazy imports), ``n_jobs``,
        ``seed`` (the data's), ``seeded`` (whether the fits took it), ``lowdim_version``.

    Examples
    --------
    >>> from lowdim.embedding.timing import timing_sweep
    >>> records = timing_sweep("n_samples", [100, 200], "pca", fixed=16, n_components=2,
    ...                        n_neighbors=5, warmup_samples=50, repeats=2)
    >>> [(r["value"], r["repeat"], r["n_samples"], r["n_features"]) for r in records]
    [(100, 0, 100, 16), (100, 1, 100, 16), (200, 0, 200, 16), (200, 1, 200, 16)]
    >>> all(r["fit_seconds"] > 0 and r["cpu_seconds"] >= 0 for r in records)
    True
    """
    # The estimators (scikit-learn, umap) load here, not with the module: the workflow reads
    # `timing_values` at every start-up.
    from .experiments import fit_embedding

    values = [int(v) for v in values]
    if not values:
        raise ArgumentValueError("`values` is empty: nothing to time", "values")
    repeats = check_number(repeats, "repeats", integer=True, minimum=1)
    params = dict(params or {})
    if NEIGHBOR_PARAMETER[method] == "n_neighbors":
        params["n_neighbors"] = int(n_neighbors)
    seeded = fits_seeded(n_jobs)
    fit = dict(method=method, n_components=n_components, params=params,
               random_state=seed if seeded else None, n_jobs=n_jobs)
    compile_seconds = _warm_up(axis, values, fixed, warmup_samples, seed, fit)
    from .. import __version__

    records = []
    for value in values:
        data = timing_data(axis, value, fixed, seed=seed)
        nnz = data.X.nnz if hasattr(data.X, "nnz") else int(data.X.size)
        for repeat in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            fit_embedding(data.X, **fit)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            records.append({"axis": axis, "value": value, "repeat": repeat, "method": method,
                            "n_samples": int(data.X.shape[0]),
                            "n_features": int(data.X.shape[1]), "nnz": int(nnz),
                            "fit_seconds": float(wall), "cpu_seconds": float(cpu),
                            "cpu_over_wall": float(cpu / wall),
                            "compile_seconds": compile_seconds, "n_jobs": n_jobs,
                            "seed": int(seed), "seeded": seeded,
                            "lowdim_version": __version__})
    return records


def timing_runs(method, *, n_samples, n_features_at, n_features, n_samples_at, seeds,
                **timing) -> list:
    """Every timed fit of ``method`` for Figure 3: :func:`timing_sweep` along each axis
    with a value to time (n on dense blobs of ``n_features_at`` columns, then D on sparse
    blobs of ``n_samples_at`` rows).

    Parameters
    ----------
    method : str
        A method of :data:`lowdim.embedding.METHODS`.
    n_samples : list of int
        The values of n (may be empty).
    n_features_at : int
        D of the dense blobs the n axis fits.
    n_features : list of int
        The values of D (may be empty).
    n_samples_at : int
        n of the sparse blobs the D axis fits.
    seeds : dict of str -> int
        The seed of each axis's data and fits.
    **timing
        The other keyword arguments of :func:`timing_sweep`.

    Returns
    -------
    list of dict
        The records of both axes, ``n_samples`` first.

    Examples
    --------
    >>> from lowdim.embedding.timing import timing_runs
    >>> records = timing_runs("pca", n_samples=[100], n_features_at=16, n_features=[200],
    ...                       n_samples_at=60, seeds={"n_samples": 0, "n_features": 1},
    ...                       n_components=2, n_neighbors=5, warmup_samples=30, repeats=3)
    >>> sorted({(r["axis"], r["value"]) for r in records}), len(records)
    ([('n_features', 200), ('n_samples', 100)], 6)
    """
    fixed = {"n_samples": n_features_at, "n_features": n_samples_at}
    values = {"n_samples": n_samples, "n_features": n_features}
    if not any(values.values()):
        raise ArgumentValueError("`n_samples` and `n_features` are both empty: nothing to "
                                 "time", ("n_samples", "n_features"))
    return [record for axis in TIMING_DATA if values[axis]
            for record in timing_sweep(axis, values[axis], method, fixed=fixed[axis],
                                       seed=seeds[axis], **timing)]


def _warm_up(axis, values, fixed, warmup_samples, seed, fit):
    """Fit twice on a small problem of the same kind; return cold minus warm seconds."""
    from .experiments import fit_embedding

    if axis == "n_samples":
        data = timing_data(axis, min(int(warmup_samples), max(values)), fixed, seed=seed + 1)
    else:
        data = timing_data(axis, values[0], min(int(warmup_samples), int(fixed)), seed=seed + 1)
    seconds = []
    for _ in range(2):
        start = time.perf_counter()
        fit_embedding(data.X, **fit)
        seconds.append(time.perf_counter() - start)
    return max(0.0, seconds[0] - seconds[1])


def timing_table(runs, benchmarks) -> pd.DataFrame:
    """Tidy timing table from the jobs' records and their Snakemake benchmark files.

    Parameters
    ----------
    runs : list of list of dict
        :func:`timing_runs` records, one list per job.
    benchmarks : list of str or Path
        The matching benchmark TSV files (tab-separated, wall seconds in column
        ``s``, peak memory in ``max_rss`` MB): each job's, so the same file for the
        methods one job timed together (``embedding.timing.batch_methods``).

    Returns
    -------
    DataFrame
        One row per timed fit (axis, value and repeat): the records' columns (``axis,
        value, repeat, method, n_samples, n_features, nnz, fit_seconds, cpu_seconds,
        cpu_over_wall, compile_seconds``, ...), ``job_seconds`` and ``max_rss_mb`` (the
        whole job's, warm-ups included), ``job_methods`` (the methods that job timed,
        joined by ``+``: what ``job_seconds`` and ``max_rss_mb`` cover), ``fixed`` (a label
        of what was held fixed, for the figure).

    Examples
    --------
    >>> from lowdim.embedding.timing import timing_sweep, timing_table
    >>> records = timing_sweep("n_samples", [100, 200], "pca", fixed=16, n_components=2,
    ...                        n_neighbors=5, warmup_samples=50, repeats=1)
    >>> benchmark = tmp / "pca.tsv"
    >>> pd.DataFrame({"s": [3.5], "max_rss": [210.0]}).to_csv(benchmark, sep=chr(9))
    >>> table = timing_table([records], [benchmark])
    >>> columns = ["method", "value", "job_seconds", "max_rss_mb", "job_methods", "fixed"]
    >>> table[columns].to_numpy().tolist()
    [['pca', 100, 3.5, 210.0, 'pca', 'D = 16'], ['pca', 200, 3.5, 210.0, 'pca', 'D = 16']]
    """
    runs, benchmarks = list(runs), [str(path) for path in benchmarks]
    if len(runs) != len(benchmarks):
        raise ArgumentValueError(f"{len(runs)} jobs' records but {len(benchmarks)} benchmark "
                                 "files: one file per list of records", ("runs", "benchmarks"))
    methods = {}  # benchmark file -> the methods its job timed, in order (dict as a set)
    for records, path in zip(runs, benchmarks):
        for run in records:
            methods.setdefault(path, {})[run["method"]] = None
    rows = []
    for records, path in zip(runs, benchmarks):
        bench = read_benchmark(path)
        for run in records:
            held = "D" if run["axis"] == "n_samples" else "n"
            held_value = run["n_features"] if run["axis"] == "n_samples" else run["n_samples"]
            rows.append({**run, "job_seconds": float(bench["s"].mean()),
                         "max_rss_mb": bench["max_rss"].mean(),
                         "job_methods": "+".join(methods[path]),
                         "fixed": f"{held} = {held_value:,}"})
    return pd.DataFrame(rows)
