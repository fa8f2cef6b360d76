"""Shared pytest fixtures."""

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

from fixtures.cluster_run import BackgroundClusterRun
from fixtures.http_server import LocalHTTPServer, RefusedAddress
from fixtures.slurm_cluster import missing_requirements
from fixtures.workflow import ROOT, TINY, BackgroundProcess, BackgroundRun, snakemake

# The tests' own UMAP fits and numba kernels use the numba cache the workflow runs of this
# checkout use (workflow/rules/common.smk sets the same directory): the session and its
# background runs compile UMAP's ~260 functions once between them, not once each. Set
# before any test module imports numba, which reads it then.
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".snakemake" / "numba"))

#: Hypothesis on 2 cores shared with the session's background workflow runs: no deadline and
#: no too-slow health check (a loaded core makes any example slow, which says nothing about
#: the code), and 10 examples a test (hypothesis' default is 100; the 247 bad-input rows drew
#: 15 each before), fresh on each run so that runs together cover more of each strategy; a
#: failure prints the blob that reproduces it (``@reproduce_failure``).
#: ``HYPOTHESIS_PROFILE=thorough`` draws 200 a test, for a search.
settings.register_profile("lowdim", max_examples=10, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", parent=settings.get_profile("lowdim"), max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "lowdim"))

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


#: The runs whose tests may run snakemake again in the run's directory: pytest-xdist sends
#: each run's tests to one worker, as one group (``--dist loadgroup``, pyproject.toml).
SHARED_DIRECTORIES = ("tiny_run", "rehearsal_run")


def pytest_collection_modifyitems(config, items):
    """Tests of the rehearsal's run last: it is the longest run, started in the background.

    Each test's pytest-xdist group: the run of SHARED_DIRECTORIES it uses, else its module,
    so a module's module-scoped fixtures are set up by one worker, not by each."""
    items.sort(key=lambda item: "rehearsal_run" in getattr(item, "fixturenames", ()))
    for item in items:
        names = getattr(item, "fixturenames", ())
        group = next((run for run in SHARED_DIRECTORIES if run in names),
                     item.nodeid.split("::")[0])
        item.add_marker(pytest.mark.xdist_group(group))


def docs_build(out, start=True):
    """``sphinx-build -W --keep-going -b html docs <out>/html`` (docs/install.md's command,
    into `out`), started now (tests/test_docs.py reads the site)."""
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q",
               "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")]
    return BackgroundProcess(command, cwd=ROOT, outdir=out, start=start)


@pytest.fixture(scope="session", autouse=True)
def _long_runs(request, tmp_path_factory):
    """{fixture name: background process} of the long runs some selected test uses, started
    now: the LONG_RUNS (BackgroundRun), the documentation build (``docs_build``) and the
    SLURM cluster run (a BackgroundClusterRun). Each is a subprocess that would otherwise hold
    up the session for minutes; started together, they overlap the quick in-process tests.

    Under pytest-xdist each run starts once for all workers: the first worker to create its
    directory under the session's shared temporary directory starts it, the others wait for
    what it leaves there; a worker that started a run waits for it to end before its own
    session ends (another worker may still need it), unless the session is stopping."""
    used = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
    if missing_requirements():   # the cluster tests skip themselves
        used.discard("slurm_run")
    root, shared = _shared_temp(tmp_path_factory)
    runs, started = {}, []
    for name in sorted(used & LONG_RUN_DIRECTORIES.keys()):
        directory = root / LONG_RUN_DIRECTORIES[name]
        try:
            directory.mkdir()
        except FileExistsError:   # another worker's
            runs[name] = _long_run(name, directory, start=False)
        else:
            runs[name] = _long_run(name, directory, start=True)
            started.append(runs[name])
    yield runs
    session = request.session
    for run in started:
        if shared and not (session.shouldstop or session.shouldfail):
            run.finish()
        run.stop()


#: The long runs' directories under the session's (shared) temporary directory.
LONG_RUN_DIRECTORIES = {**{name: directory for name, (directory, _) in LONG_RUNS.items()},
                        "built_docs": "docs", "slurm_run": "cluster_run"}


def _long_run(name, directory, start):
    """The background process of long run `name` in `directory`: started, or (``start=False``)
    the one another worker started there."""
    if name in LONG_RUNS:
        return BackgroundRun(directory, configfile=LONG_RUNS[name][1], start=start)
    if name == "built_docs":
        return docs_build(directory, start=start)
    return BackgroundClusterRun(directory, start=start)


def _shared_temp(tmp_path_factory):
    """(directory the session's workers share, whether there are several workers)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return base.parent, True   # xdist: <session's basetemp>/<worker id>
    return base, False


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
