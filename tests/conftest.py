"""Shared pytest fixtures."""

import pytest

from fixtures.http_server import LocalHTTPServer, RefusedAddress
from fixtures.workflow import snakemake


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


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """Working directory of one local run of the tiny config (tests/config/tiny.yaml)."""
    workdir = tmp_path_factory.mktemp("tiny_run")
    snakemake(workdir)
    return workdir
