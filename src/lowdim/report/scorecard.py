"""Compare reproduced values with published ones: one verdict per published entry.

A published entry names the settings it was measured at and the result it reports
(:mod:`lowdim.report.published`); the rows scored are the tidy CSV's rows at those
settings (:mod:`lowdim.report.selection`). A number is the mean (or median) over them
(one row per seed or split), its spread their standard deviation, and it reproduces when
within the metric's tolerance. A claim compares two sides read at the same setting and
is decided beyond the noise of their repeated runs (:mod:`lowdim.report.decision`).

Every reason says what was scored: the rows (``median of 5 runs of errors.csv: matrix =
mlp_digits, method = sms_nystrom, s/n = 0.1003``), each setting scored in place of the
published one, and each modified key of the run's profile its rows depend on
(:mod:`lowdim.report.profile`). :data:`VERDICT_MEANINGS` says what each verdict means.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .decision import CLAIM_RULE, independent_decision, paired_decision
from .profile import affecting, profile_label
from .published import PublishedEntry
from .selection import AGGREGATES, EntryError, rows_text, select_sides, shown_aggregate

__all__ = ["CLAIM_RULE", "EntryError", "VERDICTS", "VERDICT_MEANINGS", "score_entry",
           "scorecard", "within_tolerance"]

#: The verdicts of a scorecard row, in the order the tables count them.
VERDICTS = ("reproduced", "reproduced at another setting", "within noise", "differs",
            "not reached", "ran on replica", "not computed", "not run")

#: What each verdict says, for the README and the report (the single source of that list).
VERDICT_MEANINGS = {
    "reproduced": "at the published setting, our value is within the metric's tolerance of "
                  "the published one, or a claim's repeated runs go the paper's way beyond "
                  "their spread (the rule below)",
    "reproduced at another setting": "as reproduced, but not at the published setting: a "
                                     "setting that was not run was scored at the nearest one "
                                     "run, or the run's profile modified a key the row "
                                     "depends on (the profile column and the reason name "
                                     "them)",
    "within noise": "a claim whose repeated runs go neither way beyond their spread",
    "differs": "our value is outside the tolerance, or a claim's repeated runs go the other "
               "way beyond their spread",
    "not reached": "the run never reached a result the entry is read at (the FLOPs at which "
                   "PCC first reaches 0.95); the reason gives the best value reached",
    "ran on replica": "a rehearsal's number (replicas of the papers' datasets, smaller "
                      "settings): it checks that the step runs; a match with the paper would "
                      "be chance",
    "not computed": "the step ran but its statistic could not be computed (a t-test over "
                    "fewer than 2 datasets, or with the same difference on each; a claim with "
                    "fewer than 2 pairs, the same difference on every pair, or fewer than 3 "
                    "independent runs per side), with the reason",
    "not run": "this profile does not produce the value, or one side of a claim was not run "
               "at the other's setting, with the reason (naming the side)",
}

#: Verdicts of a row that has a number: on replicas they all read "ran on replica".
_SCORED = ("reproduced", "reproduced at another setting", "within noise", "differs",
           "not reached")


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


def _aggregate(values, source) -> float:
    return float(AGGREGATES[source.get("aggregate", "mean")](values))


def _shown(values, entry, source) -> float:
    """A side's value as the scorecard shows it (:func:`~.selection.shown_aggregate`)."""
    return float(AGGREGATES[shown_aggregate(entry, source)](values))


def _spread(values) -> float:
    return float(np.std(values, ddof=1)) if values.size > 1 else 0.0


def _scored_at(sides) -> list[str]:
    """The settings scored in place of the published ones: shared ones once, the others
    by side."""
    shared = set.intersection(*(set(side.substituted) for side in sides))
    parts = []
    if shared:
        parts.append("scored at " + "; ".join(s for s in sides[0].substituted if s in shared))
    parts += [f"{side.name} scored at {s}" for side in sides for s in side.substituted
              if s not in shared]
    return parts


def _reason(comparison: str, sides, entry) -> str:
    parts = [comparison, *_scored_at(sides)]
    parts += [f"{side.name}: {rows_text(side, entry)}" if side.name else rows_text(side, entry)
              for side in sides]
    return "; ".join(parts)


def _paired(ours, reference):
    """The pairs of two sides by their pairing value. A side without the pairing column (a
    deterministic method, or the best of a reference's runs) is one value, its aggregate,
    compared with every run of the other."""
    a, b = ours.values, reference.values
    if not (ours.paired or reference.paired):  # one value each: a single pair
        return (np.array([_aggregate(a.to_numpy(), ours.source)]),
                np.array([_aggregate(b.to_numpy(), reference.source)]))
    if not reference.paired:
        b = pd.Series(_aggregate(b.to_numpy(), reference.source), index=a.index)
    if not ours.paired:
        a = pd.Series(_aggregate(a.to_numpy(), ours.source), index=b.index)
    if ours.paired and reference.paired:  # two files may write seed 3 as 3 and 3.0
        a, b = (_by_key(v).groupby(level=0).mean() for v in (a, b))
    common = a.index.intersection(b.index)
    return a[common].to_numpy(), b[common].to_numpy()


def _by_key(values: pd.Series) -> pd.Series:
    numeric = pd.to_numeric(pd.Series(values.index), errors="coerce")
    keys = numeric if numeric.notna().all() else pd.Series(values.index).astype(str)
    return pd.Series(values.to_numpy(), index=keys.to_numpy())


def _decide_claim(entry: PublishedEntry, ours, reference):
    if entry.independent:
        return independent_decision(ours.values.to_numpy(), reference.values.to_numpy(),
                                    entry.expect, unit=entry.independent)
    a, b = _paired(ours, reference)
    median = entry.reproduced.get("aggregate") == "median"
    return paired_decision(a - b, entry.expect, median=median, unit=entry.paired_by)


def _unscored(row, sides) -> dict:
    """A row with no number: why, from the first side that has none."""
    failed = next(side for side in sides if side.verdict)
    scored_at = _scored_at(sides)
    reason = failed.reason + (f" ({'; '.join(scored_at)})" if scored_at else "")
    row.update(verdict=failed.verdict, reason=reason)
    return row


def _score_claim(row, entry, ours, reference) -> dict:
    decision = _decide_claim(entry, ours, reference)
    ref = _shown(reference.values.to_numpy(), entry, entry.than)
    row.update(difference=decision.difference, verdict=decision.verdict,
               reason=_reason(f"ours {row['reproduced']:.4g} vs reference {ref:.4g}; "
                              f"{decision.reason}", (ours, reference), entry))
    return row


def _score_number(row, entry, ours) -> dict:
    published = float(entry.published)
    holds = within_tolerance(row["reproduced"], published, entry.tolerance)
    comparison = (f"ours {row['reproduced']:.4g} vs published {published:.4g}, "
                  f"{'within' if holds else 'outside'} {row['tolerance']}")
    row.update(difference=row["reproduced"] - published,
               verdict="reproduced" if holds else "differs",
               reason=_reason(comparison, (ours,), entry))
    return row


def _qualify(row, sides, modified, replica) -> dict:
    """Another setting, a modified profile or replica data: never plain "reproduced"."""
    elsewhere = any(side.substituted for side in sides)
    if modified:
        row["reason"] = (f"the profile modified {', '.join(modified)}, which these rows "
                         f"depend on; {row['reason']}")
    if row["verdict"] == "reproduced" and (elsewhere or modified):
        row["verdict"] = "reproduced at another setting"
    if replica and row["verdict"] in _SCORED:
        row.update(verdict="ran on replica",
                   reason=f"on replica data, not the paper's (the number checks that the step "
                          f"runs; it read {row['verdict']}); {row['reason']}")
    return row


def score_entry(entry: PublishedEntry, root=".", cache=None, nearest_settings=False,
                replica=False, profile="", modified=()) -> dict:
    """One scorecard row for ``entry``, reading tidy CSVs under ``root``.

    Parameters
    ----------
    entry : PublishedEntry
    root : path-like, default="."
        The run's directory.
    cache : dict, optional
        Tables read so far, by path (shared by the entries of one scorecard).
    nearest_settings : bool, default=False
        Score a setting that was not run at the nearest one run (a rehearsal's smaller
        sweeps); the row then reads "reproduced at another setting" at best.
    replica : bool, default=False
        The data are replicas, not the papers': a scored row reads "ran on replica".
    profile : str, default=""
        The run's profile, as the profile column shows it.
    modified : sequence of str, default=()
        The result-changing keys the run's profile modified
        (:func:`lowdim.report.profile.modified_keys`).

    Raises
    ------
    EntryError
        A setting or threshold column of the entry has no finite value in its rows.

    Examples
    --------
    >>> from lowdim.report.scorecard import score_entry
    >>> row = score_entry(knn_entry, root=knn_root)   # two vec2vec rows: 0.95 and 0.97
    >>> row["reproduced"], row["runs"], row["verdict"]
    (0.96, 2, 'reproduced')
    >>> score_entry(knn_entry, root=knn_root, modified=["cca.reg"])["verdict"]  # not its section
    'reproduced'
    """
    cache = {} if cache is None else cache
    row = {"profile": profile, "paper": entry.paper, "artifact": entry.artifact,
           "metric": entry.metric, "setting": entry.setting, "unit": entry.unit,
           "published": entry.published if not entry.is_claim else f"{entry.expect} than reference",
           "provenance": entry.provenance + (" (read off a figure)" if entry.read_off_figure else ""),
           "reproduced": np.nan, "spread": np.nan, "runs": 0, "difference": np.nan,
           "tolerance": _tolerance_text(entry), "verdict": "not run", "reason": ""}
    sides = select_sides(entry, Path(root), cache, nearest_settings)
    mine = affecting(entry, modified)
    if any(side.verdict for side in sides):
        return _qualify(_unscored(row, sides), sides, mine, replica)
    ours = sides[0]
    values = ours.values.to_numpy()
    row.update(reproduced=_shown(values, entry, entry.reproduced), spread=_spread(values),
               runs=int(values.size))
    row = _score_claim(row, entry, *sides) if entry.is_claim else _score_number(row, entry, ours)
    return _qualify(row, sides, mine, replica)


def _tolerance_text(entry: PublishedEntry) -> str:
    if entry.is_claim:
        if entry.independent:
            return f"one-sided Mann-Whitney at 0.05, ≥ 3 per side (per {entry.independent})"
        test = "Wilcoxon signed-rank" if entry.reproduced.get("aggregate") == "median" \
            else "paired t-test"
        return f"one-sided {test} at 0.05, per {entry.paired_by}"
    parts = []
    if "abs" in entry.tolerance:
        parts.append(f"±{entry.tolerance['abs']:g}")
    if "rel" in entry.tolerance:
        parts.append(f"±{100 * entry.tolerance['rel']:g}%")
    return " or ".join(parts)


def scorecard(entries, root=".", nearest_settings=False, replica=False, profile="",
              modified=()) -> pd.DataFrame:
    """The scorecard table: one row per published entry (see :func:`score_entry`), with
    a ``profile`` column naming the run's profile and the keys it modified.

    Examples
    --------
    >>> from lowdim.report import scorecard
    >>> card = scorecard([knn_entry], root=knn_root, profile="offline")
    >>> card[["profile", "artifact", "published", "reproduced", "runs", "verdict"]].to_dict("records")
    [{'profile': 'offline', 'artifact': 'Figure 4', 'published': 0.9462, 'reproduced': 0.96, 'runs': 2, 'verdict': 'reproduced'}]
    >>> scorecard([knn_entry], root=knn_root, replica=True)["verdict"].tolist()
    ['ran on replica']
    >>> modified = scorecard([knn_entry], root=knn_root, profile="paper", modified=["embedding.topk"])
    >>> modified[["profile", "verdict"]].to_dict("records")
    [{'profile': 'paper (modified: embedding.topk)', 'verdict': 'reproduced at another setting'}]
    """
    cache: dict = {}
    label = profile_label(profile, list(modified))
    return pd.DataFrame([score_entry(e, root, cache, nearest_settings, replica, label, modified)
                         for e in entries])
