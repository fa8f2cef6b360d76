"""Published numbers with their provenance, read from ``config/published/*.yaml``.

Each file covers one paper::

    paper: AppGrad CCA
    citation: "Ma, Lu & Foster (2015). Finding linear structure ..."
    sections: [cca]            # config sections whose keys the entries' results depend on
    tolerances:                # per metric, how close counts as reproduced
      pcc: {abs: 3.0, unit: "percentage points"}
    entries:
      - artifact: Figure 1 (MNIST)
        metric: pcc
        setting: "MNIST halves, k = 20, stochastic AppGrad, 1000 iterations, in-sample"
        published: 92.9
        provenance: "authors' public code: values hard-coded in the plotting script"
        settings:              # what it was measured at, each with its tolerance
          iteration: {value: 1000, tolerance: exact}
        reproduced:            # where our value is: a tidy CSV, rows, column
          file: results/cca/tidy/appgrad_trace.csv
          where: {dataset: mnist_halves, method: sappgrad}
          column: pcc_in
          scale: 100.0         # multiply before comparing (fractions -> percent)

An entry keeps the *settings* it was measured at apart from the *result* it reports:

- ``where`` names what ran (dataset, method, corpus: text, matched by equality);
- ``settings`` names each numeric setting (s/n, n, D, d, top-k, iteration) with an
  explicit ``tolerance``: ``exact``, ``{abs: x}``, ``{rel: x}`` (``x`` finite and at
  least 0, as in a metric's ``tolerances``), or ``{rounding: s}`` for a fraction a run
  makes from a count (``s/n = round(0.1 n) / n`` is within half a step, ``0.5 / n``, of
  0.1; ``s`` is the column of the count). ``value: largest`` is the largest value run (of
  both sides, for a claim);
- ``column`` is the result; ``threshold: {column: pcc_in, at_least: 0.95}`` (or
  ``at_most``) reads ``column`` where the run first reaches a result ("the FLOPs at
  which PCC first reaches 0.95"): the smallest ``column`` among the rows that reach it,
  per trace (per value of its ``per`` column, by default the claim's ``paired_by`` or
  ``independent`` column).

Entry-level ``settings`` hold for every side; a side's own ``settings`` are for what a
claim varies on purpose (StaCUR's error at s/n = 0.4 against 0.05). ``aggregate`` is
``mean`` (default) or ``median`` over the selected rows, or, for a claim's reference,
``max``: the best of its runs (the best PCA-CCA over the values of m run). Where the rows
carry the claim's pairing (or independent) column and several rows share a value, the
aggregate is taken per value: one run per seed, the best PCA-CCA of that seed.

A *claim* entry has no published number; it states a comparison the paper makes
(``expect: less`` or ``greater``) between our value (``reproduced``) and a second one
(``than``), with how the two sides are paired: ``paired_by: seed`` (or ``fold``), the
column whose values pair a row of one side with a row of the other, or
``independent: repeat`` for repeated fits that are not paired (timings).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

__all__ = ["LARGEST", "POINT_MODES", "PublishedEntry", "Setting", "figure_points",
           "load_published", "point_mode", "published_points"]

#: How a profile's figures show published numbers: ``comparable`` (the papers' data:
#: drawn), ``replica`` (the rehearsal's format-exact replicas: drawn greyed, not
#: comparable) or ``none`` (stand-in datasets: not drawn).
POINT_MODES = ("comparable", "replica", "none")

#: The setting value that means "the largest run" (of both sides, for a claim).
LARGEST = "largest"

_COMPARISONS = ("less", "greater")
_SOURCE_KEYS = {"file", "column", "where", "settings", "threshold", "scale", "aggregate"}
_ENTRY_KEYS = {"artifact", "metric", "setting", "provenance", "reproduced", "published",
               "read_off_figure", "expect", "than", "unit", "settings", "paired_by",
               "independent"}


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_amount(value) -> bool:
    """An ``abs`` or ``rel`` tolerance: a finite number >= 0 (``.inf`` would match anything)."""
    return _is_number(value) and math.isfinite(value) and value >= 0


@dataclass(frozen=True)
class Setting:
    """A setting an entry was measured at, and how far a run may be from it and still be it.

    ``tolerance`` is ``"exact"``, ``{"abs": x}``, ``{"rel": x}`` or ``{"rounding": count}``
    (the run's value is ``count / n`` for an integer ``count``: within ``0.5 / n``).

    Examples
    --------
    >>> import numpy as np
    >>> from lowdim.report.published import Setting
    >>> sn = Setting(0.1, {"rounding": "s"})
    >>> sn.within(np.array([0.0997, 0.1135]), counts=np.array([37, 42])).tolist()
    [True, False]
    >>> Setting(2000, "exact").within(np.array([2000.0, 1999.0])).tolist()
    [True, False]
    >>> Setting(2000, "exact").describe(), sn.describe()
    ('exact', 'rounding of s')
    """

    value: object
    tolerance: object = "exact"

    @property
    def largest(self) -> bool:
        return self.value == LARGEST

    @property
    def count_column(self):
        return self.tolerance.get("rounding") if isinstance(self.tolerance, dict) else None

    def within(self, values, counts=None, target=None):
        """Which ``values`` are this setting (``target`` in place of ``value``, for
        ``largest``); ``counts`` are the rows' counts for a ``rounding`` tolerance."""
        target = self.value if target is None else target
        if not _is_number(target) and not isinstance(target, np.number):
            return np.asarray([str(v) == str(target) for v in values], dtype=bool)
        values = np.asarray(pd.to_numeric(pd.Series(values), errors="coerce"), dtype=float)
        distance = np.abs(values - float(target))
        if self.tolerance == "exact" or self.largest:
            allowed = np.zeros_like(values)
        elif "abs" in self.tolerance:
            allowed = np.full_like(values, float(self.tolerance["abs"]))
        elif "rel" in self.tolerance:
            allowed = np.full_like(values, float(self.tolerance["rel"]) * abs(float(target)))
        else:  # rounding: value = count / n, so n = count / value and a step is 1 / n
            with np.errstate(divide="ignore", invalid="ignore"):
                allowed = 0.5 * values / np.asarray(counts, dtype=float)
        return np.isfinite(values) & (distance <= allowed * (1 + 1e-9) + 1e-12 * abs(float(target)))

    def describe(self) -> str:
        if self.tolerance == "exact" or self.largest:
            return "exact"
        key, amount = next(iter(self.tolerance.items()))
        if key == "rounding":
            return f"rounding of {amount}"
        return f"±{amount:g}" if key == "abs" else f"±{100 * amount:g}%"


def _setting(where: str, key: str, raw) -> Setting:
    if not isinstance(raw, dict) or set(raw) != {"value", "tolerance"}:
        raise ValueError(f"{where}.settings.{key}: needs `value` and `tolerance` (exact, "
                         f"{{abs: x}}, {{rel: x}} or {{rounding: <count column>}}), got {raw!r}")
    value, tolerance = raw["value"], raw["tolerance"]
    if not (_is_number(value) and math.isfinite(value)) and not isinstance(value, str):
        raise ValueError(f"{where}.settings.{key}.value: a finite number, a text or "
                         f"{LARGEST!r}, got {value!r}")
    good = tolerance == "exact" or (
        isinstance(tolerance, dict) and len(tolerance) == 1 and (
            (set(tolerance) <= {"abs", "rel"} and _is_amount(next(iter(tolerance.values()))))
            or (set(tolerance) == {"rounding"} and isinstance(tolerance["rounding"], str))))
    if not good:
        raise ValueError(f"{where}.settings.{key}.tolerance: exact, {{abs: x}}, {{rel: x}} (x a "
                         f"finite number >= 0) or {{rounding: <count column>}}, got {tolerance!r}")
    if isinstance(value, str) and value != LARGEST and tolerance != "exact":
        raise ValueError(f"{where}.settings.{key}: a text setting ({value!r}) is matched "
                         f"exactly; its tolerance must be `exact`, got {tolerance!r}")
    return Setting(value, tolerance)


def _settings(where: str, raw) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ValueError(f"{where}.settings: a mapping of setting -> {{value, tolerance}}, "
                         f"got {raw!r}")
    return {key: _setting(where, key, spec) for key, spec in raw.items()}


def _threshold(where: str, raw) -> dict | None:
    if raw is None:
        return None
    bounds = {"at_least", "at_most"} & set(raw) if isinstance(raw, dict) else set()
    if (not isinstance(raw, dict) or len(bounds) != 1
            or not {"column", *bounds} <= set(raw) <= {"column", "per", *bounds}
            or not _is_number(raw[next(iter(bounds))])):
        raise ValueError(f"{where}.threshold: needs `column`, one number `at_least` or "
                         f"`at_most`, and optionally `per` (the column of a trace, such as "
                         f"seed), got {raw!r}")
    return raw


def _check_source(where: str, source) -> dict:
    if not isinstance(source, dict) or not {"file", "column"} <= set(source):
        raise ValueError(f"{where}: needs a mapping with `file`, `column` and optional "
                         f"`where`, `settings`, `threshold`, `scale`, `aggregate`; got {source!r}")
    unknown = set(source) - _SOURCE_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    aggregates = ("mean", "median", "max") if where.endswith(".than") else ("mean", "median")
    if source.get("aggregate", "mean") not in aggregates:
        raise ValueError(f"{where}.aggregate: must be one of {aggregates} ('max', the best "
                         f"of a reference's runs, only in `than`), got {source['aggregate']!r}")
    for key, value in (source.get("where") or {}).items():
        if not isinstance(value, str):
            raise ValueError(f"{where}.where.{key}: {value!r} is a setting, not a name: give it "
                             f"under `settings` with its tolerance")
    return {**source, "settings": _settings(where, source.get("settings")),
            "threshold": _threshold(where, source.get("threshold"))}


@dataclass(frozen=True)
class PublishedEntry:
    """One published number (or claim) and where our reproduction of it lives.

    Examples
    --------
    >>> from lowdim.report import PublishedEntry
    >>> from lowdim.report.published import Setting
    >>> entry = PublishedEntry(
    ...     paper="AppGrad", artifact="Figure 1", metric="pcc_in", setting="MNIST, 1000 iterations",
    ...     provenance="the authors' code", published=92.9,
    ...     settings={"iteration": Setting(1000, "exact")},
    ...     reproduced={"file": "results/cca/tidy/appgrad_trace.csv", "column": "pcc_in",
    ...                 "where": {"method": "sappgrad"}})
    >>> entry.is_claim, entry.published, entry.selectors(entry.reproduced)
    (False, 92.9, {'method': 'sappgrad', 'iteration': 1000})
    """

    paper: str
    artifact: str
    metric: str
    setting: str
    provenance: str
    reproduced: dict
    published: float | None = None
    read_off_figure: bool = False
    tolerance: dict = field(default_factory=dict)
    expect: str | None = None
    than: dict | None = None
    unit: str = ""
    settings: dict = field(default_factory=dict)
    paired_by: str | None = None
    independent: str | None = None
    sections: tuple = ()

    @property
    def is_claim(self) -> bool:
        return self.expect is not None

    def settings_of(self, source: dict) -> dict:
        """Every setting of ``source``: the entry's, then the side's own."""
        return {**self.settings, **(source.get("settings") or {})}

    def selectors(self, source: dict) -> dict:
        """The published setting of ``source`` as plain values: its ``where`` names and
        each setting's value (``largest`` and tolerances left out)."""
        values = {k: s.value for k, s in self.settings_of(source).items()
                  if isinstance(s, Setting) and not s.largest}
        return {**(source.get("where") or {}), **values}


def _pairing(where: str, raw: dict) -> dict:
    paired, independent = raw.get("paired_by"), raw.get("independent")
    if (paired is None) == (independent is None) or not isinstance(paired or independent, str):
        raise ValueError(f"{where}: a claim needs one of `paired_by: <column>` (seed, fold: "
                         f"rows of the two sides with the same value are a pair) or "
                         f"`independent: <column>` (repeated fits, not paired)")
    return {"paired_by": paired, "independent": independent}


def _tolerance(where: str, metric: str, tolerance, required: bool) -> dict:
    """A metric's tolerance; a number (not a claim) needs ``abs`` or ``rel``."""
    if not isinstance(tolerance, dict):
        raise ValueError(f"{where}: metric {metric!r} tolerance: a mapping with `abs` and/or "
                         f"`rel` (and optional `unit`), got {tolerance!r}")
    if required and not ({"abs", "rel"} & set(tolerance)):
        raise ValueError(f"{where}: metric {metric!r} has no tolerance (abs or rel) in "
                         f"`tolerances`")
    for key in sorted({"abs", "rel"} & set(tolerance)):
        if not _is_amount(tolerance[key]):
            raise ValueError(f"{where}: metric {metric!r} tolerance `{key}` must be a finite "
                             f"number >= 0, got {tolerance[key]!r}")
    return tolerance


def _entry(doc: dict, index: int, raw: dict, path: Path) -> PublishedEntry:
    where = f"{path.name}: entries[{index}]"
    required = {"artifact", "metric", "setting", "provenance", "reproduced"}
    missing = required - set(raw)
    if missing:
        raise ValueError(f"{where}: missing {sorted(missing)}")
    unknown = set(raw) - _ENTRY_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    expect = raw.get("expect")
    if expect is None and "published" not in raw:
        raise ValueError(f"{where}: needs `published` (a number) or `expect` (a claim)")
    if expect is not None and (expect not in _COMPARISONS or "than" not in raw):
        raise ValueError(f"{where}: `expect` must be one of {_COMPARISONS} with a `than` source")
    metric = raw["metric"]
    tolerance = _tolerance(where, metric, doc.get("tolerances", {}).get(metric, {}),
                           required=expect is None)
    pairing = _pairing(where, raw) if expect else {}
    return PublishedEntry(
        paper=doc["paper"], artifact=raw["artifact"], metric=metric, setting=raw["setting"],
        provenance=raw["provenance"], published=raw.get("published"),
        read_off_figure=bool(raw.get("read_off_figure", False)),
        reproduced=_check_source(f"{where}.reproduced", raw["reproduced"]),
        tolerance=tolerance, expect=expect,
        than=_check_source(f"{where}.than", raw["than"]) if expect else None,
        unit=tolerance.get("unit", raw.get("unit", "")),
        settings=_settings(where, raw.get("settings")), **pairing,
        sections=tuple(doc.get("sections") or ()))


def load_published(path) -> list[PublishedEntry]:
    """Read and check one ``config/published/<paper>.yaml`` file.

    Examples
    --------
    >>> from lowdim.report import load_published
    >>> path = tmp / "vec2vec.yaml"
    >>> _ = path.write_text('''
    ... paper: Vec2vec
    ... sections: [embedding]
    ... tolerances: {accuracy: {abs: 0.02}}
    ... entries:
    ...   - artifact: Figure 4
    ...     metric: accuracy
    ...     setting: MNIST
    ...     provenance: the authors' plotting script
    ...     published: 0.9462
    ...     settings: {n_samples: {value: 5000, tolerance: exact}}
    ...     reproduced: {file: results/embedding/tidy/classification.csv, column: accuracy}
    ... ''')
    >>> [(e.artifact, e.published, e.tolerance, e.sections) for e in load_published(path)]
    [('Figure 4', 0.9462, {'abs': 0.02}, ('embedding',))]
    """
    path = Path(path)
    doc = yaml.safe_load(path.read_text())
    if not isinstance(doc, dict) or "paper" not in doc or "entries" not in doc:
        raise ValueError(f"{path}: expected a mapping with `paper`, `tolerances` and `entries`")
    sections = doc.get("sections")
    if sections is not None and not (isinstance(sections, list)
                                     and all(isinstance(s, str) for s in sections)):
        raise ValueError(f"{path}: `sections` must be a list of config sections, got "
                         f"{sections!r}")
    return [_entry(doc, i, raw, path) for i, raw in enumerate(doc["entries"])]


def point_mode(profile: str) -> str:
    """How figures of ``profile`` show published numbers (one of :data:`POINT_MODES`).

    ``paper`` runs the papers' data: ``comparable``. ``rehearsal`` runs small replicas
    of it: ``replica``. Every other profile (``offline``, a test's) runs stand-ins: ``none``.

    Examples
    --------
    >>> from lowdim.report.published import point_mode
    >>> point_mode("paper"), point_mode("rehearsal"), point_mode("offline")
    ('comparable', 'replica', 'none')
    """
    return {"paper": "comparable", "rehearsal": "replica"}.get(profile, "none")


def published_points(entries, file: str, column: str) -> pd.DataFrame:
    """The published numbers that a figure of ``column`` of the tidy ``file`` can show.

    Parameters
    ----------
    entries : iterable of PublishedEntry
    file : str
        Tidy CSV, as written in the entries (``results/cca/tidy/appgrad_trace.csv``).
    column : str
        Its column that holds the reproduced value (``pcc_in``).

    Returns
    -------
    points : DataFrame
        One row per numeric entry at fixed settings (claims, thresholds and ``largest``
        settings are left out): the entry's ``where`` names and settings as columns,
        ``published`` in the tidy file's units (the published number divided by the
        entry's ``scale``) and ``artifact``.

    Examples
    --------
    >>> from lowdim.report import PublishedEntry
    >>> from lowdim.report.published import Setting, published_points
    >>> entry = PublishedEntry(
    ...     paper="AppGrad", artifact="Figure 1", metric="pcc_in", setting="MNIST, 1000 iterations",
    ...     provenance="the authors' code", published=92.9,
    ...     settings={"iteration": Setting(1000, "exact")},
    ...     reproduced={"file": "results/cca/tidy/appgrad_trace.csv", "column": "pcc_in",
    ...                 "where": {"dataset": "mnist_halves", "method": "sappgrad"}, "scale": 100})
    >>> published_points([entry], "results/cca/tidy/appgrad_trace.csv", "pcc_in").to_dict("records")
    [{'dataset': 'mnist_halves', 'method': 'sappgrad', 'iteration': 1000, 'artifact': 'Figure 1', 'published': 0.929}]
    """
    rows = []
    for entry in entries:
        source = entry.reproduced
        settings = entry.settings_of(source)
        if entry.is_claim or source.get("threshold") or source["file"] != file \
                or source["column"] != column or any(s.largest for s in settings.values()):
            continue
        rows.append({**entry.selectors(source), "artifact": entry.artifact,
                     "published": float(entry.published) / float(source.get("scale", 1.0))})
    return pd.DataFrame(rows, columns=None if rows else ["artifact", "published"])


def figure_points(paths, file: str, column: str, profile: str) -> pd.DataFrame:
    """:func:`published_points` of the files ``paths`` as a figure of ``profile`` draws them.

    Adds ``comparable`` (bool: full colour, or greyed for a rehearsal's replicas); empty
    when the profile runs stand-in data (:func:`point_mode` is ``none``).

    Examples
    --------
    >>> from lowdim.report.published import figure_points
    >>> path = tmp / "appgrad_cca.yaml"
    >>> _ = path.write_text('''
    ... paper: AppGrad
    ... tolerances: {pcc_in: {abs: 2.0, unit: "%"}}
    ... entries:
    ...   - artifact: Figure 1
    ...     metric: pcc_in
    ...     setting: MNIST, 1000 iterations
    ...     provenance: the authors' code
    ...     published: 92.9
    ...     settings: {iteration: {value: 1000, tolerance: exact}}
    ...     reproduced: {file: results/cca/tidy/appgrad_trace.csv, column: pcc_in, scale: 100,
    ...                  where: {dataset: mnist_halves, method: sappgrad}}
    ... ''')
    >>> file = "results/cca/tidy/appgrad_trace.csv"
    >>> figure_points([path], file, "pcc_in", "rehearsal")[["published", "comparable"]].to_dict("records")
    [{'published': 0.929, 'comparable': False}]
    >>> len(figure_points([path], file, "pcc_in", "offline"))   # stand-in data: no points
    0
    """
    mode = point_mode(profile)
    entries = [entry for path in paths for entry in load_published(path)] if mode != "none" else []
    points = published_points(entries, file, column)
    return points.assign(comparable=mode == "comparable")
