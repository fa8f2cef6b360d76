"""The session's background processes (tests/fixtures/workflow.py, tests/conftest.py)."""

import os
import sys

from fixtures.workflow import BACKGROUND_NICENESS, BackgroundProcess


def test_a_background_process_and_its_children_yield_the_cores_to_the_tests(tmp_path):
    # a snakemake run's jobs are its children: they must inherit the lower priority
    code = ("import os, subprocess, sys; print(os.getpid(), os.nice(0), subprocess.check_output("
            "[sys.executable, '-c', 'import os; print(os.nice(0))'], text=True).strip())")
    background = BackgroundProcess([sys.executable, "-c", code], cwd=tmp_path, outdir=tmp_path)
    run = background.wait()
    assert run.returncode == 0, run.stderr
    pid, own, child = run.stdout.split()
    expected = str(min(os.nice(0) + BACKGROUND_NICENESS, 19))
    assert (own, child) == (expected, expected)
    # `nice` execs the command: the process id stop() signals is the command's own
    assert int(pid) == background.process.pid
