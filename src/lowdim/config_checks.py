"""Checks across config keys, run when the workflow starts: what a schema cannot see.

:func:`lowdim.config.validate_config` checks every key on its own against the
schemas; :func:`check_config` then checks keys against each other and against
what the dataset registry knows before anything is prepared: a dataset's kind,
whether it has labels, and the sizes its options fix
(:meth:`lowdim.data.DatasetSpec.size_bounds`). A mistake stops the run before
any job starts, with one line that names the key, the value given and what is
allowed. What only the prepared data can tell is checked in the job, whose
error names the config key (:func:`naming_config_keys`).

Each check is a function ``config -> iterable of problems`` registered with
:func:`config_check`; a problem is one line made by :func:`problem`. Add a check
by writing one more such function. Facts about a dataset come from
:func:`dataset_facts`, the one place that reads the registry (or, for the user's
own data, the headers of the files the config names: :mod:`lowdim.data.own`).
"""

from __future__ import annotations

import contextlib
import logging
import re
from dataclasses import dataclass, field

from .config import ConfigError

__all__ = ["CHECKS", "DatasetFacts", "cca_job_keys", "check_config", "config_check",
           "config_problems", "dataset_facts", "embedding_job_keys", "naming_config_keys",
           "own_data_problems", "problem"]

logger = logging.getLogger("lowdim")

#: The registered checks, run in order by :func:`config_problems`.
CHECKS = []

#: Dataset kinds the embedding experiments turn into a feature matrix.
EMBEDDING_KINDS = ("dense", "sparse", "text")
#: Embedding methods with an ``n_neighbors`` (``embedding.timing.n_neighbors`` in Figure 3).
NEIGHBOR_METHODS = ("isomap", "lle", "le", "umap")
#: Both Vec2vec solvers: ``embedding.vec2vec.topk`` outside the sweep.
VEC2VEC_METHODS = ("vec2vec", "vec2vec_cooccurrence")
#: Embedding methods that sweep ``embedding.neighbors`` (Vec2vec's as its topk).
SWEPT_METHODS = NEIGHBOR_METHODS + VEC2VEC_METHODS
#: Dataset kinds each kind of similarity matrix is built from (lowdim.similarity.matrices).
MATRIX_DATASET_KINDS = {"wmd": ("text",), "mlp": ("dense", "sparse", "text", "mentions"),
                "crossencoder": ("pairs",)}


def config_check(func):
    """Register ``func(config) -> iterable of problem lines`` as a config check.

    Examples
    --------
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
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


def problem(key: str, value, allowed: str) -> str:
    """One line: ``config: <key>: got <value>; <allowed>``.

    Examples
    --------
    >>> from lowdim.config_checks import problem
    >>> problem("cca.n_components", 50, "at most min(p1, p2) = 32 for dataset digits_halves")
    'config: cca.n_components: got 50; at most min(p1, p2) = 32 for dataset digits_halves'
    """
    return f"config: {key}: got {value!r}; {allowed}"


def config_problems(config: dict) -> list[str]:
    """Every problem the registered checks find in a validated config.

    The user's own data are looked at first (:func:`own_data_problems`): the other
    checks need their kind and sizes, so they run only when every file reads.

    Examples
    --------
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
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
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
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
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
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
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
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
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
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
def _figure2_datasets(cca) -> list:
    """``cca.figure2.dataset`` as a list: one name, a list of them, or null (none)."""
    value = cca["figure2"]["dataset"]
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def _cca_datasets(cca):
    keyed = [(f"cca.figure1.datasets[{i}]", name) for i, name in
             enumerate(cca["figure1"]["datasets"])]
    value = cca["figure2"]["dataset"]
    keyed += [("cca.figure2.dataset" if isinstance(value, str) else f"cca.figure2.dataset[{i}]",
               name) for i, name in enumerate(_figure2_datasets(cca))]
    return keyed


def _override(cca, name, key, section_key):
    """``(value, config key)`` of a per-dataset setting, override first."""
    over = cca["overrides"].get(name, {})
    if key in over:
        return over[key], f"cca.overrides.{name}.{key}"
    section, _, leaf = section_key.rpartition(".")
    return (cca[section][leaf] if section else cca[leaf]), f"cca.{section_key}"


def _cca_training_rows(cca, facts):
    """Upper bound on the training rows of a CCA dataset, and where it comes from."""
    if "n_train" in facts.bounds:
        return facts.bounds["n_train"], "its own training split"
    n = facts.bounds.get("n")
    if n is None:
        return None, ""
    n_train = n - int(round(cca["heldout_fraction"] * n))
    rows = f"{n} rows ({facts.origin})" if facts.origin else f"{n} rows"
    return n_train, f"{rows} less cca.heldout_fraction = {cca['heldout_fraction']}"


@config_check
def check_cca(config):
    """Two-view datasets; k <= min(p1, p2); batch and normalisation sizes <= training rows."""
    cca = _enabled(config, "cca")
    if cca is None:
        return
    for key, name in _cca_datasets(cca):
        wrong = _kind_problem(config, key, name, ("two_view",), "a two-view dataset")
        if wrong:
            yield wrong
            continue
        facts = dataset_facts(config, name)
        k, k_key = _override(cca, name, "n_components", "n_components")
        widths = {p: facts.bounds[p] for p in ("p1", "p2") if p in facts.bounds}
        if widths and k > min(widths.values()):
            sizes = ", ".join(f"{p} = {v}" for p, v in widths.items())
            yield problem(k_key, k, f"must be <= min(p1, p2) = {min(widths.values())} of "
                                    f"dataset {name} ({sizes})")
        yield from _cca_sizes(cca, facts, k, k_key)


def _cca_sizes(cca, facts, k, k_key):
    name = facts.name
    n_train, why = _cca_training_rows(cca, facts)
    batch, batch_key = _override(cca, name, "batch_size", "sappgrad.batch_size")
    if n_train is not None and batch > n_train:
        yield problem(batch_key, batch, f"must be <= {n_train}, the training rows of dataset "
                                        f"{name} ({why})")
    s = cca["sappgrad"]["normalization_size"]
    if s and (s < k or (n_train is not None and s > n_train)):
        upper = f" and <= {n_train}, the training rows ({why})" if n_train is not None else ""
        yield problem("cca.sappgrad.normalization_size", s,
                      f"must be 0 (10 * n_components) or >= {k_key} = {k}{upper} for "
                      f"dataset {name}")
    if name in _figure2_datasets(cca) and "pca_cca" in cca["figure2"]["methods"]:
        for i, m in enumerate(cca["figure2"]["pca_components"]):
            if m < k:
                yield problem(f"cca.figure2.pca_components[{i}]", m,
                              f"must be >= {k_key} = {k} (PCA-CCA keeps m principal "
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
@config_check
def check_similarity(config):
    """Each similarity matrix is built from a dataset of a kind its similarity reads."""
    sim = _enabled(config, "similarity")
    if sim is None:
        return
    for i, spec in enumerate(sim.get("matrices", [])):
        kinds = MATRIX_DATASET_KINDS.get(spec["kind"])
        if kinds:
            wrong = _kind_problem(config, f"similarity.matrices[{i}].dataset", spec["dataset"],
                                  kinds, f"a dataset a `{spec['kind']}` matrix can read",
                                  labelled=spec["kind"] == "mlp")
            if wrong:
                yield wrong


@config_check
def check_sms_tasks(config):
    """WMD classification reads labelled text datasets."""
    tasks = _enabled(config, "sms_tasks")
    if tasks is None:
        return
    part = tasks.get("wmd_classification", {})
    if not part.get("enabled", True):
        return
    for i, corpus in enumerate(part.get("corpora", [])):
        wrong = _kind_problem(config, f"sms_tasks.wmd_classification.corpora[{i}].dataset",
                              corpus["dataset"], ("text",), "a text dataset", labelled=True)
        if wrong:
            yield wrong


# -- in a job: errors that only the prepared data can tell ----------------------------------
@contextlib.contextmanager
def naming_config_keys(keys: dict, where: str = ""):
    """Turn a ValueError or TypeError raised inside into a one-line error naming config keys.

    Library errors name the library's argument (```n_components` must be < ...``);
    in a workflow job the user needs the config key that set it. The message of
    an error raised inside is searched for each argument name of ``keys``; the
    first found gives the key, else every key of ``keys`` is listed.

    Parameters
    ----------
    keys : dict of str -> (str, object)
        Library argument name -> (config key, value given).
    where : str
        What the job was doing, e.g. ``"lle on dataset digits"``.

    Yields
    ------
    None
        The body of the ``with`` block runs inside.

    Raises
    ------
    SystemExit
        With ``config: <key>: got <value>; <the library's message> (<where>)``,
        also logged, so the job fails with one line naming the key.

    Examples
    --------
    >>> from lowdim.config_checks import naming_config_keys
    >>> keys = {"n_components": ("embedding.n_components", 500)}
    >>> try:
    ...     with naming_config_keys(keys, where="pca on dataset digits"):
    ...         raise ValueError("`n_components` must be <= 64, got 500")
    ... except SystemExit as exit:
    ...     print(exit.code)
    config: embedding.n_components: got 500; `n_components` must be <= 64, got 500 (pca on dataset digits)
    """
    try:
        yield
    except (ValueError, TypeError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        named = _first_named(message, keys)
        context = f" ({where})" if where else ""
        if named:
            key, value = keys[named]
            line = problem(key, value, f"{message}{context}")
        else:
            settings = ", ".join(f"{key} = {value!r}" for key, value in keys.values())
            line = f"config: {message}{context}; with {settings}"
        logger.error("%s", line)
        raise SystemExit(line) from exc


#: The embedding config keys each kind of job reads (library argument names of ``keys``).
EMBEDDING_JOB_ARGUMENTS = {
    "features": ("max_samples", "stem", "min_df", "sublinear_tf"),
    "embed": ("n_components", "neighbors", "n_neighbors", "topk", "walks_per_node",
              "walk_length", "window", "epochs", "negative", "sample", "knn", "solver",
              "updates_per_node", "alpha", "min_dist", "metric", "n_init", "max_iter"),
    "score": ("k_grid", "n_splits", "gammas"),
    "sensitivity": ("n_components", "topk", "max_samples", "walks_per_node", "walk_length",
                    "window", "epochs", "negative", "sample", "knn", "solver",
                    "updates_per_node", "alpha", "k_grid", "n_splits"),
}


def embedding_job_keys(config: dict, job: str, sweep: str | None = None) -> dict:
    """Library argument -> (config key, value) for one kind of ``embedding`` job.

    Parameters
    ----------
    config : dict
        The validated config.
    job : {"features", "embed", "score", "sensitivity"}
    sweep : str, optional
        The parameter a Figure 5 sensitivity job varies ("n_components" or "topk"):
        that argument comes from ``embedding.sensitivity``.

    Examples
    --------
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
    >>> from lowdim.config_checks import embedding_job_keys
    >>> embedding_job_keys(config, "embed")["n_components"]
    ('embedding.n_components', 10)
    """
    emb = config["embedding"]
    keys = {"n_components": ("embedding.n_components", emb["n_components"]),
            "neighbors": ("embedding.neighbors", emb["neighbors"]),
            "n_neighbors": ("embedding.neighbors", emb["neighbors"]),
            "max_samples": ("embedding.max_samples", emb["max_samples"]),
            "k_grid": ("embedding.classification.k_grid", emb["classification"]["k_grid"]),
            "n_splits": ("embedding.classification.n_splits", emb["classification"]["n_splits"]),
            "gammas": ("embedding.clustering.gammas", emb["clustering"]["gammas"])}
    for part in ("vec2vec", "umap", "mds", "tfidf"):
        keys.update({arg: (f"embedding.{part}.{arg}", value) for arg, value in emb[part].items()})
    if job == "embed":  # the sweep sets topk from the neighbour counts
        keys["topk"] = ("embedding.neighbors", emb["neighbors"])
    if job == "sensitivity":
        keys["max_samples"] = ("embedding.sensitivity.max_samples",
                               emb["sensitivity"]["max_samples"])
        if sweep:
            keys[sweep] = (f"embedding.sensitivity.{sweep}", emb["sensitivity"][sweep])
    return {arg: keys[arg] for arg in EMBEDDING_JOB_ARGUMENTS[job] if arg in keys}


def cca_job_keys(config: dict, dataset: str) -> dict:
    """Library argument -> (config key, value) for the ``cca`` jobs on ``dataset`` (overrides
    first).

    Examples
    --------
    >>> from pathlib import Path
    >>> import yaml
    >>> import lowdim
    >>> from lowdim.config import validate_config
    >>> root = Path(lowdim.__file__).resolve().parents[2]       # a checkout of the repository
    >>> schema = root / "workflow" / "schemas" / "config.schema.yaml"
    >>> config = validate_config(yaml.safe_load((root / "config" / "config.yaml").read_text()), schema)
    >>> from lowdim.config_checks import cca_job_keys
    >>> keys = cca_job_keys(config, "planted_cca")
    >>> keys["n_components"], keys["reg"]
    (('cca.n_components', 20), ('cca.reg', 0.005))
    """
    cca = config["cca"]
    keys = {}
    for arg, key, section_key in (
            ("n_components", "n_components", "n_components"), ("reg", "reg", "reg"),
            ("batch_size", "batch_size", "sappgrad.batch_size"),
            ("rescale", "rescale", "rescale")):
        value, where = _override(cca, dataset, key, section_key)
        keys[arg] = (where, value)
    keys["normalization_size"] = ("cca.sappgrad.normalization_size",
                                  cca["sappgrad"]["normalization_size"])
    keys["n_pca_components"] = ("cca.figure2.pca_components", cca["figure2"]["pca_components"])
    keys["heldout_fraction"] = ("cca.heldout_fraction", cca["heldout_fraction"])
    keys["normalization"] = ("cca.normalization", cca.get("normalization", "paper"))
    return keys


def _first_named(message: str, names) -> str | None:
    """The name the message is about: the first written `like_this`, else the first mentioned."""
    for pattern in (r"`{}`", r"(?<![\w.]){}(?!\w)"):
        found = [(m.start(), name) for name in names
                 for m in [re.search(pattern.format(re.escape(name)), message)] if m]
        if found:
            return min(found)[1]
    return None
