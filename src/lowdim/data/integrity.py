"""Integrity checks of downloaded containers, before a file without a checksum is pinned.

A file with no published checksum is pinned in the lock file on its first
download; a truncated first download must not be pinned, or the complete file
would be rejected ever after. :func:`check_container` reads a file to the end
of its container and says whether it is whole:

- ``.gz`` and ``.bz2``: the compressed stream decompresses to its end-of-stream
  marker (gzip also checks its CRC-32 and length trailer);
- ``.tar.gz`` / ``.tgz`` / ``.tar.bz2`` / ``.tar``: every member is read to its end;
- ``.zip``: the central directory is present and every member's CRC-32 matches;
- ``.mat`` (MATLAB v5): the 128-byte header, then data elements whose declared
  sizes add up exactly to the file's size.

Other files (plain text, TSV, MATLAB v7.3) have no container to check: the
function returns False and the caller pins them only after the dataset's
parser has accepted them.
"""

from __future__ import annotations

import bz2
import gzip
import struct
import tarfile
import zipfile
import zlib
from pathlib import Path

__all__ = ["CorruptFileError", "check_container", "has_container_check"]

_CHUNK = 1 << 20
_TAR = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2")


class CorruptFileError(ValueError):
    """A file's container is truncated or corrupt (the message names the file and why).

    Examples
    --------
    >>> import gzip
    >>> from lowdim.data.integrity import CorruptFileError, check_container
    >>> path = tmp / "cut.gz"
    >>> _ = path.write_bytes(gzip.compress(b"x" * 1000)[:20])   # truncated
    >>> try:
    ...     check_container(path)
    ... except CorruptFileError as err:
    ...     print(type(err).__name__)
    CorruptFileError
    """


def has_container_check(filename: str) -> bool:
    """True when :func:`check_container` can tell whether ``filename`` is whole.

    Examples
    --------
    >>> from lowdim.data.integrity import has_container_check
    >>> has_container_check("cifar-10-binary.tar.gz"), has_container_check("ptb.train.txt")
    (True, False)
    """
    name = filename.lower()
    return name.endswith(_TAR + (".gz", ".bz2", ".zip", ".mat"))


def check_container(path, filename: str | None = None) -> bool:
    """Read ``path`` to the end of its container; True when it is whole.

    Parameters
    ----------
    path : str or Path
    filename : str, optional
        The name that decides the format (defaults to ``path``'s name; a
        download's temporary file passes the final name).

    Returns
    -------
    checked : bool
        True when the container was read whole, False when the format has no
        container check (see :func:`has_container_check`).

    Raises
    ------
    CorruptFileError
        If the container is truncated or corrupt.

    Examples
    --------
    >>> import gzip
    >>> from lowdim.data.integrity import check_container
    >>> _ = (tmp / "whole.gz").write_bytes(gzip.compress(b"x" * 1000))
    >>> _ = (tmp / "notes.txt").write_text("no container")
    >>> check_container(tmp / "whole.gz"), check_container(tmp / "notes.txt")
    (True, False)
    """
    path = Path(path)
    name = (filename or path.name).lower()
    if not has_container_check(name):
        return False
    if name.endswith(".mat") and _mat_version(path) == "7.3":
        return False  # HDF5 inside: no element sizes to add up
    try:
        if name.endswith(_TAR):
            _read_tar(path)
        elif name.endswith(".gz"):
            _read_stream(gzip.open(path, "rb"))
        elif name.endswith(".bz2"):
            _read_stream(bz2.open(path, "rb"))
        elif name.endswith(".zip"):
            _check_zip(path)
        else:
            _check_mat(path)
    except CorruptFileError:
        raise
    except (OSError, EOFError, zlib.error, tarfile.TarError, zipfile.BadZipFile,
            struct.error, ValueError) as exc:
        raise CorruptFileError(f"{str(path)!r} ({filename or path.name}) is truncated or "
                               f"corrupt: {type(exc).__name__}: {exc}") from exc
    return True


def _read_stream(stream) -> None:
    with stream:
        while stream.read(_CHUNK):
            pass


def _read_tar(path: Path) -> None:
    with tarfile.open(path, "r:*") as tf:
        for member in tf:
            if member.isfile():
                _read_stream(tf.extractfile(member))
        # the compressed stream's end (and CRC) comes after the last member
        _read_stream(tf.fileobj)


def _check_zip(path: Path) -> None:
    with zipfile.ZipFile(path) as zf:
        bad = zf.testzip()
    if bad is not None:
        raise CorruptFileError(f"{str(path)!r}: member {bad!r} fails its CRC-32 check")


def _mat_version(path: Path) -> str:
    with open(path, "rb") as handle:
        head = handle.read(128)
    return "7.3" if head.startswith(b"MATLAB 7.3") else "5"


def _check_mat(path: Path) -> None:
    """MATLAB v5: header, then 8-byte-tagged data elements that exactly fill the file."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        header = handle.read(128)
        if len(header) < 128 or not header.startswith(b"MATLAB 5.0"):
            raise CorruptFileError(f"{str(path)!r}: no MATLAB 5.0 MAT-file header")
        endian = {b"IM": "<", b"MI": ">"}.get(header[126:128])
        if endian is None:
            raise CorruptFileError(f"{str(path)!r}: unknown byte-order mark {header[126:128]!r}")
        offset = end = 128
        while offset < size:
            handle.seek(offset)
            tag = handle.read(8)
            if len(tag) < 8:
                raise CorruptFileError(f"{str(path)!r}: truncated element tag at byte {offset}")
            first, nbytes = struct.unpack(f"{endian}II", tag)
            if first >> 16:  # small data element: type and size packed in 4 bytes
                offset = end = offset + 8
                continue
            # miCOMPRESSED (15) elements are not padded; the others pad to 8 bytes
            end = offset + 8 + nbytes
            offset += 8 + (nbytes if first == 15 else -(-nbytes // 8) * 8)
    # a writer may leave out the padding of the very last element, never its data
    if not (offset == size or end <= size < offset):
        raise CorruptFileError(f"{str(path)!r}: data elements declare {offset} bytes, the file "
                               f"has {size} (truncated)")
