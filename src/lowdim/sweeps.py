"""Parameter sweeps: one run of an experiment per value of one config key, side by side.

A sweep is an entry of the config's ``sweeps:`` list::

    sweeps:
      - key: cca.reg                  # any result-changing key, dotted from the top
        values: [0.001, 0.005, 0.05]
        # name: cca_reg               # default: the key with dots as underscores
        # section: cca                # the experiment to run; default: the key's first part
        # metric: pcc_in              # default: the section's first metric (METRICS)

:func:`expand_sweeps` turns each value into a :class:`SweepRun`: the validated
config with that one value set, the other experiments disabled, and a results
folder of its own, ``results/sweeps/<name>/<leaf>~<value>/`` (Snakemake's
``Paramspace`` naming). The workflow runs each as a module of itself, so a value's
jobs depend only on that value: adding or changing one value runs only its jobs,
and the others' results stay where they are. Prepared datasets whose options the
value does not change are shared with the main run. :func:`sweep_tidy` gathers
the chosen metric of every run into one tidy table (one row per value, dataset
and method) for the sweep's table and figure.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .config import ConfigError, changes_result
from .settings import cca as cca_settings
from .settings import embedding as embedding_settings
from .settings import job_settings, parse_key
from .settings import report as report_settings
from .settings import similarity as similarity_settings

__all__ = ["METRICS", "SWEEP_SECTIONS", "Metric", "Sweep", "SweepRun", "expand_sweeps",
           "module_name", "parse_key", "shown", "sweep_tidy", "value_text"]

#: Experiment sections a sweep can run.
SWEEP_SECTIONS = ("similarity", "embedding", "cca")
#: Other sections, disabled in every run of a sweep: the workflow's other parts, the report.
_OTHER_SECTIONS = tuple(p for p in report_settings.PARTS if p not in SWEEP_SECTIONS) + ("report",)


@dataclass(frozen=True)
class Metric:
    """What a sweep of ``section`` tabulates: ``column`` of a tidy result file, per dataset
    (or matrix) and method.

    ``file`` is relative to a run's ``results/`` folder; ``listed`` is the config key
    (inside the section) that must list something for the file to be made; ``unused``
    maps keys of the parts of the experiment the file does not depend on (other figures
    of the part, made by the same tidy job) to the empty value each run gets instead.
    ``spread_over`` names what a score's spread (2 sd) is over, or is empty when a score
    has none; ``single`` then says what one score is (``{n}``: the runs behind it, ``{s}``:
    a plural s).

    Examples
    --------
    >>> from lowdim.sweeps import METRICS
    >>> metric = METRICS[("embedding", "accuracy")]
    >>> metric.file, metric.column, metric.higher_is_better
    ('embedding/tidy/classification.csv', 'accuracy', True)
    """

    section: str
    name: str
    file: str
    column: str
    label: str
    axis: str
    listed: str
    group: str = "dataset"
    higher_is_better: bool = True
    spread_over: str = ""
    single: str = "one run per value"
    unused: dict = field(default_factory=dict)

    def settings(self, config: dict) -> dict:
        """What of a run's config the metric reads (the similarity table's fraction)."""
        if self.section == "similarity":
            render = job_settings(config, "similarity", "render").values()
            return {"table_fraction": render["table_fraction"]}
        return {}

    def scores(self, tidy: pd.DataFrame, settings: dict) -> pd.DataFrame:
        """One row per (``dataset``, ``method``): ``score``, ``spread`` (2 std, or NaN) and
        ``runs`` (the folds, seeds or runs the score is made of)."""
        return _REDUCERS[(self.section, self.name)](self, tidy, settings)

    def summary(self, runs) -> str:
        """What a score and its spread are, given the ``runs`` behind the scores:
        ``mean ± 2 sd over 4 folds``, ``one seeded run per value (...)``."""
        counts = sorted({int(r) for r in runs})
        n = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        if self.spread_over:
            return f"mean ± 2 sd over {n} {self.spread_over}"
        return self.single.format(n=n, s="" if n == "1" else "s")


def _last_checkpoint(metric, trace, settings):
    """Each seed's last checkpoint, then their mean (± 2 sd, ddof = 0, with several)."""
    trace = trace if "seed" in trace else trace.assign(seed=0)
    last = trace.loc[trace.groupby(["dataset", "method", "seed"])["iteration"].idxmax()]
    grouped = last.groupby(["dataset", "method"], sort=False)[metric.column]
    scores = grouped.agg(score="mean", spread=lambda v: 2 * v.std(ddof=0) if len(v) > 1
                         else np.nan, runs="size")
    return scores.reset_index()


def _fold_mean(metric, classification, settings):
    grouped = classification.groupby(["dataset", "method"], sort=False)[metric.column]
    return grouped.agg(score="mean", spread=lambda v: 2 * v.std(ddof=0),
                       runs="size").reset_index()


def _best(metric, clustering, settings):
    grouped = clustering.groupby(["dataset", "method"], sort=False)[metric.column]
    return grouped.max().rename("score").reset_index().assign(spread=np.nan, runs=1)


def _median_at_table_fraction(metric, errors, settings):
    """The median error of each matrix and method at the matrix's s/n nearest
    ``table_fraction``, chosen per matrix as the diagnostics table does (s is rounded: 74/737
    stands for 0.1 beside an exact 50/500)."""
    from .tables.select import rows_nearest

    fraction = settings["table_fraction"]
    rows = pd.concat([rows_nearest(table, "s/n", fraction)[1]
                      for _, table in errors.groupby("matrix", sort=False)] or [errors])
    grouped = rows.groupby(["matrix", "method"], sort=False)[metric.column]
    scores = grouped.agg(score="median", runs="size").reset_index()
    return scores.rename(columns={"matrix": "dataset"}).assign(spread=np.nan)


#: A CCA metric is the mean over ``cca.n_seeds`` seeded fits per value.
_ONE_CCA_RUN = "the mean of {n} seeded run{s} per value (cca.n_seeds; ± 2 sd with several)"

#: What a run of a sweep of ``section`` leaves out: the parts of the experiment whose tidy
#: files the metric does not read (Figures 3 and 5, Figure 2).
_UNUSED = {"cca": {"cca.figure2.dataset": None},
           "embedding": {"embedding.sensitivity.datasets": [], "embedding.timing.methods": []}}
_TIDY = {"cca": cca_settings.TIDY, "embedding": embedding_settings.TIDY,
         "similarity": similarity_settings.TIDY}

#: ``(section, metric) -> Metric``; a section's first metric is its default.
METRICS = {(m.section, m.name): m for m in (
    Metric("cca", "pcc_in", _TIDY["cca"]["appgrad_trace"], "pcc_in",
           "in-sample PCC at the last iteration", "in-sample PCC", "figure1.datasets",
           single=_ONE_CCA_RUN, unused=_UNUSED["cca"]),
    Metric("cca", "pcc_out", _TIDY["cca"]["appgrad_trace"], "pcc_out",
           "out-of-sample PCC at the last iteration", "out-of-sample PCC", "figure1.datasets",
           single=_ONE_CCA_RUN, unused=_UNUSED["cca"]),
    Metric("embedding", "accuracy", _TIDY["embedding"]["classification"], "accuracy",
           "kNN accuracy (mean ± 2 sd over folds)", "kNN accuracy", "datasets",
           spread_over="folds", unused=_UNUSED["embedding"]),
    Metric("embedding", "ari", _TIDY["embedding"]["clustering"], "ari",
           "spectral clustering ARI (best gamma)", "ARI", "datasets",
           single="one clustering per value, the best of the gamma grid",
           unused=_UNUSED["embedding"]),
    Metric("similarity", "error", _TIDY["similarity"]["errors"], "error",
           "median relative Frobenius error at similarity.table_fraction",
           "relative error ‖K − K̃‖_F / ‖K‖_F", "matrices",
           group="matrix", higher_is_better=False, single="the median of {n} seed{s} per value"),
)}
_REDUCERS = {("cca", "pcc_in"): _last_checkpoint, ("cca", "pcc_out"): _last_checkpoint,
             ("embedding", "accuracy"): _fold_mean, ("embedding", "ari"): _best,
             ("similarity", "error"): _median_at_table_fraction}


def _set_key(config: dict, parts: tuple, value, where: str):
    """Set ``config[parts]`` to ``value``; every parent must exist (validation then checks
    the leaf)."""
    node = config
    for i, part in enumerate(parts[:-1]):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            shown = ".".join(map(str, parts[:i + 1]))
            raise ConfigError(f"config: {where}: got {'.'.join(map(str, parts))!r}; "
                              f"{shown!r} is not in the config") from None
    if isinstance(node, list) and not (isinstance(parts[-1], int) and parts[-1] < len(node)):
        raise ConfigError(f"config: {where}: got {'.'.join(map(str, parts))!r}; no such "
                          f"list entry")
    node[parts[-1]] = copy.deepcopy(value)


def value_text(value) -> str:
    """``value`` as it reads in a folder name: ``0.001``, ``true``, ``5-15``, ``top_bottom``.

    Examples
    --------
    >>> from lowdim.sweeps import value_text
    >>> value_text(0.001), value_text(True), value_text([5, 15]), value_text("top_bottom")
    ('0.001', 'true', '5-15', 'top_bottom')
    """
    if isinstance(value, bool):
        text = str(value).lower()
    elif value is None:
        text = "null"
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, (int, str)):
        text = str(value)
    elif isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        text = "-".join(value_text(v) for v in value) or "empty"
    else:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return re.sub(r"[^A-Za-z0-9._+-]", "_", text) or "_"


@dataclass
class SweepRun:
    """One value of a sweep: its config and where its results go.

    Examples
    --------
    >>> run = cca_reg_sweep.runs[1]           # cca.reg = 0.01 (expand_sweeps' example)
    >>> run.value, run.label, run.config["cca"]["reg"], run.config["embedding"]["enabled"]
    (0.01, 'reg~0.01', 0.01, False)
    """

    sweep: str
    index: int
    value: object
    label: str
    module: str
    config: dict = field(repr=False)

    @property
    def prefix(self) -> str:
        """The run's results folder, standing in for ``results/``."""
        return f"results/sweeps/{self.sweep}/{self.label}/"

    @property
    def log_prefix(self) -> str:
        return f"logs/sweeps/{self.sweep}/{self.label}/"


@dataclass
class Sweep:
    """A validated ``sweeps:`` entry and its runs, in the order of ``values``.

    Examples
    --------
    >>> sweep = cca_reg_sweep                 # cca.reg over 0.001, 0.01 (expand_sweeps' example)
    >>> sweep.name, sweep.section, sweep.metric.name, len(sweep.runs)
    ('cca_reg', 'cca', 'pcc_in', 2)
    >>> sweep.params()["labels"]
    ['reg~0.001', 'reg~0.01']
    """

    name: str
    key: str
    section: str
    metric: Metric
    runs: list
    where: str = ""  # the entry's config key, ``sweeps[i]``

    def targets(self) -> list[str]:
        """The tidy result file of each run that the sweep's table reads."""
        return [run.prefix + self.metric.file for run in self.runs]

    def config_keys(self) -> dict:
        """The config key of the sweep's settings, for its jobs' errors."""
        return {"sweep": self.where}

    def params(self) -> dict:
        """What the sweep's tidy job needs (and what changes its result)."""
        return {"name": self.name, "key": self.key, "section": self.section,
                "metric": self.metric.name, "labels": [run.label for run in self.runs],
                "values": [run.value for run in self.runs],
                "settings": [self.metric.settings(run.config) for run in self.runs]}


def _section_and_metric(entry: dict, parts: tuple, where: str):
    section = entry.get("section") or (parts[0] if parts[0] in SWEEP_SECTIONS else None)
    if section is None:
        raise ConfigError(f"config: {where}.section: key {entry['key']!r} is outside the "
                          f"experiment sections; name the experiment to run: one of "
                          f"{', '.join(SWEEP_SECTIONS)}")
    if parts[0] in SWEEP_SECTIONS and parts[0] != section:
        raise ConfigError(f"config: {where}.section: got {section!r}; key {entry['key']!r} "
                          f"belongs to section {parts[0]!r}")
    names = [name for (sec, name) in METRICS if sec == section]
    metric = entry.get("metric") or names[0]
    if (section, metric) not in METRICS:
        raise ConfigError(f"config: {where}.metric: got {metric!r}; metrics of section "
                          f"{section}: {', '.join(names)}")
    return section, METRICS[(section, metric)]


def _check_key(parts: tuple, key: str, where: str):
    if not changes_result(".".join(map(str, parts))):  # sweeping it would compare equal runs
        raise ConfigError(f"config: {where}.key: got {key!r}; it changes no result (it says "
                          f"what runs, where, or with which resources); sweep a key that "
                          f"changes a result")


def _run_config(config, entry, metric, parts, value, where, validate):
    section = metric.section
    variant = copy.deepcopy(config)
    variant["sweeps"] = []
    for other in SWEEP_SECTIONS + _OTHER_SECTIONS:
        if other in variant:
            variant[other]["enabled"] = other == section
    for key, empty in metric.unused.items():  # what the metric does not read
        _set_key(variant, parse_key(key), empty, f"{where}.key")
    _set_key(variant, parts, value, f"{where}.key")
    set_aside = _set_aside_overrides(variant, parts)
    try:
        validated = validate(variant)
    except ConfigError as error:
        raise ConfigError(f"config: {where}: {str(error).removeprefix('config: ')}") from None
    # Captions name the run; the value as validated ("1e-4" reads 0.0001).
    validated["profile"] = (f"{config['profile']}, {entry['key']} = "
                            f"{shown(_node(validated, parts))}"
                            + (f" (for every dataset: {', '.join(set_aside)} set aside)"
                               if set_aside else ""))
    shared = sorted(name for name, options in validated["datasets"].items()
                    if options == config["datasets"].get(name))
    validated["sweep_run"] = {"sweep": entry["name"], "key": entry["key"],
                              "shared_datasets": shared}
    return validated


def _set_aside_overrides(variant, parts) -> list[str]:
    """Drop, in ``variant``, the per-dataset overrides of the swept key; return their keys.

    ``cca.overrides.<dataset>`` replaces a ``cca`` key for one dataset, so a sweep of that key
    would leave the dataset at its override in every run, a flat line labelled with the swept
    values. Each run sets the key for every dataset instead, and its caption says so.
    """
    path = ".".join(str(part) for part in parts[1:])
    if parts[0] != "cca" or path not in cca_settings.OVERRIDE_OF:
        return []
    field, dropped = cca_settings.OVERRIDE_OF[path], []
    for dataset, given in variant["cca"].get("overrides", {}).items():
        if field in given:
            del given[field]
            dropped.append(f"cca.overrides.{dataset}.{field}")
    return dropped


def _node(config, parts):
    for part in parts:
        config = config[part]
    return config


def _unique(texts: list[str]) -> list[str]:
    """``texts`` with a repeated one suffixed by its position (again, while that reads as
    another text), so folders never collide."""
    taken = {t for t in texts if texts.count(t) == 1}
    unique = []
    for i, text in enumerate(texts):
        if texts.count(text) > 1:
            text = f"{text}_{i}"
            while text in taken:
                text = f"{text}_{i}"
            taken.add(text)
        unique.append(text)
    return unique


def module_name(sweep: str, index: int) -> str:
    """The Snakemake module of value ``index`` of sweep ``sweep``: ``sweep_cca_reg__0_``.

    Its rules read ``sweep_cca_reg__0_cca_run`` in logs. A sweep name never holds two
    underscores in a row (the config schema's pattern, and the default name collapses
    them), so ``__`` ends the name: no two (sweep, index) pairs give the same module, nor
    one module's rule names another's (a sweep "x" at 1.5 and a sweep "x_1" at 5 would
    both read ``sweep_x_1_5_`` if names and values were only joined by one underscore).

    Examples
    --------
    >>> from lowdim.sweeps import module_name
    >>> module_name("cca_reg", 0)
    'sweep_cca_reg__0_'
    >>> module_name("x", 15), module_name("x_1", 5)
    ('sweep_x__15_', 'sweep_x_1__5_')
    """
    return f"sweep_{sweep}__{int(index)}_"


def expand_sweeps(config: dict, validate) -> list[Sweep]:
    """The sweeps of a validated config, each value a validated run config.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled in).
    validate : callable
        ``validate(config) -> config``: the workflow's start-time validation and
        checks, applied to each run's config; raises ConfigError.

    Returns
    -------
    sweeps : list of Sweep

    Raises
    ------
    ConfigError
        A key that is not in the config or changes no result, an unknown section
        or metric, or a value the key does not take, named as ``sweeps[i]...``.

    Examples
    --------
    >>> from lowdim.config import checkout_config, validate_config
    >>> from lowdim.settings import check_config
    >>> from lowdim.sweeps import expand_sweeps
    >>> schema = checkout_config()[1]
    >>> def validate(config):
    ...     return check_config(validate_config(config, schema))
    >>> config["sweeps"] = [{"key": "cca.reg", "values": [0.001, 0.01]}]
    >>> sweep, = expand_sweeps(validate(config), validate)
    >>> [(run.value, run.label) for run in sweep.runs]
    [(0.001, 'reg~0.001'), (0.01, 'reg~0.01')]
    >>> config["sweeps"] = [{"key": "cca.threads", "values": [1, 2]}]
    >>> expand_sweeps(validate(config), validate)
    Traceback (most recent call last):
        ...
    lowdim.config.ConfigError: config: sweeps[0].key: got 'cca.threads'; it changes no result (it says what runs, where, or with which resources); sweep a key that changes a result
    """
    sweeps, names = [], set()
    for i, raw in enumerate(config.get("sweeps", [])):
        where = f"sweeps[{i}]"
        entry = {**raw, "name": raw.get("name") or re.sub(r"(\W|_)+", "_", raw["key"]).strip("_")}
        if entry["name"] in names:
            raise ConfigError(f"config: {where}.name: got {entry['name']!r}; another sweep has "
                              f"that name; give each sweep its own `name`")
        names.add(entry["name"])
        try:
            parts = parse_key(entry["key"])
        except ValueError as error:
            raise ConfigError(f"config: {where}.key: {error}") from None
        _check_key(parts, entry["key"], where)
        section, metric = _section_and_metric(entry, parts, where)
        configs = [_run_config(config, entry, metric, parts, value, f"{where}.values[{j}]",
                               validate) for j, value in enumerate(entry["values"])]
        if not _node(configs[0][section], parse_key(metric.listed)):
            raise ConfigError(f"config: {where}: {section}.{metric.listed} is empty, so "
                              f"metric {metric.name} has nothing to measure")
        values = [_node(c, parts) for c in configs]  # as validated: "1e-4" reads 0.0001
        leaf = next(str(p) for p in reversed(parts) if not isinstance(p, int))
        labels = _unique([f"{leaf}~{value_text(v)}" for v in values])
        runs = [SweepRun(entry["name"], j, v, lab, module_name(entry["name"], j), c)
                for j, (v, lab, c) in enumerate(zip(values, labels, configs))]
        sweeps.append(Sweep(entry["name"], entry["key"], section, metric, runs, where))
    return sweeps


def shown(value) -> str:
    """``value`` as a table shows it: ``0.001``, ``true``, ``[5, 15]``, ``top_bottom``.

    Examples
    --------
    >>> from lowdim.sweeps import shown
    >>> shown(0.001), shown(True), shown([5, 15]), shown("top_bottom")
    ('0.001', 'true', '[5, 15]', 'top_bottom')
    """
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return value if isinstance(value, str) else (
        repr(value) if isinstance(value, float) else
        str(value) if isinstance(value, int) else json.dumps(value, sort_keys=True))


def sweep_tidy(params: dict, frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The metric of every run of a sweep, one row per value, dataset and method.

    Parameters
    ----------
    params : dict
        :meth:`Sweep.params`.
    frames : list of DataFrame
        Each run's tidy result file (the metric's ``file``), in the order of ``values``.

    Returns
    -------
    DataFrame
        Columns ``sweep``, ``key``, ``order``, ``value`` (as text), ``numeric_value``
        (NaN when not a number), ``dataset`` (or matrix), ``method``, ``metric``,
        ``score``, ``spread`` (2 std over folds or seeds where there are several, else NaN),
        ``runs`` (the folds, seeds or runs behind the score) and ``summary`` (what a score
        and its spread are, :meth:`Metric.summary`; the same on every row).

    Examples
    --------
    >>> from lowdim.sweeps import sweep_tidy
    >>> params = {"name": "cca_reg", "key": "cca.reg", "section": "cca", "metric": "pcc_in",
    ...           "values": [0.001, 0.01], "settings": [{}, {}]}
    >>> traces = [pd.DataFrame({"dataset": "digits_halves", "method": "appgrad",
    ...                         "iteration": [10, 100], "pcc_in": [0.9, pcc]})
    ...           for pcc in (0.97, 0.99)]
    >>> tidy = sweep_tidy(params, traces)
    >>> print(tidy.drop(columns=["spread", "summary"]).to_string(index=False))
      sweep     key  order value  numeric_value       dataset  method metric  score  runs
    cca_reg cca.reg      0 0.001          0.001 digits_halves appgrad pcc_in   0.97     1
    cca_reg cca.reg      1  0.01          0.010 digits_halves appgrad pcc_in   0.99     1
    >>> tidy.loc[0, "summary"]
    'the mean of 1 seeded run per value (cca.n_seeds; ± 2 sd with several)'
    """
    metric = METRICS[(params["section"], params["metric"])]
    rows = []
    if len(frames) != len(params["values"]):
        raise ValueError(f"sweep {params['name']!r}: {len(frames)} result files for "
                         f"{len(params['values'])} values")
    for order, (value, frame, settings) in enumerate(zip(params["values"], frames,
                                                         params["settings"])):
        scores = metric.scores(frame, settings)
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) else np.nan
        rows.append(scores[["dataset", "method", "score", "spread", "runs"]].assign(
            sweep=params["name"], key=params["key"], order=order, value=shown(value),
            numeric_value=number, metric=metric.name))
    columns = ["sweep", "key", "order", "value", "numeric_value", "dataset", "method", "metric",
               "score", "spread", "runs", "summary"]
    tidy = pd.concat(rows, ignore_index=True)
    return tidy.assign(summary=metric.summary(tidy["runs"]))[columns]
