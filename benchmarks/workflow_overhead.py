"""Where a workflow run's CPU goes, job by job: start-up, numba compilation, or the work.

    python benchmarks/workflow_overhead.py run --profile default --label after
    python benchmarks/workflow_overhead.py run --profile rehearsal --label before --rev 71a27ea
    python benchmarks/workflow_overhead.py run --profile default --plain  # unprofiled: Targets
    python benchmarks/workflow_overhead.py jobs --profile rehearsal  # job counts (dry run)
    python benchmarks/workflow_overhead.py suite --label after    # pytest -m "not rehearsal", timed
    python benchmarks/workflow_overhead.py suite --label full --marker ""   # the whole suite
    python benchmarks/workflow_overhead.py ci --label after   # .ci/run on a fresh clone, timed
    python benchmarks/workflow_overhead.py report      # rewrite workflow_overhead.md only

``run`` exports the commit ``--rev`` (default ``HEAD``) with ``git archive`` into a fresh
directory, as a fresh clone would be (no ``results/``, no ``.snakemake/``, no numba cache
of the workflow), runs ``snakemake --cores 2`` there (``--configfile config/rehearsal.yaml``
for the rehearsal) and times the whole command. Every Python process of the run loads
``benchmarks/job_profile/sitecustomize.py`` (put first on ``PYTHONPATH``), which writes
per process, at exit: the interpreter's start-up CPU, the CPU of its outermost imports per
package, the CPU spent under numba's compiler lock (compiling, loading and saving numba's
cache) and its total CPU. ``run`` turns those into one row per job in
``benchmarks/workflow_overhead/<profile>_<label>.csv`` (plus a ``.json`` with the whole
command's wall and CPU seconds), then rewrites ``benchmarks/workflow_overhead.md`` from
every CSV there: ``before`` and ``after`` side by side.

``run --plain`` runs the same command without the profiler, as a user runs it, into
``plain_<profile>.json``: the Targets table's wall time when there is one (the issue's
target is the user's command; the bound column stays the profiled run's, which alone has
the per-job records).

The README's and the docs' run sizes and times are written from these records and the
``suite`` records below (``docs/update_numbers.py``), never typed by hand.

``jobs`` counts a profile's jobs per rule with a dry run (seconds, not the run's minutes)
into ``<profile>_jobs.csv``. For a profile counted but not run, the .md estimates its
jobs' start-up and numba CPU: job count times the CPU per job of the same rule measured
in the default run, before and after. Start-up does not depend on the data; numba's
part does on which methods a rule's jobs run, so that part of the estimate assumes the
default run's mix.

Each job's CPU is split into

- start-up: the interpreter, Snakemake's script preamble (``import snakemake`` to unpickle
  the job's ``snakemake`` object), and the libraries the job imports (numba work during an
  import counted under numba instead);
- numba: compiling (or loading from numba's on-disk cache) JIT functions;
- work: everything else the job's process and its child processes spent.

``suite`` exports the commit the same way and runs the quick test loop there,
``pytest -m "not rehearsal" --durations=60`` with ``benchmarks/suite_cpu.py`` as a plugin
(``--marker ""`` for the whole suite). It stores the whole command's wall time and load
average in ``suite_<label>.json``, pytest's slowest test phases in
``suite_<label>_durations.csv`` and the CPU seconds per test module in
``suite_<label>_modules.csv``; ``--from-log LOG --cpu-csv CSV`` stores a run made by hand
instead (``LOG`` is what that pytest printed). The .md's "Test suite" section is written
from those files.

``ci`` clones this repository into a fresh directory, checks out ``--rev`` and runs
``bash .ci/run`` there (its new virtual environment inside the scratch directory), timed
as a whole: wall and CPU seconds, exit status and pytest's last line, in
``ci_<label>.json``.

The .md's Targets table reads issue 34's four targets against the ``after`` records: the
default run, the rehearsal, the quick loop and ``.ci/run``.

CPU seconds, not wall seconds, are the measure: on a 2-core machine shared with other
work, a job's wall time says as much about its neighbours as about the job. The .md
records the load average around each run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import tomllib
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT_DIR = HERE / "workflow_overhead"
REPORT = HERE / "workflow_overhead.md"
PROFILER = HERE / "job_profile"
CONFIGS = {"default": [], "rehearsal": ["--configfile", "config/rehearsal.yaml"]}
# issue 34's targets for the whole command on a fresh clone, 2 cores (seconds)
TARGETS_S = {"default": 240, "rehearsal": 420}
PARTS = ["interpreter_s", "snakemake_s", "imports_s", "numba_s", "work_s"]
PART_NAMES = {"interpreter_s": "interpreter", "snakemake_s": "Snakemake preamble",
              "imports_s": "library imports", "numba_s": "numba", "work_s": "work"}


def full_commit(rev: str) -> str:
    """The full hash of commit ``rev`` of this repository."""
    return subprocess.run(["git", "rev-parse", rev], cwd=REPO, check=True,
                          capture_output=True, text=True).stdout.strip()


def export_tree(rev: str, into: Path) -> str:
    """Write the files of commit ``rev`` to ``into``; return the full commit hash."""
    commit = full_commit(rev)
    archive = subprocess.run(["git", "archive", commit], cwd=REPO, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return commit


def run_workflow(tree: Path, profile: str, records: Path | None, log: Path) -> dict:
    """Run the workflow in ``tree``; return its wall and CPU seconds and exit status. With
    ``records`` every Python process of the run writes its CPU split there (the profiler);
    without, the command runs as a user runs it."""
    env = dict(os.environ)
    if records is not None:
        env.update(LOWDIM_JOB_PROFILE=str(records),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(PROFILER),
                                                            os.environ.get("PYTHONPATH")])))
    return timed_command(["snakemake", "--cores", "2", *CONFIGS[profile]], tree, env, log)


def timed_command(command: list, tree: Path, env: dict, log: Path) -> dict:
    """Run ``command`` in ``tree``; its wall and CPU seconds (children included), exit
    status and the load averages before and after."""
    load_before = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(log, "w") as out:
        process = subprocess.Popen(command, cwd=tree, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
        returncode = process.wait()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"command": " ".join(command), "returncode": returncode, "wall_s": wall,
            "cpu_s": cpu, "snakemake_pid": process.pid,
            "loadavg_before": load_before, "loadavg_after": os.getloadavg()}


#: Lines of Snakemake's log that time and size its jobs.
_LOG_TIME = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")
_LOG_JOB = re.compile(r"^\s+jobid: (\d+)$")
_LOG_THREADS = re.compile(r"^\s+threads: (\d+)$")
_LOG_DONE = re.compile(r"^Finished jobid: (\d+)")
_LOG_RULE = re.compile(r"^(?:local)?rule (\w+):$")
#: The target rule, a job in Snakemake's log that runs no process.
TARGET_RULE = "all"


def idle_cores(log: str, cores: int = 2) -> dict:
    """How well the scheduler filled ``cores``, from Snakemake's log of a local run.

    Each job holds its ``threads`` (1 when the log names none) from the time stamp before
    its description to the one before its "Finished jobid" line (1 s resolution). Returns
    ``jobs_span_s``, first start to last finish, ``idle_core_s``, the core-seconds in
    that span that no job held (cores a job holds but leaves idle, a timing job's second
    core, count as held), and ``jobs``, the jobs finished but the target rule's.

    Examples
    --------
    >>> log = "\\n".join(["[Sat Dec  5 07:00:00 2026]", "rule a:", "    jobid: 1",
    ...                  "    threads: 2", "[Sat Dec  5 07:00:10 2026]", "Finished jobid: 1",
    ...                  "rule b:", "    jobid: 2", "[Sat Dec  5 07:00:14 2026]",
    ...                  "Finished jobid: 2 (Rule: b)", "localrule all:", "    jobid: 0",
    ...                  "Finished jobid: 0 (Rule: all)"])
    >>> idle_cores(log)
    {'jobs_span_s': 14, 'idle_core_s': 4, 'jobs': 2}
    """
    now, rule, job, spans, threads, rules = None, None, None, {}, {}, {}
    for line in log.splitlines():
        if match := _LOG_TIME.match(line):
            now = time.mktime(time.strptime(match.group(1), "%a %b %d %H:%M:%S %Y"))
        elif match := _LOG_RULE.match(line):
            rule = match.group(1)
        elif match := _LOG_JOB.match(line):
            job = match.group(1)
            spans[job], threads[job], rules[job] = [now, None], 1, rule
        elif (match := _LOG_THREADS.match(line)) and job is not None:
            threads[job] = int(match.group(1))
        elif (match := _LOG_DONE.match(line)) and match.group(1) in spans:
            spans[match.group(1)][1] = now
    done = {job: span for job, span in spans.items() if span[1] is not None}
    if not done:
        raise ValueError("no finished job in the log")
    start = min(begin for begin, _ in done.values())
    end = max(finish for _, finish in done.values())
    held = sum(min(threads[job], cores) * (finish - begin)
               for job, (begin, finish) in done.items())
    return {"jobs_span_s": int(end - start), "idle_core_s": int(cores * (end - start) - held),
            "jobs": sum(rules[job] != TARGET_RULE for job in done)}


def split_record(record: dict) -> dict:
    """CPU seconds of one job process, split into start-up parts, numba and work."""
    imports = record["imports"]
    snakemake = sum(cpu for name, cpu in imports.items()
                    if name.startswith("snakemake") or name == "pickle")
    parts = {"interpreter_s": record["startup_cpu_s"], "snakemake_s": snakemake,
             "imports_s": record["import_cpu_s"] - snakemake,
             "numba_s": record["numba_cpu_s"]}
    total = record["total_cpu_s"] + record["children_cpu_s"]
    parts["work_s"] = total - sum(parts.values())
    parts["total_s"] = total
    return parts


def job_table(records: Path, snakemake_pid: int) -> pd.DataFrame:
    """One row per job (rule, wildcards, CPU split), plus one for Snakemake itself."""
    rows = []
    for path in sorted(records.glob("*.json")):
        record = json.loads(path.read_text())
        job = record["job"]
        if job is not None:
            heaviest = sorted(record["imports"].items(), key=lambda kv: -kv[1])[:3]
            rows.append({"rule": job["rule"], "wildcards": json.dumps(job["wildcards"]),
                         **split_record(record), "wall_s": record.get("wall_s"),
                         "heaviest_imports": ", ".join(f"{n} {s:.2f}" for n, s in heaviest)})
        elif record["pid"] == snakemake_pid:
            rows.append({"rule": "(snakemake: DAG, scheduling)", "wildcards": "",
                         **dict.fromkeys(PARTS, 0.0), "work_s": record["total_cpu_s"],
                         "total_s": record["total_cpu_s"], "wall_s": record.get("wall_s"),
                         "heaviest_imports": ""})
    if not rows:
        raise RuntimeError(f"{records}: no job records; was {PROFILER} on PYTHONPATH?")
    return pd.DataFrame(rows)


def _run_fresh(profile: str, name: str, rev: str, profiled: bool) -> tuple:
    """Run one profile at ``rev`` in a fresh export, profiled or not: (scratch directory,
    job records directory or None, summary with the commit and idle core-s)."""
    scratch = Path(tempfile.mkdtemp(prefix=f"overhead-{profile}-{name}-"))
    tree, records = scratch / "tree", (scratch / "records") if profiled else None
    for directory in filter(None, (tree, records)):
        directory.mkdir()
    commit = export_tree(rev, tree)
    print(f"{profile}/{name}: commit {commit[:10]} in {tree}", flush=True)
    summary = run_workflow(tree, profile, records, scratch / "snakemake.log")
    if summary["returncode"] != 0:
        sys.exit(f"{profile}/{name}: snakemake exited with {summary['returncode']}; "
                 f"log: {scratch / 'snakemake.log'}")
    summary.update(idle_cores((scratch / "snakemake.log").read_text()), commit=commit,
                   profile=profile, label=name, date=time.strftime("%Y-%m-%d %H:%M"))
    OUT_DIR.mkdir(exist_ok=True)
    return scratch, records, summary


def measure_plain(profile: str, rev: str, keep: bool) -> None:
    """Run one profile at ``rev`` in a fresh export without the profiler, as a user runs it;
    store ``plain_<profile>.json`` (wall, CPU, idle core-s), which the Targets table reads.
    At ca15e92 the profiled default run read 255 s and 469 CPU s, the unprofiled one 243 s
    and 438 CPU s; two profiled runs of the same code differed as much (436 and 467 CPU s),
    so the profiler's own cost is not separated from the runs' spread."""
    scratch, _, summary = _run_fresh(profile, "plain", rev, profiled=False)
    summary["profiled"] = False
    (OUT_DIR / f"plain_{profile}.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{profile}/plain: {summary['wall_s']:.0f} s wall, {summary['cpu_s']:.0f} CPU s",
          flush=True)
    if not keep:
        shutil.rmtree(scratch)
    write_report()


def measure(profile: str, label: str, rev: str, keep: bool) -> None:
    """Run one profile at ``rev`` in a fresh export; write its CSV and JSON, then the .md."""
    scratch, records, summary = _run_fresh(profile, label, rev, profiled=True)
    jobs = job_table(records, summary["snakemake_pid"])
    jobs.to_csv(OUT_DIR / f"{profile}_{label}.csv", index=False, float_format="%.4f")
    summary["jobs"] = int((jobs["rule"] != "(snakemake: DAG, scheduling)").sum())
    (OUT_DIR / f"{profile}_{label}.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{profile}/{label}: {summary['wall_s']:.0f} s wall, {summary['cpu_s']:.0f} CPU s, "
          f"{summary['jobs']} jobs", flush=True)
    if not keep:
        shutil.rmtree(scratch)
    write_report()


def count_jobs(profile: str) -> None:
    """Jobs per rule of a dry run of ``profile`` (a fresh directory) into <profile>_jobs.csv."""
    with tempfile.TemporaryDirectory(prefix=f"jobs-{profile}-") as workdir:
        result = subprocess.run(["snakemake", "-n", "--cores", "2", "--directory", workdir,
                                 *CONFIGS[profile]], cwd=REPO, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"dry run of {profile} failed:\n{result.stderr[-3000:]}")
    stats = (result.stdout + result.stderr).split("Job stats:")[-1]
    rows = [line.split() for line in stats.splitlines()[3:]]
    counts = pd.DataFrame([(rule, int(n)) for rule, n in (row for row in rows if len(row) == 2)
                           if rule != "total"], columns=["rule", "jobs"])
    OUT_DIR.mkdir(exist_ok=True)
    counts.to_csv(OUT_DIR / f"{profile}_jobs.csv", index=False)
    print(f"{profile}: {counts['jobs'].sum()} jobs of {len(counts)} rules")




def estimate_table(runs: dict, counts: pd.DataFrame) -> pd.DataFrame:
    """Per rule of ``counts``: start-up and numba CPU s of all its jobs, estimated from the
    default run's CPU per job of that rule, before and after (NaN: rule not in that run)."""
    table = counts.set_index("rule")[["jobs"]]
    for label in ("before", "after"):
        if ("default", label) not in runs:
            continue
        jobs = runs["default", label][1]
        per_job = (jobs.assign(startup_s=jobs[["interpreter_s", "snakemake_s", "imports_s"]]
                               .sum(axis=1))
                   .groupby("rule")[["startup_s", "numba_s"]].mean())
        table[f"start-up, all jobs ({label})"] = table["jobs"] * per_job["startup_s"]
        table[f"numba, all jobs ({label})"] = table["jobs"] * per_job["numba_s"]
    # Ties keep the rules in name order, whatever sort pandas uses by default.
    return table.sort_index().sort_values("jobs", ascending=False, kind="stable").rename_axis("rule")


def load_runs() -> dict:
    """{(profile, label): (summary dict, jobs DataFrame)} of every measured run."""
    runs = {}
    for path in sorted(OUT_DIR.glob("*.json")):
        if path.name.startswith(("suite_", "ci_", "plain_")):  # read apart
            continue
        summary = json.loads(path.read_text())
        jobs = path.with_suffix(".csv")  # a test-suite record has no job table
        runs[summary["profile"], summary["label"]] = (
            summary, pd.read_csv(jobs, keep_default_na=False) if jobs.exists() else None)
    return runs


def summary_table(runs: dict, profile: str) -> pd.DataFrame:
    """Whole-command wall and CPU, and the CPU of every job summed by part, per run."""
    rows = {}
    for (name, label), (summary, jobs) in runs.items():
        if name != profile:
            continue
        is_job = jobs["rule"] != "(snakemake: DAG, scheduling)"
        row = {"commit": summary["commit"][:10], "wall s": summary["wall_s"],
               "CPU s": summary["cpu_s"], "jobs": summary["jobs"],
               "Snakemake itself": jobs.loc[~is_job, "total_s"].sum()}
        row.update({f"jobs: {PART_NAMES[part]}": jobs.loc[is_job, part].sum()
                    for part in PARTS})
        # cores no job held between the first start and the last finish (recorded since
        # the `twocore` run)
        row["idle core-s"] = summary.get("idle_core_s", "")
        row["load avg before/after"] = "{:.1f} / {:.1f}".format(
            summary["loadavg_before"][0], summary["loadavg_after"][0])
        rows[label] = row
    order = [label for label in ("before", "after") if label in rows]
    order += sorted(set(rows) - set(order))
    return pd.DataFrame(rows)[order].T.rename_axis("run")


#: Rules whose jobs hold every local core (the workflow's exclusive ``timing`` resource,
#: ``lowdim.settings.embedding``): nothing runs beside them.
EXCLUSIVE_RULES = ("embedding_timing", "embedding_timing_batch")


def exclusive_bound(cpu_s: float, jobs, cores: int = 2) -> float | None:
    """The wall-time bound of a workflow run whose exclusive jobs run alone: the other
    jobs' CPU over ``cores`` plus the wall time of the exclusive jobs, during which nothing
    else runs (seconds; None without a job table). Records from before jobs stored their
    wall time (``wall_s`` empty) count an exclusive job's CPU instead: their fits used one
    thread, so CPU and wall were about equal.

    >>> jobs = pd.DataFrame({"rule": ["embedding_timing", "prepare"], "total_s": [60.0, 1.0],
    ...                      "wall_s": [35.0, 1.2]})
    >>> exclusive_bound(400.0, jobs)
    205.0
    >>> exclusive_bound(400.0, jobs.drop(columns="wall_s"))
    230.0
    """
    if jobs is None:
        return None
    alone = jobs[jobs["rule"].isin(EXCLUSIVE_RULES)]
    wall = alone["wall_s"] if "wall_s" in alone else pd.Series(float("nan"), alone.index)
    held = float(wall.fillna(alone["total_s"]).sum())
    return (cpu_s - float(alone["total_s"].sum())) / cores + held


def targets_table(runs: dict) -> pd.DataFrame:
    """Issue 34's wall-time targets against each profile's ``after`` run, the quick loop's
    and ``.ci/run``'s: met, or the gap, beside what bounds the wall time on 2 cores (the
    whole command's CPU over 2; the quick loop's counted CPU, see ``suite_section``; for a
    workflow run also with its exclusive jobs run alone, :func:`exclusive_bound`)."""
    rows = []
    for (profile, label), (summary, jobs) in runs.items():
        if label not in ("after", profile) or profile not in TARGETS_S:
            continue
        plain = OUT_DIR / f"plain_{profile}.json"
        user = json.loads(plain.read_text()) if plain.exists() else None
        if user:   # the bound from a profiled run of the same code, when there is one
            label, (summary, jobs) = (_profiled_run_of(runs, profile, user["commit"])
                                      or (label, (summary, jobs)))
        bound = exclusive_bound(summary["cpu_s"], jobs)
        if user:   # the command as a user runs it; the bound is the profiled run's
            profiled, summary = summary, user
            summary["note"] = "; ".join(filter(None, [
                summary.get("note", ""),
                f"unprofiled; the profiled run `{label}` of the tables below "
                f"({profiled['commit'][:7]}) "
                f"took {profiled['wall_s']:.0f} s and {profiled['cpu_s']:.0f} CPU s, and the "
                "bound is its"]))
        rows.append(_target_row(f"{profile} run", summary, TARGETS_S[profile],
                                summary["cpu_s"], bound))
    suite = OUT_DIR / "suite_after.json"
    if suite.exists():
        summary = json.loads(suite.read_text())
        cpu = pd.read_csv(OUT_DIR / "suite_after_modules.csv")["cpu_s"].sum()
        rows.append(_target_row(summary["command"], summary,
                                SUITE_TARGETS_S[summary["command"]], cpu))
    ci = OUT_DIR / "ci_after.json"
    if ci.exists():
        summary = json.loads(ci.read_text())
        rows.append(_target_row(".ci/run", summary, CI_TARGET_S, summary["cpu_s"]))
    return pd.DataFrame(rows)


def _profiled_run_of(runs: dict, profile: str, commit: str):
    """``(label, (summary, jobs))`` of a profiled run of ``profile`` at ``commit``, or None."""
    return next(((label, run) for (name, label), run in runs.items()
                 if name == profile and run[0]["commit"] == commit), None)


def _target_row(command: str, summary: dict, target: float, cpu_s: float,
                bound: float | None = None) -> dict:
    wall = summary["wall_s"]
    return {"command": command, "commit": summary["commit"][:10], "target s": target,
            "wall s": wall,
            "verdict": "met" if wall <= target else f"missed by {wall - target:.0f} s",
            "CPU s / 2 cores": cpu_s / 2,
            "bound with exclusive jobs alone s": "" if bound is None else f"{bound:.0f}",
            "load avg before/after": "{:.1f} / {:.1f}".format(summary["loadavg_before"][0],
                                                              summary["loadavg_after"][0]),
            "note": summary.get("note", "")}


#: Runs whose jobs the per-rule tables show (the others differ in scheduling only).
RULE_TABLE_RUNS = ("after", "before", "sized")


def rule_table(runs: dict, profile: str) -> pd.DataFrame:
    """Per rule: jobs, and CPU s per job for start-up, numba and work, in each run of
    :data:`RULE_TABLE_RUNS`."""
    columns = {}
    for (name, label), (_, jobs) in runs.items():
        if name != profile or label not in RULE_TABLE_RUNS:
            continue
        jobs = jobs.assign(startup_s=jobs[["interpreter_s", "snakemake_s", "imports_s"]]
                           .sum(axis=1))
        grouped = jobs.groupby("rule")
        columns[f"jobs ({label})"] = grouped.size()
        for part, title in (("startup_s", "start-up"), ("numba_s", "numba"),
                            ("work_s", "work")):
            columns[f"{title} per job ({label})"] = grouped[part].mean()
        columns[f"CPU s, all jobs ({label})"] = grouped["total_s"].sum()
    table = pd.DataFrame(columns)
    first_total = next(column for column in table if column.startswith("CPU s"))
    return (table.sort_index().sort_values(first_total, ascending=False, kind="stable")
            .rename_axis("rule"))


#: How to read the tables (what changed between before and after, and what did not).
NOTES = [
    "What changed between the runs:",
    "",
    "- **library imports**: the tidy, table, figure and report jobs load no scikit-learn,",
    "  numba, UMAP or gensim, and the compute jobs only those their work needs",
    "  (`tests/test_import_budget.py` pins which modules each job's script loads).",
    "- **numba**: the workflow sets `NUMBA_CACHE_DIR=<checkout>/.snakemake/numba`, and",
    "  `lowdim._numba_cache` turns numba's cache on for UMAP's and pynndescent's functions:",
    "  the first job that fits UMAP compiles them and later jobs load them. A run here starts",
    "  from a fresh export, so an empty cache: the after run still pays one compilation.",
    "  The jobs' rows in `workflow_overhead/default_<run>.csv` show it per job: of the two",
    "  UMAP (and the two co-occurrence Vec2vec) timing jobs, both compile before; after,",
    "  the first compiles and saves, the second loads.",
    "- The before run is old main; the after run also holds this round's other branches",
    "  (settings, report, vec2vec, scorecard), so not every change in a compute job's",
    "  imports or work comes from this branch. The same import also costs more CPU when the",
    "  cores are contended: compare CPU between runs per rule, loosely.",
    "- **Snakemake itself** (the scheduler's process) is not a job's start-up. After each",
    "  scheduling round Snakemake 9.27 starts a timer of `--max-jobs-per-timespan`'s timespan",
    "  (1 s by default) that triggers another round, which starts another timer, so every",
    "  finished job adds one round per second, and the process's CPU grew with wall time",
    "  times finished jobs (20-22 CPU s in the default run, 163 in a rehearsal of a loaded",
    "  `.ci/run`). A longer timespan would cut those rounds, but Snakemake waits for its",
    "  pending timers before it exits, up to one timespan. Since 9c2766c (run `s20lift`",
    "  below) a local run at Snakemake's default limit drops the limiter when it starts",
    "  (`workflow/rules/scheduling.smk`): it then plans when a job finishes. A limit the user",
    "  gives, and a cluster run's, are kept.",
    "- **Jobs sized by cost** (issue 34, the `sized` run: 93 jobs, 172 before). Merged:",
    "  `similarity_errors` and `similarity_spectrum` into one job per matrix (was 35 + 5),",
    "  `embedding_score` into one per dataset (18), `sms_coref_cluster` into one per corpus",
    "  (6), `embedding_timing` into one per method for both panels (12), the tidy steps into",
    "  one per part and the figures and tables into one render job per part. Rules whose",
    "  median work per job is still below their median start-up (the `sized` CSV), and why:",
    "  `embedding_embed` (the paper profile's fits take minutes each and spread over a",
    "  cluster's nodes, `paper_resources.md`; in the default profile the six methods whose",
    "  fits take a fraction of a second at 1,000 rows share one `embedding_embed_batch` job",
    "  per dataset since 2625f4f, `embedding.batch_methods`: 12 jobs of 20.5 CPU s, 3.9 of",
    "  them work, became 2, and the default run 83 jobs); `prepare` (one job per dataset,",
    "  because a job that prepared several would rewrite every one's file and so rerun every",
    "  experiment on them when one dataset's options change); `similarity_errors` (one per",
    "  matrix as the issue asks; the default profile's matrices are small);",
    "  `similarity_matrix` (one per matrix: the paper profile's WMD and cross-encoder",
    "  matrices take up to hours each, and a job that computed several would recompute every",
    "  one when one matrix's options change; offline the MLP matrices' work is 0.5-0.7 CPU s,",
    "  the WMD ones' 1.2 and 6.1); `sms_wme_similarities` (one per `d_max`, the",
    "  paper profile's random features of thousands of documents; offline work and start-up",
    "  are about equal, 1.3 and 1.4 CPU s); `cca_stats`, `cca_exact` (per dataset,",
    "  so that a change of one dataset's override reruns only its jobs); `embedding_features`",
    "  (the file a dataset's embed jobs share); and rules of one job in the default run (tidy,",
    "  render, report, `dataset_table`, `sms_coref_matrices`), which no merge within the rule",
    "  can shrink.",
    "- **Runs `s3base` and `s3check`** (2026-12-05, quiet host): the default run at fb11c98",
    "  (before the batched embed jobs and the unseeded two-thread timings), and the rehearsal",
    "  at fb11c98 and at 564b5ff, one after the other, kept to compare their result files",
    "  (`benchmarks/compare_results.py`). The default run's are equal but for the timings; the",
    "  rehearsal's but for the timings and Laplacian Eigenmaps on the coil20 replica, whose",
    "  embedding differed between two processes of the same code (0.08-0.16 at most, seed and",
    "  threads fixed: its kNN graph has 20 components, so its eigenvalue 0 is repeated and",
    "  ARPACK's basis of that space followed the rounding; fixed by the graph since 6a5576e).",
    "- **The quick loop's longest chain** (2026-12-05, quiet host, `vmstat` beside each",
    "  run). At 0bb455f the machine was fully busy from 40 to 335 s, then one core until",
    "  570 s: the session's own in-process tests, slowed while six or more background",
    "  processes shared their core, ran on alone after the last background run ended.",
    "  Niceness +10 for the background runs (a59ed86) changed nothing (565 s), because",
    "  Linux's autogroup scheduling shares the CPU equally between sessions and every",
    "  background run is its own session: 0065986 lowers each background session's group",
    "  (`/proc/<pid>/autogroup`) and imports umap in its test instead of at collection (it",
    "  compiled pynndescent for about 18 s before any background run started): 507 s, of",
    "  which `test_docs` waited 78 s for the documentation build. 750c5a0 runs every test",
    "  that reads a background run after the in-process ones: 479 s, the `after` row. The",
    "  SLURM jobs still run in groups of their own (slurmstepd starts each in a new session)",
    "  and each runs Snakemake twice (the executor's batch step, then `srun`).",
    "- **Run `recheck`** (2026-12-06, no other work running): the default run profiled",
    "  again at 6633839, which fixed numba's cache for UMAP's parallel layout (Figure 3's",
    "  unseeded two-thread UMAP now compiles and runs it: that timing job took 18.1 CPU s,",
    "  12.6 in a profile of 3f8726e the same morning). The parts no commit since the `after`",
    "  run changed took longer too: the interpreter's start-up 1.04 -> 1.41 CPU s over 83",
    "  jobs and Snakemake's preamble 5.5 -> 7.6 (+36 and +39 %; the imports 80 -> 110). The host",
    "  ran slower that day and unevenly: 26ea8a4, 231 s on 2026-12-05, took 307 s on",
    "  2026-12-06; 3f8726e took 268 s unprofiled at 03:19 UTC; the unprofiled run of",
    "  6633839 (Targets) took 334 s at 04:36 UTC; the same 20-million-step Python loop took",
    "  1.60, 1.51 and 2.64 s back to back at 04:43 UTC. On that host the command's CPU over",
    "  2 cores is above the 240 s target: only less CPU, not scheduling, would meet it.",
    "- **Run `s10`** (2026-12-06 09:58-10:06 UTC, nothing else running): the default run",
    "  profiled at 19563c1, whose default profile runs the code of 6633839 (no commit since",
    "  changed `src/`, `workflow/` or the default config), after its unprofiled run (Targets,",
    "  09:46-09:54 UTC: 473 s, 876 CPU s). 855 CPU s against `recheck`'s 574: every part",
    "  longer (imports 110 -> 165, numba 56 -> 73, work 336 -> 542 CPU s); the rules took",
    "  1.2-2.4x their CPU, most `sms_wme_similarities` (2.4x), `embedding_score` (2.0x) and",
    "  `sms_wmd_classify` (1.9x), but for three of under 7 CPU s (`cca_stats` 0.83x,",
    "  `sms_tasks_tidy` 1.03x, `dataset_table` 1.18x). The same 20-million-step Python loop",
    "  took 1.06-1.20 s here, less than on",
    "  either earlier host, so that loop does not rank these hosts; only the same commands'",
    "  CPU before and after compare on one host.",
    "- **Runs `s20`, `s20lift` and `s20batch`** (2026-12-07 16:14-16:44 UTC, profiled, one",
    "  after the other, nothing else running): 878bbc9; 9c2766c, which lifts Snakemake's job",
    "  rate limiter on local runs (**Snakemake itself** above); bfcd349, which times Figure 3's",
    "  six methods in one exclusive job (`embedding.timing.batch_methods`, rule",
    "  `embedding_timing_batch`; 83 -> 78 jobs). 268 -> 222 -> 205 s wall, 491 -> 408 -> 385",
    "  CPU s. What the changes did: Snakemake's own process 20.0 -> 8.1 -> 7.1 CPU s; the",
    "  timing phase, nothing beside it, 71.6 s in six jobs -> 60.3 -> 43.3 s in one, whose",
    "  start-ups took 10.0 -> 9.7 -> 1.7 CPU s. The rest of the fall is the host's and",
    "  gensim's: the jobs took 436 -> 374 CPU s from `s20` to `s20lift` (numba's compilation",
    "  53 -> 38), which the scheduler's process does not spend, and gensim's two-worker fits",
    "  run at another speed in each process, with their threads' placement on the cores: its",
    "  15 timed fits took 39.5, 30.2 and 24.2 s in the three runs (24.4 and 38.8 s in two",
    "  processes of the same script back to back). So the wall-time target is read on plain",
    "  runs alternated with the former code (Targets: the note of the default run).",
    "- **Rehearsal runs `s9base` and `after`** (2026-12-06 07:28-07:50 UTC, one after the",
    "  other, nothing else running): 1f7d63a, then 7344972, whose rehearsal fits the six",
    "  embedding methods other than Vec2vec in one `embedding_embed_batch` job per dataset",
    "  (`embedding.batch_methods`, as the default profile; 63 `embedding_embed` jobs became 9",
    "  of each rule): 257 -> 212 jobs, 1,398 -> 1,138 CPU s (-19 %), 737 -> 602 s wall.",
    "  Snakemake's own process went 214 -> 151 CPU s: it re-plans once a second per finished",
    "  job (**Snakemake itself** above), so fewer jobs cut it too. The test suite's long runs",
    "  (tiny, rehearsal) re-planned every 10 s instead (`tests/conftest.py`, until 9c2766c",
    "  lifted the limiter of local runs): the tiny run's",
    "  Snakemake process alone took 15.0 -> 8.0 CPU s; a user's run kept the 1 s default,",
    "  because Snakemake waits for its last timer before it exits (3 jobs of 0.2 s: 3.8 s,",
    "  12.7 s with a 10 s span). The whole suite with both changes (`pytest -p suite_cpu`,",
    "  1f7d63a then f9b3b1e on that host, numba's cache warm in both, both cores busy but in",
    "  the first and last minute): 1,504 -> 1,314 s and 2,623 -> 2,216 CPU s; the rehearsal's background run",
    "  1,316 -> 957 CPU s, and the session's wait for it after its other tests 509 -> 343 s.",
    "  The host was slower still that morning: 1f7d63a's rehearsal",
    "  took 1,398 CPU s where 3ab6ea9's took 570 on 2026-12-05 (`s3after`, the same 257 jobs),",
    "  the interpreter's start-up 3.3 -> 6.3 CPU s and Snakemake's preamble 17.7 -> 39.9 over",
    "  those jobs, and the same 20-million-step Python loop 3.7-5.0 s (1.51-2.64 s at 04:43",
    "  UTC that day, run `recheck`). The 420 s target is missed on that host: the command's CPU over 2 cores is",
    "  above it.",
    "- **Targets** are read against stored runs only (`run`, `suite`, `ci`):",
    "  a target with no stored run is not in the table, and no time is typed by hand here.",
    "",
]


#: Issue 34's target for the quick loop on a fresh clone, quiet 2-core machine (seconds).
SUITE_TARGETS_S = {'pytest -m "not rehearsal"': 8 * 60, "pytest": 15 * 60}
#: Issue 34's target for ``bash .ci/run`` on a fresh clone (seconds).
CI_TARGET_S = 15 * 60
SUITE_COMMAND = ["-m", "pytest", "--durations=60", "-p", "no:cacheprovider", "-p", "suite_cpu"]
#: How many rows of the suite's slowest phases and costliest modules the .md shows.
SUITE_ROWS = 40
#: pytest's last line ("=== 3 passed, 1 skipped in 9.87s ==="): (the outcome, its seconds).
PYTEST_FINAL_LINE = r"^=+ (.*? in ([0-9.]+)s.*?) =+$"


def parse_pytest_log(text: str) -> tuple[pd.DataFrame, dict]:
    """The ``--durations`` table (seconds, phase, test) and the outcome of a pytest log."""
    section = text.split("slowest 60 durations")[-1] if "slowest" in text else ""
    rows = [(float(s), phase, test) for s, phase, test in
            re.findall(r"^([0-9.]+)s (setup|call|teardown)\s+(\S+)", section, re.M)]
    final = re.findall(PYTEST_FINAL_LINE, text, re.M)
    if not rows or not final:
        raise ValueError("no --durations table or no final summary line in the pytest log")
    outcome, seconds = final[-1]
    return (pd.DataFrame(rows, columns=["seconds", "phase", "test"]),
            {"outcome": outcome, "pytest_s": float(seconds)})


def module_cpu(cpu_csv: Path) -> pd.DataFrame:
    """CPU seconds per test module of a ``suite_cpu`` recording (own + children)."""
    rows = pd.read_csv(cpu_csv)
    rows["cpu_s"] = rows["own_cpu_s"] + rows["children_cpu_s"]
    rows["module"] = rows["module"].str.replace(r"^.*?/(tests|src)/", r"\1/", regex=True)
    return (rows.groupby("module").agg(tests=("test", "nunique"), cpu_s=("cpu_s", "sum"),
                                       children_cpu_s=("children_cpu_s", "sum"),
                                       wall_s=("wall_s", "sum"))
            .reset_index().sort_values(["cpu_s", "module"], ascending=[False, True],
                                       kind="stable"))


def store_suite(label: str, log_text: str, cpu_csv: Path, summary: dict) -> None:
    """Write suite_<label>.json, _durations.csv and _modules.csv, then the .md."""
    durations, outcome = parse_pytest_log(log_text)
    OUT_DIR.mkdir(exist_ok=True)
    durations.to_csv(OUT_DIR / f"suite_{label}_durations.csv", index=False, float_format="%.2f")
    module_cpu(cpu_csv).to_csv(OUT_DIR / f"suite_{label}_modules.csv", index=False,
                               float_format="%.1f")
    summary = {"label": label, **summary, **outcome}
    (OUT_DIR / f"suite_{label}.json").write_text(json.dumps(summary, indent=1) + "\n")
    write_report()


def measure_suite(label: str, rev: str, marker: str, keep: bool, workers: int | None = None,
                  note: str = "") -> None:
    """Run the test suite in a fresh export of ``rev`` (with ``-n workers`` when given, else
    pyproject.toml's pytest-xdist workers); store what :func:`store_suite` does."""
    scratch = Path(tempfile.mkdtemp(prefix=f"suite-{label}-"))
    tree = scratch / "tree"
    tree.mkdir()
    commit = export_tree(rev, tree)
    cpu_csv, log = scratch / "suite_cpu.csv", scratch / "pytest.log"
    command = [sys.executable, *SUITE_COMMAND, "--suite-cpu-csv", str(cpu_csv)]
    command += ["-m", marker] if marker else []
    if workers is None:   # pyproject.toml's, as the README's command runs them
        options = tomllib.loads((tree / "pyproject.toml").read_text())["tool"]["pytest"]
        found = re.search(r"(?:^|\s)-n\s*(\d+)", options["ini_options"].get("addopts", ""))
        workers = int(found.group(1)) if found else 0
    else:
        command += ["-n", str(workers)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(tree / "benchmarks"), os.environ.get("PYTHONPATH")])))
    load_before, start = os.getloadavg(), time.perf_counter()
    with open(log, "w") as out:
        returncode = subprocess.run(command, cwd=tree, env=env, stdout=out,
                                    stderr=subprocess.STDOUT).returncode
    summary = {"commit": commit, "command": "pytest" + (f' -m "{marker}"' if marker else ""),
               "wall_s": time.perf_counter() - start, "returncode": returncode,
               "loadavg_before": load_before, "loadavg_after": os.getloadavg(),
               "date": time.strftime("%Y-%m-%d %H:%M"),
               "workers": workers,
               **({"note": note} if note else {})}
    store_suite(label, log.read_text(), cpu_csv, summary)
    print(f"suite/{label}: {summary['wall_s']:.0f} s wall, exit {returncode}; log {log}")
    if not keep:
        shutil.rmtree(scratch)


def measure_ci(label: str, rev: str, keep: bool, note: str = "") -> None:
    """Run ``bash .ci/run`` in a fresh clone of ``rev``; store ``ci_<label>.json`` (with
    `note`, the Targets table's note on the run, if given)."""
    scratch = Path(tempfile.mkdtemp(prefix=f"ci-{label}-"))
    tree, log = scratch / "tree", scratch / "ci.log"
    commit = full_commit(rev)
    subprocess.run(["git", "clone", "-q", str(REPO), str(tree)], check=True)
    subprocess.run(["git", "checkout", "-q", commit], cwd=tree, check=True)
    env = dict(os.environ, LOWDIM_CI_VENV=str(scratch / "venv"))
    summary = timed_command(["bash", ".ci/run"], tree, env, log)
    final = [outcome for outcome, _ in re.findall(PYTEST_FINAL_LINE, log.read_text(), re.M)]
    summary = {"label": label, "commit": commit, "command": "bash .ci/run",
               "wall_s": summary["wall_s"], "cpu_s": summary["cpu_s"],
               "returncode": summary["returncode"], "outcome": final[-1] if final else "",
               "loadavg_before": summary["loadavg_before"],
               "loadavg_after": summary["loadavg_after"], "date": time.strftime("%Y-%m-%d %H:%M"),
               **({"note": note} if note else {})}
    OUT_DIR.mkdir(exist_ok=True)
    (OUT_DIR / f"ci_{label}.json").write_text(json.dumps(summary, indent=1) + "\n")
    write_report()
    print(f"ci/{label}: {summary['wall_s']:.0f} s wall, exit {summary['returncode']}; log {log}")
    if not keep:
        shutil.rmtree(scratch)


def suite_section() -> list[str]:
    """The .md's "Test suite" section, from every suite_<label>.json measured."""
    runs = {json.loads(p.read_text())["label"]: json.loads(p.read_text())
            for p in sorted(OUT_DIR.glob("suite_*.json"))}
    if not runs:
        return []
    order = [label for label in ("before", "after") if label in runs]
    order += sorted(set(runs) - set(order))
    def verdict(run):
        target = SUITE_TARGETS_S.get(run["command"])
        if target is None:
            return "", ""
        wall = run["wall_s"]
        return target, "met" if wall <= target else f"missed by {wall - target:.0f} s"

    cpu = {label: pd.read_csv(OUT_DIR / f"suite_{label}_modules.csv")["cpu_s"].sum()
           for label in order}
    summary = pd.DataFrame([{
        "run": label, "commit": run["commit"][:10], "command": run["command"],
        "pytest-xdist workers": run.get("workers", 0),
        "wall s": run["wall_s"], "target s": verdict(run)[0], "verdict": verdict(run)[1],
        "CPU s counted / 2 cores": cpu[label] / 2,
        "pytest's own s": run["pytest_s"], "outcome": run["outcome"],
        "load avg before/after": "{:.1f} / {:.1f}".format(run["loadavg_before"][0],
                                                          run["loadavg_after"][0]),
        "note": run.get("note", "")} for label, run in ((lb, runs[lb]) for lb in order)])
    lines = ["## Test suite", "",
             "The quick loop (`pytest -m \"not rehearsal\"`) timed as a whole on 2 cores, "
             "with pytest's slowest phases (`--durations`) and the CPU seconds of each test "
             "module (`benchmarks/suite_cpu.py`: the pytest processes and the children they "
             "waited for; a background run of the session is charged to the test during "
             "which it ends, in the worker that started it; 0 workers is one process; the SLURM test's jobs run under slurmd, not pytest, and "
             "are not counted). The target is issue 34's, for a fresh clone on a quiet machine: "
             "a run on a loaded machine says little about it. The counted CPU over 2 cores bounds "
             "the wall time from below on any machine (the SLURM jobs' CPU would raise it). "
             "Written by "
             "`python benchmarks/workflow_overhead.py suite`.", "", summary.to_markdown(index=False, floatfmt=".0f"), ""]
    for label in order:
        modules = pd.read_csv(OUT_DIR / f"suite_{label}_modules.csv")
        durations = pd.read_csv(OUT_DIR / f"suite_{label}_durations.csv")
        lines += [f"### {label}: CPU seconds per module ({SUITE_ROWS} costliest)", "",
                  modules.head(SUITE_ROWS).to_markdown(index=False, floatfmt=".1f"), "",
                  f"### {label}: slowest test phases (wall s, {SUITE_ROWS} of them)", "",
                  durations.head(SUITE_ROWS).to_markdown(index=False, floatfmt=".1f"), ""]
    return lines


def workers_note(labels=("xdist", "serial")) -> list[str]:
    """The notes' bullet on pytest-xdist, from the quick loop's runs `labels` (with two workers,
    in one process; measured one after the other on one host), or nothing if either is missing."""
    paths = [OUT_DIR / f"suite_{label}.json" for label in labels]
    if not all(path.exists() for path in paths):
        return []
    runs = [json.loads(path.read_text()) for path in paths]
    cpu = [pd.read_csv(OUT_DIR / f"suite_{label}_modules.csv") for label in labels]
    own = [frame["cpu_s"].sum() - frame["children_cpu_s"].sum() for frame in cpu]
    return [
        f"- **Test workers** (runs `{labels[0]}` and `{labels[1]}` of the Test suite section, one",
        f"  after the other on one host, {runs[1]['date'][:10]}). With the session's background",
        f"  runs and {runs[0]['workers']} pytest-xdist workers, the quick loop took "
        f"{runs[0]['wall_s']:,.0f} s; in one",
        f"  process, {runs[1]['wall_s']:,.0f} s. The CPU counted went from "
        f"{cpu[1]['cpu_s'].sum():,.0f} s in one process to {cpu[0]['cpu_s'].sum():,.0f} s,",
        f"  {own[0] - own[1]:+,.0f} s of it in the tests' own processes (each worker's "
        "collection and imports, and",
        "  the compilations numba cannot cache, such as pynndescent's search), the rest in "
        "their",
        "  children, where the background runs are charged. The default is one process "
        "(pyproject.toml);",
        "  on more cores, `pytest -n 4`: each background run starts once for all workers, "
        "and the",
        "  tests of one run's directory go to one worker (`tests/conftest.py`).",
    ]


def scheduling_note(labels=("twocore", "onecore", "greedy")) -> list[str]:
    """The notes' bullet on the default run's schedule, from its runs ``labels`` (two-core
    similarity jobs; one core each; one core each and Snakemake's greedy scheduler), or
    nothing if one is missing."""
    paths = [OUT_DIR / f"default_{label}.json" for label in labels]
    if not all(path.exists() for path in paths):
        return []
    two, one, greedy = (json.loads(path.read_text()) for path in paths)
    own = {label: pd.read_csv(OUT_DIR / f"default_{label}.csv").set_index("rule")
           .loc["(snakemake: DAG, scheduling)", "total_s"] for label in labels}
    return [
        f"- **Scheduling** (runs `{labels[0]}`, `{labels[1]}` and `{labels[2]}`, one after "
        f"the other on one host, {one['date'][:10]},",
        "  a host slower than the `after` run's: compare them with each other only). On 2 "
        "cores Snakemake starts",
        "  a two-core job only when no one-core job is ready for a free core, so the default "
        "profile's",
        "  two-core similarity and WME jobs waited to the end and ran beside one job or none: "
        f"{two['idle_core_s']}",
        "  core-seconds held by no job between the first start and the last finish, "
        f"{two['wall_s']:.0f} s wall. With",
        f"  every such job on one core (`config/config.yaml`), {one['idle_core_s']} "
        f"core-seconds and {one['wall_s']:.0f} s; their results are",
        "  the same but for the MLP matrices' last digits (BLAS threads) and the `threads` "
        "column.",
        "  Snakemake's greedy scheduler in place of its integer program changed nothing "
        f"measurable (its own CPU {own[labels[2]]:.0f} s",
        f"  against {own[labels[1]]:.0f} s, the host busier: {greedy['cpu_s']:,.0f} CPU s "
        f"against {one['cpu_s']:,.0f}) and was not kept.",
    ]


def write_report() -> None:
    """benchmarks/workflow_overhead.md from every run in benchmarks/workflow_overhead/."""
    runs = load_runs()
    lines = [
        "# Workflow overhead: start-up, numba compilation and work, per job",
        "",
        "Written by `python benchmarks/workflow_overhead.py` (see its docstring). Each run is",
        "a fresh export of the commit named, `snakemake --cores 2`, timed as a whole; each job",
        "process reports its own CPU split (`benchmarks/job_profile/sitecustomize.py`).",
        "**CPU seconds** are the measure: other work on the machine (load averages below)",
        "stretches wall time but hardly a job's CPU time.",
        "Start-up is the interpreter, Snakemake's script preamble and the job's imports;",
        "numba is compiling, or loading from numba's cache; work is the rest.",
        "",
    ]
    lines += NOTES[:-1] + workers_note() + scheduling_note() + NOTES[-1:]
    targets = targets_table(runs)
    if len(targets):
        lines += ["## Targets", "",
                  "Wall time of the whole command on a fresh clone (the workflow runs "
                  "profiled: each job also writes its CPU split at exit) against issue 34's "
                  "targets. The command's CPU over 2 cores "
                  "bounds its wall time from below: where that bound is above the target, "
                  "no scheduling meets it, only less CPU (start-up, compilation or work). "
                  "A workflow run's jobs of " + ", ".join(f"`{r}`" for r in EXCLUSIVE_RULES)
                  + " hold every core, so that nothing runs beside a timed fit: the bound "
                  "with those jobs alone is their wall time plus the other jobs' CPU over 2 "
                  "cores. Their fits use `timing.threads` threads (2 in both profiles since "
                  "042805b; 1 before, when the other core idled through every fit, and the "
                  "records before it count those jobs' CPU for their wall time); on two "
                  "threads every fit runs unseeded since 2625f4f, so UMAP may use both threads "
                  "as Vec2vec does (at n <= 1,000 its fits kept 1.0-1.2 busy).",
                  "",
                  targets.to_markdown(index=False, floatfmt=".0f"), ""]
    for profile in CONFIGS:
        if not any(name == profile for name, _ in runs):
            continue
        lines += [f"## {profile}", "", summary_table(runs, profile).to_markdown(floatfmt=".1f"),
                  "", "Per rule (CPU seconds):", "",
                  rule_table(runs, profile).to_markdown(floatfmt=".2f"), ""]
    for profile in CONFIGS:
        counts = OUT_DIR / f"{profile}_jobs.csv"
        if any(name == profile for name, _ in runs) or not counts.exists():
            continue
        table = estimate_table(runs, pd.read_csv(counts))
        measured = table.dropna()
        lines += [f"## {profile} (estimated, not run)", "",
                  f"{table['jobs'].sum()} jobs (dry run). Start-up and numba CPU seconds "
                  "estimated from the default run's CPU per job of each rule (see the "
                  f"docstring); {len(table) - len(measured)} rules with "
                  f"{table['jobs'].sum() - measured['jobs'].sum()} jobs have no default-run "
                  "job to estimate from and are left out of the totals.", "",
                  measured.sum().to_frame("all estimated jobs").T.to_markdown(floatfmt=".0f"),
                  "", table.to_markdown(floatfmt=".1f"), ""]
    lines += suite_section()
    REPORT.write_text("\n".join(lines))
    print(f"wrote {REPORT}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="measure runs, then rewrite the .md")
    run.add_argument("--profile", choices=list(CONFIGS), nargs="+", default=list(CONFIGS))
    run.add_argument("--label", default="after", help="name of the run (before, after)")
    run.add_argument("--rev", default="HEAD", help="commit to measure (default HEAD)")
    run.add_argument("--keep", action="store_true", help="keep the scratch directory")
    run.add_argument("--plain", action="store_true",
                     help="run without the profiler, for the Targets table only")
    suite = commands.add_parser("suite", help="time the test suite, then rewrite the .md")
    suite.add_argument("--label", default="after", help="name of the run (before, after)")
    suite.add_argument("--rev", default="HEAD", help="commit to measure (default HEAD)")
    suite.add_argument("--marker", default="not rehearsal",
                       help='pytest -m expression ("" for the whole suite)')
    suite.add_argument("--keep", action="store_true", help="keep the scratch directory")
    suite.add_argument("--workers", type=int,
                       help="pytest -n WORKERS (0: one process; default pyproject.toml's)")
    suite.add_argument("--note", default="", help="a note on the run for the report")
    suite.add_argument("--from-log", type=Path, help="store this pytest log instead of running")
    suite.add_argument("--cpu-csv", type=Path, help="with --from-log: its suite_cpu CSV")
    suite.add_argument("--summary", type=Path,
                       help="with --from-log: JSON of commit, command, wall_s, loadavg_before, "
                            "loadavg_after, date (and a note)")
    ci = commands.add_parser("ci", help="time .ci/run on a fresh clone, then rewrite the .md")
    ci.add_argument("--label", default="after", help="name of the run (before, after)")
    ci.add_argument("--rev", default="HEAD", help="commit to measure (default HEAD)")
    ci.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ci.add_argument("--note", default="", help="a note on the run for the Targets table")
    jobs = commands.add_parser("jobs", help="count a profile's jobs per rule (dry run)")
    jobs.add_argument("--profile", choices=list(CONFIGS), required=True)
    commands.add_parser("report", help="rewrite the .md from the measured runs")
    args = parser.parse_args(argv)
    if args.command == "suite":
        if args.from_log:
            store_suite(args.label, args.from_log.read_text(), args.cpu_csv,
                        json.loads(args.summary.read_text()))
        else:
            measure_suite(args.label, args.rev, args.marker, args.keep, args.workers,
                          args.note)
        return
    if args.command == "ci":
        measure_ci(args.label, args.rev, args.keep, args.note)
        return
    if args.command == "jobs":
        count_jobs(args.profile)
    if args.command in ("jobs", "report"):
        write_report()
        return
    for profile in args.profile:
        if args.plain:
            measure_plain(profile, args.rev, args.keep)
        else:
            measure(profile, args.label, args.rev, args.keep)


if __name__ == "__main__":
    main()
