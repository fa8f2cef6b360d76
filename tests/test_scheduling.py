"""A local run lifts Snakemake's job rate limiter (workflow/rules/scheduling.smk).

Each check runs Snakemake on a small Snakefile that includes the workflow's scheduling
rules; when its one job is done, Snakemake's own process (``onsuccess``) records whether
the scheduler still has a rate limiter, and so whether it re-planned on timers.
"""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SNAKEFILE = textwrap.dedent(f"""
    include: "{ROOT / 'workflow' / 'rules' / 'scheduling.smk'}"

    rule job:
        output: "done.txt"
        shell: "echo done > {{output}}"

    onsuccess:
        limiter = workflow.scheduler.job_rate_limiter
        text = "none" if limiter is None else f"{{limiter.max_jobs}}/{{limiter.timespan}}"
        open("limiter.txt", "w").write(text)
""")


def _run(tmp_path, *options):
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    done = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", *options],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return (tmp_path / "limiter.txt").read_text(), done.stderr


def test_a_local_run_at_snakemakes_default_limit_plans_without_timers(tmp_path):
    limiter, log = _run(tmp_path)
    assert limiter == "none"
    assert "job rate limit (100 a second) is lifted" in log


# 1-s spans: Snakemake waits for its last timer before it exits
@pytest.mark.parametrize("limit", ["50/1s", "200/1s"])
def test_a_limit_the_user_gives_is_kept(tmp_path, limit):
    limiter, log = _run(tmp_path, "--max-jobs-per-timespan", limit)
    assert limiter != "none"
    assert limiter.split("/")[0] == limit.split("/")[0]
    assert "is lifted" not in log
