"""Where the test suite's CPU goes: a pytest plugin that records CPU seconds per test.

    PYTHONPATH=benchmarks pytest -p suite_cpu                  # the README's test command
    python benchmarks/suite_cpu.py benchmarks/out/suite_cpu.csv  # summary of a recorded run

Each test's setup, call and teardown are charged the CPU the pytest process spent in them
(all its threads) plus the CPU of the child processes it waited for in them (Snakemake
runs, SLURM commands, probes in fresh interpreters). A background run the session starts
(the tiny config's, the rehearsal's, the docs build) is charged, whole, to the test phase
during which it ends, in the worker that started it. Under pytest-xdist each worker records
its own tests and the controller joins them. CPU seconds, not wall seconds: the suite overlaps its
background runs with other tests, and the machine may be shared.

Writes ``benchmarks/out/suite_cpu.csv`` (``--suite-cpu-csv`` to change it): one row per
test and phase; the summary prints CPU per module and the most expensive tests.
"""

from __future__ import annotations

import csv
import os
import resource
import sys
import time
from pathlib import Path

import pytest

DEFAULT_CSV = Path(__file__).resolve().parent / "out" / "suite_cpu.csv"
FIELDS = ["test", "module", "phase", "own_cpu_s", "children_cpu_s", "wall_s"]


def _cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime,
            time.perf_counter())


def pytest_addoption(parser):
    parser.addoption("--suite-cpu-csv", default=str(DEFAULT_CSV),
                     help="where suite_cpu writes CPU seconds per test and phase")


class _Recorder:
    def __init__(self, path):
        self.path = Path(path)
        self.rows = []

    def _measure(self, item, phase):
        before = _cpu()
        yield
        after = _cpu()
        self.rows.append({"test": item.nodeid, "module": item.nodeid.split("::")[0],
                          "phase": phase, "own_cpu_s": after[0] - before[0],
                          "children_cpu_s": after[1] - before[1],
                          "wall_s": after[2] - before[2]})

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        yield from self._measure(item, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        yield from self._measure(item, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item):
        yield from self._measure(item, "teardown")

    def _part(self, worker):
        return self.path.with_name(f"{self.path.stem}.{worker}{self.path.suffix}")

    def pytest_sessionfinish(self, session):
        """Write the rows; a pytest-xdist worker writes its own part, the controller (which
        ends after its workers) joins the parts into the CSV."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        if worker:
            _write(self._part(worker), self.rows)
            return
        parts = sorted(self.path.parent.glob(self._part("gw*").name))
        for part in parts:
            with open(part, newline="") as file:
                self.rows.extend(csv.DictReader(file))
            part.unlink()
        _write(self.path, self.rows)
        usage = _cpu()
        print(f"\nsuite_cpu: {self.path} ({len(self.rows)} rows, {len(parts)} workers); "
              f"controller CPU {usage[0]:.0f} s own + {usage[1]:.0f} s children")


def _write(path, rows):
    with open(path, "w", newline="") as file:
        writer = csv.DictWriter(file, FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def pytest_configure(config):
    config.pluginmanager.register(_Recorder(config.getoption("--suite-cpu-csv")),
                                  "suite_cpu_recorder")


def summarize(path, top=40):
    """Print CPU seconds per module and the ``top`` most expensive tests of a recorded run."""
    import pandas as pd

    rows = pd.read_csv(path)
    rows["cpu_s"] = rows["own_cpu_s"] + rows["children_cpu_s"]
    print(f"total CPU {rows['cpu_s'].sum():.0f} s ({rows['own_cpu_s'].sum():.0f} own, "
          f"{rows['children_cpu_s'].sum():.0f} children), {rows['test'].nunique()} tests\n")
    modules = rows.groupby("module").agg(tests=("test", "nunique"), cpu_s=("cpu_s", "sum"),
                                         children_cpu_s=("children_cpu_s", "sum"),
                                         wall_s=("wall_s", "sum"))
    print(modules.sort_index().sort_values("cpu_s", ascending=False, kind="stable").to_markdown(floatfmt=".1f"))
    tests = rows.groupby(["test", "phase"])[["cpu_s", "children_cpu_s", "wall_s"]].sum()
    print()
    print(tests.sort_index().sort_values("cpu_s", ascending=False, kind="stable").head(top).to_markdown(floatfmt=".1f"))


if __name__ == "__main__":
    summarize(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_CSV)
