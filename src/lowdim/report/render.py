"""Write the scorecards and the front-page summary of the report."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..io import atomic_path
from ..tables import write_table
from .scorecard import VERDICTS
from .summary import to_rst_table

__all__ = ["scorecard_display", "write_scorecards", "summary_rst", "verdict_counts"]


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
    >>> from lowdim.report.render import scorecard_display
    >>> scorecard_display(card).iloc[0][["published", "reproduced (mean ± sd, runs)", "verdict"]].to_dict()
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


def write_scorecards(card: pd.DataFrame, papers: dict, csv_paths: dict, md_paths: dict,
                     profile: str) -> None:
    """One table per paper (CSV with raw numbers, Markdown for reading).

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
    >>> from lowdim.report.render import write_scorecards
    >>> write_scorecards(card, {"Vec2vec": "vec2vec"}, {"vec2vec": root / "card.csv"},
    ...                  {"vec2vec": root / "card.md"}, profile="offline")
    >>> print((root / "card.md").read_text().splitlines()[0])
    Scorecard, Vec2vec (profile offline): 1 reproduced, 0 differs, 0 not run
    """
    for paper, stem in papers.items():
        part = card[card["paper"] == paper].reset_index(drop=True)
        counts = verdict_counts(part)
        caption = (f"Scorecard, {paper} (profile {profile}): " +
                   ", ".join(f"{n} {v}" for v, n in counts.items()))
        with atomic_path(csv_paths[stem]) as tmp:
            part.to_csv(tmp, index=False)
        write_table(scorecard_display(part), md_paths[stem], formats=("md",), caption=caption)


def verdict_counts(card: pd.DataFrame) -> dict:
    """``{verdict: count}`` in the order reproduced, differs, not run.

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
    >>> from lowdim.report.render import verdict_counts
    >>> verdict_counts(card)
    {'reproduced': 1, 'differs': 0, 'not run': 0}
    """
    return {v: int((card["verdict"] == v).sum()) for v in VERDICTS}


def summary_rst(profile, seed, parts, datasets, stages, scorecard, similarity, cca) -> str:
    """The reStructuredText included at the top of the HTML report.

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
    >>> from lowdim.report.render import summary_rst
    >>> stages = pd.DataFrame({"part": ["Vec2vec"], "rule": ["embedding_embed"], "jobs": [4],
    ...                        "wall time (s)": [12.5]})
    >>> text = summary_rst("offline", 0, {"embedding": True, "cca": False}, ["digits"], stages,
    ...                    card, pd.DataFrame(), pd.DataFrame())
    >>> print(text)
    Run summary
    -----------
    <BLANKLINE>
    Profile ``offline``, base seed ``0``. Parts run: embedding. Datasets: digits.
    <BLANKLINE>
    **Time per stage** (from Snakemake benchmark files; 12 s of job time in all, jobs may overlap):
    <BLANKLINE>
    +---------+-----------------+------+---------------+
    | part    | rule            | jobs | wall time (s) |
    +=========+=================+======+===============+
    | Vec2vec | embedding_embed | 4    | 12.5          |
    +---------+-----------------+------+---------------+
    <BLANKLINE>
    <BLANKLINE>
    **Scorecard** (details under each paper's *Scorecard*):
    <BLANKLINE>
    +---------+------------+---------+---------+
    | paper   | reproduced | differs | not run |
    +=========+============+=========+=========+
    | Vec2vec | 1          | 0       | 0       |
    +---------+------------+---------+---------+
    <BLANKLINE>
    <BLANKLINE>
    <BLANKLINE>
    """
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
