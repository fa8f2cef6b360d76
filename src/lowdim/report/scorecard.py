"""Compare reproduced values with published ones: one verdict per published entry.

A reproduced value is the mean (or median) over the matching rows of a tidy CSV
(one row per seed or split); the spread is their standard deviation. The verdicts:

- *reproduced*: ``|mean - published|`` is within the metric's tolerance (``abs``, or
  ``rel`` times ``|published|``; both may be given, the looser wins), or a claim's
  comparison goes the way the paper says;
- *differs*: otherwise;
- *ran on replica*: the run is a rehearsal on replicas (``replica=True``): its number is
  kept, but a match with the paper on replica data is chance, so it is neither;
- *not computed*: the matching rows exist but hold no number (a t-test with fewer than
  2 pairs has NaN H), with the tidy file's own ``reason`` where it has one;
- *not run*: this profile did not produce the value, with the reason.

Every reason says what was scored: the rows (``median of 5 runs of errors.csv:
matrix = mlp_digits, method = sms_nystrom, s/n = 0.1003``) and each setting that is not
the published one (``scored at s/n = 0.1, nearest run to the published 0.05``). A rehearsal
(``nearest_settings=True``) runs smaller sweeps than the papers: an entry whose
numeric setting (e.g. ``n_samples: 20000``) was not run is scored at the nearest
setting that was, and named so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .published import PublishedEntry

__all__ = ["VERDICTS", "VERDICT_MEANINGS", "score_entry", "scorecard", "within_tolerance"]

#: The verdicts of a scorecard row, in the order the tables count them.
VERDICTS = ("reproduced", "differs", "ran on replica", "not computed", "not run")

#: What each verdict says, for the README and the report.
VERDICT_MEANINGS = {
    "reproduced": "our value is within the metric's tolerance of the published one, or a "
                  "claim's comparison goes the way the paper says",
    "differs": "our value is outside the tolerance, or the comparison goes the other way",
    "ran on replica": "a rehearsal's number (replicas of the papers' datasets, smaller "
                      "settings): it checks that the step runs; a match with the paper would "
                      "be chance",
    "not computed": "the step ran but its statistic could not be computed (a t-test over "
                    "fewer than 2 datasets, or with the same difference on each), with the "
                    "reason",
    "not run": "this profile does not produce the value, with the reason",
}

#: A ``nearest`` value within this relative distance of its target is that setting's run
#: (s/n = round(0.05 n) / n = 0.046 for 0.05 with n = 65), not a substitute.
_SAME_SETTING = 0.1


def within_tolerance(value: float, published: float, tolerance: dict) -> bool:
    """True when ``|value - published| <= max(abs, rel * |published|)``.

    A tiny relative slack (1e-9) absorbs floating-point noise at the boundary.

    Examples
    --------
    >>> from lowdim.report.scorecard import within_tolerance
    >>> within_tolerance(0.96, 0.9462, {"abs": 0.02}), within_tolerance(0.90, 0.9462, {"abs": 0.02})
    (True, False)
    >>> within_tolerance(110.0, 100.0, {"abs": 1.0, "rel": 0.1})   # the looser of the two
    True
    """
    allowed = max(float(tolerance.get("abs", 0.0)),
                  float(tolerance.get("rel", 0.0)) * abs(published))
    return abs(value - published) <= allowed * (1 + 1e-9) + 1e-12


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _show(value) -> str:
    """A setting as the reason shows it: ``4000``, ``0.1003``, ``mnist``."""
    if _is_number(value):
        value = float(value)
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.4g}"
    return str(value)


@dataclass
class Selection:
    """The rows a source selects: their finite ``values``, or why there are none.

    ``verdict`` is "" when there are values, else "not run" or "not computed" (with
    ``reason``); ``rows`` says what matched; ``substituted`` names each setting that is
    not the published one.
    """

    values: np.ndarray | None = None
    verdict: str = ""
    reason: str = ""
    rows: str = ""
    substituted: list = field(default_factory=list)


def _where_mask(table, where: dict, nearest_settings: bool, substituted: list):
    """Rows matching ``where``; a numeric setting not run is replaced by the nearest one
    run when ``nearest_settings`` (categorical keys are matched first, numeric ones after)."""
    mask = np.ones(len(table), dtype=bool)
    for key, wanted in sorted(where.items(), key=lambda kv: _is_number(kv[1])):
        hit = (table[key] == wanted).to_numpy() | (table[key].astype(str) == str(wanted)).to_numpy()
        if nearest_settings and _is_number(wanted) and mask.any() and not (mask & hit).any():
            values = pd.to_numeric(table[key], errors="coerce").to_numpy(dtype=float)
            candidates = values[mask & np.isfinite(values)]
            if candidates.size:
                used = candidates[np.argmin(np.abs(candidates - float(wanted)))]
                hit = values == used
                substituted.append(f"{key} = {_show(used)}, nearest run to the published "
                                   f"{_show(wanted)}")
        mask &= hit
    return mask


def _nearest_mask(table, mask, nearest: dict, substituted: list):
    """Keep the rows whose column is nearest its target (``.inf``: the largest, a choice
    of the entry, which the rows' text shows, not a substitute)."""
    for key, target in nearest.items():
        values = pd.to_numeric(table[key], errors="coerce").to_numpy(dtype=float)
        if not (mask & np.isfinite(values)).any():
            continue
        target = float(target)
        if np.isinf(target):
            chosen = np.nanmax(values[mask]) if target > 0 else np.nanmin(values[mask])
            mask = mask & (values == chosen)
            continue
        distance = np.abs(values - target)
        mask = mask & (distance == np.nanmin(distance[mask]))
        used = values[mask][0]
        if abs(used - target) > _SAME_SETTING * abs(target):
            substituted.append(f"{key} = {_show(used)}, nearest run to the published "
                               f"{_show(target)}")
    return mask


def _rows_text(table, mask, source, n_values, n_nan) -> str:
    """``mean of 5 runs of errors.csv: matrix = mlp_digits, s/n = 0.1003`` for the selected
    rows."""
    keys = [*(source.get("where") or {}), *(source.get("nearest") or {})]
    settings = []
    for key in dict.fromkeys(keys):
        used = pd.unique(table.loc[mask, key])
        settings.append(f"{key} = {', '.join(_show(v) for v in used)}")
    how = source.get("aggregate", "mean") if n_values > 1 else "value"
    text = (f"{how} of {n_values} run{'s' if n_values != 1 else ''} of "
            f"{Path(source['file']).name}: {', '.join(settings)}")
    return text + (f" ({n_nan} NaN row{'s' if n_nan != 1 else ''} left out)" if n_nan else "")


def _not_computed(table, mask, source) -> str:
    """Why the matching rows hold no number: the tidy file's ``reason``, if it gives one."""
    column = source["column"]
    given = table.loc[mask, "reason"].dropna().astype(str) if "reason" in table else []
    given = [r for r in dict.fromkeys(given) if r]
    why = "; ".join(given) or "no reason recorded"
    return f"{column} is NaN in {int(mask.sum())} matching row(s) of {source['file']}: {why}"


def _missing(table, source) -> str | None:
    for key in (source["column"], *(source.get("where") or {}), *(source.get("nearest") or {})):
        if key not in table.columns:
            return f"{source['file']} has no column {key!r}"
    return None


def select(source: dict, root: Path, cache: dict, nearest_settings: bool = False) -> Selection:
    """The rows of ``source`` (a ``reproduced`` or ``than`` mapping) under ``root``."""
    path = root / source["file"]
    if not path.exists():
        return Selection(verdict="not run", reason=f"{source['file']} was not produced by "
                                                   f"this profile")
    if path not in cache:
        cache[path] = pd.read_csv(path)
    table = cache[path]
    missing = _missing(table, source)
    if missing:
        return Selection(verdict="not run", reason=missing)
    substituted: list = []
    mask = _where_mask(table, source.get("where") or {}, nearest_settings, substituted)
    mask = _nearest_mask(table, mask, source.get("nearest") or {}, substituted)
    if not mask.any():
        return Selection(verdict="not run", reason=_why_empty(table, source))
    raw = pd.to_numeric(table.loc[mask, source["column"]], errors="coerce").to_numpy(dtype=float)
    finite = np.isfinite(raw)
    if not finite.any():
        return Selection(verdict="not computed", reason=_not_computed(table, mask, source),
                         substituted=substituted)
    values = raw[finite] * float(source.get("scale", 1.0))
    rows = _rows_text(table, mask, source, int(finite.sum()), int((~finite).sum()))
    return Selection(values=values, rows=rows, substituted=substituted)


def _why_empty(table, source) -> str:
    """Name the first selector value that never occurs (usually: not in this profile)."""
    for key, wanted in (source.get("where") or {}).items():
        present = set(table[key].astype(str))
        if str(wanted) not in present:
            return f"{key} {wanted!r} was not run in this profile ({source['file']})"
    where = ", ".join(f"{k}={v}" for k, v in (source.get("where") or {}).items())
    return f"no rows with {where} in {source['file']}"


def _aggregate(values, source) -> float:
    return float(np.median(values) if source.get("aggregate") == "median" else values.mean())


def _spread(values) -> float:
    return float(np.std(values, ddof=1)) if values.size > 1 else 0.0


def _reason(comparison: str, selections, sides=("",)) -> str:
    """The comparison, the settings scored in place of the published ones (named by side
    unless every side has them), and the rows of each side."""
    shared = set.intersection(*(set(sel.substituted) for sel in selections))
    parts = [comparison]
    if shared:
        parts.append("scored at " + "; ".join(s for s in selections[0].substituted if s in shared))
    parts += [f"{side} scored at {s}" for side, sel in zip(sides, selections)
              for s in sel.substituted if s not in shared]
    parts += [f"{side}: {sel.rows}" if side else sel.rows for side, sel in zip(sides, selections)]
    return "; ".join(parts)


def _unscored(row, selection, selections=()) -> dict:
    """A row with no number: not run or not computed, with the reason (and what was
    substituted on the way)."""
    substituted = [s for sel in (*selections, selection) for s in sel.substituted]
    reason = selection.reason + (f" (scored at {'; '.join(substituted)})" if substituted else "")
    row.update(verdict=selection.verdict, reason=reason)
    return row


def score_entry(entry: PublishedEntry, root=".", cache=None, nearest_settings=False,
                replica=False, profile="") -> dict:
    """One scorecard row for ``entry``, reading tidy CSVs under ``root``.

    With ``nearest_settings`` (rehearsals), a numeric setting that was not run is
    replaced by the nearest one that was, and the row's reason says so. With
    ``replica`` (data are replicas, not the papers'), a scored row's verdict is
    "ran on replica" instead of reproduced or differs.

    Examples
    --------
    >>> from lowdim.report.scorecard import score_entry
    >>> row = score_entry(knn_entry, root=knn_root)   # two vec2vec rows: 0.95 and 0.97
    >>> row["reproduced"], row["runs"], row["verdict"]
    (0.96, 2, 'reproduced')
    """
    cache = {} if cache is None else cache
    root = Path(root)
    row = {"profile": profile, "paper": entry.paper, "artifact": entry.artifact,
           "metric": entry.metric, "setting": entry.setting, "unit": entry.unit,
           "published": entry.published if not entry.is_claim else f"{entry.expect} than reference",
           "provenance": entry.provenance + (" (read off a figure)" if entry.read_off_figure else ""),
           "reproduced": np.nan, "spread": np.nan, "runs": 0, "difference": np.nan,
           "tolerance": _tolerance_text(entry), "verdict": "not run", "reason": ""}
    ours = select(entry.reproduced, root, cache, nearest_settings)
    if ours.values is None:
        return _unscored(row, ours)
    mean = _aggregate(ours.values, entry.reproduced)
    row.update(reproduced=mean, spread=_spread(ours.values), runs=int(ours.values.size))
    if entry.is_claim:
        reference = select(entry.than, root, cache, nearest_settings)
        if reference.values is None:
            return _unscored(row, reference, (ours,))
        ref = _aggregate(reference.values, entry.than)
        holds = mean < ref if entry.expect == "less" else mean > ref
        row.update(difference=mean - ref, verdict="reproduced" if holds else "differs",
                   reason=_reason(f"ours {mean:.4g} vs reference {ref:.4g}", (ours, reference),
                                  ("ours", "reference")))
    else:
        published = float(entry.published)
        holds = within_tolerance(mean, published, entry.tolerance)
        row.update(difference=mean - published, verdict="reproduced" if holds else "differs",
                   reason=_reason(f"ours {mean:.4g} vs published {published:.4g}, "
                                  f"{'within' if holds else 'outside'} {row['tolerance']}",
                                  (ours,)))
    if replica:
        row.update(verdict="ran on replica",
                   reason="on replica data, not the paper's (the number checks that the step "
                          "runs); " + row["reason"])
    return row


def _tolerance_text(entry: PublishedEntry) -> str:
    if entry.is_claim:
        return "sign of the difference"
    parts = []
    if "abs" in entry.tolerance:
        parts.append(f"±{entry.tolerance['abs']:g}")
    if "rel" in entry.tolerance:
        parts.append(f"±{100 * entry.tolerance['rel']:g}%")
    return " or ".join(parts)


def scorecard(entries, root=".", nearest_settings=False, replica=False, profile="") -> pd.DataFrame:
    """The scorecard table: one row per published entry (see :func:`score_entry`), with
    a ``profile`` column naming the run.

    Examples
    --------
    >>> from lowdim.report import scorecard
    >>> card = scorecard([knn_entry], root=knn_root, profile="offline")
    >>> card[["profile", "artifact", "published", "reproduced", "runs", "verdict"]].to_dict("records")
    [{'profile': 'offline', 'artifact': 'Figure 4', 'published': 0.9462, 'reproduced': 0.96, 'runs': 2, 'verdict': 'reproduced'}]
    >>> scorecard([knn_entry], root=knn_root, replica=True)["verdict"].tolist()
    ['ran on replica']
    """
    cache: dict = {}
    return pd.DataFrame([score_entry(e, root, cache, nearest_settings, replica, profile)
                         for e in entries])
