"""The download lock file: checksums pinned on first download.

Some files have no published checksum (no maintained library publishes one).
For those, the first verified download is *pinned*: its SHA-256, size,
address and date are written to a JSON lock file committed with the config
(default ``config/downloads.lock.json``), and every later download or cached
copy must match the pin. The file looks like::

    {
      "mnist": {
        "train-images-idx3-ubyte.gz": {
          "pinned": "2025-01-31",
          "sha256": "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
          "size": 9912422,
          "url": "https://ossci-datasets.s3.amazonaws.com/mnist/train-images-idx3-ubyte.gz"
        }
      }
    }

Writes are safe when several download jobs run at once: each update holds an
exclusive ``flock`` on a sidecar file (``.<name>.flock`` next to the lock
file) while it reads, merges and atomically replaces the JSON, so no update
is lost and a reader never sees a half-written file. The first pin wins: a
second job that pins the same file gets the existing entry back and must
compare its own checksum with it.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import json
import logging
from pathlib import Path

from ..io import write_json

__all__ = ["DEFAULT_LOCKFILE", "read_lock", "get_pin", "pin"]

#: Where pins live unless a caller says otherwise (relative to the working directory,
#: i.e. the workflow's root).
DEFAULT_LOCKFILE = Path("config/downloads.lock.json")

_LOG = logging.getLogger("lowdim.data")
_FIELDS = ("sha256", "size", "url", "pinned")


def _resolve(lockfile) -> Path:
    return DEFAULT_LOCKFILE if lockfile is None else Path(lockfile)


@contextlib.contextmanager
def _exclusive(lockfile: Path):
    """Hold an exclusive flock on the sidecar of ``lockfile``.

    The JSON itself is replaced on every write (new inode), so the lock is
    taken on a separate, never-replaced file. ``flock`` locks belong to the
    open file description, so two threads of one process exclude each other
    too (POSIX ``lockf`` locks would not).
    """
    lockfile.parent.mkdir(parents=True, exist_ok=True)
    sidecar = lockfile.with_name(f".{lockfile.name}.flock")
    with open(sidecar, "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def read_lock(lockfile=None) -> dict:
    """Return the whole lock file as ``{dataset: {filename: entry}}`` ({} if absent).

    Raises
    ------
    ValueError
        If the file is not a JSON object of objects (the message names the file).

    Examples
    --------
    >>> from lowdim.data.lock import pin, read_lock
    >>> lockfile = tmp / "lock.json"
    >>> read_lock(lockfile)
    {}
    >>> _ = pin("toy", "a.txt", sha256="ab" * 32, size=3, url="file:///a.txt", lockfile=lockfile)
    >>> list(read_lock(lockfile)["toy"])
    ['a.txt']
    """
    path = _resolve(lockfile)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"download lock file {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ValueError(f"download lock file {str(path)!r} must map dataset -> "
                         "{filename: entry}")
    return data


def get_pin(dataset: str, filename: str, lockfile=None) -> dict | None:
    """The pinned entry of ``dataset``/``filename``, or None if not pinned yet.

    Examples
    --------
    >>> from lowdim.data.lock import get_pin, pin
    >>> lockfile = tmp / "lock.json"
    >>> get_pin("toy", "a.txt", lockfile=lockfile) is None
    True
    >>> _ = pin("toy", "a.txt", sha256="ab" * 32, size=3, url="file:///a.txt", lockfile=lockfile)
    >>> get_pin("toy", "a.txt", lockfile=lockfile)["size"]
    3
    """
    entry = read_lock(lockfile).get(dataset, {}).get(filename)
    if entry is not None:
        _check_entry(entry, dataset, filename, _resolve(lockfile))
    return entry


def pin(dataset: str, filename: str, *, sha256: str, size: int, url: str,
        lockfile=None) -> dict:
    """Pin ``dataset``/``filename`` to ``sha256`` unless it is pinned already.

    Parameters
    ----------
    dataset, filename : str
        Registry name and :attr:`~lowdim.data.RemoteFile.filename`.
    sha256 : str
        Hex digest of the verified download.
    size : int
        Its size in bytes.
    url : str
        The address it came from.
    lockfile : path, optional
        Defaults to :data:`DEFAULT_LOCKFILE`.

    Returns
    -------
    entry : dict
        The entry in effect after the call: the new one, or the one another
        job pinned first (the caller must compare ``entry["sha256"]``).

    Examples
    --------
    >>> from lowdim.data.lock import pin
    >>> lockfile = tmp / "lock.json"
    >>> first = pin("toy", "a.txt", sha256="ab" * 32, size=3, url="file:///a.txt", lockfile=lockfile)
    >>> second = pin("toy", "a.txt", sha256="cd" * 32, size=3, url="file:///b.txt", lockfile=lockfile)
    >>> second["sha256"] == "ab" * 32   # the first pin stays; the caller compares
    True
    """
    path = _resolve(lockfile)
    with _exclusive(path):
        data = read_lock(path)
        existing = data.get(dataset, {}).get(filename)
        if existing is not None:
            _check_entry(existing, dataset, filename, path)
            return existing
        entry = {"sha256": sha256, "size": int(size), "url": url,
                 "pinned": datetime.datetime.now(datetime.timezone.utc).date().isoformat()}
        data.setdefault(dataset, {})[filename] = entry
        write_json(path, data)
    _LOG.info("pinned %s/%s: sha256 %s, %d bytes, from %s in %s", dataset, filename, sha256,
              size, url, path)
    return entry


def _check_entry(entry, dataset, filename, path):
    missing = [k for k in _FIELDS if k not in entry]
    if missing:
        raise ValueError(f"download lock file {str(path)!r}: entry {dataset}/{filename} "
                         f"lacks {missing}")
