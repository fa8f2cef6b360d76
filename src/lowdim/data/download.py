"""Verified downloads: a partial or corrupt file never sits at the final path.

:func:`download` streams each :class:`~lowdim.data.RemoteFile` to a temporary
file next to its destination while hashing it, checks the size and SHA-256,
and only then renames it into place. Each address is tried ``retries`` times
with exponential backoff, then the mirrors in order; when all fail, one
:class:`DownloadError` lists every address and why it failed.

*Mirrors* (``mirrors=``, the workflow's ``resources.mirrors``) are base
addresses tried before the registry's own, laid out as
``<base>/<dataset>/<filename>``: an institutional mirror, or a directory
holding an already-downloaded copy.

Files without a published checksum are pinned on their first verified
download in the lock file (:mod:`lowdim.data.lock`); later downloads and
cached copies must match the pin. Only a whole file is pinned: an archive or
compressed file must first pass the integrity check of its container
(:mod:`lowdim.data.integrity`), so a truncated first download is retried,
never pinned. Files with no container (plain text) are pinned only after the
dataset's parser has accepted them (:func:`pin_parsed`).

A *replica manifest* (``checksums=``, from :mod:`lowdim.data.replicas`) gives
the checksums of format-exact replicas; only the rehearsal profile passes one.

:func:`download` is what the workflow's download rule calls;
:func:`verify_dataset_files` is what ``prepare`` calls: it verifies the local
copies and never downloads. :func:`ensure_file` (for library users) re-verifies
a cached file and replaces it if it is corrupt. Only the standard library is
used (``urllib.request``; ``http``, ``https`` and ``file`` addresses). Nothing
downloaded is ever unpickled.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from .._validation import ArgumentValueError
from ..io import atomic_path
from ..progress import Progress
from . import lock
from .integrity import CorruptFileError, check_container
from .registry import DatasetSpec, RemoteFile, get_spec

__all__ = ["DownloadError", "ChecksumError", "RawFileError", "download", "verify_file",
           "ensure_file", "ensure_dataset_files", "verify_dataset_files", "pin_parsed",
           "mirror_urls", "sha256_file", "DEFAULT_RAW_ROOT"]

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

    Examples
    --------
    >>> from lowdim.data import DownloadError, RemoteFile, download
    >>> remote = RemoteFile("x.txt", urls=((tmp / "missing.txt").as_uri(),), sha256="0" * 64)
    >>> try:
    ...     download(remote, tmp / "x.txt", dataset="toy", retries=1)
    ... except DownloadError as err:
    ...     print(len(err.attempts), (tmp / "x.txt").exists())
    1 False
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

    Examples
    --------
    >>> from lowdim.data import ChecksumError, verify_file
    >>> _ = (tmp / "hello.txt").write_text("hellO")   # one letter off
    >>> try:
    ...     verify_file(tmp / "hello.txt", hello_remote, dataset="toy")
    ... except ChecksumError as err:
    ...     print(err.filename, err.expected == hello_remote.sha256, err.got == err.expected)
    hello.txt True False
    """

    def __init__(self, message: str, *, dataset: str, filename: str, expected, got):
        super().__init__(message)
        self.dataset, self.filename = dataset, filename
        self.expected, self.got = expected, got


class RawFileError(OSError):
    """A raw file that ``prepare`` needs is missing or fails verification.

    The message names the file, why, and how to fetch it again.

    Examples
    --------
    >>> from lowdim.data import RawFileError, verify_dataset_files
    >>> try:
    ...     verify_dataset_files("mnist", raw_root=tmp)
    ... except RawFileError as err:
    ...     print("train-images-idx3-ubyte.gz" in str(err))
    True
    """


class _AttemptFailed(Exception):
    """One attempt on one address failed; ``retry`` says whether trying again may help."""

    def __init__(self, reason: str, retry: bool):
        super().__init__(reason)
        self.reason, self.retry = reason, retry


def sha256_file(path, chunk: int = _CHUNK) -> tuple[str, int]:
    """Return ``(hex SHA-256, size in bytes)`` of the file at ``path``.

    Examples
    --------
    >>> from lowdim.data import sha256_file
    >>> path = tmp / "abc.txt"
    >>> _ = path.write_bytes(b"abc")
    >>> sha256_file(path)
    ('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 3)
    """
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def mirror_urls(mirrors, dataset: str, filename: str) -> list[str]:
    """Addresses ``<base>/<dataset>/<filename>`` of ``filename`` on each mirror, in order.

    Parameters
    ----------
    mirrors : sequence of str
        Base addresses: ``http://``, ``https://`` or ``file://`` URLs, or local
        directories (absolute, or relative to the working directory), which
        become ``file://`` URLs.
    dataset, filename : str

    Raises
    ------
    ValueError
        If a base has another scheme (e.g. ``ftp://``).

    Examples
    --------
    >>> from lowdim.data.download import mirror_urls
    >>> mirror_urls(["https://mirror.example.org/lowdim", "/srv/raw"], "mnist", "t10k-labels-idx1-ubyte.gz")
    ['https://mirror.example.org/lowdim/mnist/t10k-labels-idx1-ubyte.gz', 'file:///srv/raw/mnist/t10k-labels-idx1-ubyte.gz']
    """
    urls = []
    for base in mirrors:
        base = str(base)
        scheme = base.split("://", 1)[0] if "://" in base else ""
        if scheme in ("http", "https", "file"):
            quoted = urllib.parse.quote(f"{dataset}/{filename}")
            urls.append(f"{base.rstrip('/')}/{quoted}")
        elif scheme:
            raise ValueError(f"mirror {base!r}: the scheme must be http, https or file "
                             f"(or give a local directory), got {scheme!r}")
        else:
            urls.append((Path(base).resolve() / dataset / filename).as_uri())
    return urls


def _expected(remote: RemoteFile, dataset: str, lockfile,
              checksums=None) -> tuple[str | None, int | None, str]:
    """The checksum and size to verify against, and where they come from."""
    replica = (checksums or {}).get(dataset, {}).get(remote.filename)
    if replica is not None:
        return replica["sha256"], replica["size"], "replica manifest"
    if remote.sha256 is not None:
        return remote.sha256, remote.size, "registry"
    entry = lock.get_pin(dataset, remote.filename, lockfile)
    if entry is None:
        return None, remote.size, "unpinned"
    return entry["sha256"], remote.size if remote.size is not None else entry["size"], "lock file"


def _validate_args(timeout, retries, backoff):
    if not timeout > 0:
        raise ArgumentValueError(f"`timeout` must be > 0 seconds, got {timeout!r}", "timeout")
    if not (isinstance(retries, int) and retries >= 1):
        raise ArgumentValueError(f"`retries` must be an int >= 1, got {retries!r}", "retries")
    if not backoff >= 0:
        raise ArgumentValueError(f"`backoff` must be >= 0 seconds, got {backoff!r}", "backoff")


def download(remote: RemoteFile, dest, *, dataset: str, lockfile=None, timeout: float = 30.0,
             retries: int = 3, backoff: float = 0.5, mirrors=(), checksums=None) -> Path:
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
    mirrors : sequence of str, default=()
        Base addresses tried first, in order (see :func:`mirror_urls`).
    checksums : dict, optional
        A replica manifest ``{dataset: {filename: {"sha256", "size"}}}``
        (:func:`lowdim.data.replicas.read_manifest`); its entries replace the
        registry's and the lock file's. Only for rehearsals on replicas.

    Returns
    -------
    dest : Path

    Raises
    ------
    DownloadError
        If no address gave a verified file; the message lists every address
        and the reason it failed, ``.attempts`` holds ``(url, reason)`` pairs.

    Examples
    --------
    >>> from lowdim.data import download
    >>> hello_remote.urls[0].startswith("file://")   # a local address: no network needed
    True
    >>> path = download(hello_remote, tmp / "raw" / "hello.txt", dataset="toy")
    >>> path.name, path.read_text()
    ('hello.txt', 'hello')
    """
    _validate_args(timeout, retries, backoff)
    dest = Path(dest)
    attempts: list[tuple[str, str]] = []
    urls = mirror_urls(mirrors, dataset, remote.filename) + list(remote.urls)
    for url in urls:
        for attempt in range(retries):
            if attempt and backoff:
                time.sleep(backoff * 2 ** (attempt - 1))
            try:
                _attempt(remote, url, dest, dataset=dataset, lockfile=lockfile, timeout=timeout,
                         checksums=checksums)
                return dest
            except _AttemptFailed as exc:
                attempts.append((url, exc.reason))
                _LOG.warning("download %s/%s: attempt %d/%d from %s failed: %s", dataset,
                             remote.filename, attempt + 1, retries, url, exc.reason)
                if not exc.retry:
                    break
    raise DownloadError(_failure_message(remote, dataset, attempts, urls), attempts)


def _attempt(remote, url, dest, *, dataset, lockfile, timeout, checksums):
    """Fetch ``url`` to a temporary file, verify it and rename it onto ``dest``."""
    sha256, size, origin = _expected(remote, dataset, lockfile, checksums)
    with atomic_path(dest) as tmp:
        got_sha, got_size = _fetch(url, tmp, expected_size=size, timeout=timeout,
                                   desc=f"download {dataset}/{remote.filename} from {url}")
        if size is not None and got_size != size:
            raise _AttemptFailed(f"size mismatch: expected {size} bytes, got {got_size}"
                                 f" ({origin})", retry=False)
        if sha256 is None:
            sha256, origin = _pin_if_whole(tmp, remote, dataset, got_sha, got_size, url,
                                           lockfile)
        if sha256 is not None and got_sha != sha256:
            raise _AttemptFailed(f"checksum mismatch: expected {sha256} got {got_sha} "
                                 f"({origin})", retry=False)
    _LOG.info("download %s/%s: sha256 %s (%s), saved to %s", dataset, remote.filename,
              got_sha, origin, dest)


def _pin_if_whole(path, remote, dataset, got_sha, got_size, url, lockfile):
    """Pin a download with no expected checksum if its container is whole.

    Returns the checksum now in effect and its origin: the pin (ours, or one
    another job made first), or ``(None, "unpinned")`` for a file with no
    container to check, which :func:`pin_parsed` pins once it has been parsed.
    """
    try:
        whole = check_container(path, remote.filename)
    except CorruptFileError as exc:  # a truncated transfer: try again, pin nothing
        raise _AttemptFailed(f"incomplete or corrupt file: {exc}", retry=True) from exc
    if not whole:
        _LOG.info("download %s/%s: no checksum and no container to check; it is pinned "
                  "once its parser accepts it", dataset, remote.filename)
        return None, "unpinned"
    entry = lock.pin(dataset, remote.filename, sha256=got_sha, size=got_size, url=url,
                     lockfile=lockfile)
    return entry["sha256"], "lock file"


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


def _failure_message(remote, dataset, attempts, urls) -> str:
    lines = [f"could not download {remote.filename!r} of dataset {dataset!r}: all "
             f"{len(urls)} address(es) failed"]
    for url in urls:
        reasons = [r for u, r in attempts if u == url]
        distinct = list(dict.fromkeys(reasons))
        tries = f" ({len(reasons)} attempts)" if len(reasons) > 1 else ""
        lines.append(f"  - {url}: {'; '.join(distinct)}{tries}")
    return "\n".join(lines)


def verify_file(path, remote: RemoteFile, *, dataset: str, lockfile=None, checksums=None,
                pin: bool = True) -> str:
    """Check the file at ``path`` against the expected size and SHA-256.

    The expected values come from a replica manifest (``checksums``), the
    registry or the lock file, in that order. A file with none of them (e.g.
    copied in by hand for an offline machine) must pass the integrity check of
    its container; it is then pinned if ``pin`` (a file with no container to
    check is left for :func:`pin_parsed`).

    Returns
    -------
    sha256 : str
        The file's hex digest.

    Raises
    ------
    ChecksumError
        If the size or the digest differs, or an unpinned file's container is
        truncated or corrupt; the message names the dataset, the file, the
        expected and the actual value.
    FileNotFoundError
        If ``path`` does not exist.

    Examples
    --------
    >>> from lowdim.data import RemoteFile, sha256_file
    >>> source = tmp / "served.txt"
    >>> _ = source.write_text("hello")
    >>> digest, size = sha256_file(source)
    >>> remote = RemoteFile("hello.txt", urls=(source.as_uri(),), sha256=digest, size=size)
    >>> from lowdim.data import verify_file
    >>> verify_file(source, remote, dataset="toy") == digest
    True
    """
    path = Path(path)
    sha256, size, origin = _expected(remote, dataset, lockfile, checksums)
    got_sha, got_size = sha256_file(path)
    where = f"dataset {dataset!r}, file {remote.filename!r} at {str(path)!r}"
    if size is not None and got_size != size:
        raise ChecksumError(f"{where}: size mismatch: expected {size} bytes ({origin}), "
                            f"got {got_size}", dataset=dataset, filename=remote.filename,
                            expected=size, got=got_size)
    if sha256 is None:
        try:
            whole = check_container(path, remote.filename)
        except CorruptFileError as exc:
            raise ChecksumError(f"{where}: no checksum to compare with, and {exc}",
                                dataset=dataset, filename=remote.filename,
                                expected="a whole container", got="truncated or corrupt") \
                from exc
        if not (whole and pin):
            return got_sha
        entry = lock.pin(dataset, remote.filename, sha256=got_sha, size=got_size,
                         url=path.resolve().as_uri(), lockfile=lockfile)
        sha256, origin = entry["sha256"], "lock file"
    if got_sha != sha256:
        raise ChecksumError(f"{where}: checksum mismatch: expected sha256 {sha256} ({origin}), "
                            f"got {got_sha}", dataset=dataset, filename=remote.filename,
                            expected=sha256, got=got_sha)
    return got_sha


def ensure_file(remote: RemoteFile, dest, *, dataset: str, lockfile=None, checksums=None,
                **download_kwargs) -> Path:
    """Return ``dest`` holding a verified copy of ``remote``, downloading if needed.

    A cached file is re-verified before use; a corrupt one is logged as a
    warning, removed and downloaded again (never used).

    Parameters
    ----------
    remote, dest, dataset, lockfile, checksums
        As for :func:`download`.
    **download_kwargs
        ``timeout``, ``retries``, ``backoff``, ``mirrors`` passed to :func:`download`.

    Returns
    -------
    dest : Path

    Examples
    --------
    >>> from lowdim.data import ensure_file
    >>> path = ensure_file(hello_remote, tmp / "hello.txt", dataset="toy")
    >>> path.read_text()
    'hello'
    >>> ensure_file(hello_remote, path, dataset="toy") == path  # verified, kept
    True
    """
    dest = Path(dest)
    if dest.exists():
        try:
            verify_file(dest, remote, dataset=dataset, lockfile=lockfile, checksums=checksums)
            _LOG.info("%s/%s: cached copy at %s verified", dataset, remote.filename, dest)
            return dest
        except ChecksumError as exc:
            _LOG.warning("%s; removing it and downloading again", exc)
            dest.unlink()
    return download(remote, dest, dataset=dataset, lockfile=lockfile, checksums=checksums,
                    **download_kwargs)


def ensure_dataset_files(dataset: str | DatasetSpec, raw_root=DEFAULT_RAW_ROOT, *, lockfile=None,
                         checksums=None, **download_kwargs) -> dict[str, Path]:
    """Verified local copies of every file of a dataset, downloaded if needed (library use).

    Parameters
    ----------
    dataset : str or DatasetSpec
        Registry name or spec.
    raw_root : str or Path, default="resources/raw"
        Files go to ``raw_root/<dataset>/<filename>``.
    lockfile, checksums : optional
        As for :func:`download`.
    **download_kwargs
        ``timeout``, ``retries``, ``backoff``, ``mirrors``.

    Returns
    -------
    raw_files : dict of str -> Path
        ``{filename: path}`` (empty for embedded and synthetic datasets).

    Examples
    --------
    >>> from lowdim.data import ensure_dataset_files, get_spec
    >>> from lowdim.data.replicas import read_manifest, write_mirror
    >>> manifest = write_mirror(tmp / "mirror", ["web_snippets"])  # a local mirror of replicas
    >>> files = ensure_dataset_files("web_snippets", tmp / "raw", mirrors=[str(tmp / "mirror")],
    ...                              checksums=manifest["files"], retries=1)
    >>> sorted(files), get_spec("web_snippets").prepare(files).kind
    (['data-web-snippets.tar.gz'], 'text')
    >>> ensure_dataset_files("digits")  # shipped with scikit-learn: nothing to download
    {}
    """
    spec = dataset if isinstance(dataset, DatasetSpec) else get_spec(dataset)
    directory = Path(raw_root) / spec.name
    return {remote.filename: ensure_file(remote, directory / remote.filename, dataset=spec.name,
                                         lockfile=lockfile, checksums=checksums,
                                         **download_kwargs)
            for remote in spec.files}


def verify_dataset_files(dataset: str | DatasetSpec, raw_root=DEFAULT_RAW_ROOT, *,
                         lockfile=None, checksums=None) -> dict[str, Path]:
    """Verified local copies of every file of a dataset; never downloads.

    What the workflow's ``prepare`` runs: downloads happen only in the
    ``download`` rule (on a cluster, a compute job must not reach the network).

    Returns
    -------
    raw_files : dict of str -> Path

    Raises
    ------
    RawFileError
        If a file is missing or fails verification: one message naming the
        file, why, and how to fetch it again.

    Examples
    --------
    >>> from lowdim.data import verify_dataset_files
    >>> from lowdim.data.replicas import write_mirror
    >>> manifest = write_mirror(tmp / "raw", ["web_snippets"])   # laid out as <dataset>/<file>
    >>> files = verify_dataset_files("web_snippets", tmp / "raw", checksums=manifest["files"])
    >>> sorted(files)
    ['data-web-snippets.tar.gz']
    """
    spec = dataset if isinstance(dataset, DatasetSpec) else get_spec(dataset)
    directory = Path(raw_root) / spec.name
    raw = {}
    for remote in spec.files:
        path = directory / remote.filename
        try:
            verify_file(path, remote, dataset=spec.name, lockfile=lockfile, checksums=checksums,
                        pin=False)
        except (ChecksumError, FileNotFoundError) as exc:
            why = "is missing" if isinstance(exc, FileNotFoundError) else f"fails verification: {exc}"
            raise RawFileError(f"dataset {spec.name!r}: raw file {str(path)!r} {why}. Fetch it "
                               f"again with `snakemake --cores 1 --force {path}` (and the "
                               f"--configfile of this run), or delete it and rerun") from exc
        raw[remote.filename] = path
    return raw


def pin_parsed(dataset: str | DatasetSpec, raw_files, *, lockfile=None, checksums=None) -> list:
    """Pin the files of a dataset that have no checksum yet, now that its parser accepted them.

    Call after :meth:`DatasetSpec.prepare` succeeded on ``raw_files``: plain
    files (text, TSV) have no container whose integrity could be checked at
    download time, so a parse is the only evidence that they are whole.

    Returns
    -------
    pinned : list of str
        File names pinned now.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.data.download import pin_parsed
    >>> from lowdim.data.lock import get_pin
    >>> from lowdim.data.replicas import write_ptb
    >>> files, _ = write_ptb(tmp, rng)
    >>> _ = get_spec("ptb").prepare(files)           # the parser accepts the plain text files
    >>> pinned = pin_parsed("ptb", files, lockfile=tmp / "lock.json")
    >>> sorted(pinned), get_pin("ptb", "ptb.test.txt", lockfile=tmp / "lock.json")["size"] > 0
    (['ptb.test.txt', 'ptb.train.txt', 'ptb.valid.txt'], True)
    """
    spec = dataset if isinstance(dataset, DatasetSpec) else get_spec(dataset)
    pinned = []
    for remote in spec.files:
        if _expected(remote, spec.name, lockfile, checksums)[0] is not None:
            continue
        path = Path(raw_files[remote.filename])
        sha256, size = sha256_file(path)
        entry = lock.pin(spec.name, remote.filename, sha256=sha256, size=size,
                         url=path.resolve().as_uri(), lockfile=lockfile)
        if entry["sha256"] != sha256:
            raise ChecksumError(f"dataset {spec.name!r}, file {remote.filename!r}: pinned "
                                f"meanwhile to sha256 {entry['sha256']}, the parsed copy has "
                                f"{sha256}", dataset=spec.name, filename=remote.filename,
                                expected=entry["sha256"], got=sha256)
        pinned.append(remote.filename)
    return pinned
