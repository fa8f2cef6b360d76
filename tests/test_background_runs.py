"""The session's background processes (tests/fixtures/workflow.py, tests/conftest.py)."""

import os
import sys

from fixtures.workflow import BACKGROUND_NICENESS, BackgroundProcess


def test_a_background_process_yields_the_cores_to_the_tests(tmp_path):
    # its children too: a snakemake run's jobs inherit the niceness of the run
    code = "import os, subprocess, sys; print(os.nice(0), subprocess.check_output(" \
           "[sys.executable, '-c', 'import os; print(os.nice(0))'], text=True).strip())"
    run = BackgroundProcess([sys.executable, "-c", code], cwd=tmp_path, outdir=tmp_path).wait()
    expected = min(os.nice(0) + BACKGROUND_NICENESS, 19)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(expected)] * 2

