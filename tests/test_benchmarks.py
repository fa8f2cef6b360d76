"""The benchmark scripts still run against the library (small sizes; no timing is asserted)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(script, *args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                            capture_output=True, text=True, env=env, cwd=cwd)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_cca_benchmark_reports_every_ratio(tmp_path):
    out = _run("cca_appgrad.py", "--quick", cwd=tmp_path)
    for line in ("over exact CCA", "fewer than batch", "x the memory"):
        assert line in out, out


def test_sms_wmd_benchmark_writes_its_table(tmp_path):
    table = tmp_path / "wmd.md"
    out = _run("sms_wmd.py", "--n", "30", "--jobs", "1", "--block", "5", "10", "--out",
               str(table), cwd=tmp_path)
    text = table.read_text()
    assert text.strip() in out
    ours, whole = re.search(r"evaluations: .* \| ([\d,]+) \| ([\d,]+) \|", text).groups()
    assert whole == "465" and int(ours) < 465 // 3  # 30 * 31 / 2 pairs; SMS needs O(ns)
    difference = float(re.search(r"plain loop's WMD on the 50 pairs: (\S+)\.", text).group(1))
    assert difference < 1e-6  # the oracle computes the same distances as ot.emd2


def test_sms_wmd_benchmark_rejects_a_block_larger_than_the_run(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "sms_wmd.py"), "--n",
                             "20", "--jobs", "1", "--out", str(tmp_path / "x.md")],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 2 and "--block 20 40 needs 60 documents" in result.stderr
    assert not (tmp_path / "x.md").exists()


@pytest.mark.parametrize("script", ["sms_tasks.py"])
def test_sms_tasks_benchmark_runs(tmp_path, script):
    out = _run(script, "--repeats", "1", "--out", str(tmp_path / "tasks.md"), cwd=tmp_path)
    assert "ratio (peer / ours)" in out


def test_cca_scale_benchmark_runs_each_method_in_its_own_process(tmp_path):
    results, table = tmp_path / "scale.json", tmp_path / "scale.md"
    # three methods, not all: each worker is a fresh interpreter (cca-zoo's import alone is
    # slow), and the report code is the same for every method
    _run("cca_scale.py", "--case", "smoke", "--methods", "exact", "sappgrad", "nw_cca",
         "--results", str(results), "--out", str(table), cwd=tmp_path)
    text = table.read_text()
    for method in ("exact CCA", "AppGrad (stochastic)", "NW-CCA"):
        assert re.search(rf"\| {re.escape(method)}[^|]* \| ok \|", text), method
    assert "## mnist392: not run yet" in text
    peaks = re.findall(r"\| (\d+\.\d\d) GiB \| [\d,]+ MiB \|", text)
    assert len(peaks) == 3  # every method measured in its own process


def test_continued_stochastic_appgrad_repeats_the_paper_iterations_then_sets_the_verdict():
    # sappgrad_long is the URL case's equal-FLOPs run: it must pass through the same iterates
    # as the paper's iteration count, and the equal-FLOPs verdict must read its trace
    sys.path[:0] = [str(ROOT / "benchmarks")]
    try:
        import cca_scale
        from cca_scale_methods import run_method
        from cca_scale_report import _equal_flops_verdicts
    finally:
        del sys.path[0]
    case = {**cca_scale.SMOKE, "threads": 1, "sappgrad_long_iter": 900, "n_checkpoints_long": 4}
    views = cca_scale.make_views(case)
    short, longer = (run_method(views, case, m) for m in ("sappgrad", "sappgrad_long"))
    at = longer["trace"]["iteration"].index(case["sappgrad_iter"])
    assert longer["trace"]["iteration"][-1] == 900
    for key in ("tcc_in", "tcc_out", "flops"):
        assert longer["trace"][key][at] == short[key], key
    # a heuristic that spends exactly the long run's FLOPs is compared with its last iterate
    results = {"sappgrad": short, "sappgrad_long": longer, "nw_cca": {
        "status": "ok", "flops": longer["flops"], "tcc_out": 0.0, "tcc_in": 0.0}}
    (method, ours, tcc, theirs, _), = _equal_flops_verdicts(results, "tcc_out")
    assert (method, ours, tcc, theirs) == ("nw_cca", "sappgrad", longer["tcc_out"], 0.0)


def test_kernel_cca_benchmark_writes_its_ratios(tmp_path):
    table = tmp_path / "kernel_cca.md"
    out = _run("kernel_cca.py", "--quick", "--out", str(table), cwd=tmp_path)
    text = table.read_text()
    assert text.strip() in out
    for line in ("Ratios at equal held-out correlation", "exact kernel CCA (extrapolated)",
                 "2,000 training + 200 held-out rows"):
        assert line in text, text
    # Exact kernel CCA's evaluations are counted, not estimated: n (n + 1) / 2 + q n per view.
    assert f"{2 * (2000 * 2001 // 2 + 200 * 2000):,} (counted)" in text


def test_vec2vec_benchmark_writes_its_tables_from_its_measurements(tmp_path):
    results, report = tmp_path / "v.json", tmp_path / "v.md"
    _run("vec2vec_vs_umap.py", "--case", "peers", "--quick", "--dims", "2,10", "--repeats", "2",
         "--skip", "pacmap,trimap,pymde", "--results", str(results), "--out", str(report),
         cwd=tmp_path)
    text = report.read_text()
    rows = re.findall(r"^\| images \|\s+600 \|\s+1 \|\s+(\d+) \| (\S[^|]*?)\s+\|"
                      r"\s+([\d.]+) \|\s+2 \|", text, re.MULTILINE)
    assert {(d, m) for d, m, _ in rows} == {(d, m) for d in ("2", "10") for m in
                                             ("umap", "vec2vec (co-occurrence)")} | {
        ("2", "opentsne")}  # two repeats each; openTSNE only at d = 2 ...
    assert re.search(r"\|\s+10 \| opentsne\s+\| openTSNE's FFT", text)  # ... n/a, with why, at 10
    # the .md is rebuilt from the stored measurements alone, keeping the hand-written part
    marker = "<!-- interpretation: written by hand, kept when the benchmark rewrites this file -->"
    report.write_text(text.replace(marker, marker + "\n\nRead by hand."))
    _run("vec2vec_vs_umap.py", "--case", "report", "--results", str(results), "--out",
         str(report), cwd=tmp_path)
    rebuilt = report.read_text()
    assert "Read by hand." in rebuilt and rebuilt.split("-->")[-1] == text.split("-->")[-1]


def test_committed_vec2vec_report_is_what_its_measurements_give(tmp_path):
    sys.path[:0] = [str(ROOT / "benchmarks")]
    try:
        import vec2vec_report
        from _report import generated_part, read_json
    finally:
        del sys.path[0]
    committed = ROOT / "benchmarks" / "vec2vec_vs_umap.md"
    copy = tmp_path / "v.md"
    copy.write_text(committed.read_text())
    generated = vec2vec_report.write(read_json(ROOT / "benchmarks" / "vec2vec_vs_umap.json"), copy)
    assert generated == generated_part(committed)
