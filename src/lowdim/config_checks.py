"""Checks across config keys, run when the workflow starts: what a schema cannot see.

:func:`lowdim.config.validate_config` checks every key on its own against the
schemas; :func:`check_config` then checks keys against each other and against
what the dataset registry knows before anything is prepared: a dataset's kind,
whether it has labels, and the sizes its options fix
(:meth:`lowdim.data.DatasetSpec.size_bounds`). A mistake stops the run before
any job starts, with one line that names the key, the value given and what is
allowed. What only the prepared data can tell is checked in the job, whose
error names the config key (:mod:`lowdim.job_errors`).

Each check is a function ``config -> iterable of problems`` registered with
:func:`config_check`; a problem is one line made by :func:`problem`. Add a check
by writing one more such function. Facts about a dataset come from
:func:`dataset_facts`, the one place that reads the registry (or, for the user's
own data, the headers of the files the config names: :mod:`lowdim.data.own`);
settings a job receives (overrides applied) come from :mod:`lowdim.settings`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

from .config import ConfigError
from .embedding.methods import methods_sweeping
from .job_errors import problem
from .settings import (cca_figure_datasets, cca_heuristic_runs, cca_settings,
                       wmd_corpus_settings)

__all__ = ["CHECKS", "DatasetFacts", "check_config", "config_check", "config_problems",
           "dataset_facts", "own_data_problems", "problem"]

#: The registered checks, run in order by :func:`config_problems`.
CHECKS = []

#: Dataset kinds the embedding experiments turn into a feature matrix.
EMBEDDING_KINDS = ("dense", "sparse", "text")
#: Embedding methods with an ``n_neighbors`` (``embedding.timing.n_neighbors`` in Figure 3).
NEIGHBOR_METHODS = methods_sweeping("n_neighbors")
#: Both Vec2vec solvers: ``embedding.vec2vec.topk`` outside the sweep.
VEC2VEC_METHODS = methods_sweeping("topk")
#: Embedding methods that sweep ``embedding.neighbors`` (Vec2vec's as its topk).
SWEPT_METHODS = methods_sweeping("n_neighbors", "topk")
#: Dataset kinds each kind of similarity matrix is built from (lowdim.similarity.matrices).
MATRIX_DATASET_KINDS = {"wmd": ("text",), "mlp": ("dense", "sparse", "text", "mentions"),
                "crossencoder": ("pairs",)}


def config_check(func):
    """Register ``func(config) -> iterable of problem lines`` as a config check.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config_checks import CHECKS, config_check, config_problems, problem
    >>> @config_check
    ... def seed_is_even(config):
    ...     if config["seed"] % 2:
    ...         yield problem("seed", config["seed"], "must be even in this lab")
    >>> config_problems({**config, "seed": 3})
    ['config: seed: got 3; must be even in this lab']
    >>> CHECKS.remove(seed_is_even)
    """
    CHECKS.append(func)
    return func


def config_problems(config: dict) -> list[str]:
    """Every problem the registered checks find in a validated config.

    The user's own data are looked at first (:func:`own_data_problems`): the other
    checks need their kind and sizes, so they run only when every file reads.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config_checks import config_problems
    >>> config_problems(config)
    []
    >>> problems = config_problems({**config, "embedding": {**config["embedding"], "n_components": 500}})
    >>> problems[0]
    'config: embedding.n_components: got 500; must be <= the 64 features of dataset digits for pca'
    """
    own = own_data_problems(config)
    if own:
        return own
    return [line for check in CHECKS for line in check(config)]


def own_data_problems(config: dict) -> list[str]:
    """One line for each own dataset (``datasets: {name: {file: ...}}``) whose files are
    missing or do not hold what the options say, naming the key and the file.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config_checks import own_data_problems
    >>> datasets = {**config["datasets"], "mine": {"file": "no_such_file.csv"}}
    >>> [line.split(" (looked for")[0] for line in own_data_problems({**config, "datasets": datasets})]
    ["config: datasets.mine.file: got 'no_such_file.csv'; no such file or folder"]
    """
    from .data import OwnDataError, dataset_spec, declares_own_data

    problems = []
    for name, options in config.get("datasets", {}).items():
        if declares_own_data(options):
            try:
                dataset_spec(name, options).size_bounds(options)
            except OwnDataError as error:
                problems.append(str(error))
    return problems


def check_config(config: dict) -> dict:
    """Return ``config`` if no check finds a problem.

    Parameters
    ----------
    config : dict
        As returned by :func:`lowdim.config.validate_config` (defaults filled in).

    Raises
    ------
    ConfigError
        With the first problem, in one line, and how many more there are.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config_checks import check_config
    >>> check_config(config) is config
    True
    >>> bad = {**config, "cca": {**config["cca"], "n_components": 100}}
    >>> check_config(bad)
    Traceback (most recent call last):
        ...
    lowdim.config.ConfigError: config: cca.figure2.pca_components[0]: got 20; must be >= cca.n_components = 100 (PCA-CCA keeps m principal directions per view, and needs k of them) (1 more problem(s) after this one)
    """
    problems = config_problems(config)
    if problems:
        more = f" ({len(problems) - 1} more problem(s) after this one)" if len(problems) > 1 \
            else ""
        raise ConfigError(problems[0] + more)
    return config


# -- what the registry tells about a configured dataset -----------------------------------
@dataclass
class DatasetFacts:
    """What is known about a configured dataset before it is prepared.

    ``bounds`` holds upper bounds on ``n``, ``n_train``, ``p``, ``p1``, ``p2``
    (exact where the options fix them); a size missing from it is known only
    once the data are prepared. ``origin`` says where ``n`` comes from, for messages.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config_checks import dataset_facts
    >>> facts = dataset_facts(config, "digits_halves")
    >>> facts.kind, facts.labelled, facts.bounds
    ('two_view', True, {'n': 1797, 'p1': 32, 'p2': 32})
    """

    name: str
    kind: str
    labelled: bool
    bounds: dict = field(default_factory=dict)
    origin: str = ""

    def rows(self, max_samples: int = 0, key: str = ""):
        """Upper bound on the rows an experiment keeping ``max_samples`` (0: all) sees,
        and a phrase saying where it comes from; ``(None, "")`` when unknown."""
        n = self.bounds.get("n")
        if max_samples and (n is None or max_samples < n):
            return max_samples, f"{key} = {max_samples}"
        if n is None:
            return None, ""
        return n, self.origin or "all its rows"


def dataset_facts(config: dict, name: str) -> DatasetFacts:
    """Facts about ``name``, a dataset listed under ``datasets:``, from its registry entry.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config_checks import dataset_facts
    >>> dataset_facts(config, "digits")
    DatasetFacts(name='digits', kind='dense', labelled=True, bounds={'n': 1797, 'p': 64}, origin='')
    """
    from .data import dataset_spec

    given = config.get("datasets", {}).get(name) or {}
    spec = dataset_spec(name, given)
    options = {**spec.defaults(), **given}
    sized_by = [key for key in ("n_rows", "n", "n_samples", "limit") if options.get(key)]
    origin = f"datasets.{name}.{sized_by[0]} = {options[sized_by[0]]}" if sized_by else ""
    return DatasetFacts(name, spec.kind, spec.labelled, spec.size_bounds(options), origin)


def _names_of_kind(config, kinds, labelled=False) -> str:
    facts = [dataset_facts(config, n) for n in config.get("datasets", {})]
    names = [f.name for f in facts if f.kind in kinds and (f.labelled or not labelled)]
    return ", ".join(names) or "(none)"


def _kind_problem(config, key, name, kinds, what, labelled=False):
    """A problem if dataset ``name`` (at ``key``) is not of one of ``kinds`` (or unlabelled)."""
    from .data import declares_own_data

    facts = dataset_facts(config, name)
    if facts.kind not in kinds:
        return problem(key, name, f"must be {what}, but {name} is of kind {facts.kind}; "
                                  f"listed {'labelled ' if labelled else ''}datasets of kind "
                                  f"{' or '.join(kinds)}: "
                                  f"{_names_of_kind(config, kinds, labelled)}")
    if labelled and not facts.labelled:
        hint = ""
        if declares_own_data(config["datasets"].get(name)):
            hint = (f"; name the label column (csv, tsv) or array (npz, mat) with "
                    f"datasets.{name}.label, or put a folder's documents in one sub-folder "
                    f"per label")
        return problem(key, name, f"must be a labelled dataset ({what} with class labels), "
                                  f"but {name} has no labels{hint}")
    return None


def _enabled(config, name):
    """Config section ``name`` when it is enabled, else None: disabled parts are not checked."""
    section = config.get(name, {})
    return section if section.get("enabled") else None


# -- cca ------------------------------------------------------------------------------------
def _cca_training_rows(config, facts):
    """Upper bound on the training rows of a CCA dataset, and where it comes from."""
    if "n_train" in facts.bounds:
        return facts.bounds["n_train"], "its own training split"
    n = facts.bounds.get("n")
    if n is None:
        return None, ""
    fraction = config["cca"]["heldout_fraction"]
    n_train = n - int(round(fraction * n))
    rows = f"{n} rows ({facts.origin})" if facts.origin else f"{n} rows"
    return n_train, f"{rows} less cca.heldout_fraction = {fraction}"


@config_check
def check_cca(config):
    """Two-view datasets; k <= min(p1, p2); batch and normalisation sizes <= training rows."""
    if _enabled(config, "cca") is None:
        return
    for name, key in cca_figure_datasets(config, 1) + cca_figure_datasets(config, 2):
        wrong = _kind_problem(config, key, name, ("two_view",), "a two-view dataset")
        if wrong:
            yield wrong
            continue
        facts = dataset_facts(config, name)
        k, k_key = cca_settings(config, name)["n_components"]
        widths = {p: facts.bounds[p] for p in ("p1", "p2") if p in facts.bounds}
        if widths and k > min(widths.values()):
            sizes = ", ".join(f"{p} = {v}" for p, v in widths.items())
            yield problem(k_key, k, f"must be <= min(p1, p2) = {min(widths.values())} of "
                                    f"dataset {name} ({sizes})")
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


# -- embedding ------------------------------------------------------------------------------
@config_check
def check_embedding(config):
    """Labelled dense, sparse or text datasets, with more rows than every size asked of them."""
    emb = _enabled(config, "embedding")
    if emb is None:
        return
    methods = emb["methods"]
    if emb["datasets"] and set(methods) & set(SWEPT_METHODS) and not emb["neighbors"]:
        swept = [m for m in methods if m in SWEPT_METHODS]
        yield problem("embedding.neighbors", emb["neighbors"],
                      f"must list at least one neighbour count for {', '.join(swept)}")
    for part, max_key in (("datasets", "embedding.max_samples"),
                          ("sensitivity.datasets", "embedding.sensitivity.max_samples")):
        section = emb if part == "datasets" else emb["sensitivity"]
        for i, name in enumerate(section["datasets"]):
            key = f"embedding.{part}[{i}]"
            wrong = _kind_problem(config, key, name, EMBEDDING_KINDS,
                                  "a dense, sparse or text dataset", labelled=True)
            if wrong:
                yield wrong
                continue
            facts = dataset_facts(config, name)
            n, why = facts.rows(section["max_samples"], max_key)
            if n is None:
                continue
            if part == "datasets":
                yield from _embedding_sizes(emb, facts, n, why)
            else:
                yield from _sensitivity_sizes(emb, name, n, why)
    yield from _timing_sizes(emb)


def _below_rows(key, value, n, why, what=""):
    """A problem unless ``value < n`` (the rows of the data)."""
    if value >= n:
        return problem(key, value, f"must be < {n}, the number of samples{what} ({why})")
    return None


def _embedding_sizes(emb, facts, n, why):
    methods, k = emb["methods"], emb["n_components"]
    checks = [_below_rows("embedding.n_components", k, n, why, f" of dataset {facts.name}")]
    if "le" in methods and k > n - 2:
        checks.append(problem("embedding.n_components", k,
                              f"must be <= n_samples - 2 = {n - 2} for le (Laplacian "
                              f"Eigenmaps) on dataset {facts.name} ({why})"))
    p = facts.bounds.get("p")
    for method in ("pca", "lle"):
        if method in methods and p is not None and k > p:
            checks.append(problem("embedding.n_components", k,
                                  f"must be <= the {p} features of dataset {facts.name} "
                                  f"for {method}"))
    if set(methods) & set(SWEPT_METHODS) and emb["neighbors"] and min(emb["neighbors"]) >= n:
        checks.append(problem("embedding.neighbors", emb["neighbors"],
                              f"needs a neighbour count < {n}, the number of samples of "
                              f"dataset {facts.name} ({why}); every setting of the sweep "
                              f"would be skipped"))
    if emb["classification"]["n_splits"] > n:
        checks.append(problem("embedding.classification.n_splits",
                              emb["classification"]["n_splits"],
                              f"must be <= {n}, the number of samples of dataset "
                              f"{facts.name} ({why})"))
    return [c for c in checks if c]


def _sensitivity_sizes(emb, name, n, why):
    sens = emb["sensitivity"]
    where = f" of dataset {name} in Figure 5"
    checks = [_below_rows(f"embedding.sensitivity.{p}[{i}]", v, n, why, where)
              for p in ("n_components", "topk") for i, v in enumerate(sens[p])]
    checks.append(_below_rows("embedding.n_components", emb["n_components"], n, why,
                              where + " (the topk sweep uses it)"))
    checks.append(_below_rows("embedding.vec2vec.topk", emb["vec2vec"]["topk"], n, why,
                              where + " (the n_components sweep uses it)"))
    return [c for c in checks if c]


def _timing_sizes(emb):
    timing = emb["timing"]
    methods = timing["methods"]
    sizes = [(f"embedding.timing.n_samples[{i}]", v) for i, v in enumerate(timing["n_samples"])]
    if timing["n_features"]:
        sizes.append(("embedding.timing.n_samples_at", timing["n_samples_at"]))
    for where, n in sizes:
        why = f"{where} = {n}"
        yield from filter(None, [
            _below_rows("embedding.timing.n_components", timing["n_components"], n, why),
            _below_rows("embedding.timing.n_neighbors", timing["n_neighbors"], n, why)
            if set(methods) & set(NEIGHBOR_METHODS) else None,
            _below_rows("embedding.vec2vec.topk", emb["vec2vec"]["topk"], n, why)
            if set(methods) & set(VEC2VEC_METHODS) else None])
    if timing["n_samples"] and {"pca", "lle"} & set(methods) \
            and timing["n_components"] > timing["n_features_at"]:
        yield problem("embedding.timing.n_components", timing["n_components"],
                      f"must be <= embedding.timing.n_features_at = {timing['n_features_at']} "
                      f"for pca and lle")


# -- similarity and sms_tasks ---------------------------------------------------------------
def _duplicates(key, names):
    """A problem if a name is given twice in the list at ``key`` (names make file paths)."""
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        return problem(key, names, f"each name must be given once; repeated: {', '.join(twice)}")
    return None


def _sms_fractions(key, part, methods):
    """A problem if a landmark fraction times SMS-Nyström's multiplier exceeds 1."""
    from .approx import SMS_METHODS

    multiplier = part["sms"]["multiplier"]
    too_big = [f for f in part["fractions"] if f * multiplier > 1]
    if set(SMS_METHODS) & set(methods) and too_big:
        return problem(f"{key}.fractions", part["fractions"],
                       f"each fraction times {key}.sms.multiplier = {multiplier} must be <= 1 "
                       f"(|S2| would exceed n for {too_big})")
    return None


@config_check
def check_similarity(config):
    """Matrix names given once; each matrix built from a dataset of a kind its similarity
    reads; the table's fraction among the fractions; SMS-Nyström's |S2| at most n."""
    matrices = config["similarity"]["matrices"]
    duplicated = _duplicates("similarity.matrices", [m["name"] for m in matrices])
    sim = _enabled(config, "similarity")
    if sim is None:  # sms_tasks may still name a matrix: its name must be unique
        yield from filter(None, [duplicated])
        return
    if not matrices:
        yield problem("similarity.matrices", [], "must list a matrix when similarity.enabled "
                                                 "is true")
    for i, spec in enumerate(matrices):
        kinds = MATRIX_DATASET_KINDS.get(spec["kind"])
        if kinds:
            yield from filter(None, [_kind_problem(
                config, f"similarity.matrices[{i}].dataset", spec["dataset"], kinds,
                f"a dataset a `{spec['kind']}` matrix can read", labelled=spec["kind"] == "mlp")])
    if not any(abs(f - sim["table_fraction"]) < 1e-12 for f in sim["fractions"]):
        yield problem("similarity.table_fraction", sim["table_fraction"],
                      f"must be one of similarity.fractions {sim['fractions']}")
    yield from filter(None, [duplicated, _sms_fractions("similarity", sim, sim["methods"])])


@config_check
def check_sms_tasks(config):
    """Names given once; WMD classification reads labelled text datasets, and a matrix it
    names is a WMD matrix of the same dataset; small rank limit <= large."""
    tasks = _enabled(config, "sms_tasks")
    if tasks is None:
        return
    wmdc, glue, coref = (tasks[part] for part in ("wmd_classification", "glue", "coreference"))
    yield from filter(None, [
        _duplicates("sms_tasks.wmd_classification.corpora", [c["name"] for c in wmdc["corpora"]]),
        _duplicates("sms_tasks.coreference.corpora", [c["name"] for c in coref["corpora"]]),
        _duplicates("sms_tasks.glue.tasks", [t["dataset"] for t in glue["tasks"]]),
        _sms_fractions("sms_tasks.glue", glue, glue["methods"]),
        _sms_fractions("sms_tasks.coreference", coref, coref["methods"])])
    if wmdc["enabled"]:
        yield from _wmd_corpora(config, wmdc)


def _wmd_corpora(config, wmdc):
    matrices = {m["name"]: m for m in config["similarity"]["matrices"]}
    small, limits = wmdc["small_rank_max"], set()
    for i, corpus in enumerate(wmdc["corpora"]):
        key = f"sms_tasks.wmd_classification.corpora[{i}]"
        wrong = _kind_problem(config, f"{key}.dataset", corpus["dataset"], ("text",),
                              "a text dataset", labelled=True)
        if wrong:
            yield wrong
        matrix = matrices.get(corpus["matrix"])
        if corpus["matrix"] and (matrix is None or matrix["kind"] != "wmd"
                                 or matrix["dataset"] != corpus["dataset"]):
            yield problem(f"{key}.matrix", corpus["matrix"],
                          f"must name a similarity.matrices entry of kind wmd on dataset "
                          f"{corpus['dataset']!r}")
            continue
        large, large_key = wmd_corpus_settings(config, corpus["name"])["large_rank_max"]
        if small > large and large_key not in limits:  # the section's limit: one line
            limits.add(large_key)
            yield problem(large_key, large, f"must be >= sms_tasks.wmd_classification."
                                            f"small_rank_max = {small}")


# -- kernel_cca -----------------------------------------------------------------------------
@config_check
def check_kernel_cca(config):
    """Setting names given once, at least one setting, each on a two-view dataset."""
    section = _enabled(config, "kernel_cca")
    if section is None:
        return
    settings = section["settings"]
    if not settings:
        yield problem("kernel_cca.settings", [], "must list a setting when kernel_cca.enabled "
                                                 "is true")
    yield from filter(None, [_duplicates("kernel_cca.settings", [s["name"] for s in settings])])
    for i, setting in enumerate(settings):
        yield from filter(None, [_kind_problem(config, f"kernel_cca.settings[{i}].dataset",
                                               setting["dataset"], ("two_view",),
                                               "a two-view dataset")])


# -- resources ------------------------------------------------------------------------------
@config_check
def check_replica_manifest(config):
    """Only a rehearsal names a replica manifest, and it keeps its files apart from real ones."""
    res = config["resources"]
    manifest = res["replica_manifest"]
    if not manifest:
        return
    if config["profile"] != "rehearsal":
        yield problem("resources.replica_manifest", manifest,
                      f"only `profile: rehearsal` may name a replica manifest, not profile "
                      f"{config['profile']!r} (a real run accepts only the registry's and the "
                      f"lock file's checksums)")
    for key in ("raw_dir", "lockfile"):
        if not PurePath(res[key]).as_posix().startswith("results/"):
            yield problem(f"resources.{key}", res[key], "a rehearsal keeps its raw files and "
                                                        "pins under results/, apart from real "
                                                        "downloads")
    mirror = PurePath(manifest).parent
    if not any(PurePath(m) == mirror for m in res["mirrors"]):
        yield problem("resources.mirrors", res["mirrors"],
                      f"a rehearsal must list the replica directory {str(mirror)!r}, where the "
                      f"replicas are served from")
