"""Every measured number the README and the docs quote, written from stored benchmark output.

A block is a named piece of Markdown between two markers (:mod:`tooling.blocks`); each is
generated here from the measurements the benchmarks store beside their reports
(``benchmarks/*.json``, ``benchmarks/workflow_overhead/*``) and from nothing else, so a
quoted number always has a stored output behind it, stated with its conditions (date,
load, rounds). A number that no stored output supports is not written: the block says what
would measure it. Ratios are rounded to three significant digits, never up to a round
number: 3.61 is "3.61×", and a lower bound is rounded down.

``python docs/update_numbers.py`` rewrites every block of :data:`BLOCKS`;
``tests/test_numbers.py`` regenerates each one and compares it with the file.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
OVERHEAD = BENCHMARKS / "workflow_overhead"

__all__ = ["BLOCKS", "at_least", "generate", "times"]


def times(value: float) -> str:
    """A ratio as quoted: three significant digits, thousands grouped.

    Examples
    --------
    >>> from tooling.numbers import times
    >>> times(3.6123), times(53.41), times(13199.4), times(0.8382)
    ('3.61×', '53.4×', '13,199×', '0.838×')
    """
    if value >= 1000:
        return f"{value:,.0f}×"
    return f"{value:.3g}×"


def at_least(value: float) -> str:
    """A lower bound, rounded down to two significant digits (never up to a round number).

    Examples
    --------
    >>> from tooling.numbers import at_least
    >>> at_least(3.6123), at_least(16.98)
    ('3.6', '16')
    """
    digits = 1 - int(math.floor(math.log10(abs(value))))
    return f"{math.floor(value * 10 ** digits) / 10 ** digits:g}"


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _benchmark(module: str):
    """A benchmark's module (its rendering functions compute the numbers its tables show)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return __import__(module)


def _load(meta_or_load) -> str:
    if isinstance(meta_or_load, (list, tuple)):
        meta_or_load = meta_or_load[0]
    return f"{float(str(meta_or_load).split(',')[0]):.1f}"


# -- workflow run sizes and times ------------------------------------------------------------
def _run_record(profile: str, label: str = "after") -> dict | None:
    path = OVERHEAD / f"{profile}_{label}.json"
    return _json(path) if path.exists() else None


def _note(record: dict) -> str:
    """A run record's note, to follow its file name in parentheses ("" without one)."""
    return f"; {record['note']}" if record.get("note") else ""


def default_run() -> str:
    """The default profile's job count and time (``workflow_overhead.py run``)."""
    run = _run_record("default")
    if run is None:
        return ("Its size and run time are not measured yet "
                "(`python benchmarks/workflow_overhead.py run --profile default`).")
    # the run as a user runs it, if measured (`run --plain`): the profiler costs every job CPU
    plain = _run_record("plain", "default")
    timed, source = (plain, "plain_default.json") if plain else (run, "default_after.json")
    # the plain run's own job count where it stored one (since 2026-12-07), else the profiled
    return (f"Measured: {timed.get('jobs', run['jobs'])} jobs, {timed['wall_s']:,.0f} s "
            f"({timed['wall_s'] / 60:.1f} minutes) of wall time and {timed['cpu_s']:,.0f} CPU s "
            f"on 2 cores, from a fresh export of commit {timed['commit'][:7]} on "
            f"{timed['date'][:10]}, load average {_load(timed['loadavg_before'])} at the start "
            f"(`benchmarks/workflow_overhead/{source}`{_note(timed)}).")


def rehearsal_run() -> str:
    """The rehearsal's job count (dry run) and time (if a run is stored)."""
    counts = OVERHEAD / "rehearsal_jobs.csv"
    jobs = int(pd.read_csv(counts)["jobs"].sum()) if counts.exists() else None
    run = _run_record("rehearsal")
    size = (f"{jobs} jobs by its dry run (`benchmarks/workflow_overhead/rehearsal_jobs.csv`)"
            if jobs is not None else "its job count is not stored")
    if run is None:
        return (f"The rehearsal: {size}; its run time is not measured yet "
                "(`python benchmarks/workflow_overhead.py run --profile rehearsal`).")
    return (f"The rehearsal: {run['jobs']} jobs, {run['wall_s']:,.0f} s "
            f"({run['wall_s'] / 60:.1f} minutes) of wall time and {run['cpu_s']:,.0f} CPU s on "
            f"2 cores, from a fresh export of commit {run['commit'][:7]} on "
            f"{run['date'][:10]}, load average {_load(run['loadavg_before'])} at the start "
            f"(`benchmarks/workflow_overhead/rehearsal_after.json`{_note(run)}).")


def test_suite() -> str:
    """The test suite's time, whole and without the rehearsal (``workflow_overhead.py suite``):
    per command, the ``after`` record (the one workflow_overhead.md's Targets table reads),
    or else the newest record that is not a ``before`` run."""
    newest = {}
    for path in sorted(OVERHEAD.glob("suite_*.json")):
        run = _json(path)
        if run["label"] == "before" or newest.get(run["command"], {}).get("label") == "after":
            continue
        if run["label"] == "after" or run["date"] >= newest.get(run["command"], {}).get("date", ""):
            newest[run["command"]] = run
    lines = [f"`{command}`: {run['wall_s'] / 60:.1f} minutes of wall time on 2 cores "
             f"({run['outcome']}), commit {run['commit'][:7]} on {run['date'][:10]}, "
             f"load average {_load(run['loadavg_before'])} at the start"
             for command, run in sorted(newest.items())]
    if not lines:
        return ("The suite's run time is not measured yet (`python "
                "benchmarks/workflow_overhead.py suite`).")
    return "Measured: " + "; ".join(lines) + " (`benchmarks/workflow_overhead/suite_*.json`)."


def _default_jobs() -> pd.DataFrame:
    return pd.read_csv(OVERHEAD / "default_after.csv", keep_default_na=False)


def kernel_cca_jobs() -> str:
    """CPU seconds of the default run's kernel-CCA compute jobs."""
    jobs = _default_jobs()
    compute = jobs[jobs["rule"] == "kernel_cca_run"].sort_values("total_s", ascending=False,
                                                                 kind="stable")
    each = ", ".join(f"{json.loads(w)['kcca_setting']} {s:.1f} s"
                     for w, s in zip(compute["wildcards"], compute["total_s"]))
    run = _run_record("default")
    return (f"The {len(compute)} compute jobs took {compute['total_s'].sum():.1f} s of CPU "
            f"time in all ({each}; the default run of commit {run['commit'][:7]}, "
            "`benchmarks/workflow_overhead/default_after.csv`).")


def job_startup() -> str:
    """Start-up CPU per job and UMAP's numba compilation in the default run."""
    jobs = _default_jobs()
    jobs = jobs[jobs["rule"] != "(snakemake: DAG, scheduling)"]
    startup = jobs[["interpreter_s", "snakemake_s", "imports_s"]].sum(axis=1)
    umap = jobs[jobs["wildcards"].str.contains('"method": "umap"')
                & jobs["rule"].isin(["embedding_embed", "embedding_timing"])]
    return (f"In the default run every job paid a median {startup.median():.1f} CPU s of "
            f"interpreter, Snakemake preamble and library imports ({len(jobs)} jobs), and the "
            f"first UMAP job {umap['numba_s'].max():.0f} s of numba compilation, which later "
            f"UMAP jobs load from numba's cache instead (median {umap['numba_s'].median():.1f} s; "
            "`benchmarks/workflow_overhead/default_after.csv`).")


# -- speed and memory against peers ----------------------------------------------------------
def _wmd_rows() -> list[dict]:
    runs = [_json(p) for p in sorted(BENCHMARKS.glob("sms_wmd_*.json"))]
    evals = [r["evaluations"]["whole"] / r["evaluations"]["sms"] for r in runs]
    secs = [r["seconds"]["whole"] / r["seconds"]["sms"] for r in runs]
    errors = [r["relative_error"] for r in runs]
    oracle = [r["seconds"][peer] / r["seconds"][ours] for r in runs
              for ours, peer in (("serial", "plain"), ("parallel", "plain_parallel"))]
    loads = [r["meta"]["load_average"] for r in runs]
    when = (f"one run each on {' and '.join(r['dataset'] for r in runs)}, median of "
            f"{runs[0]['rounds']} alternated rounds, load "
            f"{min(loads):.1f}–{max(loads):.1f}")
    return [
        {"comparison": "SMS-Nyström at s/n = 0.1 vs the full WMD kernel matrix",
         "result": f"{min(evals):.2f}–{max(evals):.2f}× fewer evaluations, "
                   f"{min(secs):.2f}–{max(secs):.2f}× less time, relative error "
                   f"{min(errors):.4g}–{max(errors):.4g}",
         "measured": when, "table": "`sms_wmd_*.md`"},
        {"comparison": "WMD oracle vs a plain `ot.emd2` double loop, same pairs",
         "result": f"{min(oracle):.2f}–{max(oracle):.2f}× faster (1 or 2 processes each)",
         "measured": when, "table": "`sms_wmd_*.md`"},
    ]


def _appgrad_rows() -> list[dict]:
    stored = _json(BENCHMARKS / "cca_appgrad.json")
    module = _benchmark("cca_appgrad")
    rows = []
    part = stored.get("part1")
    if part and "fits" in part:
        summary = module.part1_summary(part).set_index("method")
        fixed = summary.loc[module.PART1_METHODS["appgrad_fixed"].format(
            max_iter=part["max_iter"])]
        stop = summary.loc[module.PART1_METHODS["appgrad_stop"]]
        loads = part["load_after_round"]
        rows.append({
            "comparison": f"AppGrad as run (n = {part['n']:,}, p = {part['p']}/{part['p']}) vs "
                          "exact CCA, CPU time",
            "result": f"exact's CPU time over AppGrad's: {times(fixed['exact / this, CPU s'])} "
                      f"with the configured {part['max_iter']} iterations (PCC_in "
                      f"{fixed['PCC_in']:.4f}), {times(stop['exact / this, CPU s'])} with "
                      f"early stopping (PCC_in {stop['PCC_in']:.4f}); below 1: AppGrad is slower",
            "measured": f"median of {part['rounds']} alternated rounds, 1 thread, load "
                        f"{min(loads):.1f}–{max(loads):.1f}, {part['meta']['date'][:10]}",
            "table": "`cca_appgrad.md`"})
    two = stored.get("part2")
    if two:
        hand = next(r for r in two["stochastic"] if r["step"] != "auto")
        auto = next(r for r in two["stochastic"] if r["step"] == "auto")
        rows.append({
            "comparison": "stochastic vs batch AppGrad, FLOPs (the authors' formulas) to PCC 0.95",
            "result": f"{times(two['batch_flops'] / hand['flops'])} fewer with the hand-picked "
                      f"step {hand['step']:g}"
                      + ("" if auto["flops"] else
                         f" (the 'auto' step does not reach it in {two['stochastic_iter']:,} "
                         "iterations)"),
            "measured": "one run; FLOPs do not depend on the load",
            "table": "`cca_appgrad.md`"})
    three = stored.get("part3")
    if three:
        peaks = {r["method"]: r["peak_bytes"] for r in three["runs"]}
        batch = next(v for k, v in peaks.items() if k.startswith("AppGrad (batch"))
        stochastic = next(v for k, v in peaks.items() if k.startswith("AppGrad (stochastic"))
        rows.append({
            "comparison": f"AppGrad vs exact CCA, peak memory at p = {three['p']:,} per view, "
                          "sparse",
            "result": f"{times(peaks['exact CCA'] / batch)} less (stochastic: "
                      f"{times(peaks['exact CCA'] / stochastic)})",
            "measured": "one run (tracemalloc); memory does not depend on the load",
            "table": "`cca_appgrad.md`"})
    return rows


def _todays_solver(context: dict) -> bool:
    """Whether a vec2vec record ran the co-occurrence solver at today's defaults."""
    from lowdim.embedding.cooccurrence import UPDATES_PER_NODE
    from lowdim.embedding.vec2vec import Vec2Vec

    return (context.get("updates_per_node") == UPDATES_PER_NODE
            and context.get("init") == Vec2Vec().init)


def _span(values, spec: str = ".1f") -> str:
    low, high = min(values), max(values)
    return f"{low:{spec}}" if f"{low:{spec}}" == f"{high:{spec}}" else f"{low:{spec}}–{high:{spec}}"


#: The peers' names as the speed table writes them.
_PEER_NAMES = {"umap": "UMAP", "pacmap": "PaCMAP"}


def _vec2vec_peer_rows(stored: dict, report, n: int = 20000) -> list[dict]:
    """One row per (threads, seeding) at ``n`` points, d = 10: Vec2vec's time over UMAP's
    and PaCMAP's on the data run at that size (images and blobs at 20,000; the real MNIST
    digits at 5,000), with the fits' load and CPU / wall, and the peers table's target cell
    (each side tested beyond its noise) per data set."""
    today = {k: e for k, e in stored.items() if k.startswith("peers/") and e["n"] == n
             and _todays_solver(e["context"])}
    frame = report._peer_frame(today)
    if frame.empty:
        return []
    summary = report.peer_summary(frame)
    ratios = report._ratios(summary).query("d == 10")
    rows = []
    for (threads, seeding), group in ratios.groupby(["threads", "seeding"], sort=True):
        group = group.set_index("data").sort_index(ascending=False)  # images, then blobs
        fits = summary[(summary["threads"] == threads) & (summary["seeding"] == seeding)
                       & (summary["d"] == 10) & summary["seconds"].notna()]
        peers = [f"{' / '.join(times(v) for v in group[f'/ {p} time'])} {name}'s time"
                 for p, name in _PEER_NAMES.items()
                 if f"/ {p} time" in group]
        knn = " / ".join(f"{100 * v:+.1f}" for v in group["kNN − umap"])
        target = "; ".join(f"{data} [{cell}]" for data, cell in group[report.GOAL].items())
        rows.append({
            "comparison": f"Vec2vec (co-occurrence) vs UMAP and PaCMAP, {n:,} points, d = 10, "
                          f"{threads} thread{'s' if threads > 1 else ''}, {seeding} "
                          f"({' / '.join(group.index)})",
            "result": f"{', '.join(peers)} (goal: at most 1.0×); kNN accuracy {knn} points "
                      f"against UMAP's; target, tested (less time, higher kNN than both): "
                      f"{target}",
            "measured": f"median of alternated rounds, load {_span(fits['load'])}, CPU / wall "
                        f"{_span(fits['cpu_per_wall'], '.2f')}",
            "table": "`vec2vec_vs_umap.md`"})
    return rows


#: How the speed table words a verdict of ``vec2vec_report.same_metric_versus``.
_BRIEF = {"Vec2vec ahead": "ahead", "Vec2vec behind": "behind", "within noise": "within noise"}


def _same_metric_row(stored: dict, report) -> list[dict]:
    """One row for every ``same_metric`` case at today's solver: Vec2vec's kNN against UMAP's
    and PaCMAP's with each method given the same metric, per data set, each tested on the
    paired folds."""
    # the larger cases first, and images before fashion before blobs, as the peers rows
    entries = sorted((e for k, e in stored.items() if k.startswith("same_metric/")
                      and _todays_solver(e["context"])), key=lambda e: (e["n"], e["data"]),
                     reverse=True)
    if not entries:
        return []
    versus = pd.concat([report.same_metric_versus(e).assign(data=e["data"]) for e in entries])
    parts = []
    for (peer, metric), group in versus.groupby(["peer", "metric"], sort=False):
        points = " / ".join(f"{round(v, 1) + 0.0:+.1f}"  # + 0.0: no "-0.0"
                            for v in group["Vec2vec − peer (points)"])
        tested = " / ".join(_BRIEF[v] for v in group["tested"])
        parts.append(f"{_PEER_NAMES.get(peer, peer)}, {metric}: {points} points [{tested}]")
    sizes = " / ".join(f"{e['data']} {e['n']:,}" for e in entries)
    seeds = {len({r["seed"] for r in e["rows"]}) for e in entries}
    threads = _span([e["context"]["threads"] for e in entries], ".0f")
    return [{
        "comparison": f"Vec2vec (co-occurrence) vs UMAP and PaCMAP, each given the same "
                      f"neighbour metric, d = 10, {threads} thread"
                      f"{'' if threads == '1' else 's'}, seeded ({sizes})",
        "result": "kNN accuracy against the peer's, tested on the paired folds: "
                  + "; ".join(parts),
        "measured": f"{_span(sorted(seeds), '.0f')} seeds, 4 folds each, load "
                    f"{_span([e['context']['load_average'] for e in entries])}",
        "table": "`vec2vec_vs_umap.md`"}]


def _vec2vec_rows() -> tuple[list[dict], list[str]]:
    stored = _json(BENCHMARKS / "vec2vec_vs_umap.json")
    report = _benchmark("vec2vec_report")
    rows, left_out = _vec2vec_peer_rows(stored, report) + _vec2vec_peer_rows(
        stored, report, n=5000), []
    for key in sorted(k for k in stored if k.startswith("scale/")):
        entry = stored[key]
        seconds = {r["method"]: r for r in entry["rows"]}
        ours, umap = seconds.get("vec2vec (co-occurrence)"), seconds.get("umap")
        if not _todays_solver(entry["context"]):
            left_out.append(f"the {entry['n']:,}-point case of `vec2vec_vs_umap.json`: it ran the "
                            f"former solver ({entry['context'].get('updates_per_node', '?'):,} "
                            "updates per node from a random start)")
        elif ours and umap:
            rows.append({
                "comparison": f"the same at {entry['n']:,} {entry.get('data', 'blobs')}, "
                              f"{entry['context']['threads']} threads, "
                              f"{'seeded' if entry.get('seeded', True) else 'unseeded'}",
                "result": f"{times(ours['seconds'] / umap['seconds'])} UMAP's time, "
                          f"{ours['peak_gib']:.2f} GiB peak against {umap['peak_gib']:.2f} GiB",
                "measured": f"one run each, load {entry['context']['load_average']}"
                            + (f"; {entry['context']['note']}" if entry["context"].get("note")
                               else ""),
                "table": "`vec2vec_vs_umap.md`"})
    sparse = stored.get("sparse")
    if sparse and _todays_solver(sparse["context"]):
        frame = pd.DataFrame(sparse["rows"]).groupby("method", sort=False)["seconds"].median()
        ours = frame["vec2vec (co-occurrence), knn='auto'"]  # the default search: a user's
        rows.append({
            "comparison": f"Vec2vec (co-occurrence) vs UMAP at D = {sparse['D']:,}, the same "
                          "sparse matrix",
            "result": f"UMAP's time over Vec2vec's: {times(frame['umap'] / ours)} (goal: 3×)",
            "measured": f"median of alternated rounds, load {sparse['context']['load_average']}",
            "table": "`vec2vec_vs_umap.md`"})
    elif sparse:
        left_out.append(f"the D = {sparse['D']:,} sparse case of `vec2vec_vs_umap.json`: its "
                        "record does not state the co-occurrence solver's updates per node and "
                        "start as today's")
    return rows + _same_metric_row(stored, report), left_out


def _kernel_cca_rows() -> list[dict]:
    stored = _json(BENCHMARKS / "kernel_cca.json")
    module = _benchmark("kernel_cca")
    large, meta = stored["large"], stored["meta"]
    ratios = module.ratios_frame(module.choices(stored["rows"], meta["gain"]), meta["gain"])
    largest = ratios.loc[ratios["n"].idxmax()]
    rule = module._rule(meta["gain"])
    s_column = f"s by the own rule ({rule})"  # kernel_cca.ratios_frame's column
    ours, exact = large["ours"], large["exact"]
    searched = sum(r["cpu"] for r in large["search"])
    gib = large["n"] ** 2 * 8 / 2 ** 30
    when = f"one run, 1 thread, CPU time, load {_load(meta['load'])}"
    return [
        {"comparison": f"KernelCCA (Nyström + AppGrad) vs exact kernel CCA, n = "
                       f"{int(largest['n']):,} measured, at the s of KernelCCA's own rule "
                       f"({rule}: s = {int(largest[s_column])})",
         "result": f"held-out TCC {largest['TCC ours / exact (test)']:.3f} of exact's; "
                   f"{times(largest['CPU exact / ours'])} less CPU time "
                   f"({times(largest['CPU exact / ours, every fit the rule read'])} counting "
                   f"every fit the rule read), {times(largest['memory exact / ours'])} less "
                   f"memory, {times(largest['evaluations exact / ours'])} fewer evaluations",
         "measured": when, "table": "`kernel_cca.md`"},
        {"comparison": f"the same at n = {large['n']:,} (exact extrapolated: two {gib:.1f} GiB "
                       f"matrices; s = {large['s']} by the rule)",
         "result": f"{times(exact['cpu_fit'] / ours['cpu'])}–"
                   f"{times(exact['cpu_cubic'] / ours['cpu'])} less CPU time "
                   f"({times(exact['cpu_fit'] / searched)}–"
                   f"{times(exact['cpu_cubic'] / searched)} counting every fit the rule "
                   f"read), {times(exact['peak'] / ours['peak'])} less memory, "
                   f"{times(exact['evaluations'] / ours['evaluations'])} fewer evaluations",
         "measured": when, "table": "`kernel_cca.md`"},
    ]


def speed_table() -> str:
    """The speed and memory table of ``docs/speed.md``."""
    vec2vec, left_out = _vec2vec_rows()
    rows = _wmd_rows() + _appgrad_rows() + vec2vec + _kernel_cca_rows()
    text = pd.DataFrame(rows).to_markdown(index=False)
    if left_out:
        text += "\n\nLeft out, as no stored record supports it as today's: " + "; ".join(
            left_out) + "."
    return text


#: file (relative to the repository) -> the blocks it holds, each generated by a function.
BLOCKS = {
    "README.md": {"default-run": default_run, "test-suite": test_suite},
    "docs/rehearsal.md": {"rehearsal-run": rehearsal_run},
    "docs/speed.md": {"speed-table": speed_table},
    "config/README.md": {"rehearsal-run": rehearsal_run, "kernel-cca-jobs": kernel_cca_jobs,
                         "job-startup": job_startup},
}


def generate(name: str) -> str:
    """The text of block ``name`` from the stored measurements."""
    for functions in BLOCKS.values():
        if name in functions:
            return functions[name]()
    raise KeyError(f"no block {name!r}; blocks: {sorted({n for f in BLOCKS.values() for n in f})}")
