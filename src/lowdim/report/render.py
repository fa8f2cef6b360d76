"""Write the scorecards and the front-page summary of the report."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..io import atomic_path
from ..tables import write_table
from .scorecard import VERDICTS
from .summary import to_rst_table

__all__ = ["SCORECARD_FILES", "describe_data", "scorecard_display", "write_scorecards",
           "summary_rst", "verdict_counts"]

#: Scorecard files: paper (the ``paper:`` of config/published/*.yaml) -> file stem.
SCORECARD_FILES = {"SMS-Nyström": "sms_nystrom", "Vec2vec": "vec2vec",
                   "AppGrad CCA": "appgrad_cca"}


def _fmt(value, digits=4):
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    return f"{value:.{digits}g}"


def scorecard_display(card: pd.DataFrame) -> pd.DataFrame:
    """The scorecard as a reader sees it: reproduced as ``mean ± spread (runs)``."""
    shown = pd.DataFrame({
        "artifact": card["artifact"], "metric": card["metric"], "setting": card["setting"],
        "published": [_fmt(v) for v in card["published"]],
        "reproduced (mean ± sd, runs)": [
            "–" if r == 0 else f"{_fmt(m)} ± {_fmt(s, 2)} ({r})"
            for m, s, r in zip(card["reproduced"], card["spread"], card["runs"])],
        "difference": [_fmt(v, 3) for v in card["difference"]],
        "tolerance": card["tolerance"], "unit": card["unit"], "verdict": card["verdict"],
        "reason": card["reason"], "provenance": card["provenance"]})
    return shown


def describe_data(datasets: dict, replica: bool = False) -> str:
    """What data a run's numbers come from, for the scorecard captions.

    Parameters
    ----------
    datasets : dict
        The config's ``datasets`` (name -> options).
    replica : bool, default=False
        The downloads are format-exact replicas (a rehearsal), not the real files.

    Returns
    -------
    str
        ``real: the papers' datasets, downloaded (mnist, ...); offline stand-ins ...``.
    """
    from ..data import dataset_spec, declares_own_data

    kinds = {"downloaded": [], "offline": [], "own": []}
    for name, options in datasets.items():
        kind = "own" if declares_own_data(options) else (
            "offline" if dataset_spec(name, options).offline else "downloaded")
        kinds[kind].append(name)
    downloaded = ("replicas of the papers' datasets, not the real data" if replica else
                  "real: the papers' datasets, downloaded")
    parts = [f"{downloaded} ({', '.join(kinds['downloaded'])})" if kinds["downloaded"] else "",
             f"offline stand-ins for the papers' datasets, shipped with the dependencies or "
             f"synthetic ({', '.join(kinds['offline'])})" if kinds["offline"] else "",
             f"your own data ({', '.join(kinds['own'])})" if kinds["own"] else ""]
    return "; ".join(filter(None, parts)) or "none"


def write_scorecards(card: pd.DataFrame, papers: dict, csv_paths: dict, md_paths: dict,
                     profile: str, data: str) -> None:
    """One table per paper (CSV with raw numbers, Markdown for reading); the caption
    names the profile, the data (:func:`describe_data`) and the verdict counts."""
    for paper, stem in papers.items():
        part = card[card["paper"] == paper].reset_index(drop=True)
        counts = [f"{n} {v}" for v, n in verdict_counts(part).items() if n]
        caption = (f"Scorecard, {paper} (profile {profile}; data: {data}): "
                   f"{', '.join(counts) or 'no entries'}.")
        with atomic_path(csv_paths[stem]) as tmp:
            part.to_csv(tmp, index=False)
        write_table(scorecard_display(part), md_paths[stem], formats=("md",), caption=caption)


def verdict_counts(card: pd.DataFrame) -> dict:
    """``{verdict: count}`` in the order of :data:`~lowdim.report.scorecard.VERDICTS`."""
    return {v: int((card["verdict"] == v).sum()) for v in VERDICTS}


def summary_rst(profile, seed, parts, datasets, stages, scorecard, similarity, cca) -> str:
    """The reStructuredText included at the top of the HTML report."""
    ran = [name for name, on in parts.items() if on]
    lines = ["Run summary", "-----------", "",
             f"Profile ``{profile}``, base seed ``{seed}``. Parts run: "
             f"{', '.join(ran) or 'none'}. Datasets: {', '.join(datasets) or 'none'}.", ""]
    total = stages["wall time (s)"].sum() if len(stages) else 0.0
    lines += [f"**Time per stage** (from Snakemake benchmark files; {total:.0f} s of job time "
              "in all, jobs may overlap):", "", to_rst_table(stages), ""]
    if len(scorecard):
        by_paper = pd.DataFrame.from_dict(
            {paper: verdict_counts(part) for paper, part in scorecard.groupby("paper")},
            orient="index").rename_axis("paper")
        lines += ["**Scorecard** (details under each paper's *Scorecard*):", "",
                  to_rst_table(by_paper.reset_index()), ""]
    if len(similarity):
        keep = similarity[similarity["method"].isin(["sms_nystrom", "nystrom", "sicur", "stacur"])]
        lines += ["**Similarity evaluations saved** against forming the full matrix:", "",
                  to_rst_table(keep), ""]
    if len(cca):
        lines += ["**FLOPs saved** by AppGrad against exact CCA (ratio > 1: AppGrad cheaper; "
                  "– : target not reached):", "", to_rst_table(cca), ""]
    return "\n".join(lines) + "\n"
