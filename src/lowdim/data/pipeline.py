"""Prepare a registered dataset from verified raw files into the prepared format."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pandas as pd

from ..io import atomic_path
from .download import ensure_dataset_files
from .prepared import save_dataset, summarize
from .registry import dataset_spec

__all__ = ["prepare_dataset", "write_prepared"]

logger = logging.getLogger("lowdim.data")


def prepare_dataset(name: str, options: dict | None = None, raw_dir="resources/raw",
                    lockfile=None, **download_kwargs):
    """Verify (or re-fetch) the raw files of ``name`` and parse them.

    A cached raw file is re-verified before use; a corrupt one is replaced by a
    fresh verified download, never parsed.

    Parameters
    ----------
    name : str
        Registry name, or the name of the user's own data (declared by ``options``).
    options : dict, optional
        Dataset options (defaults filled from the registry).
    raw_dir : str or Path
        Directory holding ``<name>/<filename>`` raw files.
    lockfile : str or Path, optional
        Lock file of checksums pinned on first download.
    **download_kwargs
        Passed to :func:`lowdim.data.download.ensure_file` (timeout, retries).

    Returns
    -------
    dataset : lowdim.data.Dataset
    """
    spec = dataset_spec(name, options)
    raw = ensure_dataset_files(spec, raw_dir, lockfile=lockfile, **download_kwargs)
    start = time.perf_counter()
    logger.info("prepare %s: start (options %s)", name, options or {})
    dataset = spec.prepare(raw, **(options or {}))
    logger.info("prepare %s: done, %d items in %.2f s", name, dataset.n,
                time.perf_counter() - start)
    return dataset


def write_prepared(dataset, npz_path, summary_path) -> dict:
    """Write ``dataset`` to ``npz_path`` and its one-row summary CSV to ``summary_path``."""
    save_dataset(dataset, npz_path)
    row = summarize(dataset)
    row["prepared size (MB)"] = round(Path(npz_path).stat().st_size / 1e6, 3)
    with atomic_path(summary_path) as tmp:
        pd.DataFrame([row]).to_csv(tmp, index=False)
    return row
