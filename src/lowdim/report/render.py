"""Write the scorecards and the front-page summary of the report."""

from __future__ import annotations

import html

import numpy as np
import pandas as pd

from ..io import atomic_path
from ..tables import write_table
from .scorecard import VERDICTS

__all__ = ["overview_html", "scorecard_display", "summary_rst", "verdict_counts",
           "write_scorecards"]


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


def write_scorecards(card: pd.DataFrame, papers: dict, csv_paths: dict, md_paths: dict,
                     profile: str) -> None:
    """One table per paper (CSV with raw numbers, Markdown for reading)."""
    for paper, stem in papers.items():
        part = card[card["paper"] == paper].reset_index(drop=True)
        counts = verdict_counts(part)
        caption = (f"Scorecard, {paper} (profile {profile}): " +
                   ", ".join(f"{n} {v}" for v, n in counts.items()))
        with atomic_path(csv_paths[stem]) as tmp:
            part.to_csv(tmp, index=False)
        write_table(scorecard_display(part), md_paths[stem], formats=("md",), caption=caption)


def verdict_counts(card: pd.DataFrame) -> dict:
    """``{verdict: count}`` in the order reproduced, differs, not run."""
    return {v: int((card["verdict"] == v).sum()) for v in VERDICTS}


def _scorecard_counts(scorecard: pd.DataFrame) -> pd.DataFrame:
    """paper, reproduced, differs, not run: one row per paper, in the scorecard's order."""
    return pd.DataFrame([{"paper": paper, **verdict_counts(part)}
                         for paper, part in scorecard.groupby("paper", sort=False)],
                        columns=["paper", *VERDICTS])


def summary_rst(parts, datasets, stages, scorecard) -> str:
    """The short reStructuredText on the report's front page: what ran and what came of it.

    The tables are in the *Overview* result (:func:`overview_html`); the front page keeps
    to text, which wraps beside the rule graph.
    """
    ran = [name for name, on in parts.items() if on]
    total = stages["wall time (s)"].sum() if len(stages) else 0.0
    counts = verdict_counts(scorecard)
    lines = [f"**This run:** parts {', '.join(ran) or 'none'}; datasets "
             f"{', '.join(datasets) or 'none'}. "
             f"Its jobs took {total:,.0f} s in all (they may overlap).", ""]
    if len(scorecard):
        lines += [f"**Against the published numbers:** {counts['reproduced']} reproduced, "
                  f"{counts['differs']} differ, {counts['not run']} not run in this profile.", ""]
    lines += ["Time per stage, the scorecard per paper and the similarity evaluations and "
              "FLOPs saved are tables in Overview_; each paper's figures, tables and "
              "scorecard are in its own category.", ""]
    return "\n".join(lines)


_STYLE = """body { font-family: system-ui, sans-serif; font-size: 14px; margin: 12px; color: #222; }
h2 { font-size: 16px; margin: 18px 0 6px; } p { max-width: 60em; }
div.table { overflow-x: auto; }
table { border-collapse: collapse; margin-bottom: 8px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; white-space: nowrap; }
th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }"""


def _html_table(df: pd.DataFrame, digits: int = 4) -> str:
    """``df`` as an HTML table in a horizontally scrolling box; numbers right-aligned."""
    if df.empty:
        return "<p><em>(nothing to show)</em></p>"
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = []
    for record in df.itertuples(index=False):
        cells = []
        for value in record:
            number = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
            text = _fmt(value, digits) if number else str(value)
            cell = '<td class="num">' if number else "<td>"
            cells.append(f"{cell}{html.escape(text)}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (f'<div class="table"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def overview_html(profile, stages, scorecard, similarity, cca) -> str:
    """The *Overview* result of the report: the run summary's tables as one HTML page.

    Parameters
    ----------
    profile : str
    stages : DataFrame
        :func:`lowdim.report.summary.stage_times`.
    scorecard : DataFrame
        The whole scorecard (one row per published entry, with ``paper`` and ``verdict``).
    similarity, cca : DataFrame
        :func:`~lowdim.report.summary.similarity_savings`,
        :func:`~lowdim.report.summary.cca_savings` (may be empty).

    Returns
    -------
    str
        A self-contained HTML document.
    """
    total = stages["wall time (s)"].sum() if len(stages) else 0.0
    sections = [
        ("Scorecard", "Published numbers per paper: reproduced, differ, or not run in this "
                      "profile (details under each paper's <em>Scorecard</em>).",
         _scorecard_counts(scorecard)),
        ("Time per stage", f"From Snakemake benchmark files: {total:,.0f} s of job time in "
                           "all; jobs may overlap.", stages),
    ]
    if len(similarity):
        keep = similarity[similarity["method"].isin(["sms_nystrom", "nystrom", "sicur", "stacur"])]
        sections.append(("Similarity evaluations saved",
                         "Against forming the full matrix, at the sample fraction compared.", keep))
    if len(cca):
        sections.append(("FLOPs saved", "By AppGrad against exact CCA (ratio &gt; 1: AppGrad "
                                        "cheaper; – : target not reached).", cca))
    body = "".join(f"<h2>{title}</h2><p>{text}</p>{_html_table(table)}"
                   for title, text, table in sections)
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Run summary "
            f"({html.escape(profile)})</title><style>{_STYLE}</style></head><body>"
            f"<h1 style=\"font-size:18px\">Run summary, profile {html.escape(profile)}</h1>"
            f"{body}</body></html>\n")
