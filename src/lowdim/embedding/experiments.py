"""The Vec2vec paper's experiments as plain functions on arrays and tidy tables.

Workflow scripts call one function each:

- :func:`embed_sweep`: one method on one dataset for each neighbourhood size of
  the sweep (the paper keeps the best of 2..30 step 2 for Isomap, LLE, LE, UMAP;
  Vec2vec's ``topk`` gets the same sweep here).
- :func:`score_sweep`: kNN accuracy per fold, with the setting chosen inside
  each outer fold's training part, and spectral-clustering ARI per gamma for
  every embedding of a sweep, as one tidy table.
- :func:`select_best`: the chosen settings per dataset and method, for Figure 4
  (accuracy) and Table 3 (ARI), and :func:`significance_tests` on them.
- :func:`sensitivity_scores`: Vec2vec accuracy as one parameter varies (Figure 5).

Tidy tables have one row per measurement; see each function's Returns.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd
from numpy.linalg import LinAlgError
from scipy.sparse.linalg import ArpackNoConvergence

from .._validation import ArgumentTypeError, ArgumentValueError, arguments_of
from ..evaluate.classification import KNN_K_GRID, knn_cv_accuracy, knn_cv_select
from ..evaluate.clustering import GAMMA_GRID, spectral_ari_sweep
from ..io import load_npz, save_npz
from .features import features_summary
from .methods import NEIGHBOR_PARAMETER
from .selection import select_best, significance_tests

__all__ = ["sweep_settings", "fit_embedding", "embed_sweep", "score_sweep", "sweep_scores",
           "select_best",
           "significance_tests", "sensitivity_scores", "sensitivity_sweep", "embed_and_save",
           "save_sweep", "load_sweep",
           "features_summary"]

logger = logging.getLogger("lowdim")

#: Errors a baseline can raise on an unsuitable setting (e.g. LLE with 2 neighbours
#: and 10 components); the sweep records them and goes on.
SETTING_ERRORS = (ValueError, LinAlgError, ArpackNoConvergence, RuntimeError)


def sweep_settings(method, neighbors, n_samples):
    """Settings of the paper's neighbourhood sweep for ``method``.

    Returns ``[{}]`` for methods without a neighbourhood size (PCA, MDS, CMDS),
    else one ``{parameter: k}`` per ``k`` in ``neighbors`` with ``k < n_samples``,
    the parameter being ``n_neighbors`` (Isomap, LLE, LE, UMAP) or ``topk``
    (Vec2vec, both solvers: the same sweep for every method).

    Examples
    --------
    >>> from lowdim.embedding.experiments import sweep_settings
    >>> sweep_settings("isomap", [4, 10, 16], n_samples=12)
    [{'n_neighbors': 4}, {'n_neighbors': 10}]
    >>> sweep_settings("vec2vec", [4, 10], n_samples=500)
    [{'topk': 4}, {'topk': 10}]
    >>> sweep_settings("pca", [4, 10], n_samples=500)
    [{}]
    """
    parameter = NEIGHBOR_PARAMETER[method]
    if parameter is None:
        return [{}]
    settings = [{parameter: int(k)} for k in neighbors if int(k) < n_samples]
    if not settings:
        raise ArgumentValueError(f"`neighbors` {list(neighbors)} holds no neighbour count < "
                                 f"n_samples = {n_samples}, so {method} has no setting to fit",
                                 "neighbors")
    return settings


def setting_label(setting: dict) -> str:
    """``"n_neighbors=10"``, or ``"default"`` for no setting."""
    return ",".join(f"{k}={v}" for k, v in sorted(setting.items())) or "default"


def fit_embedding(X, method, *, n_components, params=None, random_state=None, n_jobs=None):
    """Embed ``X`` with ``method``; return (embedding, wall seconds of the fit).

    Examples
    --------
    >>> X, y = digits
    >>> from lowdim.embedding.experiments import fit_embedding
    >>> Z, seconds = fit_embedding(X, "pca", n_components=5, random_state=0)
    >>> Z.shape, seconds > 0
    ((300, 5), True)
    """
    # Here, not at the top: the scoring jobs read this module and fit nothing (the
    # estimators bring numba and Vec2vec's kernels, 0.4 s CPU per job).
    from .baselines import make_embedder

    model = make_embedder(method, n_components=n_components, random_state=random_state,
                          n_jobs=n_jobs, **(params or {}))
    start = time.perf_counter()
    embedding = model.fit_transform(X)
    return embedding, time.perf_counter() - start


def embed_sweep(X, method, *, n_components, settings, params=None, random_state=None,
                n_jobs=None):
    """Fit ``method`` once per setting.

    Parameters
    ----------
    X : ndarray or CSR matrix of shape (n_samples, n_features)
    method : str
        A key of :data:`lowdim.embedding.METHODS`.
    n_components : int
    settings : list of dict
        From :func:`sweep_settings`; each is merged over ``params``.
    params : dict, optional
        Fixed parameters of the method (e.g. Vec2vec's walk settings).
    random_state : int or None
    n_jobs : int or None

    Returns
    -------
    dict
        ``settings`` (list of str labels), ``embeddings`` (ndarray of shape
        (n_settings, n_samples, n_components), NaN where the fit failed),
        ``seconds`` (fit wall time per setting, NaN on failure) and ``errors``
        (message per setting, "" on success).

    Raises
    ------
    ValueError
        If every setting fails (or there is none), with each setting's error; an
        :class:`~lowdim._validation.ArgumentValueError` about the arguments every
        failure is about, else about the parameters the settings vary.

    Examples
    --------
    >>> X, y = digits
    >>> from lowdim.embedding.experiments import embed_sweep, sweep_settings
    >>> settings = sweep_settings("isomap", [5, 10], n_samples=len(X))
    >>> sweep = embed_sweep(X, "isomap", n_components=5, settings=settings)
    >>> sweep["settings"], sweep["embeddings"].shape, sweep["errors"]
    (['n_neighbors=5', 'n_neighbors=10'], (2, 300, 5), ['', ''])
    """
    n = X.shape[0]
    out = {"settings": [], "embeddings": np.full((len(settings), n, n_components), np.nan),
           "seconds": np.full(len(settings), np.nan), "errors": []}
    errors = []
    for i, setting in enumerate(settings):
        label = setting_label(setting)
        out["settings"].append(label)
        try:
            Z, seconds = fit_embedding(X, method, n_components=n_components,
                                       params={**(params or {}), **setting},
                                       random_state=random_state, n_jobs=n_jobs)
            if not np.all(np.isfinite(Z)):
                raise ValueError(f"the embedding has {int(np.sum(~np.isfinite(Z)))} non-finite "
                                 f"values")
        except SETTING_ERRORS as exc:
            logger.warning("%s %s failed: %s", method, label, exc)
            errors.append(exc)
            out["errors"].append(f"{type(exc).__name__}: {exc}")
            continue
        logger.info("%s %s: %.2f s", method, label, seconds)
        out["embeddings"][i] = Z
        out["seconds"][i] = seconds
        out["errors"].append("")
    if all(out["errors"]):  # an all-NaN sweep would score as an empty table
        failures = "; ".join(f"{label}: {error}" for label, error in
                             zip(out["settings"], out["errors"]))
        message = f"every setting of {method} failed ({failures or 'no setting given'})"
        about = _common_arguments(errors) or tuple(dict.fromkeys(k for s in settings for k in s))
        raise ArgumentValueError(message, about) if about else ValueError(message)
    return out


def _common_arguments(errors) -> tuple:
    """The arguments every one of ``errors`` is about (none if they differ or name none)."""
    common = None
    for error in errors:
        names = arguments_of(error)
        common = names if common is None else tuple(n for n in common if n in names)
    return common or ()


def score_sweep(embeddings, settings, y, *, k_grid=KNN_K_GRID, n_splits=4, standardize=True,
                gammas=GAMMA_GRID, standardize_clustering=False, random_state=None):
    """kNN accuracy per fold and ARI per gamma of every embedding of a sweep.

    Accuracy comes twice: per setting ("accuracy", k chosen inside each outer
    fold) and with the setting chosen inside each outer fold's training part
    together with k ("accuracy_selected", :func:`~lowdim.evaluate.classification.knn_cv_select`),
    which is what Figure 4 reports. ARI needs no folds: the best over gammas
    and settings is reported, as in the paper.

    Returns
    -------
    DataFrame
        One row per measurement: ``setting``, ``metric`` ("accuracy",
        "accuracy_selected" or "ari"), ``fold`` (accuracy rows), ``gamma`` (ARI
        rows), ``value``, plus ``best_k`` on accuracy rows. Failed embeddings
        (NaN) give no rows.

    Raises
    ------
    ValueError
        If no embedding is finite, or spectral clustering failed at every gamma.

    Examples
    --------
    >>> X, y = digits
    >>> from lowdim.embedding.experiments import embed_sweep, score_sweep, sweep_settings
    >>> sweep = embed_sweep(X, "isomap", n_components=5,
    ...                     settings=sweep_settings("isomap", [5, 10], n_samples=len(X)))
    >>> scores = score_sweep(sweep["embeddings"], sweep["settings"], y, gammas=(0.01, 0.1),
    ...                      random_state=0)
    >>> sorted(scores.metric.unique())
    ['accuracy', 'accuracy_selected', 'ari']
    >>> scores.groupby("metric").value.max().round(2).to_dict()
    {'accuracy': 0.9..., 'accuracy_selected': 0.9..., 'ari': 0...}
    """
    valid = [(label, Z) for label, Z in zip(settings, embeddings) if np.all(np.isfinite(Z))]
    if not valid:
        raise ArgumentValueError(f"no embedding of the sweep is finite (settings "
                                 f"{list(settings)}): there is nothing to score", "embeddings")
    rows = []
    labels = [label for label, _ in valid]
    selection = knn_cv_select([Z for _, Z in valid], y, k_grid=k_grid, n_splits=n_splits,
                              standardize=standardize, random_state=random_state)
    for label, accuracy in zip(labels, selection.per_embedding):
        rows += _accuracy_rows("accuracy", [label] * n_splits, accuracy.fold_accuracy,
                               accuracy.best_k)
    rows += _accuracy_rows("accuracy_selected", [labels[i] for i in selection.chosen],
                           selection.fold_accuracy, selection.best_k)
    for label, Z in valid:
        ari = spectral_ari_sweep(Z, y, gammas=gammas, standardize=standardize_clustering,
                                 random_state=random_state)
        for gamma, value in zip(gammas, ari):
            rows.append({"setting": label, "metric": "ari", "fold": np.nan, "gamma": gamma,
                         "value": value, "best_k": np.nan})
    if gammas and all(np.isnan(r["value"]) for r in rows if r["metric"] == "ari"):
        raise ArgumentValueError(f"spectral clustering failed at every gamma of `gammas` "
                                 f"{list(gammas)} for every setting (see the warnings in the "
                                 f"log)", "gammas")
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


SCORE_COLUMNS = ["setting", "metric", "fold", "gamma", "value", "best_k"]


def sweep_scores(sweep: dict, **scoring) -> pd.DataFrame:
    """:func:`score_sweep` of a saved sweep (:func:`load_sweep`), labelled: ``dataset`` and
    ``method`` first, and each setting's ``fit_seconds``.

    Parameters
    ----------
    sweep : dict
        As :func:`load_sweep` returns it.
    **scoring
        Keyword arguments of :func:`score_sweep` (``k_grid``, ``gammas``, ...).

    Returns
    -------
    DataFrame
        The rows of :func:`score_sweep` with ``dataset``, ``method`` and ``fit_seconds``.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from lowdim.embedding.experiments import (embed_sweep, load_sweep, save_sweep,
    ...                                          sweep_scores, sweep_settings)
    >>> X, y = load_digits(return_X_y=True)
    >>> sweep = embed_sweep(X[:200], "pca", n_components=5,
    ...                     settings=sweep_settings("pca", [5], n_samples=200))
    >>> path = tmp / "pca.npz"
    >>> save_sweep(path, sweep, dataset="digits", method="pca", y=y[:200])
    >>> scores = sweep_scores(load_sweep(path), gammas=(0.1,), random_state=0)
    >>> list(scores.columns[:2]), bool((scores["fit_seconds"] >= 0).all())
    (['dataset', 'method'], True)
    """
    scores = score_sweep(sweep["embeddings"], sweep["settings"], sweep["y"], **scoring)
    seconds = dict(zip(sweep["settings"], sweep["seconds"]))
    scores.insert(0, "method", sweep["info"]["method"])
    scores.insert(0, "dataset", sweep["info"]["dataset"])
    scores["fit_seconds"] = scores["setting"].map(seconds)
    return scores


def _accuracy_rows(metric, labels, accuracy, best_k):
    return [{"setting": label, "metric": metric, "fold": fold, "gamma": np.nan, "value": value,
             "best_k": int(k)}
            for fold, (label, value, k) in enumerate(zip(labels, accuracy, best_k))]


def sensitivity_scores(X, y, *, parameter, value, n_components, params, k_grid=KNN_K_GRID,
                       n_splits=4, standardize=True, random_state=None, n_jobs=None):
    """Vec2vec kNN accuracy with ``parameter`` set to ``value`` (Figure 5).

    ``parameter`` is "n_components" or any Vec2Vec parameter; the others keep
    ``n_components`` and ``params``.

    Returns
    -------
    DataFrame
        One row per fold: ``parameter``, ``value``, ``fold``, ``accuracy``,
        ``fit_seconds``.

    Examples
    --------
    >>> X, y = digits
    >>> from lowdim.embedding.experiments import sensitivity_scores
    >>> rows = sensitivity_scores(X, y, parameter="topk", value=10, n_components=8,
    ...                           params={"solver": "cooccurrence"}, random_state=0, n_jobs=1)
    >>> rows[["parameter", "value", "fold"]].to_numpy().tolist()
    [['topk', 10, 0], ['topk', 10, 1], ['topk', 10, 2], ['topk', 10, 3]]
    >>> bool(rows.accuracy.mean() > 0.8)
    True
    """
    params = dict(params)
    if parameter == "n_components":
        n_components = int(value)
    else:
        params[parameter] = value
    Z, seconds = fit_embedding(X, "vec2vec", n_components=n_components, params=params,
                               random_state=random_state, n_jobs=n_jobs)
    accuracy = knn_cv_accuracy(Z, y, k_grid=k_grid, n_splits=n_splits, standardize=standardize,
                               random_state=random_state)
    return pd.DataFrame({"parameter": parameter, "value": value,
                         "fold": np.arange(accuracy.fold_accuracy.size),
                         "accuracy": accuracy.fold_accuracy, "fit_seconds": seconds})


def sensitivity_sweep(X, y, *, parameter, values, **kwargs):
    """:func:`sensitivity_scores` for each of ``values``, concatenated.

    An error about ``parameter`` is about ``values`` too: the value came from there.

    Examples
    --------
    >>> X, y = digits
    >>> from lowdim.embedding.experiments import sensitivity_sweep
    >>> rows = sensitivity_sweep(X, y, parameter="n_components", values=[2, 8], n_components=8,
    ...                          params={"solver": "cooccurrence"}, random_state=0, n_jobs=1)
    >>> accuracy = rows.groupby("value").accuracy.mean()
    >>> bool(accuracy[8] > accuracy[2])          # 2-D vectors keep fewer classes apart
    True
    """
    tables = []
    for value in values:
        try:
            tables.append(sensitivity_scores(X, y, parameter=parameter, value=value, **kwargs))
        except (ArgumentValueError, ArgumentTypeError) as exc:
            if parameter not in exc.arguments:
                raise
            raise type(exc)(f"{parameter}={value}: {exc}", ("values", *exc.arguments)) from exc
    return pd.concat(tables, ignore_index=True)


def save_sweep(path, sweep, *, dataset, method, y, meta=None):
    """Write an :func:`embed_sweep` result, with labels, to ``path`` (.npz) atomically.

    Examples
    --------
    >>> X, y = digits
    >>> from lowdim.embedding.experiments import embed_sweep, load_sweep, save_sweep
    >>> sweep = embed_sweep(X, "pca", n_components=2, settings=[{}], random_state=0)
    >>> save_sweep(tmp / "pca.npz", sweep, dataset="digits", method="pca", y=y)
    >>> loaded = load_sweep(tmp / "pca.npz")
    >>> loaded["embeddings"].shape, loaded["settings"], loaded["info"]["method"]
    ((1, 300, 2), ['default'], 'pca')
    """
    from .. import __version__

    info = {"dataset": dataset, "method": method, "lowdim_version": __version__, **(meta or {})}
    save_npz(path, info, compress=True, embeddings=sweep["embeddings"],
             settings=np.asarray(sweep["settings"], dtype=str), seconds=sweep["seconds"],
             errors=np.asarray(sweep["errors"], dtype=str), y=np.asarray(y))


def embed_and_save(data, method, settings, config_keys, path, *, threads=1):
    """What an embed job does for one method: its neighbour sweep on ``data``, saved.

    Parameters
    ----------
    data : Dataset
        The features (``data.X`` of shape (n_samples, n_features)) and labels ``data.y``.
    method : str
        A key of :data:`lowdim.embedding.METHODS`.
    settings : dict
        The job's settings (``lowdim.settings.embedding``'s ``embed`` job): ``n_components``,
        ``neighbors``, ``params``, ``random_state``, ``n_jobs``.
    config_keys : dict of str -> str
        The config key of each setting: an error about one exits naming it.
    path : str or Path
        The .npz file to write (:func:`save_sweep`, atomically).
    threads : int, default=1
        Threads of BLAS and the other thread pools during the fits.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.embedding.experiments import embed_and_save, load_sweep
    >>> data = get_spec("digits").prepare(n_rows=100)
    >>> settings = {"n_components": 2, "neighbors": [5], "params": {}, "random_state": 0,
    ...             "n_jobs": 1}
    >>> embed_and_save(data, "le", settings, {}, tmp / "le.npz")
    >>> load_sweep(tmp / "le.npz")["settings"]
    ['n_neighbors=5']
    """
    from threadpoolctl import threadpool_limits

    from ..job_errors import config_errors

    with threadpool_limits(threads), config_errors(settings, config_keys,
                                                   f"{method} on {data.name}"):
        sweep = embed_sweep(data.X, method, n_components=settings["n_components"],
                            settings=sweep_settings(method, settings["neighbors"], data.n),
                            params=settings["params"], random_state=settings["random_state"],
                            n_jobs=settings["n_jobs"])
    save_sweep(path, sweep, dataset=data.name, method=method, y=data.y,
               meta={"seed": settings["random_state"], "params": settings["params"]})


def load_sweep(path):
    """Read a file written by :func:`save_sweep` (no pickle).

    Examples
    --------
    >>> from lowdim.embedding.experiments import load_sweep, save_sweep
    >>> sweep = {"embeddings": rng.random((2, 5, 2)), "settings": ["k=5", "k=10"],
    ...          "seconds": [0.1, 0.2], "errors": ["", ""]}
    >>> save_sweep(tmp / "umap.npz", sweep, dataset="toy", method="umap", y=np.arange(5))
    >>> loaded = load_sweep(tmp / "umap.npz")
    >>> np.array_equal(loaded["embeddings"], sweep["embeddings"]), loaded["settings"]
    (True, ['k=5', 'k=10'])
    """
    arrays, info = load_npz(path)
    return {"embeddings": arrays["embeddings"], "settings": arrays["settings"].tolist(),
            "seconds": arrays["seconds"], "errors": arrays["errors"].tolist(),
            "y": arrays["y"], "info": info}
