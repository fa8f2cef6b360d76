"""Published numbers with their provenance, read from ``config/published/*.yaml``.

Each file covers one paper::

    paper: AppGrad CCA
    citation: "Ma, Lu & Foster (2015). Finding linear structure ..."
    tolerances:                # per metric, how close counts as reproduced
      pcc: {abs: 3.0, unit: "percentage points"}
    entries:
      - artifact: Figure 1 (MNIST)
        metric: pcc
        setting: "MNIST halves, k = 20, stochastic AppGrad, 1000 iterations, in-sample"
        published: 92.9
        provenance: "authors' public code: values hard-coded in the plotting script"
        read_off_figure: false
        reproduced:            # where our value is: a tidy CSV, rows, column
          file: results/cca/tidy/appgrad_trace.csv
          where: {dataset: mnist_halves, method: sappgrad, iteration: 1000}
          column: pcc_in
          scale: 100.0         # multiply before comparing (fractions -> percent)

``where`` selects rows by equality; ``nearest: {column: value}`` then keeps the
rows whose (numeric) column is closest to ``value`` (e.g. ``s/n`` near 0.1, where
the fraction actually run is ``round(0.1 n) / n``), ``.inf`` the largest (e.g. the
last iteration). The scorecard names a nearest value more than 10% from ``value``
as scored instead of it. ``aggregate`` is ``mean`` (default) or ``median`` over the
selected rows.

A *claim* entry has no published number; it states a comparison the paper
makes (``expect: less`` or ``greater``) between our value (``reproduced``) and a
second reproduced value (``than``), e.g. "SMS-Nystrom's error is below classic
Nystrom's at s/n = 0.1".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml

__all__ = ["POINT_MODES", "PublishedEntry", "figure_points", "load_published", "point_mode",
           "published_points"]

#: How a profile's figures show published numbers: ``comparable`` (the papers' data:
#: drawn), ``replica`` (the rehearsal's format-exact replicas: drawn greyed, not
#: comparable) or ``none`` (stand-in datasets: not drawn).
POINT_MODES = ("comparable", "replica", "none")

_COMPARISONS = ("less", "greater")


@dataclass(frozen=True)
class PublishedEntry:
    """One published number (or claim) and where our reproduction of it lives.

    Examples
    --------
    >>> from lowdim.report import PublishedEntry
    >>> entry = PublishedEntry(
    ...     paper="AppGrad", artifact="Figure 1", metric="pcc_in", setting="MNIST, 1000 iterations",
    ...     provenance="the authors' code", published=92.9,
    ...     reproduced={"file": "results/cca/tidy/appgrad_trace.csv", "column": "pcc_in"})
    >>> entry.is_claim, entry.published
    (False, 92.9)
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

    @property
    def is_claim(self) -> bool:
        return self.expect is not None


def _check_source(where: str, source) -> dict:
    if not isinstance(source, dict) or not {"file", "column"} <= set(source):
        raise ValueError(f"{where}: needs a mapping with `file`, `column` and optional "
                         f"`where`, `scale`; got {source!r}")
    unknown = set(source) - {"file", "column", "where", "nearest", "scale", "aggregate"}
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    if source.get("aggregate", "mean") not in ("mean", "median"):
        raise ValueError(f"{where}.aggregate: must be 'mean' or 'median', got "
                         f"{source['aggregate']!r}")
    return source


def _entry(paper: str, tolerances: dict, index: int, raw: dict, path: Path) -> PublishedEntry:
    where = f"{path.name}: entries[{index}]"
    required = {"artifact", "metric", "setting", "provenance", "reproduced"}
    missing = required - set(raw)
    if missing:
        raise ValueError(f"{where}: missing {sorted(missing)}")
    expect = raw.get("expect")
    if expect is None and "published" not in raw:
        raise ValueError(f"{where}: needs `published` (a number) or `expect` (a claim)")
    if expect is not None and (expect not in _COMPARISONS or "than" not in raw):
        raise ValueError(f"{where}: `expect` must be one of {_COMPARISONS} with a `than` source")
    metric = raw["metric"]
    tolerance = tolerances.get(metric, {})
    if expect is None and not ({"abs", "rel"} & set(tolerance)):
        raise ValueError(f"{where}: metric {metric!r} has no tolerance (abs or rel) in "
                         f"`tolerances`")
    return PublishedEntry(
        paper=paper, artifact=raw["artifact"], metric=metric, setting=raw["setting"],
        provenance=raw["provenance"], published=raw.get("published"),
        read_off_figure=bool(raw.get("read_off_figure", False)),
        reproduced=_check_source(f"{where}.reproduced", raw["reproduced"]),
        tolerance=tolerance, expect=expect,
        than=_check_source(f"{where}.than", raw["than"]) if expect else None,
        unit=tolerance.get("unit", raw.get("unit", "")))


def load_published(path) -> list[PublishedEntry]:
    """Read and check one ``config/published/<paper>.yaml`` file.

    Examples
    --------
    >>> from lowdim.report import load_published
    >>> path = tmp / "vec2vec.yaml"
    >>> _ = path.write_text('''
    ... paper: Vec2vec
    ... tolerances: {accuracy: {abs: 0.02}}
    ... entries:
    ...   - artifact: Figure 4
    ...     metric: accuracy
    ...     setting: MNIST
    ...     provenance: the authors' plotting script
    ...     published: 0.9462
    ...     reproduced: {file: results/embedding/tidy/classification.csv, column: accuracy}
    ... ''')
    >>> [(e.artifact, e.published, e.tolerance) for e in load_published(path)]
    [('Figure 4', 0.9462, {'abs': 0.02})]
    """
    path = Path(path)
    doc = yaml.safe_load(path.read_text())
    if not isinstance(doc, dict) or "paper" not in doc or "entries" not in doc:
        raise ValueError(f"{path}: expected a mapping with `paper`, `tolerances` and `entries`")
    tolerances = doc.get("tolerances", {})
    return [_entry(doc["paper"], tolerances, i, raw, path) for i, raw in enumerate(doc["entries"])]


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
        One row per numeric entry (claims and ``nearest`` selections are left out):
        the entry's ``where`` keys as columns, ``published`` in the tidy file's units
        (the published number divided by the entry's ``scale``) and ``artifact``.

    Examples
    --------
    >>> from lowdim.report import PublishedEntry
    >>> from lowdim.report.published import published_points
    >>> entry = PublishedEntry(
    ...     paper="AppGrad", artifact="Figure 1", metric="pcc_in", setting="MNIST, 1000 iterations",
    ...     provenance="the authors' code", published=92.9,
    ...     reproduced={"file": "results/cca/tidy/appgrad_trace.csv", "column": "pcc_in",
    ...                 "where": {"dataset": "mnist_halves", "method": "sappgrad", "iteration": 1000},
    ...                 "scale": 100})
    >>> published_points([entry], "results/cca/tidy/appgrad_trace.csv", "pcc_in").to_dict("records")
    [{'dataset': 'mnist_halves', 'method': 'sappgrad', 'iteration': 1000, 'artifact': 'Figure 1', 'published': 0.929}]
    """
    rows = []
    for entry in entries:
        source = entry.reproduced
        if entry.is_claim or source.get("nearest") or source["file"] != file \
                or source["column"] != column:
            continue
        rows.append({**(source.get("where") or {}), "artifact": entry.artifact,
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
    ...     reproduced: {file: results/cca/tidy/appgrad_trace.csv, column: pcc_in, scale: 100,
    ...                  where: {dataset: mnist_halves, method: sappgrad, iteration: 1000}}
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
