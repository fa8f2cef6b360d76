"""Compare reproduced values with published ones: reproduced / differs / not run.

A reproduced value is the mean (or median) over the matching rows of a tidy CSV
(one row per seed or split); the spread is their standard deviation. The verdict is
*reproduced* when ``|mean - published|`` is within the metric's tolerance
(``abs``, or ``rel`` times ``|published|``; both may be given, the looser wins),
*differs* otherwise, and *not run* (with the reason) when this profile did not
produce the value.

A rehearsal on replicas (``nearest_settings=True``) runs smaller sweeps than the
papers: an entry whose numeric setting (e.g. ``n_samples: 20000``) was not run is
scored at the nearest setting that was, and its reason says which. Its verdict
checks that the path from raw data to this number works, not the number.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .published import PublishedEntry

__all__ = ["VERDICTS", "score_entry", "scorecard", "within_tolerance"]

#: The verdicts of a scorecard row, in the order the tables count them.
VERDICTS = ("reproduced", "differs", "not run")


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
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _where_mask(table, where: dict, nearest_settings: bool):
    """Rows matching ``where``, and ``{key: (wanted, used)}`` for settings replaced by the
    nearest one run (categorical keys are matched first, numeric ones after)."""
    mask = np.ones(len(table), dtype=bool)
    replaced = {}
    for key, wanted in sorted(where.items(), key=lambda kv: _is_number(kv[1])):
        hit = (table[key] == wanted).to_numpy() | (table[key].astype(str) == str(wanted)).to_numpy()
        if nearest_settings and _is_number(wanted) and mask.any() and not (mask & hit).any():
            values = pd.to_numeric(table[key], errors="coerce").to_numpy(dtype=float)
            candidates = values[mask & np.isfinite(values)]
            if candidates.size:
                used = candidates[np.argmin(np.abs(candidates - float(wanted)))]
                hit = values == used
                replaced[key] = (wanted, int(used) if float(used).is_integer() else float(used))
        mask &= hit
    return mask, replaced


def _values(source: dict, root: Path, cache: dict, nearest_settings: bool = False,
            replaced: dict | None = None):
    """The matching values of ``source``, or a reason why there are none.

    Settings replaced by the nearest one run (``nearest_settings``) are added to
    ``replaced``.
    """
    path = root / source["file"]
    if not path.exists():
        return None, f"{source['file']} was not produced by this profile"
    if path not in cache:
        cache[path] = pd.read_csv(path)
    table = cache[path]
    column = source["column"]
    if column not in table.columns:
        return None, f"{source['file']} has no column {column!r}"
    where = source.get("where") or {}
    for key in where:
        if key not in table.columns:
            return None, f"{source['file']} has no column {key!r}"
    mask, used = _where_mask(table, where, nearest_settings)
    if replaced is not None:
        replaced.update(used)
    for key, target in (source.get("nearest") or {}).items():
        if key not in table.columns:
            return None, f"{source['file']} has no column {key!r}"
        distance = (pd.to_numeric(table[key], errors="coerce") - float(target)).abs()
        if mask.any():
            mask &= (distance == distance[mask].min()).to_numpy()
    values = pd.to_numeric(table.loc[mask, column], errors="coerce").to_numpy(dtype=float)
    values = values[np.isfinite(values)] * float(source.get("scale", 1.0))
    if values.size == 0:
        return None, _why_empty(table, source)
    return values, ""


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


def _replaced_text(replaced: dict) -> str:
    if not replaced:
        return ""
    settings = ", ".join(f"{key} {used} (published setting {wanted})"
                         for key, (wanted, used) in sorted(replaced.items()))
    return f"rehearsal: scored at the nearest setting run: {settings}"


def score_entry(entry: PublishedEntry, root=".", cache=None, nearest_settings=False) -> dict:
    """One scorecard row for ``entry``, reading tidy CSVs under ``root``.

    With ``nearest_settings`` (rehearsals), a numeric setting that was not run is
    replaced by the nearest one that was, and the row's reason says so.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pandas as pd
    >>> from lowdim.report import PublishedEntry, scorecard
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "results").mkdir()
    >>> pd.DataFrame({"method": ["vec2vec", "vec2vec", "pca"], "accuracy": [0.95, 0.97, 0.93]}
    ...              ).to_csv(root / "results" / "knn.csv", index=False)
    >>> entry = PublishedEntry(
    ...     paper="Vec2vec", artifact="Figure 4", metric="accuracy", setting="MNIST",
    ...     provenance="the authors' plotting script", published=0.9462,
    ...     reproduced={"file": "results/knn.csv", "column": "accuracy",
    ...                 "where": {"method": "vec2vec"}}, tolerance={"abs": 0.02})
    >>> card = scorecard([entry], root=root)
    >>> from lowdim.report.scorecard import score_entry
    >>> row = score_entry(entry, root=root)
    >>> row["reproduced"], row["runs"], row["verdict"]
    (0.96, 2, 'reproduced')
    """
    cache = {} if cache is None else cache
    replaced: dict = {}
    root = Path(root)
    row = {"paper": entry.paper, "artifact": entry.artifact, "metric": entry.metric,
           "setting": entry.setting, "unit": entry.unit,
           "published": entry.published if not entry.is_claim else f"{entry.expect} than reference",
           "provenance": entry.provenance + (" (read off a figure)" if entry.read_off_figure else ""),
           "reproduced": np.nan, "spread": np.nan, "runs": 0, "difference": np.nan,
           "tolerance": _tolerance_text(entry), "verdict": "not run", "reason": ""}
    values, reason = _values(entry.reproduced, root, cache, nearest_settings, replaced)
    if values is None:
        row["reason"] = reason
        return row
    mean = _aggregate(values, entry.reproduced)
    row.update(reproduced=mean, spread=_spread(values), runs=int(values.size))
    if entry.is_claim:
        reference, reason = _values(entry.than, root, cache, nearest_settings, replaced)
        if reference is None:
            row.update(verdict="not run", reason=reason)
            return row
        ref = _aggregate(reference, entry.than)
        holds = mean < ref if entry.expect == "less" else mean > ref
        reason = "; ".join(filter(None, [f"ours {mean:.4g} vs reference {ref:.4g}",
                                         _replaced_text(replaced)]))
        row.update(difference=mean - ref, verdict="reproduced" if holds else "differs",
                   reason=reason)
        return row
    row["difference"] = mean - float(entry.published)
    ok = within_tolerance(mean, float(entry.published), entry.tolerance)
    row.update(verdict="reproduced" if ok else "differs", reason=_replaced_text(replaced))
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


def scorecard(entries, root=".", nearest_settings=False) -> pd.DataFrame:
    """The scorecard table: one row per published entry (see :func:`score_entry`).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pandas as pd
    >>> from lowdim.report import PublishedEntry, scorecard
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "results").mkdir()
    >>> pd.DataFrame({"method": ["vec2vec", "vec2vec", "pca"], "accuracy": [0.95, 0.97, 0.93]}
    ...              ).to_csv(root / "results" / "knn.csv", index=False)
    >>> entry = PublishedEntry(
    ...     paper="Vec2vec", artifact="Figure 4", metric="accuracy", setting="MNIST",
    ...     provenance="the authors' plotting script", published=0.9462,
    ...     reproduced={"file": "results/knn.csv", "column": "accuracy",
    ...                 "where": {"method": "vec2vec"}}, tolerance={"abs": 0.02})
    >>> card = scorecard([entry], root=root)
    >>> card[["artifact", "published", "reproduced", "runs", "verdict"]].to_dict("records")
    [{'artifact': 'Figure 4', 'published': 0.9462, 'reproduced': 0.96, 'runs': 2, 'verdict': 'reproduced'}]
    """
    cache: dict = {}
    return pd.DataFrame([score_entry(e, root, cache, nearest_settings) for e in entries])
