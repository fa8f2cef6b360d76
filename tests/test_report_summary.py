"""Run summary: stage times from benchmark files, and savings against exact methods."""

import numpy as np
import pandas as pd

from lowdim.report.summary import cca_savings, similarity_savings, stage_times, to_rst_table

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
    trace = pd.DataFrame({"dataset": "d", "method": "appgrad", "iteration": [1, 2, 3],
                          "flops": [10.0, 20.0, 30.0], "pcc_in": [0.5, 0.96, 0.999]})
    exact = pd.DataFrame({"dataset": ["d"], "flops": [100.0]})
    table = cca_savings(trace, exact, targets=(0.95, 0.99, 0.9999))
    np.testing.assert_allclose(table["FLOPs to target"].to_numpy()[:2], [20.0, 30.0])
    np.testing.assert_allclose(table["exact / AppGrad"].to_numpy()[:2], [5.0, 100 / 30])
    assert np.isnan(table["FLOPs to target"].iloc[2])


def test_rst_table_is_a_grid_with_one_row_per_record():
    text = to_rst_table(pd.DataFrame({"a": [1, 2], "b": [0.5, np.nan]}))
    lines = text.strip().splitlines()
    assert lines[0].startswith("+-") and lines[2].startswith("+=") and len(lines) == 7
    assert "–" in text
