"""The report_scorecard rule and its script together: each paper's scorecard goes to the
files named after that paper, whatever order the rule's params and outputs come in.

The script runs as its job would, with the params and outputs the parsed rule gives it
(tests/fixtures/rule_script.py), on an empty results tree: every entry reads "not run".
"""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from fixtures.workflow import TINY

from lowdim.report.render import SCORECARD_FILES

ROOT = Path(__file__).resolve().parents[1]
HELPER = ROOT / "tests" / "fixtures" / "rule_script.py"


@pytest.fixture(scope="module")
def report_tables(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("scorecard")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, str(HELPER), "report_scorecard", str(workdir),
                             str(TINY)], capture_output=True, text=True, cwd=workdir, env=env)
    assert result.returncode == 0, result.stderr[-4000:]
    return workdir / "results" / "tables" / "report"


@pytest.mark.parametrize("paper, stem", SCORECARD_FILES.items(), ids=SCORECARD_FILES.values())
def test_each_scorecard_file_holds_its_own_papers_entries(report_tables, paper, stem):
    caption = (report_tables / f"scorecard_{stem}.md").read_text().splitlines()[0]
    assert caption.startswith(f"Scorecard, {paper} ("), caption
    card = pd.read_csv(report_tables / f"scorecard_{stem}.csv")
    assert len(card) > 0 and card["paper"].eq(paper).all()


def test_the_papers_are_not_in_sorted_order():
    # The rule's params reach the script with their keys sorted (sorted_params in
    # workflow/rules/common.smk): a pairing by position would show here.
    assert list(SCORECARD_FILES) != sorted(SCORECARD_FILES)
