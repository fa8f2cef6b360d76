"""Shared pytest fixtures."""

import pytest

from fixtures.http_server import LocalHTTPServer, RefusedAddress


@pytest.fixture
def http_server():
    """A real HTTP server on 127.0.0.1 (see ``tests/fixtures/http_server.py``).

    ``.serve(path, data, fault=None, times=None)``, ``.url(path)``, ``.requests``,
    ``.count(path)``.
    """
    with LocalHTTPServer() as server:
        yield server


@pytest.fixture
def refused_server():
    """A 127.0.0.1 port with nothing listening: ``.url(path)`` is refused at once."""
    with RefusedAddress() as address:
        yield address
