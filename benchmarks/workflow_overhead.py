"""Where a workflow run's CPU goes, job by job: start-up, numba compilation, or the work.

    python benchmarks/workflow_overhead.py run --profile default --label after
    python benchmarks/workflow_overhead.py run --profile rehearsal --label before --rev 71a27ea
    python benchmarks/workflow_overhead.py jobs --profile rehearsal  # job counts (dry run)
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

CPU seconds, not wall seconds, are the measure: on a 2-core machine shared with other
work, a job's wall time says as much about its neighbours as about the job. The .md
records the load average around each run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT_DIR = HERE / "workflow_overhead"
REPORT = HERE / "workflow_overhead.md"
PROFILER = HERE / "job_profile"
CONFIGS = {"default": [], "rehearsal": ["--configfile", "config/rehearsal.yaml"]}
# issue 28's targets for the whole command on a fresh clone, 2 cores (seconds)
TARGETS_S = {"default": 240, "rehearsal": 300}
PARTS = ["interpreter_s", "snakemake_s", "imports_s", "numba_s", "work_s"]
PART_NAMES = {"interpreter_s": "interpreter", "snakemake_s": "Snakemake preamble",
              "imports_s": "library imports", "numba_s": "numba", "work_s": "work"}


def export_tree(rev: str, into: Path) -> str:
    """Write the files of commit ``rev`` to ``into``; return the full commit hash."""
    commit = subprocess.run(["git", "rev-parse", rev], cwd=REPO, check=True,
                            capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", commit], cwd=REPO, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return commit


def run_workflow(tree: Path, profile: str, records: Path, log: Path) -> dict:
    """Run the workflow in ``tree``; return its wall and CPU seconds and exit status."""
    env = dict(os.environ, LOWDIM_JOB_PROFILE=str(records),
               PYTHONPATH=os.pathsep.join(filter(None, [str(PROFILER),
                                                        os.environ.get("PYTHONPATH")])))
    command = ["snakemake", "--cores", "2", *CONFIGS[profile]]
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
                         **split_record(record),
                         "heaviest_imports": ", ".join(f"{n} {s:.2f}" for n, s in heaviest)})
        elif record["pid"] == snakemake_pid:
            rows.append({"rule": "(snakemake: DAG, scheduling)", "wildcards": "",
                         **dict.fromkeys(PARTS, 0.0), "work_s": record["total_cpu_s"],
                         "total_s": record["total_cpu_s"], "heaviest_imports": ""})
    if not rows:
        raise RuntimeError(f"{records}: no job records; was {PROFILER} on PYTHONPATH?")
    return pd.DataFrame(rows)


def measure(profile: str, label: str, rev: str, keep: bool) -> None:
    """Run one profile at ``rev`` in a fresh export; write its CSV and JSON, then the .md."""
    scratch = Path(tempfile.mkdtemp(prefix=f"overhead-{profile}-{label}-"))
    tree, records = scratch / "tree", scratch / "records"
    tree.mkdir()
    records.mkdir()
    commit = export_tree(rev, tree)
    print(f"{profile}/{label}: commit {commit[:10]} in {tree}", flush=True)
    summary = run_workflow(tree, profile, records, scratch / "snakemake.log")
    if summary["returncode"] != 0:
        sys.exit(f"{profile}/{label}: snakemake exited with {summary['returncode']}; "
                 f"log: {scratch / 'snakemake.log'}")
    jobs = job_table(records, summary["snakemake_pid"])
    OUT_DIR.mkdir(exist_ok=True)
    jobs.to_csv(OUT_DIR / f"{profile}_{label}.csv", index=False, float_format="%.4f")
    summary.update(commit=commit, profile=profile, label=label,
                   jobs=int((jobs["rule"] != "(snakemake: DAG, scheduling)").sum()),
                   date=time.strftime("%Y-%m-%d %H:%M"))
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
        summary = json.loads(path.read_text())
        runs[summary["profile"], summary["label"]] = (
            summary, pd.read_csv(path.with_suffix(".csv"), keep_default_na=False))
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
        row["load avg before/after"] = "{:.1f} / {:.1f}".format(
            summary["loadavg_before"][0], summary["loadavg_after"][0])
        rows[label] = row
    order = [label for label in ("before", "after") if label in rows]
    order += sorted(set(rows) - set(order))
    return pd.DataFrame(rows)[order].T.rename_axis("run")


def targets_table(runs: dict) -> pd.DataFrame:
    """Issue 28's wall-time targets against each profile's ``after`` run: met, or the gap,
    beside what bounds the wall time on 2 cores (the whole command's CPU over 2)."""
    rows = []
    for (profile, label), (summary, _) in runs.items():
        if label != "after" or profile not in TARGETS_S:
            continue
        wall, target = summary["wall_s"], TARGETS_S[profile]
        rows.append({"profile": profile, "commit": summary["commit"][:10],
                     "target s": target, "wall s": wall,
                     "verdict": "met" if wall <= target else f"missed by {wall - target:.0f} s",
                     "CPU s / 2 cores": summary["cpu_s"] / 2,
                     "load avg before/after": "{:.1f} / {:.1f}".format(
                         summary["loadavg_before"][0], summary["loadavg_after"][0])})
    return pd.DataFrame(rows)


def rule_table(runs: dict, profile: str) -> pd.DataFrame:
    """Per rule: jobs, and CPU s per job for start-up, numba and work, in each run."""
    columns = {}
    for (name, label), (_, jobs) in runs.items():
        if name != profile:
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
    "- **Snakemake itself** (the scheduler's process) is not a job's start-up and is left as",
    "  it is: its CPU grows with wall time times finished jobs. After each scheduling round",
    "  Snakemake 9.27 starts a timer of `--max-jobs-per-timespan`'s timespan (1 s by",
    "  default) that triggers another round, which starts another timer, so every finished",
    "  job adds one round per second. A longer timespan would cut those rounds, but Snakemake",
    "  waits for its pending timers before it exits: every run, the test suite's many small",
    "  ones too, would end up to one timespan later. On a loaded machine (long wall time) the",
    "  row is large; on a quiet one it is a small part.",
    "- **Jobs sized by cost** (issue 34, the `sized` run: 93 jobs, 172 before). Merged:",
    "  `similarity_errors` and `similarity_spectrum` into one job per matrix (was 35 + 5),",
    "  `embedding_score` into one per dataset (18), `sms_coref_cluster` into one per corpus",
    "  (6), `embedding_timing` into one per method for both panels (12), the tidy steps into",
    "  one per part and the figures and tables into one render job per part. Rules whose",
    "  median work per job is still below their median start-up (the `sized` CSV), and why:",
    "  `embedding_embed` (18 jobs: the paper profile's fits take minutes each, 2.6 core-hours",
    "  over 72 jobs, and spread over a cluster's nodes; the default profile's cheap methods at",
    "  1,000 rows take 0.1 s); `prepare` (8: one job per dataset, because a job that prepared",
    "  several would rewrite every one's file and so rerun every experiment on them when one",
    "  dataset's options change); `similarity_errors` (5, one per matrix as the issue asks: the",
    "  default profile's matrices have at most 400 items, the paper profile's jobs 50 s each);",
    "  `cca_stats`, `cca_exact` (one pass or one factorisation of a small dataset; per dataset so",
    "  that a change of one dataset's override reruns only its jobs), `embedding_features` (the",
    "  file a dataset's embed jobs share); and rules of one job in the default run (tidy,",
    "  render, report, `dataset_table`, `sms_coref_matrices`), which no merge within the rule",
    "  can shrink.",
    "- **Targets not in the table**, timed by hand on fresh clones of main with nothing else",
    "  running (2026-12-02): the rehearsal took 839 s wall and 1,565 CPU s (target 300 s,",
    "  missed by 539 s; its CPU over 2 cores, 783 s, is itself above the target, and about a",
    "  third of that CPU is job start-up by the estimate below). The test suite, what `.ci/run`",
    "  runs after its installs, took about 25 min with the rehearsal (CI's last run, whose",
    "  rehearsal failed after 38 s, took 16 min): target 12 min, missed by about 13 min; the",
    "  rehearsal it runs in the background is 1,565 CPU s, 13 minutes of both cores.",
    "",
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
    lines += NOTES
    targets = targets_table(runs)
    if len(targets):
        lines += ["## Targets", "",
                  "Wall time of the whole command (profiled: each job also writes its CPU "
                  "split at exit) against issue 28's targets. The command's CPU over 2 cores "
                  "bounds its wall time from below: where that bound is above the target, "
                  "no scheduling meets it, only less CPU (start-up, compilation or work).",
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
    jobs = commands.add_parser("jobs", help="count a profile's jobs per rule (dry run)")
    jobs.add_argument("--profile", choices=list(CONFIGS), required=True)
    commands.add_parser("report", help="rewrite the .md from the measured runs")
    args = parser.parse_args(argv)
    if args.command == "jobs":
        count_jobs(args.profile)
    if args.command in ("jobs", "report"):
        write_report()
        return
    for profile in args.profile:
        measure(profile, args.label, args.rev, args.keep)


if __name__ == "__main__":
    main()
