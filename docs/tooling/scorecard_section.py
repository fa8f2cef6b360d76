"""The README's scorecard section, generated from a run's scorecard.

It holds nothing a run measures: per paper, how many published entries every run scores
(the same in every profile), where the scorecards are written, what each verdict means
(``lowdim.report.scorecard.VERDICT_MEANINGS``, the one source of that list) and how a claim
is decided (``lowdim.report.decision.CLAIM_RULE``). So it cannot go stale with a run's
numbers, and ``tests/test_workflow.py`` compares it with what the tiny run writes.
"""

from __future__ import annotations

import textwrap

import pandas as pd

from lowdim.report.decision import CLAIM_RULE
from lowdim.report.render import SCORECARD_FILES
from lowdim.report.scorecard import VERDICT_MEANINGS, VERDICTS

__all__ = ["END", "START", "scorecard_section"]

#: The line before the README's scorecard section.
START = "<!-- scorecard:start -->"
#: The line after the README's scorecard section.
END = "<!-- scorecard:end -->"


def scorecard_section(card: pd.DataFrame, width: int = 95) -> str:
    """The README block between the scorecard markers, from a run's ``scorecard.csv``.

    Examples
    --------
    >>> import pandas as pd
    >>> from tooling.scorecard_section import scorecard_section
    >>> card = pd.DataFrame({"paper": ["Vec2vec", "Vec2vec", "SMS-Nyström"],
    ...                      "verdict": ["reproduced", "not run", "differs"]})
    >>> section = scorecard_section(card, width=80)
    >>> print("\\n".join(section.splitlines()[:7]))
    <!-- scorecard:start -->
    <BLANKLINE>
    ### What reproduces
    <BLANKLINE>
    Every run scores itself against the 3 published numbers and claims in
    `config/published/*.yaml` (1 for SMS-Nyström, 2 for Vec2vec), each with its
    provenance (a paper's table, text or figure, or the authors' code) and the
    >>> [line.split(":")[0] for line in section.splitlines() if line.startswith("- ")][-3:]
    ['- *ran on replica*', '- *not computed*', '- *not run*']

    It holds no run's numbers: other verdicts give the same section.

    >>> section == scorecard_section(card.assign(verdict="not run"), width=80)
    True
    """
    counts = card.groupby("paper").size()
    papers = [p for p in SCORECARD_FILES if p in counts.index]
    papers += sorted(set(counts.index) - set(papers))
    per_paper = ", ".join(f"{counts[paper]} for {paper}" for paper in papers)
    files = ", ".join(f"`scorecard_{SCORECARD_FILES[p]}.md`" for p in papers
                      if p in SCORECARD_FILES)
    intro = (
        f"Every run scores itself against the {int(counts.sum())} published numbers and claims "
        f"in `config/published/*.yaml` ({per_paper}), each with its provenance (a paper's "
        "table, text or figure, or the authors' code) and the settings it was measured at, "
        "each with its tolerance. The scorecards are written to "
        f"`results/tables/report/`: {files} (a `.csv` beside each; every paper in "
        "`scorecard.csv`, whose `profile` column names the run's profile and every "
        "result-changing key the run modified in it), and shown in the HTML report under each "
        "paper's *Scorecard*, whose caption names the data: real, offline stand-ins or "
        "replicas. Each row gives our value (mean ± sd over seeds or splits), the verdict and "
        "a reason naming the rows scored and every setting scored in place of the published "
        "one:")
    bullets = [textwrap.fill(f"- *{verdict}*: {VERDICT_MEANINGS[verdict]}.", width,
                             subsequent_indent="  ") for verdict in VERDICTS]
    outro = ("The default offline profile runs stand-ins for the papers' datasets: most entries "
             "read *not run* there, and its scorecards score the offline analogues of the "
             "papers' comparisons.")
    lines = [START, "", "### What reproduces", "", textwrap.fill(intro, width), "", *bullets,
             "", textwrap.fill(CLAIM_RULE, width), "", textwrap.fill(outro, width), "", END]
    return "\n".join(lines)
