"""Shared pytest fixtures."""

import os

import pytest

from fixtures.http_server import LocalHTTPServer, RefusedAddress
from fixtures.workflow import ROOT, TINY, BackgroundRun, snakemake

# The tests' own UMAP fits and numba kernels use the numba cache the workflow runs of this
# checkout use (workflow/rules/common.smk sets the same directory): the session and its
# background runs compile UMAP's ~260 functions once between them, not once each. Set
# before any test module imports numba, which reads it then.
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".snakemake" / "numba"))

#: The session's long workflow runs: fixture name -> (directory name, config file).
#: Each starts as soon as the session's first test does, if a selected test uses it, so
#: the runs (several minutes on 2 cores) overlap the quick tests instead of following them.
LONG_RUNS = {
    "tiny_run": ("tiny_run", TINY),
    "rehearsal_run": ("rehearsal", ROOT / "config" / "rehearsal.yaml"),
}


@pytest.fixture
def http_server(monkeypatch):
    """A real HTTP server on 127.0.0.1 (see ``tests/fixtures/http_server.py``).

    ``.serve(path, data, fault=None, times=None)``, ``.url(path)``, ``.requests``,
    ``.count(path)``. Proxies configured in the environment are bypassed for it.
    """
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")
    with LocalHTTPServer() as server:
        yield server


@pytest.fixture
def refused_server(monkeypatch):
    """A 127.0.0.1 port with nothing listening: ``.url(path)`` is refused at once."""
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")
    with RefusedAddress() as address:
        yield address


def pytest_collection_modifyitems(config, items):
    """Tests of the rehearsal's run last: it is the longest run, started in the background."""
    items.sort(key=lambda item: "rehearsal_run" in getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session", autouse=True)
def _long_runs(request, tmp_path_factory):
    """{fixture name: BackgroundRun} of the LONG_RUNS some selected test uses, started now."""
    used = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
    runs = {name: BackgroundRun(tmp_path_factory.mktemp(directory), configfile=configfile)
            for name, (directory, configfile) in LONG_RUNS.items() if name in used}
    yield runs
    for run in runs.values():
        run.stop()


def _finished(runs, name):
    run = runs[name]
    run.wait()
    return run.workdir


@pytest.fixture(scope="session")
def tiny_run(_long_runs):
    """Working directory of one local run of the tiny config (tests/config/tiny.yaml)."""
    return _finished(_long_runs, "tiny_run")


@pytest.fixture(scope="session")
def rehearsal_run(_long_runs):
    """Working directory of one local run of config/rehearsal.yaml (replicas, offline)."""
    return _finished(_long_runs, "rehearsal_run")


@pytest.fixture(scope="session")
def tiny_report(tiny_run):
    """``results/report.html`` of the tiny run (``snakemake --report``), built once."""
    snakemake(tiny_run, "--report", "results/report.html")
    return tiny_run / "results" / "report.html"
