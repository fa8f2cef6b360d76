"""Resource model of the paper profile: measure job kinds at small sizes, fit, project.

    python benchmarks/paper_resources.py --measure [--kinds embed ...]  # measure points
    python benchmarks/paper_resources.py --dry-run  # the job list of the paper profile
    python benchmarks/paper_resources.py            # fit and project from what is stored

Measurement: each point of ``paper_resources_points.GRID`` runs, in a fresh process with one
BLAS/numba/torch thread, the library call a workflow job runs and records the CPU time of
that call (a shared machine disturbs it far less than wall time), the process's wall time
and its peak resident memory in ``paper_resources_points.csv`` (a point measured again
replaces the older one). Jobs: every job of ``snakemake -n --configfile config/paper.yaml``,
kept in ``paper_resources_jobs.csv``. The cost model (``paper_resources_model.py``) fits each
job kind's points and projects every job, or says why it does not; ``paper_resources.md``
is written from these files.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT / "src")]  # this checkout's lowdim

from _report import write_report  # noqa: E402
from lowdim.io import atomic_path  # noqa: E402

POINTS = HERE / "paper_resources_points.csv"
JOBS = HERE / "paper_resources_jobs.csv"
FITS = HERE / "paper_resources_fits.csv"
PROJECTION = HERE / "paper_resources_projection.csv"
MARKDOWN = HERE / "paper_resources.md"
CONFIG = ROOT / "config" / "paper.yaml"
TITLE = "Resource model of the paper profile (`benchmarks/paper_resources.py`)"
ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                     "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS")}


# -- measuring -------------------------------------------------------------------------------
def _child(kind, args):
    from paper_resources_points import KINDS

    with tempfile.TemporaryDirectory() as tmp:
        seconds, work = KINDS[kind](tmp, **args)
    print(json.dumps({"compute_s": seconds, **work}))


def measure(kind, args) -> dict:
    """Run one point in a fresh process: wall, peak RSS (MB), compute seconds and work."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--child", kind, json.dumps(args)],
                            stdout=subprocess.PIPE, text=True, env={**os.environ, **ONE_THREAD})
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out = proc.stdout.read()
    if status:
        raise RuntimeError(f"{kind} {args} failed (status {status})")
    return {"kind": kind, **{f"arg_{k}": v for k, v in args.items()}, "wall_s": wall,
            "max_rss_mb": usage.ru_maxrss / 1024, "cpu_s": usage.ru_utime + usage.ru_stime,
            "load_1min": load, "date": time.strftime("%Y-%m-%d %H:%M"),
            **json.loads(out.strip().splitlines()[-1])}


def _measured(done: pd.DataFrame, kind: str, point: dict) -> bool:
    rows = done[done.kind == kind]
    for key, value in point.items():
        if f"arg_{key}" not in rows:
            return False
        column = rows[f"arg_{key}"]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            # read back from CSV, an integer column with gaps is float: compare as numbers
            rows = rows[pd.to_numeric(column, errors="coerce") == value]
        else:
            rows = rows[column.astype(str) == str(value)]
    return len(rows) > 0


def measure_grid(kinds=None, again=False) -> None:
    """Measure the points of ``GRID`` (of ``kinds``) not measured yet (all with ``again``);
    the CSV is rewritten after every point, so an interrupted run resumes."""
    from paper_resources_points import GRID

    done = pd.read_csv(POINTS) if POINTS.exists() else pd.DataFrame(columns=["kind"])
    for kind, point in GRID:
        if kinds and kind not in kinds or (not again and _measured(done, kind, point)):
            continue
        row = measure(kind, point)
        print(f"{kind:13s} {point}: {row['compute_s']:.2f} s compute, {row['wall_s']:.1f} s "
              f"wall, {row['max_rss_mb']:.0f} MB, load {row['load_1min']:.1f}", flush=True)
        done = pd.concat([done, pd.DataFrame([row])], ignore_index=True)
        keys = [c for c in done.columns if c == "kind" or c.startswith("arg_")]
        done = done.drop_duplicates(keys, keep="last")
        with atomic_path(POINTS) as tmp:  # --points may copy it while this runs
            done.to_csv(tmp, index=False)


def grid_points(path=POINTS) -> pd.DataFrame:
    """The stored points that ``GRID`` lists (a point dropped from the grid is not fitted)."""
    from paper_resources_points import GRID

    points = pd.read_csv(path)
    keep = [any(kind == k and _measured(points.loc[[i]], k, p) for k, p in GRID)
            for i, kind in points["kind"].items()]
    return points[keep].reset_index(drop=True)


# -- the job list -----------------------------------------------------------------------------
def _fields(block: str) -> dict:
    return dict(re.findall(r"^    (\w+): (.*)$", block, re.M))


def _pairs(text: str) -> dict:
    return dict(part.split("=", 1) for part in text.split(", ") if "=" in part) if text else {}


def parse_dry_run(text: str) -> pd.DataFrame:
    """One row per job of a ``snakemake -n`` log: rule, local, wildcards, threads, resources."""
    rows = []
    for match in re.finditer(r"^(local)?rule (\w+):\n((?:    .*\n)+)", text, re.M):
        fields = _fields(match.group(3))
        if "jobid" not in fields:
            continue
        rows.append({"rule": match.group(2), "local": bool(match.group(1)),
                     "wildcards": json.dumps(_pairs(fields.get("wildcards", "")), sort_keys=True),
                     "threads": int(fields.get("threads", 1)),
                     "resources": json.dumps(_pairs(fields.get("resources", "")),
                                             sort_keys=True)})
    return pd.DataFrame(rows).sort_values(["rule", "wildcards"], ignore_index=True)


def dry_run(configfile=CONFIG, cores=1024) -> pd.DataFrame:
    """The jobs of ``snakemake -n`` on this checkout with ``configfile``, in a scratch
    directory; ``cores`` high so that every rule's own ``threads`` show."""
    with tempfile.TemporaryDirectory(prefix="paper_dry_run_") as tmp:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
        result = subprocess.run(
            [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "--directory",
             tmp, "--cores", str(cores), "-n", "--configfile", str(configfile)],
            capture_output=True, text=True, env=env, cwd=ROOT)
    if result.returncode:
        raise RuntimeError(f"the dry run failed:\n{result.stderr[-4000:]}")
    return parse_dry_run(result.stdout)


# -- fit, project, report -----------------------------------------------------------------------
def build(points: pd.DataFrame, jobs: pd.DataFrame, stored_measurements: dict) -> tuple:
    """Fits, projection and the report's sections from the stored points and jobs."""
    import paper_resources_model as model
    from paper_resources_points import paper_config

    config = paper_config()
    fits = model.fit_all(points, stored_measurements)
    memory = model.memory_models(points)
    projection = model.project(jobs, fits, config, stored_measurements, memory)
    sections = model.report_sections(points, fits, projection,
                                     model.memory_check(points, memory))
    return fits, projection, sections


def stored_measurements() -> dict:
    """Full-size measurements of ``cca_scale.py`` the model reuses (URL-shaped CCA runs and
    the URL parser), from ``cca_scale.json``."""
    from _report import read_json

    stored = read_json(HERE / "cca_scale.json")
    return {key: stored[key] for key in ("url", "url_parser") if key in stored}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("KIND", "ARGS"), help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help="measure the points not "
                        "measured yet (run it niced: it is CPU-heavy)")
    parser.add_argument("--kinds", nargs="*", default=None, help="measure only these kinds")
    parser.add_argument("--again", action="store_true", help="measure the points again")
    parser.add_argument("--dry-run", action="store_true", help="list the paper profile's jobs "
                        "again (snakemake -n)")
    parser.add_argument("--points", type=Path, default=POINTS, help="the measured points to "
                        "fit (a copy, while a measurement still writes the file)")
    args = parser.parse_args()
    if args.child:
        return _child(args.child[0], json.loads(args.child[1]))
    if args.measure:
        measure_grid(args.kinds, args.again)
    if args.dry_run or not JOBS.exists():
        dry_run().to_csv(JOBS, index=False)
    fits, projection, sections = build(grid_points(args.points), pd.read_csv(JOBS),
                                       stored_measurements())
    fits.to_csv(FITS, index=False)
    projection.to_csv(PROJECTION, index=False)
    write_report(MARKDOWN, TITLE, sections)
    print(f"wrote {MARKDOWN}")
    return None


if __name__ == "__main__":
    main()
