"""Safe reading and extraction of downloaded archives (.zip, .tar, .tar.gz/.tgz, .tar.bz2, .tar.xz).

Every member that would be written is checked before anything is written:
absolute names, ``..`` components, links pointing outside the destination
or whose target passes through another link, members written through a link
(as a parent directory or under the link's own name), and device/fifo
members are refused with an :class:`UnsafeArchiveError` naming the archive
and the member. Zip members are written with a call that does not follow a
link at their name.
Extraction goes to a temporary directory next to the destination that is
renamed into place at the end, so an interrupted extraction never looks
complete. Tar members are additionally extracted with the standard
library's ``"data"`` filter.

Member names are normalised: a leading ``./`` and a trailing ``/`` are
dropped, so ``./cifar-10-batches-bin/data_batch_1.bin`` is addressed as
``cifar-10-batches-bin/data_batch_1.bin``.
"""

from __future__ import annotations

import logging
import os
import posixpath
import shutil
import stat
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

__all__ = ["ArchiveError", "UnsafeArchiveError", "MissingMemberError", "list_members",
           "read_member", "iter_members", "safe_extract"]

_LOG = logging.getLogger("lowdim.data")
_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")


class ArchiveError(ValueError):
    """An archive cannot be read (unknown format, corrupt) or a member is unusable.

    Examples
    --------
    >>> from lowdim.data import ArchiveError, list_members
    >>> _ = (tmp / "notes.txt").write_text("not an corpus_zip")
    >>> try:
    ...     list_members(tmp / "notes.txt", dataset="toy")
    ... except ArchiveError as err:
    ...     print(type(err).__name__)
    ArchiveError
    """


class UnsafeArchiveError(ArchiveError):
    """A member would be written outside the destination, or is a device or fifo.

    Examples
    --------
    >>> from lowdim.data import UnsafeArchiveError, safe_extract
    >>> from lowdim.data.replicas import zip_bytes
    >>> _ = (tmp / "evil.zip").write_bytes(zip_bytes({"../outside.txt": b"x"}))
    >>> try:
    ...     safe_extract(tmp / "evil.zip", tmp / "out", dataset="toy")
    ... except UnsafeArchiveError as err:
    ...     print("refused:", "'..'" in str(err), (tmp / "outside.txt").exists())
    refused: True False
    """


class MissingMemberError(KeyError):
    """An expected member is not in the archive.

    A :class:`KeyError` (hence a :class:`LookupError`) whose ``str`` is the
    readable message naming the dataset, the archive, the member and a few
    members that do exist.

    Examples
    --------
    >>> from lowdim.data import MissingMemberError, read_member
    >>> try:
    ...     read_member(corpus_zip, "corpus/c.txt", dataset="toy")
    ... except MissingMemberError as err:
    ...     print(isinstance(err, KeyError), err.member)
    True corpus/c.txt
    """

    def __init__(self, message: str, *, archive: Path, member: str):
        super().__init__(message)
        self.archive, self.member = archive, member

    def __str__(self):
        return self.args[0]


@dataclass(frozen=True)
class _Entry:
    name: str          # normalised member name
    kind: str          # "file", "dir", "symlink", "hardlink" or "special"
    link: str          # link target for symlinks and hardlinks, else ""
    raw: object        # tarfile.TarInfo or zipfile.ZipInfo


def _normalise(name: str) -> str:
    while name.startswith("./"):
        name = name[2:]
    return name.rstrip("/")


def _label(archive: Path, dataset: str) -> str:
    return f"dataset {dataset!r}, archive {archive.name!r}" if dataset else \
        f"archive {str(archive)!r}"


def _is_tar_name(archive: Path) -> bool:
    return archive.name.lower().endswith(_TAR_SUFFIXES)


def _tar_kind(info: tarfile.TarInfo) -> str:
    if info.isdir():
        return "dir"
    if info.issym():
        return "symlink"
    if info.islnk():
        return "hardlink"
    return "file" if info.isreg() else "special"


def _zip_entry(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> _Entry:
    mode = info.external_attr >> 16  # unix st_mode when made on unix; file type may be 0
    if info.is_dir():
        kind, link = "dir", ""
    elif stat.S_ISLNK(mode):
        kind, link = "symlink", zf.read(info).decode("utf-8", "surrogateescape")
    elif stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
        kind, link = "special", ""
    else:
        kind, link = "file", ""
    return _Entry(_normalise(info.filename), kind, link, info)


class _Reader:
    """A uniform view of a zip or tar archive: its entries and their bytes."""

    def __init__(self, archive, dataset: str = ""):
        self.path = Path(archive)
        self.dataset = dataset
        self.label = _label(self.path, dataset)
        try:
            if not _is_tar_name(self.path) and zipfile.is_zipfile(self.path):
                self._zip = zipfile.ZipFile(self.path)
                self._tar = None
                self.entries = [_zip_entry(self._zip, i) for i in self._zip.infolist()]
            else:
                self._zip = None
                self._tar = tarfile.open(self.path, "r:*")
                self.entries = [_Entry(_normalise(i.name), _tar_kind(i), i.linkname, i)
                                for i in self._tar.getmembers()]
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise ArchiveError(f"{self.label}: not a readable zip or tar archive: {exc}") from exc
        self.entries = [e for e in self.entries if e.name]  # drop the "./" root entry

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        (self._zip or self._tar).close()
        return False

    def find(self, member: str) -> _Entry:
        wanted = _normalise(member)
        for entry in reversed(self.entries):  # a later duplicate wins, as on extraction
            if entry.name == wanted and entry.kind != "dir":
                return entry
        existing = [e.name for e in self.entries if e.kind != "dir"]
        shown = ", ".join(repr(n) for n in existing[:8])
        more = f", ... ({len(existing)} members)" if len(existing) > 8 else ""
        raise MissingMemberError(f"{self.label}: expected member {member!r} is missing; "
                                 f"members include: {shown or '(none)'}{more}",
                                 archive=self.path, member=member)

    def read(self, entry: _Entry) -> bytes:
        if self._zip is not None:
            return self._zip.read(entry.raw)
        handle = self._tar.extractfile(entry.raw)
        if handle is None:
            raise ArchiveError(f"{self.label}: member {entry.name!r} is not a regular file")
        with handle:
            return handle.read()


def list_members(archive, *, dataset: str = "") -> list[str]:
    """Normalised names of the archive's members other than directories, in archive order.

    Examples
    --------
    >>> from lowdim.data import list_members
    >>> list_members(corpus_zip)
    ['corpus/a.txt', 'corpus/b.txt']
    """
    with _Reader(archive, dataset) as reader:
        return [e.name for e in reader.entries if e.kind != "dir"]


def read_member(archive, member: str, *, dataset: str = "") -> bytes:
    """Return the bytes of one member, without extracting anything to disk.

    Raises
    ------
    MissingMemberError
        If ``member`` is not in the archive; the message names ``dataset``,
        the archive file, the member and a few members that do exist.

    Examples
    --------
    >>> from lowdim.data import read_member
    >>> read_member(corpus_zip, "corpus/b.txt")
    b'beta'
    """
    with _Reader(archive, dataset) as reader:
        return reader.read(reader.find(member))


def iter_members(archive, *, prefix: str = "", dataset: str = "") -> Iterator[tuple[str, bytes]]:
    """Yield ``(name, bytes)`` for each regular-file member under ``prefix``, in one pass.

    Cheaper than many :func:`read_member` calls on a compressed tar (e.g. the
    18,846 posts of 20 Newsgroups), which would decompress from the start
    each time.

    Yields
    ------
    name : str
        The member's path inside the archive.
    data : bytes
        Its contents.

    Examples
    --------
    >>> from lowdim.data import iter_members
    >>> list(iter_members(corpus_zip, prefix="corpus/"))
    [('corpus/a.txt', b'alpha'), ('corpus/b.txt', b'beta')]
    """
    with _Reader(archive, dataset) as reader:
        for entry in reader.entries:
            if entry.kind == "file" and entry.name.startswith(prefix):
                yield entry.name, reader.read(entry)


def _parts(name: str) -> list[str]:
    """The components of ``name`` as the file system resolves them ("a//./b" is "a/b")."""
    return [part for part in name.split("/") if part not in ("", ".")]


def _check_entry(entry: _Entry, links: dict[str, _Entry], label: str) -> None:
    """Raise UnsafeArchiveError if writing ``entry`` could escape the destination.

    ``links`` maps the name of every link of the archive to its (last) entry.
    """
    name = entry.raw.name if isinstance(entry.raw, tarfile.TarInfo) else entry.raw.filename
    where = f"{label}: member {name!r}"
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise UnsafeArchiveError(f"{where} has an absolute path; refusing to extract")
    if ".." in parts:
        raise UnsafeArchiveError(f"{where} contains a '..' component; refusing to extract")
    if entry.kind == "special":
        raise UnsafeArchiveError(f"{where} is a device, fifo or other special file; "
                                 "refusing to extract")
    own = _parts(entry.name)
    for i in range(1, len(own) + 1):
        prefix = "/".join(own[:i])
        # a parent that is a link, or a second member of a link's name, is written through it
        if prefix in links and (i < len(own) or links[prefix] is not entry):
            raise UnsafeArchiveError(f"{where} would be written through the link "
                                     f"{prefix!r}; refusing to extract")
    if entry.kind in ("symlink", "hardlink"):
        problem = _link_target_problem(entry, links)
        if problem:
            raise UnsafeArchiveError(f"{where} is a {entry.kind} to {entry.link!r}, {problem}; "
                                     "refusing to extract")


def _link_target_problem(entry: _Entry, links: dict[str, _Entry]) -> str:
    """Why the link ``entry`` could point outside the destination, or "" if it cannot.

    The target is followed component by component from the link's directory (a
    hardlink's target is relative to the root). Going on from a component that is
    itself a link is refused: judged lexically, ``l1/../x`` with ``l1 -> "."`` looks
    inside but is the destination's parent once ``l1`` is followed. A target that
    ends at a link is fine, since that link is judged on its own.
    """
    if posixpath.isabs(entry.link):
        return "outside the destination"
    path = _parts(entry.name)[:-1] if entry.kind == "symlink" else []
    for step in _parts(entry.link):
        if path and "/".join(path) in links:
            return f"which passes through the link {'/'.join(path)!r}"
        if step != "..":
            path.append(step)
        elif path:
            path.pop()
        else:
            return "outside the destination"
    return ""


def _select(reader: _Reader, members) -> list[_Entry]:
    """The entries to extract: all, or the named members and everything under named dirs."""
    if members is None:
        return list(reader.entries)
    chosen = []
    for member in members:
        wanted = _normalise(member)
        under = [e for e in reader.entries if e.name == wanted or
                 e.name.startswith(wanted + "/")]
        if not under:
            reader.find(member)  # raises MissingMemberError with the listing
        chosen.extend(e for e in under if e not in chosen)
    return chosen


def safe_extract(archive, dest, members: list[str] | None = None, *,
                 dataset: str = "") -> list[Path]:
    """Extract ``archive`` (or only ``members``) into the directory ``dest``.

    Parameters
    ----------
    archive : str or Path
        A .zip, .tar, .tar.gz/.tgz, .tar.bz2 or .tar.xz file.
    dest : str or Path
        Directory to create. If it exists it is replaced, atomically from the
        point of view of a reader: the new tree is built in a temporary
        directory next to it and renamed into place.
    members : list of str, optional
        Member names to extract (a directory name selects everything under
        it). Default: all.
    dataset : str, optional
        Registry name, used in error messages.

    Returns
    -------
    paths : list of Path
        Extracted files and links (not directories) under ``dest``, in archive order.

    Raises
    ------
    UnsafeArchiveError
        Before anything is written, if a member to extract has an absolute
        path, a ``..`` component, is a link pointing outside ``dest`` or whose
        target passes through another link, would be written through a link
        (a parent that is a link, or the name of a link), or is a device or fifo.
    MissingMemberError
        If a requested member is not in the archive.

    Examples
    --------
    >>> from lowdim.data import safe_extract
    >>> paths = safe_extract(corpus_zip, tmp / "out")
    >>> [p.relative_to(tmp / "out").as_posix() for p in paths], paths[0].read_text()
    (['corpus/a.txt', 'corpus/b.txt'], 'alpha')
    """
    dest = Path(dest)
    with _Reader(archive, dataset) as reader:
        chosen = _select(reader, members)
        links = {"/".join(_parts(e.name)): e for e in reader.entries
                 if e.kind in ("symlink", "hardlink")}
        for entry in chosen:
            _check_entry(entry, links, reader.label)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent))
        try:
            _extract_into(reader, chosen, tmp)
            _replace_dir(tmp, dest)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp)
    paths = [dest / e.name for e in chosen if e.kind != "dir"]
    _LOG.info("%s: extracted %d files to %s", reader.label, len(paths), dest)
    return paths


def _extract_into(reader: _Reader, chosen: list[_Entry], root: Path) -> None:
    if reader._tar is not None:
        try:  # the standard "data" filter is a second line of defence behind _check_entry
            reader._tar.extractall(root, members=[e.raw for e in chosen], filter="data")
        except tarfile.FilterError as exc:
            raise UnsafeArchiveError(f"{reader.label}: {exc}; refusing to extract") from exc
        return
    for entry in chosen:
        target = root / entry.name
        if entry.kind == "dir":
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.kind == "symlink":
            os.symlink(entry.link, target)  # fails, never follows, if the name exists
            continue
        with reader._zip.open(entry.raw) as src, _open_new(target, entry, reader.label) as out:
            shutil.copyfileobj(src, out, 1 << 20)


def _open_new(target: Path, entry: _Entry, label: str):
    """``target`` opened for writing without following a link at its name.

    A second line of defence behind :func:`_check_entry`: a plain ``open`` of a
    name that is already a symlink would write wherever the link points.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.fdopen(os.open(target, flags, 0o666), "wb")
    except OSError as exc:
        if target.is_symlink():
            raise UnsafeArchiveError(f"{label}: member {entry.raw.filename!r} would be written "
                                     "through a link; refusing to extract") from exc
        raise


def _replace_dir(new: Path, dest: Path) -> None:
    """Rename ``new`` onto ``dest``; an existing ``dest`` is moved aside, then removed."""
    if not dest.exists() and not dest.is_symlink():
        os.rename(new, dest)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".old", dir=dest.parent))
    os.rename(dest, old / "tree")
    try:
        os.rename(new, dest)
    except OSError:
        os.rename(old / "tree", dest)
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)
