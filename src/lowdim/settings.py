"""What each workflow job passes to the library, resolved from the config in one place.

A job's *settings* map each library argument it sets to ``(value, key)``: the value
after per-dataset overrides, and the config key that gave it, written as the
start-time checks write keys (``cca.overrides.mnist_halves.n_components``,
``cca.figure2.pca_components[1]``). The workflow's rule ``params``, the checks run
when it starts (:mod:`lowdim.config_checks`), a job's error messages
(:mod:`lowdim.job_errors`) and the benchmarks that project the paper profile all
read these functions, so no other module interprets an override.

Each function reads the validated config (defaults filled in by
:func:`lowdim.config.validate_config`) and imports no estimator: the workflow calls them
while it builds the DAG.
"""

from __future__ import annotations

from ._validation import ArgumentValueError
from .cca.methods import APPGRAD_METHODS
from .seeding import derive_seed

__all__ = ["CCA_JOBS", "SENSITIVITY_PARAMETERS", "cca_datasets", "cca_figure_datasets",
           "cca_heuristic_runs", "cca_resources", "cca_settings", "config_keys",
           "embedding_method_settings", "embedding_settings", "kernel_cca_settings", "values",
           "wmd_corpus_settings"]

#: The parameters Figure 5 of the Vec2vec paper varies (``embedding.sensitivity``).
SENSITIVITY_PARAMETERS = ("n_components", "topk")
#: CCA jobs other than Figure 2's heuristic runs (:func:`cca_heuristic_runs`).
CCA_JOBS = ("stats", "exact", *APPGRAD_METHODS)


def values(settings: dict) -> dict:
    """``{argument: value}`` of ``settings``.

    Examples
    --------
    >>> from lowdim.settings import values
    >>> values({"reg": (0.005, "cca.reg"), "n_components": (20, "cca.n_components")})
    {'reg': 0.005, 'n_components': 20}
    """
    return {argument: value for argument, (value, _) in settings.items()}


def config_keys(settings: dict) -> dict:
    """``{argument: config key}`` of ``settings``.

    Examples
    --------
    >>> from lowdim.settings import config_keys
    >>> config_keys({"reg": (0.005, "cca.reg"), "n_components": (20, "cca.n_components")})
    {'reg': 'cca.reg', 'n_components': 'cca.n_components'}
    """
    return {argument: key for argument, (_, key) in settings.items()}


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
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
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
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.settings import cca_datasets
    >>> cca_datasets(config)
    ['digits_halves', 'planted_cca', 'word_context', 'sparse_two_view']
    """
    names = [name for figure in (1, 2) for name, _ in cca_figure_datasets(config, figure)]
    return list(dict.fromkeys(names))


def _cca_value(config, dataset, override, path):
    """``(value, key)``: ``cca.overrides.<dataset>.<override>`` if set, else ``cca.<path>``."""
    cca = config["cca"]
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
        ``checkpoint_count``, ``checkpoint_iterations``, ``normalization`` and
        ``seed`` (``sappgrad`` also ``batch_size`` and ``normalization_size``, None for
        10·k); a heuristic run adds ``method``, ``n_pca_components`` (0 but for
        PCA-CCA), ``oversample``, ``n_iter`` and ``seed``.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.settings import cca_settings
    >>> settings = cca_settings(config, "planted_cca", job="sappgrad")
    >>> settings["n_components"], settings["step_size"], settings["batch_size"]
    ((20, 'cca.n_components'), (0.02, 'cca.overrides.planted_cca.sappgrad_step_size'), (50, 'cca.sappgrad.batch_size'))
    """
    cca, base = config["cca"], config["seed"]
    settings = {argument: _cca_value(config, dataset, argument, argument)
                for argument in ("n_components", "reg", "rescale")}
    settings["heldout_fraction"] = (cca["heldout_fraction"], "cca.heldout_fraction")
    settings["split_seed"] = (derive_seed(base, "cca", dataset, "split"), "seed")
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
        settings["seed"] = (derive_seed(base, "cca", dataset, identity), "seed")
    return settings


def _appgrad_settings(config, dataset, method):
    cca = config["cca"]
    settings = {argument: _cca_value(config, dataset, f"{method}_{argument}",
                                     f"{method}.{argument}")
                for argument in ("max_iter", "step_size")}
    settings["checkpoint_count"] = (cca["checkpoints"]["count"], "cca.checkpoints.count")
    settings["checkpoint_iterations"] = (cca["checkpoints"]["iterations"],
                                         "cca.checkpoints.iterations")
    settings["normalization"] = (cca["normalization"], "cca.normalization")
    settings["seed"] = (derive_seed(config["seed"], "cca", dataset, method), "seed")
    if method == "sappgrad":
        settings["batch_size"] = _cca_value(config, dataset, "batch_size", "sappgrad.batch_size")
        size = cca["sappgrad"]["normalization_size"]
        settings["normalization_size"] = (size or None, "cca.sappgrad.normalization_size")
    return settings


def cca_heuristic_runs(config: dict) -> list[str]:
    """Names of Figure 2's heuristic runs, each also its path below ``heuristics/``:
    ``nw_cca``, ``dw_cca``, and ``pca_cca/m{m}`` for each ``m`` of
    ``cca.figure2.pca_components``.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
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
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.settings import cca_resources
    >>> cca_resources(config, "planted_cca")
    {'threads': (1, 'cca.threads'), 'mem_mb': (4000, 'cca.mem_mb'), 'runtime': (30, 'cca.runtime')}
    """
    resources = {hint: _cca_value(config, dataset, hint, hint) for hint in ("mem_mb", "runtime")}
    return {"threads": (config["cca"]["threads"], "cca.threads"), **resources}


# -- embedding -------------------------------------------------------------------------------
#: Section of the config holding each embedding method's fixed parameters.
_METHOD_SECTIONS = {"vec2vec": "vec2vec", "vec2vec_cooccurrence": "vec2vec", "umap": "umap",
                    "mds": "mds"}
#: Vec2vec parameters the co-occurrence solver does not read (it fixes its own solver).
_COOCCURRENCE_UNUSED = ("solver", "epochs")


def embedding_method_settings(config: dict, method: str) -> dict:
    """``{parameter: (value, key)}`` of the estimator parameters ``method`` takes from
    the config (``embedding.vec2vec``, ``embedding.umap``, ``embedding.mds``; none for
    the others).

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.settings import embedding_method_settings
    >>> embedding_method_settings(config, "umap")
    {'min_dist': (0.1, 'embedding.umap.min_dist'), 'metric': ('euclidean', 'embedding.umap.metric')}
    >>> embedding_method_settings(config, "pca")
    {}
    """
    section = _METHOD_SECTIONS.get(method)
    if section is None:
        return {}
    given = config["embedding"][section]
    unused = _COOCCURRENCE_UNUSED if method == "vec2vec_cooccurrence" else ()
    return {parameter: (value, f"embedding.{section}.{parameter}")
            for parameter, value in given.items() if parameter not in unused}


def _method_params(config, method):
    """The ``params`` argument: ``method``'s parameters as one dict, keyed by its section."""
    settings = embedding_method_settings(config, method)
    section = _METHOD_SECTIONS.get(method)
    return values(settings), f"embedding.{section}" if section else "embedding.methods"


def _classification(config, prefix=""):
    part = config["embedding"]["classification"]
    return {f"{prefix}{name}": (part[name], f"embedding.classification.{name}")
            for name in ("k_grid", "n_splits", "standardize")}


def embedding_settings(config: dict, job: str, *, dataset: str | None = None,
                       method: str | None = None, parameter: str | None = None,
                       axis: str | None = None) -> dict:
    """Library arguments of one embedding job: ``{argument: (value, key)}``.

    Parameters
    ----------
    config : dict
        The validated config.
    job : {"features", "embed", "score", "sensitivity", "timing"}
    dataset : str
        For ``features``, ``embed``, ``score`` and ``sensitivity`` (the seed's identity).
    method : str
        For ``embed`` and ``timing``.
    parameter : {"n_components", "topk"}
        For ``sensitivity``: the Vec2vec parameter Figure 5 varies.
    axis : {"n_samples", "n_features"}
        For ``timing``.

    Returns
    -------
    dict
        The arguments of the library call of the job's script (``params`` is a dict
        of estimator parameters, keyed by its config section). The neighbour count
        an ``embed`` job sweeps is also listed under the estimator's name
        (``topk`` or ``n_neighbors``, from ``embedding.neighbors``), which its
        errors use; a ``sensitivity`` job's ``values`` are those of its parameter.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.settings import embedding_settings
    >>> settings = embedding_settings(config, "embed", dataset="digits", method="isomap")
    >>> settings["n_components"], settings["n_neighbors"]
    ((10, 'embedding.n_components'), ([5, 15], 'embedding.neighbors'))
    """
    builders = {"features": _features_settings, "embed": _embed_settings,
                "score": _score_settings, "sensitivity": _sensitivity_settings,
                "timing": _timing_settings}
    if job not in builders:
        raise ArgumentValueError(f"`job` must be one of {list(builders)}, got {job!r}", "job")
    return builders[job](config, dataset=dataset, method=method, parameter=parameter,
                         axis=axis)


def _seed(config, *identity):
    return derive_seed(config["seed"], "embedding", *identity), "seed"


def _features_settings(config, dataset, **_):
    emb = config["embedding"]
    settings = {"max_samples": (emb["max_samples"], "embedding.max_samples"),
                "seed": _seed(config, "rows", dataset)}
    settings.update({name: (value, f"embedding.tfidf.{name}")
                     for name, value in emb["tfidf"].items()})
    return settings


def _embed_settings(config, dataset, method, **_):
    from .embedding.methods import NEIGHBOR_PARAMETER

    emb = config["embedding"]
    settings = {"n_components": (emb["n_components"], "embedding.n_components"),
                "neighbors": (emb["neighbors"], "embedding.neighbors"),
                "params": _method_params(config, method),
                "random_state": _seed(config, "embed", dataset, method),
                "n_jobs": (emb["resources"]["threads"], "embedding.resources.threads")}
    swept = NEIGHBOR_PARAMETER[method]
    if swept:
        settings[swept] = settings["neighbors"]
    return settings


def _score_settings(config, dataset, **_):
    clustering = config["embedding"]["clustering"]
    return {**_classification(config),
            "gammas": (clustering["gammas"], "embedding.clustering.gammas"),
            "standardize_clustering": (clustering["standardize"],
                                       "embedding.clustering.standardize"),
            "random_state": _seed(config, "score", dataset)}


def _sensitivity_settings(config, dataset, parameter, **_):
    emb = config["embedding"]
    sens = emb["sensitivity"]
    settings = {"values": (sens[parameter], f"embedding.sensitivity.{parameter}"),
                "max_samples": (sens["max_samples"], "embedding.sensitivity.max_samples"),
                "n_components": (emb["n_components"], "embedding.n_components"),
                "params": (dict(emb["vec2vec"]), "embedding.vec2vec"),
                **_classification(config),
                "random_state": _seed(config, "sensitivity", dataset),
                "n_jobs": (emb["resources"]["threads"], "embedding.resources.threads")}
    return settings


def _timing_settings(config, method, axis, **_):
    from .embedding.timing import timing_values

    timing = config["embedding"]["timing"]
    fixed_axis = "n_features_at" if axis == "n_samples" else "n_samples_at"
    fixed = timing[fixed_axis]
    return {"values": (timing_values(axis, timing[axis], fixed,
                                     timing["max_samples"].get(method)),
                       f"embedding.timing.{axis}"),
            "fixed": (fixed, f"embedding.timing.{fixed_axis}"),
            "n_components": (timing["n_components"], "embedding.timing.n_components"),
            "n_neighbors": (timing["n_neighbors"], "embedding.timing.n_neighbors"),
            "params": _method_params(config, method),
            "warmup_samples": (timing["warmup_samples"], "embedding.timing.warmup_samples"),
            "seed": _seed(config, "timing", axis),
            "n_jobs": (timing["threads"], "embedding.timing.threads")}


# -- kernel_cca ------------------------------------------------------------------------------
#: Section keys of ``kernel_cca`` that every setting shares.
KERNEL_CCA_SHARED = ("landmarks", "n_seeds", "reg", "heldout_fraction", "solver", "max_iter",
                     "tol", "exact_max_n")


def kernel_cca_settings(config: dict, name: str) -> dict:
    """Everything that changes the results of kernel CCA setting ``name``:
    ``{argument: (value, key)}``, its own keys and the section's shared ones.

    A setting's ``n_components`` of 0 takes ``kernel_cca.n_components``; ``mlp`` is
    listed only for the MLP similarity, the one that reads it.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.settings import kernel_cca_settings, values
    >>> name = config["kernel_cca"]["settings"][0]["name"]
    >>> settings = kernel_cca_settings(config, name)
    >>> settings["n_components"][1], settings["landmarks"]
    ('kernel_cca.n_components', ([25, 50, 100, 200], 'kernel_cca.landmarks'))
    """
    section = config["kernel_cca"]
    index = next(i for i, s in enumerate(section["settings"]) if s["name"] == name)
    own = section["settings"][index]
    settings = {argument: (value, f"kernel_cca.settings[{index}].{argument}")
                for argument, value in own.items()
                if argument != "mlp" or own["similarity"] == "mlp"}
    if not own["n_components"]:
        settings["n_components"] = (section["n_components"], "kernel_cca.n_components")
    settings.update({argument: (section[argument], f"kernel_cca.{argument}")
                     for argument in KERNEL_CCA_SHARED})
    return settings


# -- sms_tasks -------------------------------------------------------------------------------
def wmd_corpus_settings(config: dict, name: str) -> dict:
    """Settings of WMD classification corpus ``name`` that may come from elsewhere:
    ``gamma0`` and ``word_vectors`` from the ``similarity`` matrix the corpus names (else
    its own), and ``large_rank_max`` (the corpus's, else the section's).

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.settings import wmd_corpus_settings
    >>> corpus = config["sms_tasks"]["wmd_classification"]["corpora"][0]["name"]
    >>> sorted(wmd_corpus_settings(config, corpus))
    ['gamma0', 'large_rank_max', 'word_vectors']
    """
    part = config["sms_tasks"]["wmd_classification"]
    index = next(i for i, c in enumerate(part["corpora"]) if c["name"] == name)
    corpus, key = part["corpora"][index], f"sms_tasks.wmd_classification.corpora[{index}]"
    settings = {"gamma0": (corpus["gamma0"], f"{key}.gamma0"),
                "word_vectors": (corpus["word_vectors"], f"{key}.word_vectors")}
    if corpus["matrix"]:
        matrices = config["similarity"]["matrices"]
        i = next(i for i, m in enumerate(matrices) if m["name"] == corpus["matrix"])
        wmd = matrices[i]["wmd"]
        settings = {"gamma0": (wmd["gamma"], f"similarity.matrices[{i}].wmd.gamma"),
                    "word_vectors": (wmd["word_vectors"],
                                     f"similarity.matrices[{i}].wmd.word_vectors")}
    if corpus["large_rank_max"]:
        settings["large_rank_max"] = (corpus["large_rank_max"], f"{key}.large_rank_max")
    else:
        settings["large_rank_max"] = (part["large_rank_max"],
                                      "sms_tasks.wmd_classification.large_rank_max")
    return settings
