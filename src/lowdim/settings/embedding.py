"""Settings of the embedding part (the Vec2vec paper).

Jobs: ``features`` (a dataset's rows or TF-IDF features), ``embed`` (one method on one
dataset, its neighbour sweep inside), ``score`` (kNN accuracy per fold and ARI per gamma
of every embedding of one dataset: scoring settings rescore without refitting),
``sensitivity`` (Figure 5: one dataset, one parameter, its values inside), ``timing``
(Figure 3: one method, every size of both panels, each fit repeated), ``tidy`` and
``render`` (Figures 3 to 5 and the tables).
"""

from __future__ import annotations

from ..embedding.methods import NEIGHBOR_PARAMETER, methods_sweeping
from ._core import (Job, below_rows, config_check, dataset_facts, enabled, job, kind_problem,
                    problem, seed, setting)

__all__ = ["SENSITIVITY_PARAMETERS", "TABLES", "TIDY", "TIMING_AXES", "batch_methods",
           "method_settings", "timing_batch_methods", "timing_methods"]

#: The parameters Figure 5 of the Vec2vec paper varies (``embedding.sensitivity``).
SENSITIVITY_PARAMETERS = ("n_components", "topk")
#: Figure 3's panels: the axis varied -> the key of the size held fixed.
TIMING_AXES = {"n_samples": "n_features_at", "n_features": "n_samples_at"}
#: The part's tidy files, relative to ``results/``.
TIDY = {"classification": "embedding/tidy/classification.csv",
        "clustering": "embedding/tidy/clustering.csv", "ttests": "embedding/tidy/ttests.csv",
        "scores": "embedding/tidy/scores.csv", "datasets": "embedding/tidy/datasets.csv",
        "sensitivity": "embedding/tidy/sensitivity.csv", "timing": "embedding/tidy/timing.csv"}
#: The part's tables (``results/tables/embedding/<name>.{md,csv,tex}``).
TABLES = ("table2_datasets", "table3_clustering_ari", "knn_accuracy", "ttests")
#: Section of the config holding each embedding method's fixed parameters.
_METHOD_SECTIONS = {"vec2vec": "vec2vec", "vec2vec_cooccurrence": "vec2vec", "umap": "umap",
                    "mds": "mds"}
#: Vec2vec parameters the co-occurrence solver does not read (it fixes its own solver).
_COOCCURRENCE_UNUSED = ("solver", "epochs")
_EMB = "embedding"


def _at(config, path):
    return setting(config, f"{_EMB}.{path}")


def method_settings(config: dict, method: str) -> dict:
    """``{parameter: (value, key)}`` of the estimator parameters ``method`` takes from
    the config (``embedding.vec2vec``, ``embedding.umap``, ``embedding.mds``; none for
    the others).

    Examples
    --------
    >>> from lowdim.settings.embedding import method_settings
    >>> method_settings(config, "umap")
    {'min_dist': (0.1, 'embedding.umap.min_dist'), 'metric': ('euclidean', 'embedding.umap.metric')}
    >>> method_settings(config, "pca")
    {}
    """
    section = _METHOD_SECTIONS.get(method)
    if section is None:
        return {}
    given, key = _at(config, section)
    unused = _COOCCURRENCE_UNUSED if method == "vec2vec_cooccurrence" else ()
    return {parameter: (value, f"{key}.{parameter}")
            for parameter, value in given.items() if parameter not in unused}


def _method_params(config, method):
    """The ``params`` argument: ``method``'s parameters as one dict, keyed by its section."""
    section = _METHOD_SECTIONS.get(method)
    params = {name: value for name, (value, _) in method_settings(config, method).items()}
    return params, f"{_EMB}.{section}" if section else f"{_EMB}.methods"


def _classification(config):
    return {name: _at(config, f"classification.{name}")
            for name in ("k_grid", "n_splits", "standardize")}


def _resources(config):
    return {name: _at(config, f"resources.{name}") for name in ("threads", "mem_mb", "runtime")}


def _n_jobs(config):
    return _at(config, "resources.threads")


@job("embedding", "features")
def features_job(config, *, dataset):
    """The rows kept and the TF-IDF options of a text dataset."""
    tfidf, key = _at(config, "tfidf")
    settings = {"max_samples": _at(config, "max_samples"),
                "seed": seed(config, "embedding", "rows", dataset),
                **{name: (value, f"{key}.{name}") for name, value in tfidf.items()}}
    return Job(settings, {"threads": (1, "")})


@job("embedding", "embed", ("threads", "mem_mb", "runtime"))
def embed_job(config, *, dataset, method):
    """One method's fits on one dataset, over the neighbour counts of ``embedding.neighbors``
    (also listed under the estimator's name, ``topk`` or ``n_neighbors``, which its errors
    use)."""
    settings = {"n_components": _at(config, "n_components"),
                "neighbors": _at(config, "neighbors"),
                "params": _method_params(config, method),
                "random_state": seed(config, "embedding", "embed", dataset, method),
                "n_jobs": _n_jobs(config)}
    swept = NEIGHBOR_PARAMETER[method]
    if swept:
        settings[swept] = settings["neighbors"]
    return Job(settings, _resources(config))


def batch_methods(config: dict) -> list:
    """The methods of ``embedding.methods`` fitted in one job per dataset
    (``embedding.batch_methods``), in ``embedding.methods``' order; the others get a job each.
    A batched method that ``embedding.methods`` leaves out is not fitted at all, so that a
    run of fewer methods needs no second edit.

    Examples
    --------
    >>> from lowdim.settings.embedding import batch_methods
    >>> embedding = {**config["embedding"], "methods": ["vec2vec", "pca", "le"],
    ...              "batch_methods": ["le", "pca", "mds"]}
    >>> batch_methods({**config, "embedding": embedding})
    ['pca', 'le']
    """
    methods, _ = _at(config, "methods")
    batch = set(_at(config, "batch_methods")[0])
    return [method for method in methods if method in batch]


@job("embedding", "embed_batch", ("threads", "mem_mb", "runtime"))
def embed_batch_job(config, *, dataset):
    """The fits of every method of :func:`batch_methods` on one dataset, one after the other
    in one process: each method's settings are its own ``embed`` job's (``fits``), and so are
    the config keys its errors name (``fit_keys``)."""
    jobs = {method: embed_job(config, dataset=dataset, method=method)
            for method in batch_methods(config)}
    key = _at(config, "batch_methods")[1]
    settings = {"fits": ({method: job.values() for method, job in jobs.items()}, key),
                "fit_keys": ({method: job.config_keys() for method, job in jobs.items()}, key)}
    return Job(settings, _resources(config))


@job("embedding", "score", ("threads", "mem_mb", "runtime"))
def score_job(config, *, dataset):
    """kNN classification and spectral clustering of every embedding of one dataset."""
    settings = {**_classification(config),
                "gammas": _at(config, "clustering.gammas"),
                "standardize_clustering": _at(config, "clustering.standardize"),
                "random_state": seed(config, "embedding", "score", dataset)}
    return Job(settings, _resources(config))


@job("embedding", "sensitivity", ("threads", "mem_mb", "runtime"))
def sensitivity_job(config, *, dataset, parameter):
    """Vec2vec's accuracy over the values of ``parameter`` (Figure 5) on one dataset."""
    settings = {"values": _at(config, f"sensitivity.{parameter}"),
                "max_samples": _at(config, "sensitivity.max_samples"),
                "n_components": _at(config, "n_components"),
                "params": _at(config, "vec2vec"),
                **_classification(config),
                "random_state": seed(config, "embedding", "sensitivity", dataset),
                "n_jobs": _n_jobs(config)}
    return Job(settings, _resources(config))


def _timing_values(config, method, axis):
    from ..embedding.timing import timing_values

    values, key = _at(config, f"timing.{axis}")
    fixed, _ = _at(config, f"timing.{TIMING_AXES[axis]}")
    cap = _at(config, "timing.max_samples")[0].get(method)
    return timing_values(axis, values, fixed, cap), key


@job("embedding", "timing", ("threads", "mem_mb", "runtime", "timing"))
def timing_job(config, *, method):
    """Figure 3's fits of one method: every size of both panels (those above the method's
    cap on n left out), each repeated, after one warm-up per panel. The job holds the
    exclusive ``timing`` resource: nothing runs beside it."""
    settings = {}
    for axis, fixed in TIMING_AXES.items():
        settings[axis] = _timing_values(config, method, axis)
        settings[fixed] = _at(config, f"timing.{fixed}")
    settings.update({name: _at(config, f"timing.{name}")
                     for name in ("n_components", "warmup_samples", "repeats")})
    # only the methods that take n_neighbors read it (Vec2vec's topk is in its params)
    settings["n_neighbors"] = (_at(config, "timing.n_neighbors")
                               if NEIGHBOR_PARAMETER[method] == "n_neighbors" else (None, ""))
    settings["params"] = _method_params(config, method)
    # one seed per panel, shared by the methods: they are timed on the same data
    settings["seeds"] = ({axis: seed(config, "embedding", "timing", axis)[0]
                          for axis in TIMING_AXES}, "seed")
    settings["n_jobs"] = _at(config, "timing.threads")
    return Job(settings, _timing_resources(config))


def _timing_resources(config):
    """A timing job's resources: its fits' threads, memory and runtime, and the exclusive
    ``timing`` resource."""
    return {"threads": _at(config, "timing.threads"),
            **{name: _at(config, f"resources.{name}") for name in ("mem_mb", "runtime")},
            "timing": (1, "")}


def timing_methods(config: dict) -> list:
    """The methods of Figure 3 with a size left to time (a timing job each, or a place in
    the batch: :func:`timing_batch_methods`).

    Examples
    --------
    >>> from lowdim.settings.embedding import timing_methods
    >>> timing_methods(config)
    ['vec2vec', 'vec2vec_cooccurrence', 'umap', 'lle', 'le', 'mds']
    """
    methods, _ = _at(config, "timing.methods")
    return [method for method in methods
            if any(_timing_values(config, method, axis)[0] for axis in TIMING_AXES)]


def timing_batch_methods(config: dict) -> list:
    """The methods of :func:`timing_methods` timed one after the other in one job
    (``embedding.timing.batch_methods``), in ``timing.methods``' order; the others get a
    job each. A listed method that is not timed is left out.

    Examples
    --------
    >>> from lowdim.settings.embedding import timing_batch_methods
    >>> timing = {**config["embedding"]["timing"], "batch_methods": ["le", "umap", "pca"]}
    >>> timing_batch_methods({**config, "embedding": {**config["embedding"], "timing": timing}})
    ['umap', 'le']
    """
    batch = set(_at(config, "timing.batch_methods")[0])
    return [method for method in timing_methods(config) if method in batch]


@job("embedding", "timing_batch", ("threads", "mem_mb", "runtime", "timing"))
def timing_batch_job(config):
    """The timing runs of every method of :func:`timing_batch_methods`, one after the other
    in one process that holds the ``timing`` resource: each method's settings are its own
    ``timing`` job's (``runs``), and so are the config keys its errors name
    (``run_keys``)."""
    jobs = {method: timing_job(config, method=method)
            for method in timing_batch_methods(config)}
    key = _at(config, "timing.batch_methods")[1]
    settings = {"runs": ({method: job.values() for method, job in jobs.items()}, key),
                "run_keys": ({method: job.config_keys() for method, job in jobs.items()}, key)}
    return Job(settings, _timing_resources(config))


@job("embedding", "tidy")
def tidy_job(config):
    """The significance level of the t-tests."""
    return Job({"alpha": _at(config, "alpha")}, {"threads": (1, "")})


@job("embedding", "render")
def render_job(config):
    """The profile, the methods' order in tables and Figure 4, and Figure 3's caps on n."""
    return Job({"profile": setting(config, "profile"), "methods": _at(config, "methods"),
                "max_samples": _at(config, "timing.max_samples")}, {"threads": (1, "")})


# -- checks -----------------------------------------------------------------------------------
#: Dataset kinds the embedding experiments turn into a feature matrix.
EMBEDDING_KINDS = ("dense", "sparse", "text")


@config_check
def check_embedding(config):
    """Labelled dense, sparse or text datasets, with more rows than every size asked of them."""
    if enabled(config, _EMB) is None:
        return
    methods, _ = _at(config, "methods")
    swept = [m for m in methods if m in methods_sweeping("n_neighbors", "topk")]
    datasets = _at(config, "datasets")
    neighbors = _at(config, "neighbors")
    if datasets[0] and swept and not neighbors[0]:
        yield problem(neighbors[1], neighbors[0],
                      f"must list at least one neighbour count for {', '.join(swept)}")
    for part in ("datasets", "sensitivity.datasets"):
        names, key = _at(config, part)
        for i, name in enumerate(names):
            dataset = (name, f"{key}[{i}]")
            wrong = kind_problem(config, dataset, EMBEDDING_KINDS,
                                 "a dense, sparse or text dataset", labelled=True)
            if wrong:
                yield wrong
                continue
            if part == "datasets":
                yield from _embedding_sizes(config, name, swept)
            else:
                yield from _sensitivity_sizes(config, name)
    yield from _timing_sizes(config)


def _embedding_sizes(config, name, swept):
    facts = dataset_facts(config, name)
    n, why = facts.rows(features_job(config, dataset=name).settings["max_samples"])
    if n is None:
        return []
    embed = embed_job(config, dataset=name, method="pca").settings
    k, k_key = embed["n_components"]
    checks = [below_rows(embed["n_components"], n, why, f" of dataset {name}")]
    methods, _ = _at(config, "methods")
    if "le" in methods and k > n - 2:
        checks.append(problem(k_key, k, f"must be <= n_samples - 2 = {n - 2} for le (Laplacian "
                                        f"Eigenmaps) on dataset {name} ({why})"))
    p = facts.bounds.get("p")
    for method in ("pca", "lle"):
        if method in methods and p is not None and k > p:
            checks.append(problem(k_key, k, f"must be <= the {p} features of dataset {name} "
                                            f"for {method}"))
    neighbors, neighbors_key = embed["neighbors"]
    if swept and neighbors and min(neighbors) >= n:
        checks.append(problem(neighbors_key, neighbors,
                              f"needs a neighbour count < {n}, the number of samples of "
                              f"dataset {name} ({why}); every setting of the sweep would be "
                              f"skipped"))
    splits, splits_key = score_job(config, dataset=name).settings["n_splits"]
    if splits > n:
        checks.append(problem(splits_key, splits, f"must be <= {n}, the number of samples of "
                                                  f"dataset {name} ({why})"))
    return [c for c in checks if c]


def _sensitivity_cap(config, name):
    """``(rows, key)`` Figure 5 keeps: it subsamples the embedding features, which hold at most
    ``embedding.max_samples`` rows, so its own ``max_samples`` (0: all) is capped by that; and
    a problem when its own asks for more (else None)."""
    features, features_key = features_job(config, dataset=name).settings["max_samples"]
    wanted, key = sensitivity = _at(config, "sensitivity.max_samples")
    if features and (not wanted or wanted > features):
        too_many = wanted and problem(
            key, wanted, f"asks for more rows than the embedding features of dataset {name} "
                         f"keep ({features_key} = {features}), which Figure 5 subsamples; set "
                         f"it to at most {features}, or 0 for all of them")
        return (features, features_key), too_many or None
    return sensitivity, None


def _sensitivity_sizes(config, name):
    where = f" of dataset {name} in Figure 5"
    cap, too_many = _sensitivity_cap(config, name)
    checks = [too_many]
    n, why = dataset_facts(config, name).rows(cap)
    if n is None:
        return [c for c in checks if c]
    for parameter in SENSITIVITY_PARAMETERS:
        settings = sensitivity_job(config, dataset=name, parameter=parameter).settings
        values, key = settings["values"]
        checks += [below_rows((v, f"{key}[{i}]"), n, why, where) for i, v in enumerate(values)]
        if parameter == "topk":
            checks.append(below_rows(settings["n_components"], n, why,
                                     where + " (the topk sweep uses it)"))
        else:
            topk, params_key = settings["params"]
            checks.append(below_rows((topk["topk"], f"{params_key}.topk"), n, why,
                                     where + " (the n_components sweep uses it)"))
    return [c for c in checks if c]


def _timing_sizes(config):
    methods, _ = _at(config, "timing.methods")
    if not methods:
        return
    # the sizes as configured, before any method's cap: every method shares the data
    settings = timing_job(config, method=methods[0]).settings
    n_samples, n_samples_key = _at(config, "timing.n_samples")
    sizes = [(v, f"{n_samples_key}[{i}]") for i, v in enumerate(n_samples)]
    if settings["n_features"][0]:
        sizes.append(settings["n_samples_at"])
    vec2vec = method_settings(config, "vec2vec")["topk"]
    for n, where in sizes:
        why = f"{where} = {n}"
        yield from filter(None, [
            below_rows(settings["n_components"], n, why),
            below_rows(_at(config, "timing.n_neighbors"), n, why)
            if set(methods) & set(methods_sweeping("n_neighbors")) else None,
            below_rows(vec2vec, n, why) if set(methods) & set(methods_sweeping("topk")) else None])
    k, k_key = settings["n_components"]
    d, d_key = settings["n_features_at"]
    if n_samples and {"pca", "lle"} & set(methods) and k > d:
        yield problem(k_key, k, f"must be <= {d_key} = {d} for pca and lle")
