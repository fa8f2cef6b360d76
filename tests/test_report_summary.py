"""Run summary: stage times from benchmark files, savings against exact methods, the
front page's text and the Overview's tables."""

from html.parser import HTMLParser

import numpy as np
import pandas as pd

from lowdim.report.render import overview_html, summary_rst
from lowdim.report.scorecard import VERDICTS
from lowdim.report.summary import cca_savings, similarity_savings, stage_times

BENCH_HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def _bench(path, seconds, rss, cpu):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BENCH_HEADER + f"{seconds}\t0:00:01\t{rss}\t1\t1\t1\t0\t0\t50\t{cpu}\n")


def test_stage_times_sums_jobs_per_rule(tmp_path):
    _bench(tmp_path / "cca_appgrad" / "a" / "appgrad.tsv", 10.0, 100.0, 9.0)
    _bench(tmp_path / "cca_appgrad" / "b" / "sappgrad.tsv", 5.0, 300.0, 4.0)
    _bench(tmp_path / "prepare" / "digits.tsv", 1.5, 50.0, 1.0)
    table = stage_times(tmp_path).set_index("rule")
    assert table.loc["cca_appgrad", "jobs"] == 2
    np.testing.assert_allclose(table.loc["cca_appgrad", "wall time (s)"], 15.0)
    np.testing.assert_allclose(table.loc["cca_appgrad", "longest job (s)"], 10.0)
    np.testing.assert_allclose(table.loc["cca_appgrad", "peak memory (MB)"], 300.0)
    assert table.loc["cca_appgrad", "part"] == "AppGrad CCA" and table.loc["prepare", "part"] == "Data"


def test_stage_times_of_nothing_is_an_empty_table(tmp_path):
    assert stage_times(tmp_path).empty


def test_similarity_savings_picks_the_closest_fraction():
    errors = pd.DataFrame({"matrix": "m", "method": "sms_nystrom", "s/n": [0.05, 0.1, 0.1, 0.2],
                           "evaluations": [50, 100, 100, 200], "error": [0.5, 0.2, 0.4, 0.1]})
    matrices = pd.DataFrame({"matrix": ["m"], "evaluations": [1000]})
    row = similarity_savings(errors, matrices, fraction=0.11).iloc[0]
    assert row["s/n"] == 0.1 and row["evaluations"] == 100
    np.testing.assert_allclose(row["fraction of full"], 0.1)
    np.testing.assert_allclose(row["median relative error"], 0.3)


def test_cca_savings_reports_first_iteration_reaching_target():
    # the ratio sets the FLOPs AppGrad performed against exact CCA's, both counted by the
    # code; the paper's formulas (a data matrix as n·p per use) stand beside them
    trace = pd.DataFrame({"dataset": "d", "method": "appgrad", "iteration": [1, 2, 3],
                          "flops": [10.0, 20.0, 30.0], "flops_performed": [4.0, 8.0, 12.0],
                          "pcc_in": [0.5, 0.96, 0.999]})
    exact = pd.DataFrame({"dataset": ["d"], "flops": [100.0]})
    table = cca_savings(trace, exact, targets=(0.95, 0.99, 0.9999))
    np.testing.assert_allclose(table["first checkpoint reaching it"].to_numpy()[:2], [2, 3])
    np.testing.assert_allclose(table["FLOPs performed"].to_numpy()[:2], [8.0, 12.0])
    np.testing.assert_allclose(table["FLOPs (paper's formulas)"].to_numpy()[:2], [20.0, 30.0])
    np.testing.assert_allclose(table["exact / AppGrad (performed)"].to_numpy()[:2],
                               [100 / 8, 100 / 12])
    assert table.iloc[2][["first checkpoint reaching it", "FLOPs performed"]].isna().all()


class _Tables(HTMLParser):
    """The cell texts of every table of an HTML page: [table][row][cell]."""

    def __init__(self, page):
        super().__init__()
        self.tables, self._cell = [], None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self._cell)
            self._cell = None


def test_overview_shows_each_summary_as_a_table():
    stages = pd.DataFrame({"part": ["Data", "AppGrad CCA"], "rule": ["prepare", "cca_appgrad"],
                           "jobs": [2, 3], "wall time (s)": [3.5, 10.25]})
    card = pd.DataFrame({"paper": ["B", "A", "B"], "verdict": ["reproduced", "not run", "differs"]})
    cca = pd.DataFrame({"dataset": ["d"], "method": ["appgrad"], "target PCC (%)": [95.0],
                        "FLOPs to target": [np.nan]})
    tables = _Tables(overview_html("offline", stages, card, pd.DataFrame(), cca)).tables
    assert len(tables) == 3  # scorecard, stages, FLOPs; no similarity part ran
    assert tables[0] == [["paper", *VERDICTS], ["B", "1", "0", "0", "1", "0", "0", "0", "0"],
                         ["A", "0", "0", "0", "0", "0", "0", "0", "1"]]
    assert tables[1][2] == ["AppGrad CCA", "cca_appgrad", "3", "10.25"]
    assert tables[2][1][-1] == "–"  # a target never reached


def test_overview_writes_counts_in_full_and_fractions_without_exponents():
    stages = pd.DataFrame({"part": ["SMS-Nyström"], "rule": ["similarity_matrix"], "jobs": [12],
                           "wall time (s)": [12345.67]})
    card = pd.DataFrame({"paper": ["A"], "verdict": ["reproduced"]})
    similarity = pd.DataFrame({"matrix": ["wmd_bbcsport"], "method": ["nystrom"], "s/n": [0.1],
                               "evaluations": [54389], "full matrix evaluations": [271953],
                               "fraction of full": [0.2], "median relative error": [0.000123]})
    cca = pd.DataFrame({"dataset": ["d", "d"], "method": "appgrad", "target PCC (%)": [95.0, 99.0],
                        "FLOPs to target": [12345678.0, np.nan], "exact / AppGrad": [1234.56, 0.5]})
    tables = _Tables(overview_html("paper", stages, card, similarity, cca)).tables
    assert tables[1][1][2:] == ["12", "12,346"]
    assert tables[2][1][2:] == ["0.1", "54,389", "271,953", "0.2", "0.000123"]
    # integer-valued float columns (FLOPs, targets) read as counts; other floats keep 4 digits
    assert tables[3][1][2:] == ["95", "12,345,678", "1,235"]
    assert tables[3][2][2:] == ["99", "–", "0.5"]


def test_front_page_summary_is_text_only():
    stages = pd.DataFrame({"wall time (s)": [3.5, 10.25]})
    card = pd.DataFrame({"paper": ["A", "A"], "verdict": ["reproduced", "not run"]})
    text = summary_rst({"cca": True, "embedding": False}, ["digits"], stages, card)
    assert "parts cca; datasets digits" in text and "took 14 s" in text
    assert "published numbers:** 1 reproduced, 1 not run." in text and "Overview_" in text
    replica = pd.DataFrame({"paper": "A", "verdict": ["ran on replica", "not computed"]})
    assert "published numbers:** 1 ran on replica, 1 not computed." in summary_rst(
        {"cca": True}, ["mnist"], stages, replica)
    assert "|" not in text and "+--" not in text  # no table beside the rule graph


def test_cca_savings_reads_each_seed_and_says_how_many_reach_the_target():
    # three seeds reach 95 % at iterations 10, 100 and 100; only seed 2 reaches 99 %
    trace = pd.DataFrame({"dataset": "d", "method": "sappgrad", "seed": np.repeat([0, 1, 2], 3),
                          "iteration": [10, 100, 1000] * 3, "flops": [1e6, 1e7, 1e8] * 3,
                          "flops_performed": [1e5, 1e6, 1e7] * 3,
                          "pcc_in": [0.96, 0.97, 0.98, 0.90, 0.95, 0.97, 0.90, 0.96, 0.995]})
    table = cca_savings(trace, pd.DataFrame({"dataset": ["d"], "flops": [4e6]}))
    at95, at99 = table.iloc[0], table.iloc[1]
    assert at95["seeds reaching it"] == "3 of 3" and at95["first checkpoint reaching it"] == 100
    assert at95["FLOPs performed"] == 1e6 and at95["exact / AppGrad (performed)"] == 4.0
    assert at99["seeds reaching it"] == "1 of 3" and at99["FLOPs performed"] == 1e7
