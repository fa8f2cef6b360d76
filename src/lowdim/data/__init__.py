"""Datasets: the registry, verified downloads, parsers and the prepared format.

Importing this package registers every dataset: each module in
:mod:`lowdim.data.sources` calls :func:`~lowdim.data.registry.register` for the
datasets it defines.
"""

import importlib
import pkgutil

from . import sources as _sources
from .prepared import Dataset, load_dataset, save_dataset, summarize
from .registry import KINDS, REGISTRY, DatasetSpec, RemoteFile, dataset_names, get_spec, register

for _module in sorted(m.name for m in pkgutil.iter_modules(_sources.__path__)):
    importlib.import_module(f"{_sources.__name__}.{_module}")

__all__ = ["KINDS", "REGISTRY", "Dataset", "DatasetSpec", "RemoteFile", "dataset_names",
           "get_spec", "load_dataset", "register", "save_dataset", "summarize"]
