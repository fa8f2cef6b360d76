"""Interim archive reader used until :mod:`lowdim.data.archive` lands on main.

Read-only (nothing is extracted to disk), zip and tar, same function names.
"""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path


class MissingMemberError(KeyError):
    def __init__(self, message, *, archive, member):
        super().__init__(message)
        self.archive, self.member = archive, member

    def __str__(self):
        return self.args[0]


def _open(archive):
    archive = Path(archive)
    if zipfile.is_zipfile(archive) and not archive.name.endswith((".tar.gz", ".tgz", ".tar")):
        zf = zipfile.ZipFile(archive)
        return zf, [(i.filename.removeprefix("./"), i) for i in zf.infolist() if not i.is_dir()]
    tf = tarfile.open(archive, "r:*")
    return tf, [(i.name.removeprefix("./"), i) for i in tf.getmembers() if i.isreg()]


def _read(handle, info):
    if isinstance(handle, zipfile.ZipFile):
        return handle.read(info)
    with handle.extractfile(info) as fh:
        return fh.read()


def list_members(archive, *, dataset=""):
    handle, entries = _open(archive)
    with handle:
        return [name for name, _ in entries]


def read_member(archive, member, *, dataset=""):
    handle, entries = _open(archive)
    with handle:
        for name, info in entries:
            if name == member:
                return _read(handle, info)
    raise MissingMemberError(f"dataset {dataset!r}, archive {Path(archive).name!r}: expected "
                             f"member {member!r} is missing", archive=Path(archive), member=member)


def iter_members(archive, *, prefix="", dataset=""):
    handle, entries = _open(archive)
    with handle:
        for name, info in entries:
            if name.startswith(prefix):
                yield name, _read(handle, info)
