"""The rows of a tidy CSV that a published entry scores, at the entry's settings.

A side of an entry (its ``reproduced`` or ``than`` source) selects rows in three steps:

1. ``where``: names (dataset, method) by equality;
2. ``settings``: each numeric setting within its tolerance. A claim's entry-level
   settings are matched on both sides at once, so both are read at the same setting: a
   side not run there leaves the claim *not run*, naming the side. With
   ``nearest_settings`` (a rehearsal's smaller sweeps) a setting not run is replaced by
   the nearest one run (on both sides), and the substitution is named;
3. ``threshold``: per trace, the smallest value of the result column among the rows
   that reach the threshold (the FLOPs at which PCC first reaches 0.95); a trace that
   never reaches it is *not reached*, with its best value.

A setting or threshold column with no finite value in the rows selected so far is an
error of the entry (:class:`EntryError`), never skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .published import PublishedEntry, Setting

__all__ = ["EntryError", "select_sides", "show"]


class EntryError(ValueError):
    """A published entry that cannot be scored as written (a setting column with no value).

    Examples
    --------
    >>> from lowdim.report import PublishedEntry
    >>> from lowdim.report.published import Setting
    >>> from lowdim.report.selection import EntryError, select_sides
    >>> pd.DataFrame({"method": ["a"], "n": [float("nan")], "value": [1.0]}).to_csv(
    ...     tmp / "t.csv", index=False)
    >>> entry = PublishedEntry(paper="P", artifact="Fig", metric="m", setting="n = 10",
    ...                        provenance="p", published=1.0, settings={"n": Setting(10, "exact")},
    ...                        reproduced={"file": "t.csv", "column": "value",
    ...                                    "where": {"method": "a"}})
    >>> try:
    ...     select_sides(entry, tmp, {})
    ... except EntryError as error:
    ...     print(error)
    P, Fig (n = 10): the setting column 'n' has no finite value in the 1 rows of t.csv with method=a
    """


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def show(value) -> str:
    """A setting as a reason shows it: ``4000``, ``0.1003``, ``mnist``.

    Examples
    --------
    >>> from lowdim.report.selection import show
    >>> show(4000.0), show(0.100271), show("mnist")
    ('4000', '0.1003', 'mnist')
    """
    if _is_number(value):
        value = float(value)
        return str(int(value)) if value.is_integer() and abs(value) < 1e7 else f"{value:.4g}"
    return str(value)


@dataclass
class Side:
    """One side of an entry: its rows, or why there are none.

    ``verdict`` is "" while rows are selected, else "not run", "not reached" or "not
    computed" with ``reason``; ``substituted`` names each setting scored in place of the
    published one; ``values`` is one number per row, or per trace for a threshold, indexed
    by the pairing column's value where there is one.
    """

    name: str
    source: dict
    table: pd.DataFrame | None = None
    mask: np.ndarray | None = None
    verdict: str = ""
    reason: str = ""
    substituted: list = field(default_factory=list)
    values: pd.Series | None = None
    paired: bool = False
    n_nan: int = 0
    grouped_by: str = ""

    @property
    def label(self) -> str:
        where = ", ".join(f"{k} = {v}" for k, v in (self.source.get("where") or {}).items())
        return f"{self.name} ({where})" if self.name and where else self.name or where

    def fail(self, verdict: str, reason: str) -> None:
        if not self.verdict:
            self.verdict, self.reason = verdict, reason

    def numbers(self, key: str) -> np.ndarray:
        return pd.to_numeric(self.table[key], errors="coerce").to_numpy(dtype=float)


def _load(side: Side, root: Path, cache: dict, keys) -> None:
    path = root / side.source["file"]
    if not path.exists():
        return side.fail("not run", f"{side.source['file']} was not produced by this profile")
    if path not in cache:
        cache[path] = pd.read_csv(path)
    side.table = cache[path]
    for key in keys:
        if key not in side.table.columns:
            return side.fail("not run", f"{side.source['file']} has no column {key!r}")
    side.mask = np.ones(len(side.table), dtype=bool)
    for key, wanted in (side.source.get("where") or {}).items():
        side.mask &= (side.table[key].astype(str) == str(wanted)).to_numpy()
        if not side.mask.any():
            present = set(side.table[key].astype(str))
            why = (f"{key} {wanted!r} was not run in this profile ({side.source['file']})"
                   if str(wanted) not in present else
                   f"no rows with {_where_text(side.source)} in {side.source['file']}")
            return side.fail("not run", why)
    return None


def _where_text(source) -> str:
    return ", ".join(f"{k}={v}" for k, v in (source.get("where") or {}).items())


def _finite(side: Side, key: str, entry: PublishedEntry, what: str) -> np.ndarray:
    values = side.numbers(key)
    if not np.isfinite(values[side.mask]).any():
        raise EntryError(f"{entry.paper}, {entry.artifact} ({entry.setting}): the {what} column "
                         f"{key!r} has no finite value in the {int(side.mask.sum())} rows of "
                         f"{side.source['file']} with {_where_text(side.source) or 'any name'}")
    return values


def _common(arrays) -> np.ndarray:
    """Values of the first array present in every other (to floating-point precision)."""
    first = np.unique(arrays[0][np.isfinite(arrays[0])])
    keep = [x for x in first if all(_close(other, x).any() for other in arrays[1:])]
    return np.array(keep, dtype=float)


def _close(values, x) -> np.ndarray:
    return np.isclose(values, x, rtol=1e-9, atol=0)


def _match(sides, key: str, setting: Setting, entry, nearest_settings: bool) -> None:
    """Narrow every side's rows to ``key``'s setting, on all of them at once."""
    numeric = _is_number(setting.value) or setting.largest
    if not numeric:
        for side in sides:
            side.mask &= setting.within(side.table[key].to_numpy())
        missing = [side for side in sides if not side.mask.any()]
        for side in missing:
            side.fail("not run", f"{side.label} was not run at {key} = {setting.value} "
                                 f"({side.source['file']})")
        return
    values = [_finite(side, key, entry, "setting") for side in sides]
    if setting.largest:
        common = _common([v[s.mask] for v, s in zip(values, sides)])
        if not common.size:
            runs = "; ".join(
                f"{s.label}: " + ", ".join(show(x) for x in np.unique(v[s.mask & np.isfinite(v)]))
                for v, s in zip(values, sides))
            for side in sides:
                side.fail("not run", f"no {key} was run on every side ({runs})")
            return
        for value, side in zip(values, sides):
            side.mask &= _close(value, common.max())
        return
    hits = [setting.within(v, counts=s.numbers(setting.count_column)
                           if setting.count_column else None) & s.mask
            for v, s in zip(values, sides)]
    if all(hit.any() for hit in hits):
        for hit, side in zip(hits, sides):
            side.mask = hit
        return
    common = _common([v[s.mask] for v, s in zip(values, sides)])
    nearest = common[np.argmin(np.abs(common - float(setting.value)))] if common.size else None
    if nearest_settings and nearest is not None:
        for value, side in zip(values, sides):
            side.mask &= _close(value, nearest)
            side.substituted.append(f"{key} = {show(nearest)}, nearest run to the published "
                                    f"{show(setting.value)}")
        return
    for hit, value, side in zip(hits, values, sides):
        if not hit.any():
            ran = value[side.mask & np.isfinite(value)]
            closest = ran[np.argmin(np.abs(ran - float(setting.value)))]
            side.fail("not run", f"{side.label or 'ours'} was not run at {key} = "
                                 f"{show(setting.value)} ({setting.describe()}; nearest run: "
                                 f"{show(closest)})")


#: A side's ``aggregate`` -> its reduction (NaN-propagating: a failed row is not skipped).
AGGREGATES = {"mean": np.mean, "median": np.median, "max": np.max}


def shown_aggregate(entry: PublishedEntry, source: dict) -> str:
    """How a side's values are summarised in the scorecard: a claim on independent runs
    shows medians (its test compares their ranks), any other side its ``aggregate`` (the
    mean by default; a reference's ``max`` is taken per run, the runs then averaged)."""
    if entry.is_claim and entry.independent:
        return "median"
    how = source.get("aggregate", "mean")
    return "mean" if how == "max" else how


def _pairing_values(side: Side, pair: str | None) -> pd.Series | None:
    if pair is None or pair not in side.table.columns:
        return None
    keys = side.table.loc[side.mask, pair]
    return None if keys.isna().all() else keys


def _threshold(side: Side, entry: PublishedEntry, pair: str | None) -> None:
    """Per trace, the smallest result among the rows that reach the threshold."""
    spec = side.source["threshold"]
    level = _finite(side, spec["column"], entry, "threshold")[side.mask]
    result = side.numbers(side.source["column"])[side.mask]
    bound = "at_least" if "at_least" in spec else "at_most"
    target = float(spec[bound])
    reached = level >= target if bound == "at_least" else level <= target
    per = spec.get("per") or pair or entry.independent
    keys = _pairing_values(side, per)
    groups = pd.Series(0 if keys is None else keys.to_numpy(), index=np.arange(len(level)))
    values, missed = {}, []
    for key, rows in groups.groupby(groups, sort=True).groups.items():
        rows = np.asarray(rows)
        hit = rows[reached[rows] & np.isfinite(result[rows])]
        if hit.size:
            values[key] = float(result[hit].min())
            continue
        finite = rows[np.isfinite(level[rows])]
        where = f"{per} {show(key)}: " if keys is not None else ""
        if not finite.size:
            missed.append(f"{where}no {spec['column']} recorded")
            continue
        best = finite[np.argmax(level[finite]) if bound == "at_least" else np.argmin(level[finite])]
        missed.append(f"{where}best {show(level[best])} at {side.source['column']} = "
                      f"{show(result[best])}")
    if missed:
        return side.fail("not reached", f"{side.label or 'ours'}: {spec['column']} never "
                                        f"reached {show(target)} ({'; '.join(missed)})")
    side.values = pd.Series(values)
    side.paired = keys is not None and per == pair
    return None


def _values(side: Side, entry: PublishedEntry, pair: str | None) -> None:
    column = side.source["column"]
    if side.source.get("threshold"):
        _threshold(side, entry, pair)
    else:
        raw = side.numbers(column)[side.mask]
        unit = pair or entry.independent
        keys = _pairing_values(side, unit)
        values = pd.Series(raw, index=None if keys is None else keys.to_numpy())
        if keys is not None and values.index.has_duplicates:
            # several rows per run (the PCA-CCA runs of each seed, one per m): the run's
            # value is their aggregate (the mean unless the side names one), so that runs,
            # not rows, are compared; a NaN row makes its run NaN, counted below
            reduce = AGGREGATES[side.source.get("aggregate", "mean")]
            values = values.groupby(level=0, sort=True, dropna=False).apply(
                lambda run: reduce(run.to_numpy()))
            side.grouped_by = unit
        side.values = values
        side.paired = keys is not None and pair is not None
    if side.values is None:
        return None
    finite = np.isfinite(side.values.to_numpy())
    if not finite.any():
        given = side.table.loc[side.mask, "reason"].dropna().astype(str) \
            if "reason" in side.table else []
        why = "; ".join(r for r in dict.fromkeys(given) if r) or "no reason recorded"
        return side.fail("not computed", f"{column} is NaN in {int(side.mask.sum())} matching "
                                         f"row(s) of {side.source['file']}: {why}")
    side.n_nan = int((~finite).sum())
    side.values = side.values[finite] * float(side.source.get("scale", 1.0))
    return None


def select_sides(entry: PublishedEntry, root, cache: dict, nearest_settings=False) -> list[Side]:
    """The sides of ``entry`` (ours, and the reference of a claim) with their values.

    Parameters
    ----------
    entry : PublishedEntry
    root : path-like
        The run's directory (tidy files are read below it).
    cache : dict
        Tables read so far, by path.
    nearest_settings : bool, default=False
        Replace a setting that was not run by the nearest one run (named).

    Returns
    -------
    list of Side
        One side for a published number, two for a claim. A side's ``verdict`` is set
        when it has no values (the first side to fail says why).

    Raises
    ------
    EntryError
        A setting or threshold column with no finite value in the selected rows.

    Examples
    --------
    >>> from lowdim.report import PublishedEntry
    >>> from lowdim.report.published import Setting
    >>> from lowdim.report.selection import select_sides
    >>> pd.DataFrame({"method": ["a", "a", "b"], "D": [10, 100, 10], "seconds": [1.0, 2.0, 3.0]}
    ...              ).to_csv(tmp / "t.csv", index=False)
    >>> claim = PublishedEntry(
    ...     paper="P", artifact="Fig", metric="claim", setting="a faster than b at the largest D",
    ...     provenance="p", expect="less", independent="repeat",
    ...     settings={"D": Setting("largest", "exact")},
    ...     reproduced={"file": "t.csv", "column": "seconds", "where": {"method": "a"}},
    ...     than={"file": "t.csv", "column": "seconds", "where": {"method": "b"}})
    >>> [side.values.tolist() for side in select_sides(claim, tmp, {})]   # D = 10 on both
    [[1.0], [3.0]]
    """
    root = Path(root)
    sides = [Side("ours" if entry.is_claim else "", entry.reproduced)]
    if entry.is_claim:
        sides.append(Side("reference", entry.than))
    for side in sides:
        settings = entry.settings_of(side.source)
        threshold = side.source.get("threshold") or {}
        counts = [s.count_column for s in settings.values() if s.count_column]
        needed = [side.source["column"], *(side.source.get("where") or {}), *settings, *counts]
        _load(side, root, cache, needed + ([threshold["column"]] if threshold else []))
    if any(side.verdict for side in sides):
        return sides
    for side in sides:  # a side's own settings first, then the entry's, shared by both
        for key, setting in (side.source.get("settings") or {}).items():
            _match([side], key, setting, entry, nearest_settings)
    for key, setting in entry.settings.items():
        if not any(side.verdict for side in sides):
            _match(sides, key, setting, entry, nearest_settings)
    pair = entry.paired_by
    for side in sides:
        if not side.verdict:
            _values(side, entry, pair)
    return sides


def rows_text(side: Side, entry: PublishedEntry) -> str:
    """``median of 5 runs of errors.csv: matrix = mlp_digits, s/n = 0.1003``."""
    keys = [*(side.source.get("where") or {}), *entry.settings_of(side.source)]
    settings = []
    for key in dict.fromkeys(keys):
        used = pd.unique(side.table.loc[side.mask, key])
        settings.append(f"{key} = {', '.join(show(v) for v in used)}")
    n = int(side.values.size)
    how = shown_aggregate(entry, side.source) if n > 1 else "value"
    what = "trace" if side.source.get("threshold") else "run"
    text = (f"{how} of {n} {what}{'s' if n != 1 else ''} of "
            f"{Path(side.source['file']).name}: {', '.join(settings)}")
    if side.grouped_by:
        text = (f"{how} of {n} {side.grouped_by}{'s' if n != 1 else ''}, each the "
                f"{side.source.get('aggregate', 'mean')} of its rows, of "
                f"{Path(side.source['file']).name}: {', '.join(settings)}")
    if side.source.get("threshold"):
        spec = side.source["threshold"]
        bound = "at_least" if "at_least" in spec else "at_most"
        text += (f" (each trace's first {side.source['column']} with {spec['column']} "
                 f"{'>=' if bound == 'at_least' else '<='} {show(spec[bound])})")
    return text + (f" ({side.n_nan} NaN row{'s' if side.n_nan != 1 else ''} left out)"
                   if side.n_nan else "")
