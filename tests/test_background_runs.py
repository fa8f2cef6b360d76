"""The session's background processes (tests/fixtures/workflow.py, tests/conftest.py)."""

import os
import sys
from pathlib import Path

import pytest

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


def test_a_background_session_is_a_lower_priority_group(tmp_path):
    # under autogroup scheduling every session shares the CPU as one group, whatever the
    # niceness of its processes: the group itself must be lowered
    if not Path("/proc/self/autogroup").exists():
        pytest.skip("no autogroup scheduling on this kernel")
    # read after a moment: the group is lowered right after the process starts
    code = "import time; time.sleep(0.5); print(open('/proc/self/autogroup').read().split()[-1])"
    run = BackgroundProcess([sys.executable, "-c", code], cwd=tmp_path, outdir=tmp_path).wait()
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(BACKGROUND_NICENESS)]
