"""Verified downloads: a partial or corrupt file never sits at the final path.

:func:`download` streams each :class:`~lowdim.data.RemoteFile` to a temporary
file next to its destination while hashing it, checks the size and SHA-256,
and only then renames it into place. Each address is tried ``retries`` times
with exponential backoff, then the mirrors in order; when all fail, one
:class:`DownloadError` lists every address and why it failed.

Files without a published checksum are pinned on their first verified
download in the lock file (:mod:`lowdim.data.lock`); later downloads and
cached copies must match the pin.

:func:`ensure_file` is what the workflow calls: it re-verifies a cached file
and replaces it if it is corrupt. Only the standard library is used
(``urllib.request``; ``http``, ``https`` and ``file`` addresses). Nothing
downloaded is ever unpickled.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

from ..io import atomic_path
from ..progress import Progress
from . import lock
from .registry import DatasetSpec, RemoteFile, get_spec

__all__ = ["DownloadError", "ChecksumError", "download", "verify_file", "ensure_file",
           "ensure_dataset_files", "sha256_file", "DEFAULT_RAW_ROOT"]

#: Where raw files live: ``<raw root>/<dataset>/<filename>`` (kept across ``results/`` wipes).
DEFAULT_RAW_ROOT = Path("resources/raw")

_LOG = logging.getLogger("lowdim.data")
_CHUNK = 1 << 20


def _user_agent() -> str:
    from .. import __version__

    return f"lowdim/{__version__} (Python urllib)"


class DownloadError(OSError):
    """No address of a file could be downloaded and verified.

    Attributes
    ----------
    attempts : list of (str, str)
        ``(url, reason)`` for every attempt, in order.
    """

    def __init__(self, message: str, attempts):
        super().__init__(message)
        self.attempts = list(attempts)

    def __str__(self):
        return self.args[0]


class ChecksumError(ValueError):
    """A file's size or SHA-256 differs from the published or pinned value.

    Attributes
    ----------
    dataset, filename : str
    expected, got : str
        Expected and actual digest (or size, for a size mismatch).
    """

    def __init__(self, message: str, *, dataset: str, filename: str, expected, got):
        super().__init__(message)
        self.dataset, self.filename = dataset, filename
        self.expected, self.got = expected, got


class _AttemptFailed(Exception):
    """One attempt on one address failed; ``retry`` says whether trying again may help."""

    def __init__(self, reason: str, retry: bool):
        super().__init__(reason)
        self.reason, self.retry = reason, retry


def sha256_file(path, chunk: int = _CHUNK) -> tuple[str, int]:
    """Return ``(hex SHA-256, size in bytes)`` of the file at ``path``."""
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def _expected(remote: RemoteFile, dataset: str, lockfile) -> tuple[str | None, int | None, str]:
    """The checksum and size to verify against, and where they come from."""
    if remote.sha256 is not None:
        return remote.sha256, remote.size, "registry"
    entry = lock.get_pin(dataset, remote.filename, lockfile)
    if entry is None:
        return None, remote.size, "unpinned"
    return entry["sha256"], remote.size if remote.size is not None else entry["size"], "lock file"


def _validate_args(timeout, retries, backoff):
    if not timeout > 0:
        raise ValueError(f"`timeout` must be > 0 seconds, got {timeout!r}")
    if not (isinstance(retries, int) and retries >= 1):
        raise ValueError(f"`retries` must be an int >= 1, got {retries!r}")
    if not backoff >= 0:
        raise ValueError(f"`backoff` must be >= 0 seconds, got {backoff!r}")


def download(remote: RemoteFile, dest, *, dataset: str, lockfile=None, timeout: float = 30.0,
             retries: int = 3, backoff: float = 0.5) -> Path:
    """Download ``remote`` to ``dest``, verified, trying each address in turn.

    Parameters
    ----------
    remote : RemoteFile
        What to fetch: addresses (primary first), SHA-256 and size if known.
    dest : str or Path
        Final path. Replaced atomically on success; untouched on failure.
    dataset : str
        Registry name, used in messages and as the lock-file key.
    lockfile : path, optional
        Lock file for checksums pinned on first download (used when
        ``remote.sha256`` is None). Defaults to ``config/downloads.lock.json``.
    timeout : float, default=30.0
        Seconds allowed for connecting and for each read of the socket.
    retries : int, default=3
        Attempts per address. HTTP 4xx (but 408/429), missing local files and
        size or checksum mismatches are not retried on the same address.
    backoff : float, default=0.5
        Seconds before the second attempt on an address; doubled each time.

    Returns
    -------
    dest : Path

    Raises
    ------
    DownloadError
        If no address gave a verified file; the message lists every address
        and the reason it failed, ``.attempts`` holds ``(url, reason)`` pairs.
    """
    _validate_args(timeout, retries, backoff)
    dest = Path(dest)
    attempts: list[tuple[str, str]] = []
    for url in remote.urls:
        for attempt in range(retries):
            if attempt and backoff:
                time.sleep(backoff * 2 ** (attempt - 1))
            try:
                _attempt(remote, url, dest, dataset=dataset, lockfile=lockfile, timeout=timeout)
                return dest
            except _AttemptFailed as exc:
                attempts.append((url, exc.reason))
                _LOG.warning("download %s/%s: attempt %d/%d from %s failed: %s", dataset,
                             remote.filename, attempt + 1, retries, url, exc.reason)
                if not exc.retry:
                    break
    raise DownloadError(_failure_message(remote, dataset, attempts), attempts)


def _attempt(remote, url, dest, *, dataset, lockfile, timeout):
    """Fetch ``url`` to a temporary file, verify it and rename it onto ``dest``."""
    sha256, size, origin = _expected(remote, dataset, lockfile)
    with atomic_path(dest) as tmp:
        got_sha, got_size = _fetch(url, tmp, expected_size=size, timeout=timeout,
                                   desc=f"download {dataset}/{remote.filename} from {url}")
        if size is not None and got_size != size:
            raise _AttemptFailed(f"size mismatch: expected {size} bytes, got {got_size}"
                                 f" ({origin})", retry=False)
        if sha256 is None:
            entry = lock.pin(dataset, remote.filename, sha256=got_sha, size=got_size, url=url,
                             lockfile=lockfile)
            sha256, origin = entry["sha256"], "lock file"
        if got_sha != sha256:
            raise _AttemptFailed(f"checksum mismatch: expected {sha256} got {got_sha} "
                                 f"({origin})", retry=False)
    _LOG.info("download %s/%s: verified sha256 %s, saved to %s", dataset, remote.filename,
              got_sha, dest)


def _fetch(url, tmp, *, expected_size, timeout, desc) -> tuple[str, int]:
    """Stream ``url`` into ``tmp``; return (sha256, bytes). Raises _AttemptFailed."""
    request = urllib.request.Request(url, headers={"User-Agent": _user_agent()})
    got = 0
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            announced = _content_length(response)
            if expected_size is not None and announced is not None and announced != expected_size:
                raise _AttemptFailed(f"size mismatch: server announces {announced} bytes, "
                                     f"expected {expected_size}", retry=False)
            total = expected_size if expected_size is not None else announced
            digest = hashlib.sha256()
            with open(tmp, "wb") as out, Progress(desc, total=total, unit="bytes",
                                                  logger=_LOG) as progress:
                while block := response.read(_CHUNK):
                    digest.update(block)
                    out.write(block)
                    got += len(block)
                    progress.update(len(block))
    except _AttemptFailed:
        raise
    except Exception as exc:  # network errors come in many types; classify, never swallow
        reason, retry = _describe(exc, timeout, got)
        raise _AttemptFailed(reason, retry) from exc
    if announced is not None and got < announced:
        raise _AttemptFailed(f"truncated: got {got} of {announced} bytes", retry=True)
    if expected_size is not None and got < expected_size:
        raise _AttemptFailed(f"truncated: got {got} of {expected_size} bytes", retry=True)
    return digest.hexdigest(), got


def _content_length(response) -> int | None:
    value = response.headers.get("Content-Length")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _describe(exc: BaseException, timeout: float, got: int) -> tuple[str, bool]:
    """A short human reason for a failed attempt, and whether to retry the address."""
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}", exc.code >= 500 or exc.code in (408, 429)
    if isinstance(exc, urllib.error.URLError) and isinstance(exc.reason, BaseException):
        exc = exc.reason
    elif isinstance(exc, urllib.error.URLError):  # e.g. "unknown url type": permanent
        return f"{exc.reason}", False
    if isinstance(exc, (TimeoutError, socket.timeout)):
        where = f" after {got} bytes" if got else ""
        return f"timed out (no data for {timeout:g} s){where}", True
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused", True
    if isinstance(exc, http.client.IncompleteRead):
        return f"truncated: connection closed after {got} bytes ({exc!r})", True
    if isinstance(exc, http.client.RemoteDisconnected):
        return "server closed the connection without a response", True
    if isinstance(exc, socket.gaierror):
        return f"name resolution failed: {exc}", True
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {exc.filename or exc}", False
    if isinstance(exc, ConnectionError):
        return f"connection error: {exc}", True
    if isinstance(exc, (OSError, http.client.HTTPException)):
        return f"{type(exc).__name__}: {exc}", True
    if isinstance(exc, ValueError):  # urllib's "unknown url type", malformed addresses
        return f"invalid address: {exc}", False
    raise exc


def _failure_message(remote, dataset, attempts) -> str:
    lines = [f"could not download {remote.filename!r} of dataset {dataset!r}: all "
             f"{len(remote.urls)} address(es) failed"]
    for url in remote.urls:
        reasons = [r for u, r in attempts if u == url]
        distinct = list(dict.fromkeys(reasons))
        tries = f" ({len(reasons)} attempts)" if len(reasons) > 1 else ""
        lines.append(f"  - {url}: {'; '.join(distinct)}{tries}")
    return "\n".join(lines)


def verify_file(path, remote: RemoteFile, *, dataset: str, lockfile=None) -> str:
    """Check the file at ``path`` against the published or pinned size and SHA-256.

    A file with neither a published checksum nor a pin (e.g. copied in by
    hand for an offline machine) is pinned now, after its size is checked.

    Returns
    -------
    sha256 : str
        The file's hex digest.

    Raises
    ------
    ChecksumError
        If the size or the digest differs; the message names the dataset, the
        file, the expected and the actual value.
    FileNotFoundError
        If ``path`` does not exist.
    """
    path = Path(path)
    sha256, size, origin = _expected(remote, dataset, lockfile)
    got_sha, got_size = sha256_file(path)
    where = f"dataset {dataset!r}, file {remote.filename!r} at {str(path)!r}"
    if size is not None and got_size != size:
        raise ChecksumError(f"{where}: size mismatch: expected {size} bytes ({origin}), "
                            f"got {got_size}", dataset=dataset, filename=remote.filename,
                            expected=size, got=got_size)
    if sha256 is None:
        entry = lock.pin(dataset, remote.filename, sha256=got_sha, size=got_size,
                         url=path.resolve().as_uri(), lockfile=lockfile)
        sha256, origin = entry["sha256"], "lock file"
    if got_sha != sha256:
        raise ChecksumError(f"{where}: checksum mismatch: expected sha256 {sha256} ({origin}), "
                            f"got {got_sha}", dataset=dataset, filename=remote.filename,
                            expected=sha256, got=got_sha)
    return got_sha


def ensure_file(remote: RemoteFile, dest, *, dataset: str, lockfile=None,
                **download_kwargs) -> Path:
    """Return ``dest`` holding a verified copy of ``remote``, downloading if needed.

    A cached file is re-verified before use; a corrupt one is logged as a
    warning, removed and downloaded again (never used).

    Parameters
    ----------
    remote, dest, dataset, lockfile
        As for :func:`download`.
    **download_kwargs
        ``timeout``, ``retries``, ``backoff`` passed to :func:`download`.

    Returns
    -------
    dest : Path
    """
    dest = Path(dest)
    if dest.exists():
        try:
            verify_file(dest, remote, dataset=dataset, lockfile=lockfile)
            _LOG.info("%s/%s: cached copy at %s verified", dataset, remote.filename, dest)
            return dest
        except ChecksumError as exc:
            _LOG.warning("%s; removing it and downloading again", exc)
            dest.unlink()
    return download(remote, dest, dataset=dataset, lockfile=lockfile, **download_kwargs)


def ensure_dataset_files(dataset: str | DatasetSpec, raw_root=DEFAULT_RAW_ROOT, *, lockfile=None,
                         **download_kwargs) -> dict[str, Path]:
    """Verified local copies of every file of a dataset, for :meth:`DatasetSpec.prepare`.

    Parameters
    ----------
    dataset : str or DatasetSpec
        Registry name or spec.
    raw_root : str or Path, default="resources/raw"
        Files go to ``raw_root/<dataset>/<filename>``.
    lockfile : path, optional
        As for :func:`download`.
    **download_kwargs
        ``timeout``, ``retries``, ``backoff``.

    Returns
    -------
    raw_files : dict of str -> Path
        ``{filename: path}`` (empty for embedded and synthetic datasets).
    """
    spec = dataset if isinstance(dataset, DatasetSpec) else get_spec(dataset)
    directory = Path(raw_root) / spec.name
    return {remote.filename: ensure_file(remote, directory / remote.filename, dataset=spec.name,
                                         lockfile=lockfile, **download_kwargs)
            for remote in spec.files}
