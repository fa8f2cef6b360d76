"""A job's BLAS and OpenMP pools use the threads its rule gives it (`threads:`), not every
core of the node: the script limits them around its work (threadpoolctl)."""

import logging
import runpy
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from fixtures.workflow import Named, tiny_config
from threadpoolctl import threadpool_info, threadpool_limits

import lowdim.data.pipeline as pipeline
from lowdim.settings import job_settings

SCRIPTS = Path(__file__).resolve().parents[1] / "workflow" / "scripts"



@pytest.fixture
def job_logging():
    """Undo what a script's first line (lowdim.log.log_to_file) does to this process."""
    hook, before = sys.excepthook, list(logging.getLogger("lowdim").handlers)
    yield
    for name in ("lowdim", "py.warnings", "gensim", "umap", "pynndescent"):
        for handler in set(logging.getLogger(name).handlers) - set(before):
            logging.getLogger(name).removeHandler(handler)
            handler.close()
    logging.captureWarnings(False)
    logging.getLogger("lowdim").propagate, sys.excepthook = True, hook


def test_prepare_limits_its_thread_pools_to_its_threads(tmp_path, monkeypatch, job_logging):
    seen = []

    def recording(*args, **kwargs):
        seen.append({pool["internal_api"]: pool["num_threads"] for pool in threadpool_info()})
        return real(*args, **kwargs)

    real = pipeline.prepare_dataset
    monkeypatch.setattr(pipeline, "prepare_dataset", recording)
    monkeypatch.chdir(tmp_path)
    job = job_settings(tiny_config(), "data", "prepare", dataset="digits")
    snakemake = SimpleNamespace(
        input=Named(raw=[]), output=Named(npz="digits.npz", summary="digits.summary.csv"),
        log=Named(log="prepare.log"), wildcards=Named(dataset="digits"),
        params=Named(settings=job.values(), config_keys=job.config_keys()), threads=1,
        rule="prepare")
    with threadpool_limits(limits=3):  # more than the job's, on any machine
        runpy.run_path(str(SCRIPTS / "prepare.py"), init_globals={"snakemake": snakemake})
    assert (tmp_path / "digits.npz").exists()
    assert len(seen) == 1 and seen[0], "no thread pool loaded: nothing to check"
    assert set(seen[0].values()) == {1}, seen[0]
