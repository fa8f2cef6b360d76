"""The core of :mod:`lowdim.settings`: settings as ``(value, key)``, jobs, checks, dataset facts.

A *setting* is ``(value, key)``: the value a library argument takes and the config key
that gave it, written as the start-time checks and the jobs' errors write keys
(``cca.overrides.mnist_halves.n_components``, ``similarity.matrices[1].mlp``). A
:class:`Job` holds the settings and the resources (threads, memory, runtime) of one
workflow job; each part's module registers one resolver per kind of job with
:func:`job`, and :func:`job_settings` calls it. Each part's start-time checks are
registered with :func:`config_check` and read those same settings, so a key is spelled
in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .._validation import ArgumentValueError
from ..job_errors import problem
from ..seeding import derive_seed

__all__ = ["CHECKS", "DatasetFacts", "Job", "check_config", "config_check", "config_keys",
           "config_problems", "dataset_facts", "job", "job_kinds", "job_resources",
           "job_settings", "own_data_problems", "parse_key", "problem", "setting", "values"]


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


def parse_key(key: str) -> tuple:
    """``"similarity.matrices[0].wmd.gamma"`` -> ``("similarity", "matrices", 0, "wmd", "gamma")``.

    Examples
    --------
    >>> from lowdim.settings import parse_key
    >>> parse_key("similarity.matrices[0].wmd.gamma")
    ('similarity', 'matrices', 0, 'wmd', 'gamma')
    """
    parts = []
    for part in re.sub(r"\[(\d+)\]", r".\1", key).split("."):
        if not part:
            raise ArgumentValueError(f"empty part in key {key!r}", "key")
        parts.append(int(part) if part.isdigit() else part)
    return tuple(parts)


def setting(config: dict, key: str) -> tuple:
    """``(value, key)``: the value at ``key`` (dotted, with list indices) of ``config``.

    Examples
    --------
    >>> from lowdim.settings import setting
    >>> setting(config, "similarity.matrices[0].wmd.gamma")
    (0.1, 'similarity.matrices[0].wmd.gamma')
    """
    node = config
    for part in parse_key(key):
        node = node[part]
    return node, key


def seed(config: dict, *identity) -> tuple:
    """``(derive_seed(config["seed"], *identity), "seed")``: a job's seed as a setting."""
    return derive_seed(config["seed"], *identity), "seed"


# -- jobs -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """What one workflow job passes to the library, and what it asks of the scheduler.

    Parameters
    ----------
    settings : dict of str -> (object, str)
        Library argument -> ``(value, config key)``; its seed among them.
    resources : dict of str -> (object, str)
        ``threads``, ``mem_mb`` (MB), ``runtime`` (minutes) and any other scheduler
        resource the config sets -> ``(value, config key)``; the key is ``""`` where the
        workflow fixes the value.

    Examples
    --------
    >>> from lowdim.settings import Job
    >>> job = Job({"reg": (0.005, "cca.reg")}, {"threads": (2, "cca.threads")})
    >>> job.values(), job.config_keys(), job.resource_values()
    ({'reg': 0.005}, {'reg': 'cca.reg'}, {'threads': 2})
    """

    settings: dict
    resources: dict = field(default_factory=dict)

    def values(self) -> dict:
        """``{argument: value}`` of the settings."""
        return values(self.settings)

    def config_keys(self) -> dict:
        """``{argument: config key}`` of the settings."""
        return config_keys(self.settings)

    def resource_values(self) -> dict:
        """``{resource: value}`` of the resources."""
        return values(self.resources)


#: ``(part, kind of job) -> (resolver(config, **wildcards) -> Job, resource names)``, filled
#: by :func:`job`.
_JOBS = {}


def job(part: str, kind: str, resources=("threads",)):
    """Register ``resolver(config, **wildcards) -> Job`` as the settings of jobs of ``kind``
    in workflow part ``part`` (what :func:`job_settings` calls), whose :attr:`Job.resources`
    are ``resources``.

    Examples
    --------
    >>> from lowdim.settings._core import _JOBS, Job, job, job_settings
    >>> @job("demo", "echo")
    ... def echo(config, *, word):
    ...     return Job({"word": (word, "demo.word")}, {"threads": (1, "")})
    >>> job_settings({}, "demo", "echo", word="hi").values()
    {'word': 'hi'}
    >>> del _JOBS[("demo", "echo")]
    """
    def register(resolver):
        _JOBS[(part, kind)] = (resolver, tuple(resources))
        return resolver
    return register


def job_kinds() -> list:
    """``(part, kind)`` of every kind of job with registered settings.

    Examples
    --------
    >>> from lowdim.settings import job_kinds
    >>> ("similarity", "errors") in job_kinds(), ("embedding", "timing") in job_kinds()
    (True, True)
    """
    return sorted(_JOBS)


def job_resources(part: str, kind: str) -> tuple:
    """The names of the resources every job of ``kind`` in ``part`` has (``threads`` first).

    Examples
    --------
    >>> from lowdim.settings import job_resources
    >>> job_resources("similarity", "matrix")
    ('threads', 'mem_mb', 'runtime', 'gpu', 'gpu_model')
    """
    return _registered(part, kind)[1]


def _registered(part, kind):
    try:
        return _JOBS[(part, kind)]
    except KeyError:
        known = ", ".join(f"{p}/{k}" for p, k in job_kinds())
        raise ArgumentValueError(f"no settings for jobs of kind {part}/{kind}; known: {known}",
                                 ("part", "kind")) from None


def job_settings(config: dict, part: str, kind: str, **wildcards) -> Job:
    """The :class:`Job` of kind ``kind`` of workflow part ``part`` that ``wildcards`` name.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled in).
    part : str
        ``data``, ``similarity``, ``sms_tasks``, ``embedding``, ``cca``, ``kernel_cca``,
        ``models`` or ``report``.
    kind : str
        The kind of job in that part (its rule's name without the part's prefix).
    **wildcards : str
        What names the one job (the rule's wildcards).

    Returns
    -------
    Job

    Examples
    --------
    >>> from lowdim.settings import job_settings
    >>> job = job_settings(config, "cca", "appgrad", dataset="planted_cca", cca_method="sappgrad")
    >>> job.settings["batch_size"], job.resources["threads"]
    ((50, 'cca.sappgrad.batch_size'), (1, 'cca.threads'))
    """
    resolver, resources = _registered(part, kind)
    found = resolver(config, **wildcards)
    if tuple(found.resources) != resources:
        raise RuntimeError(f"jobs of kind {part}/{kind} declare resources {resources}, "
                           f"got {tuple(found.resources)}")
    return found


# -- start-time checks ------------------------------------------------------------------------
#: The registered checks, run in order by :func:`config_problems`.
CHECKS = []


def config_check(func):
    """Register ``func(config) -> iterable of problem lines`` as a start-time check.

    Examples
    --------
    >>> from lowdim.settings import CHECKS, config_check, config_problems, problem, setting
    >>> @config_check
    ... def seed_is_even(config):
    ...     value, key = setting(config, "seed")
    ...     if value % 2:
    ...         yield problem(key, value, "must be even in this lab")
    >>> config_problems({**config, "seed": 3})
    ['config: seed: got 3; must be even in this lab']
    >>> CHECKS.remove(seed_is_even)
    """
    CHECKS.append(func)
    return func


def config_problems(config: dict) -> list:
    """Every problem the registered checks find in a validated config.

    The user's own data are looked at first (:func:`own_data_problems`): the other
    checks need their kind and sizes, so they run only when every file reads.

    Examples
    --------
    >>> from lowdim.settings import config_problems
    >>> config_problems(config)
    []
    >>> config_problems({**config, "embedding": {**config["embedding"], "n_components": 500}})[0]
    'config: embedding.n_components: got 500; must be <= the 64 features of dataset digits for pca'
    """
    own = own_data_problems(config)
    if own:
        return own
    return [line for check in CHECKS for line in check(config)]


def own_data_problems(config: dict) -> list:
    """One line for each own dataset (``datasets: {name: {file: ...}}``) whose files are
    missing or do not hold what the options say, naming the key and the file.

    Examples
    --------
    >>> from lowdim.settings import own_data_problems
    >>> datasets = {**config["datasets"], "mine": {"file": "no_such_file.csv"}}
    >>> [line.split(" (looked for")[0] for line in own_data_problems({**config, "datasets": datasets})]
    ["config: datasets.mine.file: got 'no_such_file.csv'; no such file or folder"]
    """
    from ..data import OwnDataError, dataset_spec, declares_own_data

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

    Returns
    -------
    dict
        ``config`` itself.

    Raises
    ------
    ConfigError
        With the first problem, in one line, and how many more there are.

    Examples
    --------
    >>> from lowdim.settings import check_config
    >>> check_config(config) is config
    True
    >>> bad = {**config, "cca": {**config["cca"], "n_components": 100}}
    >>> check_config(bad)
    Traceback (most recent call last):
        ...
    lowdim.config.ConfigError: config: cca.figure2.pca_components[0]: got 20; must be >= cca.n_components = 100 (PCA-CCA keeps m principal directions per view, and needs k of them) (1 more problem(s) after this one)
    """
    from ..config import ConfigError

    problems = config_problems(config)
    if problems:
        more = f" ({len(problems) - 1} more problem(s) after this one)" if len(problems) > 1 \
            else ""
        raise ConfigError(problems[0] + more)
    return config


def enabled(config: dict, part: str):
    """Config section ``part`` when it is enabled, else None: a disabled part is not checked."""
    section = config.get(part, {})
    return section if section.get("enabled") else None


def duplicates(names_setting: tuple):
    """A problem if a name is given twice in the list setting ``(names, key)`` (names make
    file paths), else None."""
    names, key = names_setting
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        return problem(key, names, f"each name must be given once; repeated: {', '.join(twice)}")
    return None


def below_rows(value_setting: tuple, n: int, why: str, what: str = ""):
    """A problem unless the setting's value is below ``n``, the rows of the data."""
    value, key = value_setting
    if value >= n:
        return problem(key, value, f"must be < {n}, the number of samples{what} ({why})")
    return None


# -- what the registry tells about a configured dataset ---------------------------------------
@dataclass
class DatasetFacts:
    """What is known about a configured dataset before it is prepared.

    ``bounds`` holds upper bounds on ``n``, ``n_train``, ``p``, ``p1``, ``p2``
    (exact where the options fix them); a size missing from it is known only
    once the data are prepared. ``origin`` says where ``n`` comes from, for messages.

    Examples
    --------
    >>> from lowdim.settings import dataset_facts
    >>> facts = dataset_facts(config, "digits_halves")
    >>> facts.kind, facts.labelled, facts.bounds
    ('two_view', True, {'n': 1797, 'p1': 32, 'p2': 32})
    """

    name: str
    kind: str
    labelled: bool
    bounds: dict = field(default_factory=dict)
    origin: str = ""

    def rows(self, max_samples: tuple = (0, "")):
        """Upper bound on the rows an experiment keeping ``max_samples`` (a setting; 0: all)
        sees, and a phrase saying where it comes from; ``(None, "")`` when unknown."""
        limit, key = max_samples
        n = self.bounds.get("n")
        if limit and (n is None or limit < n):
            return limit, f"{key} = {limit}"
        if n is None:
            return None, ""
        return n, self.origin or "all its rows"


def dataset_facts(config: dict, name: str) -> DatasetFacts:
    """Facts about ``name``, a dataset listed under ``datasets:``, from its registry entry
    (or, for the user's own data, the headers of the files the config names).

    Examples
    --------
    >>> from lowdim.settings import dataset_facts
    >>> dataset_facts(config, "digits")
    DatasetFacts(name='digits', kind='dense', labelled=True, bounds={'n': 1797, 'p': 64}, origin='')
    """
    from ..data import dataset_spec

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


def kind_problem(config: dict, dataset: tuple, kinds, what: str, labelled: bool = False):
    """A problem if the dataset of setting ``dataset`` (``(name, key)``) is not of one of
    ``kinds`` (or, with ``labelled``, has no labels), else None."""
    from ..data import declares_own_data

    name, key = dataset
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


def width_problem(k_setting: tuple, facts: DatasetFacts):
    """A problem if the setting ``(k, key)``, a number of canonical pairs, exceeds
    min(p1, p2) of the two-view dataset ``facts`` (as far as the registry bounds its
    widths), else None."""
    k, key = k_setting
    widths = {p: facts.bounds[p] for p in ("p1", "p2") if p in facts.bounds}
    if widths and k > min(widths.values()):
        sizes = ", ".join(f"{p} = {v}" for p, v in widths.items())
        return problem(key, k, f"must be <= min(p1, p2) = {min(widths.values())} of dataset "
                               f"{facts.name} ({sizes})")
    return None
