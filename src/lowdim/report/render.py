"""Write the scorecards and the front-page summary of the report."""

from __future__ import annotations

import html

import numpy as np
import pandas as pd

from ..io import atomic_path
from ..tables import write_table
from .scorecard import VERDICTS

__all__ = ["SCORECARD_FILES", "describe_data", "overview_html", "scorecard_display",
           "summary_rst", "verdict_counts", "write_scorecards"]

#: Scorecard files: paper (the ``paper:`` of ``config/published/*.yaml``) -> file stem.
SCORECARD_FILES = {"SMS-Nyström": "sms_nystrom", "Vec2vec": "vec2vec",
                   "AppGrad CCA": "appgrad_cca"}


def _fmt(value, digits=4):
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    return f"{value:.{digits}g}"


def scorecard_display(card: pd.DataFrame) -> pd.DataFrame:
    """The scorecard as a reader sees it: reproduced as ``mean ± spread (runs)``.

    Examples
    --------
    >>> from lowdim.report import scorecard
    >>> from lowdim.report.render import scorecard_display
    >>> shown = scorecard_display(scorecard([knn_entry], root=knn_root)).iloc[0]
    >>> shown[["published", "reproduced (mean ± sd, runs)", "verdict"]].to_dict()
    {'published': '0.9462', 'reproduced (mean ± sd, runs)': '0.96 ± 0.014 (2)', 'verdict': 'reproduced'}
    """
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

    Examples
    --------
    >>> from lowdim.report.render import describe_data
    >>> print(describe_data({"mnist": {}, "digits": {}}))
    real: the papers' datasets, downloaded (mnist); offline stand-ins for the papers' datasets, shipped with the dependencies or synthetic (digits)
    >>> describe_data({"mnist": {}}, replica=True)
    "replicas of the papers' datasets, not the real data (mnist)"
    """
    from ..data import dataset_spec, declares_own_data

    kinds = {"downloaded": [], "offline": [], "own": []}
    for name, options in sorted(datasets.items()):  # key order in the YAML is not a change
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
    names the profile, the data (:func:`describe_data`) and the verdict counts.

    Examples
    --------
    >>> from lowdim.report import scorecard
    >>> from lowdim.report.render import write_scorecards
    >>> write_scorecards(scorecard([knn_entry], root=knn_root), {"Vec2vec": "vec2vec"},
    ...                  {"vec2vec": tmp / "card.csv"}, {"vec2vec": tmp / "card.md"},
    ...                  profile="offline", data="offline stand-ins (digits)")
    >>> print((tmp / "card.md").read_text().splitlines()[0])
    Scorecard, Vec2vec (profile offline; data: offline stand-ins (digits)): 1 reproduced.
    """
    for paper, stem in papers.items():
        part = card[card["paper"] == paper].reset_index(drop=True)
        counts = [f"{n} {v}" for v, n in verdict_counts(part).items() if n]
        caption = (f"Scorecard, {paper} (profile {profile}; data: {data}): "
                   f"{', '.join(counts) or 'no entries'}.")
        with atomic_path(csv_paths[stem]) as tmp:
            part.to_csv(tmp, index=False)
        write_table(scorecard_display(part), md_paths[stem], formats=("md",), caption=caption)


def verdict_counts(card: pd.DataFrame) -> dict:
    """``{verdict: count}`` in the order of :data:`~lowdim.report.scorecard.VERDICTS`.

    Examples
    --------
    >>> card = pd.DataFrame({"paper": ["Vec2vec", "Vec2vec", "AppGrad CCA"],
    ...                      "verdict": ["reproduced", "not computed", "not run"]})
    >>> from lowdim.report.render import verdict_counts
    >>> verdict_counts(card)
    {'reproduced': 1, 'reproduced at another setting': 0, 'within noise': 0, 'differs': 0, 'not reached': 0, 'ran on replica': 0, 'not computed': 1, 'not run': 1}
    """
    return {v: int((card["verdict"] == v).sum()) for v in VERDICTS}


def _scorecard_counts(scorecard: pd.DataFrame) -> pd.DataFrame:
    """paper and a count per verdict: one row per paper, in the scorecard's order."""
    return pd.DataFrame([{"paper": paper, **verdict_counts(part)}
                         for paper, part in scorecard.groupby("paper", sort=False)],
                        columns=["paper", *VERDICTS])


def summary_rst(parts, datasets, stages, scorecard) -> str:
    """The short reStructuredText on the report's front page: what ran and what came of it.

    The tables are in the *Overview* result (:func:`overview_html`); the front page keeps
    to text, which wraps beside the rule graph.

    Examples
    --------
    >>> card = pd.DataFrame({"paper": ["Vec2vec", "Vec2vec", "AppGrad CCA"],
    ...                      "verdict": ["reproduced", "not computed", "not run"]})
    >>> from lowdim.report.render import summary_rst
    >>> stages = pd.DataFrame({"part": ["Vec2vec"], "rule": ["embedding_embed"], "jobs": [4],
    ...                        "wall time (s)": [12.5]})
    >>> print(summary_rst({"embedding": True, "cca": False}, ["digits"], stages, card))
    **This run:** parts embedding; datasets digits. Its jobs took 12 s in all (they may overlap).
    <BLANKLINE>
    **Against the published numbers:** 1 reproduced, 1 not computed, 1 not run.
    <BLANKLINE>
    Time per stage, the scorecard per paper and the similarity evaluations and FLOPs saved are tables in Overview_; each paper's figures, tables and scorecard are in its own category.
    <BLANKLINE>
    """
    ran = [name for name, on in parts.items() if on]
    total = stages["wall time (s)"].sum() if len(stages) else 0.0
    counts = ", ".join(f"{n} {verdict}" for verdict, n in verdict_counts(scorecard).items() if n)
    lines = [f"**This run:** parts {', '.join(ran) or 'none'}; datasets "
             f"{', '.join(datasets) or 'none'}. "
             f"Its jobs took {total:,.0f} s in all (they may overlap).", ""]
    if len(scorecard):
        lines += [f"**Against the published numbers:** {counts}.", ""]
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


def _number_text(value, digits: int = 4, whole: bool = False) -> str:
    """A number as an overview table shows it: an integer (or any number of a ``whole``
    column, one of counts) in full with thousands separators; another number to ``digits``
    significant digits, with no exponent from 1e-4 up.

    Examples
    --------
    >>> from lowdim.report.render import _number_text
    >>> _number_text(54389), _number_text(12345.67), _number_text(10.25), _number_text(0.000123)
    ('54,389', '12,346', '10.25', '0.000123')
    >>> _number_text(1e7, whole=True), _number_text(float("nan"))
    ('10,000,000', '–')
    """
    if value is None or (isinstance(value, (float, np.floating)) and np.isnan(value)):
        return "–"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if not np.isfinite(value):
        return str(value)
    if whole:
        return f"{value:,.0f}"
    if abs(value) < 1:
        return f"{value:.{digits}g}"
    decimals = max(digits - 1 - int(np.floor(np.log10(abs(value)))), 0)
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _whole(column: pd.Series) -> bool:
    """Whether a numeric column holds only whole numbers (counts, FLOPs), NaN aside."""
    if not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
        return False
    values = column.to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    return bool(values.size) and bool(np.all(values == np.round(values)))


def _html_table(df: pd.DataFrame, digits: int = 4) -> str:
    """``df`` as an HTML table in a horizontally scrolling box; numbers right-aligned,
    written by :func:`_number_text` (a column of whole numbers as counts)."""
    if df.empty:
        return "<p><em>(nothing to show)</em></p>"
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    whole = [_whole(df.iloc[:, i]) for i in range(df.shape[1])]
    rows = []
    for record in df.itertuples(index=False):
        cells = []
        for value, counts in zip(record, whole):
            number = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
            text = _number_text(value, digits, counts) if number else str(value)
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

    Examples
    --------
    >>> from lowdim.report import scorecard
    >>> from lowdim.report.render import overview_html
    >>> stages = pd.DataFrame({"part": ["Vec2vec"], "rule": ["embedding_score"], "jobs": [2],
    ...                        "wall time (s)": [3.5]})
    >>> card = scorecard([knn_entry], root=knn_root)
    >>> page = overview_html("offline", stages, card, pd.DataFrame(), pd.DataFrame())
    >>> page.startswith("<!DOCTYPE html>"), "<h2>Scorecard</h2>" in page, "embedding_score" in page
    (True, True, True)
    >>> "<td>Vec2vec</td>" in page
    True
    """
    total = stages["wall time (s)"].sum() if len(stages) else 0.0
    sections = [
        ("Scorecard", "Published numbers per paper, by verdict: " + ", ".join(VERDICTS[:-1])
                      + f" or {VERDICTS[-1]} in this profile (details under each paper's "
                      "<em>Scorecard</em>).",
         _scorecard_counts(scorecard)),
        ("Time per stage", f"From Snakemake benchmark files: {total:,.0f} s of job time in "
                           "all; jobs may overlap.", stages),
    ]
    if len(similarity):
        keep = similarity[similarity["method"].isin(["sms_nystrom", "nystrom", "sicur", "stacur"])]
        sections.append(("Similarity evaluations saved",
                         "Against forming the full matrix, at the sample fraction compared.", keep))
    if len(cca):
        sections.append(("FLOPs saved", "By AppGrad against exact CCA, the FLOPs each "
                                        "performed as the code counts them (ratio &gt; 1: "
                                        "AppGrad cheaper; – : target not reached); the "
                                        "paper's formulas beside them. A target is read at the "
                                        "first checkpoint that reaches it: an upper bound; "
                                        "with several seeds, the median over those that "
                                        "reach it.",
                         cca))
    body = "".join(f"<h2>{title}</h2><p>{text}</p>{_html_table(table)}"
                   for title, text, table in sections)
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Run summary "
            f"({html.escape(profile)})</title><style>{_STYLE}</style></head><body>"
            f"<h1 style=\"font-size:18px\">Run summary, profile {html.escape(profile)}</h1>"
            f"{body}</body></html>\n")
