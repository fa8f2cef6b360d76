"""Settings of the cca part (the AppGrad paper), ``cca.overrides`` applied here only.

Jobs, each on one dataset: ``stats`` (Table 1's statistics), ``exact`` (exact CCA, Figure
1's reference), ``appgrad`` (batch or stochastic AppGrad, wildcard ``cca_method``) and
``heuristic`` (a run of Figure 2's NW-, DW- or PCA-CCA, wildcard ``heuristic``); then
``tidy`` and ``render`` (Figures 1 and 2, Table 1).
"""

from __future__ import annotations

from .._validation import ArgumentValueError
from ..cca.methods import APPGRAD_METHODS
from ._core import (Job, config_check, dataset_facts, enabled, job, kind_problem, problem, seed,
                    width_problem)

__all__ = ["CCA_JOBS", "TIDY", "cca_datasets", "cca_figure_datasets", "cca_heuristic_runs",
           "cca_resources", "cca_settings"]

#: CCA jobs other than Figure 2's heuristic runs (:func:`cca_heuristic_runs`).
CCA_JOBS = ("stats", "exact", *APPGRAD_METHODS)
#: The part's tidy files, relative to ``results/``.
TIDY = {"appgrad_trace": "cca/tidy/appgrad_trace.csv", "exact": "cca/tidy/exact.csv",
        "tcc_flops": "cca/tidy/tcc_flops.csv", "datasets": "cca/tidy/datasets.csv"}


def _at(section: dict, path: str):
    """The value at dotted ``path`` (``"sappgrad.batch_size"``) below ``section``."""
    for part in path.split("."):
        section = section[part]
    return section


# -- cca -------------------------------------------------------------------------------------
def cca_figure_datasets(config: dict, figure: int) -> list[tuple[str, str]]:
    """``(dataset, key)`` of each panel of the cca section's Figure 1 or 2, in order.

    ``cca.figure2.dataset`` is one name, a list of names, or null (no Figure 2).

    Examples
    --------
    >>> from lowdim.settings import cca_figure_datasets
    >>> cca_figure_datasets(config, 1)
    [('digits_halves', 'cca.figure1.datasets[0]'), ('planted_cca', 'cca.figure1.datasets[1]'), ('word_context', 'cca.figure1.datasets[2]')]
    >>> cca_figure_datasets(config, 2)
    [('sparse_two_view', 'cca.figure2.dataset')]
    """
    if figure == 1:
        return [(name, f"cca.figure1.datasets[{i}]")
                for i, name in enumerate(config["cca"]["figure1"]["datasets"])]
    given = config["cca"]["figure2"]["dataset"]
    if given is None:
        return []
    if isinstance(given, str):
        return [(given, "cca.figure2.dataset")]
    return [(name, f"cca.figure2.dataset[{i}]") for i, name in enumerate(given)]


def cca_datasets(config: dict) -> list[str]:
    """Every dataset of the cca section, once: Figure 1's, then Figure 2's.

    Examples
    --------
    >>> from lowdim.settings import cca_datasets
    >>> cca_datasets(config)
    ['digits_halves', 'planted_cca', 'word_context', 'sparse_two_view']
    """
    names = [name for figure in (1, 2) for name, _ in cca_figure_datasets(config, figure)]
    return list(dict.fromkeys(names))


#: ``cca.<path>`` -> the field of ``cca.overrides.<dataset>`` that replaces it for one dataset.
OVERRIDE_OF = {"n_components": "n_components", "reg": "reg", "rescale": "rescale",
               "appgrad.max_iter": "appgrad_max_iter", "appgrad.step_size": "appgrad_step_size",
               "sappgrad.max_iter": "sappgrad_max_iter",
               "sappgrad.step_size": "sappgrad_step_size", "sappgrad.batch_size": "batch_size",
               "n_seeds": "n_seeds", "mem_mb": "mem_mb", "runtime": "runtime"}


def _cca_value(config, dataset, path):
    """``(value, key)``: ``cca.overrides.<dataset>.<field>`` if set (the field
    :data:`OVERRIDE_OF` names for ``path``), else ``cca.<path>``."""
    cca, override = config["cca"], OVERRIDE_OF[path]
    given = cca["overrides"].get(dataset, {})
    if override in given:
        return given[override], f"cca.overrides.{dataset}.{override}"
    return _at(cca, path), f"cca.{path}"


def cca_settings(config: dict, dataset: str, job: str = "stats") -> dict:
    """Library arguments of one CCA job on ``dataset``: ``{argument: (value, key)}``.

    Parameters
    ----------
    config : dict
        The validated config.
    dataset : str
        A dataset of the cca section (overrides are looked up under its name).
    job : str, default="stats"
        One of :data:`CCA_JOBS` or a heuristic run of :func:`cca_heuristic_runs`
        (``"nw_cca"``, ``"pca_cca/m50"``, ...).

    Returns
    -------
    dict
        Every job has ``n_components``, ``reg``, ``rescale``, ``heldout_fraction``
        and ``split_seed`` (the train/held-out split); ``exact`` adds ``method``;
        ``appgrad`` and ``sappgrad`` add ``max_iter``, ``step_size``,
        ``checkpoint_count``, ``checkpoint_iterations``, ``normalization``, ``seed``
        and ``n_seeds`` (``sappgrad`` also ``batch_size`` and ``normalization_size``,
        None for 10·k); a heuristic run adds ``method``, ``n_pca_components`` (0 but for
        PCA-CCA), ``oversample``, ``n_iter``, ``seed`` and ``n_seeds``. ``seed`` is
        replicate 0's; the others derive from it
        (:func:`lowdim.cca.experiments.replicate_seeds`).

    Examples
    --------
    >>> from lowdim.settings import cca_settings
    >>> settings = cca_settings(config, "planted_cca", job="sappgrad")
    >>> settings["n_components"], settings["step_size"], settings["batch_size"]
    ((20, 'cca.n_components'), (0.02, 'cca.overrides.planted_cca.sappgrad_step_size'), (50, 'cca.sappgrad.batch_size'))
    """
    cca = config["cca"]
    settings = {argument: _cca_value(config, dataset, argument)
                for argument in ("n_components", "reg", "rescale")}
    settings["heldout_fraction"] = (cca["heldout_fraction"], "cca.heldout_fraction")
    settings["split_seed"] = seed(config, "cca", dataset, "split")
    if job == "exact":
        settings["method"] = (cca["exact_method"], "cca.exact_method")
    elif job in APPGRAD_METHODS:
        settings.update(_appgrad_settings(config, dataset, job))
    elif job != "stats":
        runs = _heuristic_runs(config)
        if job not in runs:
            raise ArgumentValueError(f"`job` must be one of {list(CCA_JOBS)} or a heuristic run "
                                     f"of this config {list(runs)}, got {job!r}", "job")
        identity, run = runs[job]
        settings.update(run)
        settings["seed"] = seed(config, "cca", dataset, identity)
        settings["n_seeds"] = _cca_value(config, dataset, "n_seeds")
    return settings


def _appgrad_settings(config, dataset, method):
    cca = config["cca"]
    settings = {argument: _cca_value(config, dataset, f"{method}.{argument}")
                for argument in ("max_iter", "step_size")}
    settings["checkpoint_count"] = (cca["checkpoints"]["count"], "cca.checkpoints.count")
    settings["checkpoint_iterations"] = (cca["checkpoints"]["iterations"],
                                         "cca.checkpoints.iterations")
    settings["normalization"] = (cca["normalization"], "cca.normalization")
    settings["seed"] = seed(config, "cca", dataset, method)
    settings["n_seeds"] = _cca_value(config, dataset, "n_seeds")
    if method == "sappgrad":
        settings["batch_size"] = _cca_value(config, dataset, "sappgrad.batch_size")
        size = cca["sappgrad"]["normalization_size"]
        settings["normalization_size"] = (size or None, "cca.sappgrad.normalization_size")
    return settings


def cca_heuristic_runs(config: dict) -> list[str]:
    """Names of Figure 2's heuristic runs, each also its path below ``heuristics/``:
    ``nw_cca``, ``dw_cca``, and ``pca_cca/m{m}`` for each ``m`` of
    ``cca.figure2.pca_components``.

    Examples
    --------
    >>> from lowdim.settings import cca_heuristic_runs
    >>> cca_heuristic_runs(config)
    ['nw_cca', 'dw_cca', 'pca_cca/m20', 'pca_cca/m50']
    """
    return list(_heuristic_runs(config))


def _heuristic_runs(config):
    """``{name: (identity, settings)}`` of the heuristic runs; a run's seed derives from
    its identity (``pca_cca-m50``), which names no file."""
    figure = config["cca"]["figure2"]
    runs = {}
    for i, method in enumerate(figure["methods"]):
        shared = {"method": (method, f"cca.figure2.methods[{i}]"),
                  "oversample": (figure["oversample"], "cca.figure2.oversample"),
                  "n_iter": (figure["power_iterations"], "cca.figure2.power_iterations")}
        if method != "pca_cca":
            runs[method] = method, {**shared,
                                    "n_pca_components": (0, "cca.figure2.pca_components")}
            continue
        for j, m in enumerate(figure["pca_components"]):
            runs[f"pca_cca/m{m}"] = f"pca_cca-m{m}", {
                **shared, "n_pca_components": (m, f"cca.figure2.pca_components[{j}]")}
    return runs


def cca_resources(config: dict, dataset: str) -> dict:
    """Scheduler hints of the CCA compute jobs on ``dataset``: ``threads``, ``mem_mb``
    (MB) and ``runtime`` (minutes), each ``(value, key)``.

    Examples
    --------
    >>> from lowdim.settings.cca import cca_resources
    >>> cca_resources(config, "planted_cca")
    {'threads': (1, 'cca.threads'), 'mem_mb': (4000, 'cca.mem_mb'), 'runtime': (30, 'cca.runtime')}
    """
    resources = {hint: _cca_value(config, dataset, hint) for hint in ("mem_mb", "runtime")}
    return {"threads": (config["cca"]["threads"], "cca.threads"), **resources}


# -- jobs -------------------------------------------------------------------------------------
def _resources(config, dataset):
    return cca_resources(config, dataset)


@job("cca", "stats")
def stats_job(config, *, dataset):
    """The views as the solvers see them (rescaling, held-out split) for Table 1: only what
    cuts the views, so a change of ``n_components`` or ``reg`` does not re-run it."""
    views = {key: value for key, value in cca_settings(config, dataset, "stats").items()
             if key in ("rescale", "heldout_fraction", "split_seed")}
    return Job(views, {"threads": (1, "")})


@job("cca", "exact", ("threads", "mem_mb", "runtime"))
def exact_job(config, *, dataset):
    """Exact CCA on the training rows: Figure 1's reference."""
    return Job(cca_settings(config, dataset, "exact"), _resources(config, dataset))


@job("cca", "appgrad", ("threads", "mem_mb", "runtime"))
def appgrad_job(config, *, dataset, cca_method):
    """Batch (``appgrad``) or stochastic (``sappgrad``) AppGrad with its checkpoints."""
    return Job(cca_settings(config, dataset, cca_method), _resources(config, dataset))


@job("cca", "heuristic", ("threads", "mem_mb", "runtime"))
def heuristic_job(config, *, dataset, heuristic):
    """One run of Figure 2's heuristics (``nw_cca``, ``pca_cca/m50``, ...)."""
    return Job(cca_settings(config, dataset, heuristic), _resources(config, dataset))


@job("cca", "tidy")
def tidy_job(config):
    """Gathers the traces, exact solutions, heuristic runs and statistics: nothing to set."""
    return Job({}, {"threads": (1, "")})


@job("cca", "render")
def render_job(config):
    """The profile and the datasets of Figures 1 and 2, in their panels' order."""
    figure = {n: [(name, key) for name, key in cca_figure_datasets(config, n)] for n in (1, 2)}
    return Job({"profile": (config["profile"], "profile"),
                "figure1_datasets": ([name for name, _ in figure[1]], "cca.figure1.datasets"),
                "figure2_datasets": ([name for name, _ in figure[2]], "cca.figure2.dataset")},
               {"threads": (1, "")})


# -- checks -----------------------------------------------------------------------------------
def _cca_training_rows(config, facts):
    """Upper bound on the training rows of a CCA dataset, and where it comes from."""
    if "n_train" in facts.bounds:
        return facts.bounds["n_train"], "its own training split"
    n = facts.bounds.get("n")
    if n is None:
        return None, ""
    fraction, key = cca_settings(config, facts.name)["heldout_fraction"]
    n_train = n - int(round(fraction * n))
    rows = f"{n} rows ({facts.origin})" if facts.origin else f"{n} rows"
    return n_train, f"{rows} less {key} = {fraction}"


@config_check
def check_cca(config):
    """Two-view datasets; k <= min(p1, p2); batch and normalisation sizes <= training rows."""
    if enabled(config, "cca") is None:
        return
    for name, key in cca_figure_datasets(config, 1) + cca_figure_datasets(config, 2):
        wrong = kind_problem(config, (name, key), ("two_view",), "a two-view dataset")
        if wrong:
            yield wrong
            continue
        facts = dataset_facts(config, name)
        k, k_key = cca_settings(config, name)["n_components"]
        yield from filter(None, [width_problem((k, k_key), facts)])
        yield from _cca_sizes(config, facts, k, k_key)


def _cca_sizes(config, facts, k, k_key):
    name = facts.name
    n_train, why = _cca_training_rows(config, facts)
    settings = cca_settings(config, name, "sappgrad")
    batch, batch_key = settings["batch_size"]
    if n_train is not None and batch > n_train:
        yield problem(batch_key, batch, f"must be <= {n_train}, the training rows of dataset "
                                        f"{name} ({why})")
    s, s_key = settings["normalization_size"]
    if s and (s < k or (n_train is not None and s > n_train)):
        upper = f" and <= {n_train}, the training rows ({why})" if n_train is not None else ""
        yield problem(s_key, s, f"must be 0 (10 * n_components) or >= {k_key} = {k}{upper} "
                                f"for dataset {name}")
    if name in [n for n, _ in cca_figure_datasets(config, 2)]:
        for run in cca_heuristic_runs(config):
            m, m_key = cca_settings(config, name, run)["n_pca_components"]
            if m and m < k:
                yield problem(m_key, m, f"must be >= {k_key} = {k} (PCA-CCA keeps m principal "
                                        f"directions per view, and needs k of them)")
