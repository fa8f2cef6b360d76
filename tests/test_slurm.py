"""The workflow on a real SLURM cluster: a private single-node cluster on this machine.

``pytest -m slurm`` starts munged, slurmctld and slurmd (``tests/fixtures/slurm_cluster.py``:
generated key and slurm.conf, no accounting database), runs the cluster command of docs/slurm.md
on the tiny config for a subset of its targets that holds every kind of job
(``CLUSTER_TARGETS``), and checks what a cluster user relies on: every job but the
localrules went through sbatch and ran in a SLURM job, the results equal those of a
local run, and a failing job is reported with its log, retried as the profile says,
leaves nothing behind, and after the fix only it and its dependants run again.

Without slurm-wlm, munge or the executor plugin the cluster tests skip, naming what is
missing; with ``LOWDIM_REQUIRE_SLURM=1`` (set by ``.ci/run``) they fail instead.
"""

import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from fixtures.cluster_run import CLUSTER_TARGETS, FAILING_OUTPUT
from fixtures.requirements import require
from fixtures.results import result_tables
from fixtures.slurm_cluster import SlurmCluster, missing_requirements
from fixtures.workflow import ROOT, snakemake

PROFILE = ROOT / "workflow" / "profiles" / "slurm" / "config.yaml"
#: What a local rule (`localrule: True`) must not read: datasets, matrices, features and
#: embeddings (.npz) and raw downloads.
LARGE_SUFFIXES = (".npz", ".npy", ".mat")
#: Local rules that wait for every final target (the prepared datasets among them) but
#: read only tidy files, benchmark files and config/published/ (lowdim.report).
WAIT_FOR_ALL = ("report_scorecard", "report_summary")


# -- parsing Snakemake's log ---------------------------------------------------------
def jobs_in_log(text: str) -> list[dict]:
    """Every job block of a Snakemake log: rule, jobid, local?, input/output/log files."""
    jobs = []
    for match in re.finditer(r"^(local)?rule (\w+):\n((?:    .*\n)+)", text, re.M):
        fields = dict(re.findall(r"^    (\w+): (.*)$", match.group(3), re.M))
        if "jobid" not in fields:
            continue
        jobs.append({
            "local": bool(match.group(1)), "rule": match.group(2), "jobid": int(fields["jobid"]),
            **{key: fields[key].split(", ") if fields.get(key) else []
               for key in ("input", "output", "log")},
        })
    return jobs


def submissions_in_log(text: str) -> list[tuple[int, str, str]]:
    """(Snakemake jobid, SLURM job id, SLURM log path) of every sbatch submission."""
    return [(int(job), slurm, log) for job, slurm, log in re.findall(
        r"Job (\d+) has been submitted with SLURM jobid (\d+) \(log: (.*?)\)\.", text)]


# -- fixtures ------------------------------------------------------------------------
def require_slurm():
    """Skip (fail under LOWDIM_REQUIRE_SLURM=1) when this machine cannot run the cluster."""
    require(missing_requirements(), "LOWDIM_REQUIRE_SLURM", "the SLURM tests")


@pytest.fixture(scope="module")
def slurm_run(_long_runs):
    """The cluster command of docs/slurm.md, run once on the tiny config (started with the
    session, ``tests/fixtures/cluster_run.py``): its checkout, ``log`` and ``seconds``."""
    require_slurm()
    return _long_runs["slurm_run"].wait()


# -- the cluster run -----------------------------------------------------------------
@pytest.mark.slurm
def test_every_job_but_localrules_ran_in_a_slurm_job(slurm_run):
    jobs = jobs_in_log(slurm_run.log)
    submitted = submissions_in_log(slurm_run.log)
    remote = {job["jobid"]: job for job in jobs if not job["local"]}
    assert remote and len(remote) > len(jobs) // 2
    # Each cluster job was submitted exactly once (nothing failed, nothing retried) ...
    assert sorted(job for job, _, _ in submitted) == sorted(remote)
    # ... SLURM ran it to completion ...
    states = slurm_run.jobs
    assert {states.get(slurm_id) for _, slurm_id, _ in submitted} == {"COMPLETED"}
    # ... and the rule's own log was written inside that SLURM job.
    for job, slurm_id, _ in submitted:
        log = remote[job]["log"][0]
        assert f"SLURM job {slurm_id}," in slurm_run.logs[log], log
    assert all(job["local"] == (job["rule"] in local_rules() + ["all"]) for job in jobs)
    print(f"\nSLURM run of CLUSTER_TARGETS (tiny config): {len(submitted)} jobs submitted, "
          f"{len(jobs) - len(remote)} local, {slurm_run.seconds:.0f} s")


@pytest.mark.slurm
def test_the_slurm_jobs_share_the_workflows_numba_cache(slurm_run):
    # workflow/rules/common.smk sets NUMBA_CACHE_DIR under the workflow's directory; sbatch
    # passes the environment on (--export=ALL) and the job's Snakemake keeps it, so the
    # AppGrad kernels compiled in the cca_appgrad SLURM jobs (no local rule imports numba,
    # tests/test_import_budget.py) are saved there for every later job, not in __pycache__.
    cache = slurm_run.path / ".snakemake" / "numba"
    saved = {path.name.split("-")[0] for path in cache.rglob("*.nbi")
             if path.parent.name.startswith("cca_")}
    assert {"_kernels.rows_nnz", "_kernels.rows_times"} <= saved, sorted(saved)


@pytest.mark.slurm
def test_cluster_results_equal_the_local_run(slurm_run, tiny_run):
    # the local run is the whole tiny config (the session's tiny_run): the same jobs give
    # the same tables, whichever targets asked for them, and after a failed job is fixed
    cluster, local = result_tables(slurm_run.path), result_tables(tiny_run)
    assert set(CLUSTER_TARGETS) - {"results/figures/cca/figure1_pcc.png"} <= set(cluster)
    assert set(cluster) <= set(local)
    for name, frame in cluster.items():
        pd.testing.assert_frame_equal(frame, local[name], check_exact=False, rtol=1e-9,
                                      obj=name)


@pytest.mark.slurm
def test_a_failing_job_is_reported_retried_and_rerun_alone_after_the_fix(slurm_run):
    """The second and third cluster runs (``tests/fixtures/cluster_run.py``): with a config
    that makes one job diverge, then again as documented."""
    if slurm_run.rerun_error is not None:
        raise slurm_run.rerun_error
    first_run = jobs_in_log(slurm_run.log)
    log = slurm_run.failed.stderr
    assert slurm_run.failed.returncode != 0

    # Reported with the rule's log (which holds the error) and the SLURM log.
    attempts = [job for job in jobs_in_log(log) if job["rule"] == "cca_appgrad"]
    assert {tuple(job["output"]) for job in attempts} == {(FAILING_OUTPUT,)}
    rule_log = attempts[0]["log"][0]
    error = log[log.index("Error in rule cca_appgrad:"):]
    assert f"log: {rule_log}, " in error and "/slurm_logs/rule_cca_appgrad/" in error
    assert "kept diverging" in slurm_run.logs_after_failure[rule_log]
    # Retried as the profile says, each attempt a new SLURM job.
    retries = yaml.safe_load(PROFILE.read_text())["retries"]
    submitted = submissions_in_log(log)
    assert len(submitted) == 1 + retries
    assert {job for job, _, _ in submitted} == {attempts[0]["jobid"]}
    assert all(Path(slurm_log).exists() for _, _, slurm_log in submitted)  # kept on failure
    # Nothing partial: the failed output is gone and nothing new appeared. Snakemake
    # removes a job's outputs and logs before it runs, not its benchmark file: the first
    # run's stays, unchanged, until the rerun after the fix replaces it.
    assert slurm_run.after_failure == slurm_run.before_failure - {
        FAILING_OUTPUT.removeprefix("results/")}
    assert slurm_run.benchmark_after_failure == slurm_run.benchmark_before_failure

    # After the fix, the tested command reruns that job and what depends on it, no more.
    fixed = slurm_run.fixed
    assert fixed.returncode == 0, fixed.stderr[-8000:]
    rerun = {(job["rule"], tuple(job["output"])) for job in jobs_in_log(fixed.stderr)}
    expected = dependants(first_run, FAILING_OUTPUT)
    assert rerun == {(job["rule"], tuple(job["output"])) for job in expected}
    assert len(submissions_in_log(fixed.stderr)) == sum(not job["local"] for job in expected)
    assert pd.read_csv(slurm_run.path / FAILING_OUTPUT).shape[0] > 0


def dependants(jobs: list[dict], output: str) -> list[dict]:
    """The job writing `output` and every job that (transitively) reads what it writes."""
    reached, files = [], {output}
    for job in jobs:  # a log lists jobs in an order that respects dependencies
        if files & set(job["output"]) or files & set(job["input"]):
            reached.append(job)
            files |= set(job["output"])
    return reached


# -- the daemons are stopped, whatever happens ---------------------------------------
@pytest.mark.slurm
def test_the_cluster_stops_its_daemons_when_the_code_inside_fails(tmp_path):
    require_slurm()
    with pytest.raises(RuntimeError, match="inside"):
        with SlurmCluster(tmp_path / "cluster") as cluster:
            processes = dict(cluster.processes)
            assert cluster.jobs() == {}
            raise RuntimeError("inside")
    assert set(processes) == {"munged", "slurmctld", "slurmd"}
    assert all(process.poll() is not None for process in processes.values())


# -- which rules run on the submit host ----------------------------------------------
def local_rules() -> list[str]:
    """The rules that say `localrule: True` (the line after their `rule` line)."""
    return [name for path in sorted((ROOT / "workflow" / "rules").glob("*.smk"))
            for name in re.findall(r"^\s*rule (\w+):\n\s+localrule: True$", path.read_text(),
                                   re.M)]


@pytest.mark.workflow
def test_local_rules_read_only_small_files(tmp_path):
    dry_run = snakemake(tmp_path, "-n", "--forceall")
    jobs = jobs_in_log(dry_run.stdout + dry_run.stderr)
    local = [job for job in jobs if job["rule"] in local_rules()]
    assert local
    for job in local:
        if job["rule"] in WAIT_FOR_ALL:
            continue
        large = [path for path in job["input"]
                 if path.endswith(LARGE_SUFFIXES) or path.startswith("resources/")]
        assert not large, f"local rule {job['rule']} reads {large}"


# -- what every cluster job pays twice ------------------------------------------------
@pytest.mark.workflow
def test_snakemake_start_up_does_not_import_scikit_learn(tmp_path, monkeypatch):
    """Each SLURM job starts Snakemake twice (the sbatch script, then srun) before its
    script runs, and each start-up parses the Snakefile: the modules it imports (the
    dataset registry above all) leave scikit-learn, most of their import time, to the
    functions that use it."""
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")
    result = snakemake(tmp_path, "-n", "results/data/digits.npz")
    imported = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+([\w.]+)$", result.stderr, re.M)
    assert "lowdim.data.registry" in imported and "snakemake.workflow" in imported
    assert not [name for name in imported if name.split(".")[0] == "sklearn"]
