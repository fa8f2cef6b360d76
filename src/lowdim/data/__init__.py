"""Datasets: the registry, verified downloads, parsers and the prepared format.

Importing this package registers every dataset: each module in
:mod:`lowdim.data.sources` calls :func:`~lowdim.data.registry.register` for the
datasets it defines.
"""

import importlib
import pkgutil

from . import sources as _sources
from .archive import (ArchiveError, MissingMemberError, UnsafeArchiveError, iter_members,
                      list_members, read_member, safe_extract)
from .download import (DEFAULT_RAW_ROOT, ChecksumError, DownloadError, RawFileError, download,
                       ensure_dataset_files, ensure_file, sha256_file, verify_dataset_files,
                       verify_file)
from .lock import DEFAULT_LOCKFILE
from .own import OwnDataError, dataset_spec, declares_own_data
from .prepared import KINDS, Dataset, save_dataset, summarize
from .registry import (REGISTRY, DatasetSpec, RemoteFile, dataset_names, get_spec,
                       load_dataset, register)

for _module in sorted(m.name for m in pkgutil.iter_modules(_sources.__path__)):
    importlib.import_module(f"{_sources.__name__}.{_module}")

__all__ = ["KINDS", "REGISTRY", "Dataset", "DatasetSpec", "RemoteFile", "dataset_names",
           "get_spec", "load_dataset", "register", "save_dataset", "summarize",
           # the user's own data, declared in the config
           "OwnDataError", "dataset_spec", "declares_own_data",
           # verified downloads and the pin lock file
           "DEFAULT_LOCKFILE", "DEFAULT_RAW_ROOT", "ChecksumError", "DownloadError", "download",
           "ensure_dataset_files", "ensure_file", "sha256_file", "verify_file",
           "verify_dataset_files", "RawFileError",
           # archives
           "ArchiveError", "MissingMemberError", "UnsafeArchiveError", "iter_members",
           "list_members", "read_member", "safe_extract"]
