"""The session's background processes (tests/fixtures/workflow.py, tests/conftest.py)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fixtures import workflow
from fixtures.workflow import BACKGROUND_NICENESS, BackgroundProcess, write_atomically


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


def test_a_waiting_worker_waits_for_the_status_of_a_reaped_process(tmp_path, monkeypatch):
    # the starting worker reaps the process, then writes its status: in between, the process
    # is gone and there is no status yet, and a waiting worker must not give up; a slow
    # writer holds that moment open for a second
    def slow_status(path, text):
        if path.name == "returncode.txt":
            time.sleep(1.0)
        write_atomically(path, text)

    monkeypatch.setattr(workflow, "write_atomically", slow_status)
    started = BackgroundProcess([sys.executable, "-c", "raise SystemExit(3)"], cwd=tmp_path,
                                outdir=tmp_path)
    waiting = BackgroundProcess(started.args, cwd=tmp_path, outdir=tmp_path, start=False)
    assert waiting.wait().returncode == 3
    started.finish()


def test_a_waiting_worker_stops_waiting_when_the_starting_worker_is_gone(tmp_path):
    # a worker that ended without writing a status: any process id that has ended
    ended = subprocess.Popen(["true"])
    ended.wait()
    (tmp_path / "starter.txt").write_text(str(ended.pid))
    shared = BackgroundProcess(["true"], cwd=tmp_path, outdir=tmp_path, start=False)
    with pytest.raises(RuntimeError, match="the worker that started it stopped"):
        shared.wait()


def test_the_starting_worker_has_the_status_on_disk_when_it_finishes(tmp_path):
    background = BackgroundProcess([sys.executable, "-c", "raise SystemExit(4)"], cwd=tmp_path,
                                   outdir=tmp_path)
    background.finish()
    assert (tmp_path / "returncode.txt").read_text() == "4"
    assert (tmp_path / "starter.txt").read_text() == str(os.getpid())


def test_a_waiting_worker_sees_a_start_that_failed(tmp_path):
    # the starting worker writes its id before it starts the process: if the start fails,
    # a waiting worker learns it when that worker ends, instead of waiting for ever
    with pytest.raises(FileNotFoundError):
        BackgroundProcess(["true"], cwd=tmp_path / "missing", outdir=tmp_path)
    assert (tmp_path / "starter.txt").read_text() == str(os.getpid())
