"""Timing runs of Figure 3: one method on synthetic data of a given n or D.

Figure 3(a) varies the number of points n on dense Gaussian blobs
(``gaussian_blobs``, D fixed); Figure 3(b) varies the input dimensionality D
on the same kind of clusters lifted to D sparse dimensions (``sparse_blobs``,
n fixed). Each run is one workflow job; its wall time comes from Snakemake's
``benchmark:`` file (interpreter start, imports, data generation, JIT
compilation and the fit, as a user would experience it), and the run itself
records the fit's own wall time for comparison.
"""

from __future__ import annotations

import pandas as pd

from ..data import get_spec
from ..io import read_benchmark
from .baselines import NEIGHBOR_PARAMETER
from .experiments import fit_embedding

__all__ = ["timing_data", "timing_run", "timing_table"]

#: axis -> (registry dataset, option varied, option held at ``fixed``)
TIMING_DATA = {"n_samples": ("gaussian_blobs", "n_samples", "n_features"),
               "n_features": ("sparse_blobs", "n_features", "n_samples")}


def timing_data(axis, value, fixed, seed=0):
    """The synthetic dataset of one timing point.

    Parameters
    ----------
    axis : {"n_samples", "n_features"}
    value : int
        n (axis "n_samples") or D (axis "n_features").
    fixed : int
        D of the blobs (axis "n_samples") or n of the lifted blobs (axis "n_features").
    seed : int

    Returns
    -------
    Dataset
    """
    if axis not in TIMING_DATA:
        raise ValueError(f"`axis` must be one of {sorted(TIMING_DATA)}, got {axis!r}")
    name, varied, held = TIMING_DATA[axis]
    return get_spec(name).prepare(**{varied: int(value), held: int(fixed), "seed": int(seed)})


def timing_run(axis, value, method, *, fixed, n_components, n_neighbors, params=None,
               seed=0, n_jobs=None) -> dict:
    """Generate the data of one timing point and embed it with ``method``.

    ``n_neighbors`` is used by Isomap, LLE, LE and UMAP; Vec2vec uses ``params``
    (its ``topk``); PCA and CMDS take neither.

    Returns
    -------
    dict
        ``axis``, ``value``, ``method``, ``n_samples``, ``n_features``, ``nnz``,
        ``fit_seconds`` (wall time of the fit alone), ``n_jobs``, ``seed`` and
        ``lowdim_version``.
    """
    data = timing_data(axis, value, fixed, seed=seed)
    params = dict(params or {})
    if NEIGHBOR_PARAMETER[method] == "n_neighbors":
        params["n_neighbors"] = int(n_neighbors)
    _, seconds = fit_embedding(data.X, method, n_components=n_components, params=params,
                               random_state=seed, n_jobs=n_jobs)
    nnz = data.X.nnz if hasattr(data.X, "nnz") else int(data.X.size)
    from .. import __version__

    return {"axis": axis, "value": int(value), "method": method,
            "n_samples": int(data.X.shape[0]), "n_features": int(data.X.shape[1]),
            "nnz": int(nnz), "fit_seconds": float(seconds), "n_jobs": n_jobs, "seed": int(seed),
            "lowdim_version": __version__}


def timing_table(runs, benchmarks) -> pd.DataFrame:
    """Tidy timing table from the runs' records and their Snakemake benchmark files.

    Parameters
    ----------
    runs : list of dict
        :func:`timing_run` records.
    benchmarks : list of str or Path
        The matching benchmark TSV files (tab-separated, wall seconds in column ``s``,
        peak memory in ``max_rss`` MB).

    Returns
    -------
    DataFrame
        One row per run: ``axis, value, method, n_samples, n_features, nnz, seconds``
        (job wall time), ``fit_seconds``, ``max_rss_mb``, ``fixed`` (a label of what
        was held fixed, for the figure).
    """
    rows = []
    for run, path in zip(runs, benchmarks):
        bench = read_benchmark(path)
        held = "D" if run["axis"] == "n_samples" else "n"
        held_value = run["n_features"] if run["axis"] == "n_samples" else run["n_samples"]
        rows.append({**run, "seconds": float(bench["s"].mean()),
                     "max_rss_mb": bench["max_rss"].mean(),
                     "fixed": f"{held} = {held_value:,}"})
    return pd.DataFrame(rows)
