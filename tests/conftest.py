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


#: The benchmark scripts whose small runs tests/test_benchmarks.py checks: fixture name ->
#: (script in benchmarks/, its arguments; "{out}" is the run's directory, also its working
#: directory). Started in the background with the long runs: each is a fresh interpreter that
#: imports and compiles for 10-90 s of CPU, which the session's idle core can do beside the
#: in-process tests instead of after them.
BENCHMARK_RUNS = {
    "cca_appgrad_benchmark": ("cca_appgrad.py", "--quick", "--out", "{out}/appgrad.md"),
    "sms_wmd_benchmark": ("sms_wmd.py", "--n", "30", "--jobs", "1", "--block", "5", "10",
                          "--out", "{out}/wmd.md"),
    "sms_tasks_benchmark": ("sms_tasks.py", "--repeats", "1", "--out", "{out}/tasks.md"),
    # three methods, not all: each worker is a fresh interpreter (cca-zoo's import alone is
    # slow), and the report code is the same for every method
    "cca_scale_benchmark": ("cca_scale.py", "--case", "smoke", "--methods", "exact",
                            "sappgrad", "nw_cca", "--results", "{out}/scale.json", "--out",
                            "{out}/scale.md"),
    "kernel_cca_benchmark": ("kernel_cca.py", "--quick", "--out", "{out}/kernel_cca.md"),
    "vec2vec_benchmark": ("vec2vec_vs_umap.py", "peers", "--quick", "--dims", "2,10",
                          "--repeats", "2", "--skip", "pacmap,trimap,pymde", "--results",
                          "{out}/v.json", "--out", "{out}/v.md"),
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
    """Tests that read a run started in the background with the session (LONG_RUN_DIRECTORIES:
    the tiny run, the documentation build, the SLURM runs, the benchmark scripts) after the
    others, and those of the rehearsal's run last: meanwhile the in-process tests keep the
    session's process busy, while the background runs take the other core. Before, a test
    early in the alphabet waited 78 s for the documentation build, and the in-process tests
    after it ran on alone once every background run had ended.

    Each test's pytest-xdist group: the run of SHARED_DIRECTORIES it uses, else its module,
    so a module's module-scoped fixtures are set up by one worker, not by each."""
    def late(item):
        names = getattr(item, "fixturenames", ())
        return "rehearsal_run" in names, any(name in LONG_RUN_DIRECTORIES for name in names)

    items.sort(key=late)
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
    now: the LONG_RUNS (BackgroundRun), the documentation build (``docs_build``), the
    BENCHMARK_RUNS (``benchmark_run``) and the SLURM cluster run (a BackgroundClusterRun).
    Each is a subprocess that would otherwise hold up the session for minutes; started
    together, they overlap the quick in-process tests.

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
                        **{name: name for name in BENCHMARK_RUNS},
                        "built_docs": "docs", "slurm_run": "cluster_run"}


def _long_run(name, directory, start):
    """The background process of long run `name` in `directory`: started, or (``start=False``)
    the one another worker started there."""
    if name in LONG_RUNS:
        return BackgroundRun(directory, configfile=LONG_RUNS[name][1], start=start)
    if name == "built_docs":
        return docs_build(directory, start=start)
    if name in BENCHMARK_RUNS:
        return benchmark_run(name, directory, start=start)
    return BackgroundClusterRun(directory, start=start)


def benchmark_run(name, out, start=True):
    """BENCHMARK_RUNS[name] run in `out` against this checkout's library, started now."""
    script, *arguments = BENCHMARK_RUNS[name]
    command = [sys.executable, str(ROOT / "benchmarks" / script),
               *(argument.format(out=out) for argument in arguments)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return BackgroundProcess(command, cwd=out, outdir=out, env=env, prefix="benchmark_",
                             start=start)


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


def _benchmark_fixture(name):
    @pytest.fixture(scope="session", name=name)
    def finished_benchmark(_long_runs):
        """(directory, stdout) of the finished BENCHMARK_RUNS entry of this name."""
        run = _long_runs[name].wait()
        assert run.returncode == 0, run.stderr[-3000:]
        return _long_runs[name].outdir, run.stdout
    return finished_benchmark


# one session fixture per BENCHMARK_RUNS entry, named after it (a test asks for it by name,
# which is how _long_runs knows to start it)
for _name in BENCHMARK_RUNS:
    globals()[_name] = _benchmark_fixture(_name)


@pytest.fixture(scope="session")
def tiny_report(tiny_run):
    """``results/report.html`` of the tiny run (``snakemake --report``), built once."""
    snakemake(tiny_run, "--report", "results/report.html")
    return tiny_run / "results" / "report.html"
