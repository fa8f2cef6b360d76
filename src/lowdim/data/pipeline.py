"""Prepare a registered dataset from verified raw files into the prepared format."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pandas as pd

from ..io import atomic_path
from .download import pin_parsed, verify_dataset_files
from .own import dataset_spec
from .prepared import save_dataset, summarize

__all__ = ["prepare_dataset", "write_prepared"]

logger = logging.getLogger("lowdim.data")


def prepare_dataset(name: str, options: dict | None = None, raw_dir="resources/raw",
                    lockfile=None, checksums=None):
    """Verify the raw files of ``name`` and parse them; never downloads.

    A raw file that is missing or fails verification stops the job with one
    message naming the file and how to fetch it again (the workflow's
    ``download`` rule, or :func:`lowdim.data.ensure_dataset_files`). Files
    without a checksum are pinned in the lock file once the parser has
    accepted them.

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
    checksums : dict, optional
        Replica manifest (rehearsal only), see :func:`lowdim.data.download.download`.

    Returns
    -------
    dataset : lowdim.data.Dataset

    Raises
    ------
    lowdim.data.download.RawFileError
        If a raw file is missing or corrupt.

    Examples
    --------
    >>> from lowdim.data.pipeline import prepare_dataset
    >>> data = prepare_dataset("digits", {"n_rows": 100})
    >>> data.name, data.kind, data.X.shape
    ('digits', 'dense', (100, 64))
    """
    spec = dataset_spec(name, options)
    raw = verify_dataset_files(spec, raw_dir, lockfile=lockfile, checksums=checksums)
    start = time.perf_counter()
    logger.info("prepare %s: start (options %s)", name, options or {})
    dataset = spec.prepare(raw, **(options or {}))
    pinned = pin_parsed(spec, raw, lockfile=lockfile, checksums=checksums)
    if pinned:
        logger.info("prepare %s: pinned %s now that they parse", name, pinned)
    logger.info("prepare %s: done, %d items in %.2f s", name, dataset.n,
                time.perf_counter() - start)
    return dataset


def write_prepared(dataset, npz_path, summary_path) -> dict:
    """Write ``dataset`` to ``npz_path`` and its one-row summary CSV to ``summary_path``.

    Examples
    --------
    >>> from lowdim.data import load_dataset
    >>> from lowdim.data.pipeline import prepare_dataset, write_prepared
    >>> summary = write_prepared(prepare_dataset("digits", {"n_rows": 100}), tmp / "digits.npz",
    ...                          tmp / "digits.csv")
    >>> summary["n"], load_dataset(tmp / "digits.npz").X.shape
    (100, (100, 64))
    """
    save_dataset(dataset, npz_path)
    row = summarize(dataset)
    row["prepared size (MB)"] = round(Path(npz_path).stat().st_size / 1e6, 3)
    with atomic_path(summary_path) as tmp:
        pd.DataFrame([row]).to_csv(tmp, index=False)
    return row
