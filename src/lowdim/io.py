"""Atomic file writes: a reader never sees a partial file at a final path."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

__all__ = ["CorruptFileError", "atomic_path", "write_json", "read_json", "save_npz", "load_npz",
           "read_npz", "read_benchmark"]

#: What to do about a results file that cannot be read (the workflow rebuilds a deleted file).
REBUILD = "delete it and rerun the workflow, which rebuilds it"


class CorruptFileError(ValueError):
    """A file that cannot be read as what it should hold.

    The message names the file, says what is wrong with it and how to rebuild it.

    Examples
    --------
    >>> from lowdim.io import CorruptFileError, read_npz
    >>> path = tmp / "results.npz"
    >>> _ = path.write_bytes(b"not a zip archive")
    >>> try:
    ...     read_npz(path)
    ... except CorruptFileError as err:
    ...     print(isinstance(err, ValueError), "rerun the workflow" in str(err))
    True True
    """

    def __init__(self, path, problem: str, remedy: str = REBUILD):
        self.path = Path(path)
        super().__init__(f"{path}: {problem}; {remedy}")


@contextlib.contextmanager
def atomic_path(path, suffix: str | None = None):
    """Yield a temporary path next to ``path``; rename it onto ``path`` on success.

    The temporary file lives in the same directory so the final ``os.replace``
    is atomic. On any exception the temporary file is removed and ``path`` is
    left as it was.

    Parameters
    ----------
    path : str or Path
        Final destination.
    suffix : str, optional
        Suffix for the temporary name (some writers, e.g. ``numpy.savez`` or
        matplotlib, choose the format from it). Defaults to ``path``'s suffix.

    Yields
    ------
    tmp : Path
        The temporary path to write to.

    Examples
    --------
    >>> from lowdim.io import atomic_path
    >>> path = tmp / "table.csv"
    >>> with atomic_path(path) as tmp:
    ...     _ = tmp.write_text("a,b\\n")
    ...     print(path.exists())        # nothing at the final path until the block succeeds
    False
    >>> path.read_text()
    'a,b\\n'
    >>> try:
    ...     with atomic_path(path) as tmp:
    ...         _ = tmp.write_text("half a fi")
    ...         raise RuntimeError("the job failed")
    ... except RuntimeError:
    ...     pass
    >>> path.read_text(), sorted(p.name for p in path.parent.iterdir())
    ('a,b\\n', ['table.csv'])
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix if suffix is None else suffix
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".part{suffix}", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp)
    try:
        yield tmp
        if tmp.exists():
            # mkstemp creates 0600; give the final file the usual permissions.
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_json(path, obj, **kwargs) -> None:
    """Write ``obj`` as indented JSON to ``path`` atomically.

    Examples
    --------
    >>> from lowdim.io import write_json
    >>> path = tmp / "info.json"
    >>> write_json(path, {"method": "pca", "seconds": 1.5})
    >>> print(path.read_text())
    {
      "method": "pca",
      "seconds": 1.5
    }
    <BLANKLINE>
    """
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=True, default=_jsonable, **kwargs) + "\n")


def read_json(path):
    """Read JSON from ``path``.

    Examples
    --------
    >>> from lowdim.io import read_json, write_json
    >>> path = tmp / "info.json"
    >>> write_json(path, {"n": 3})
    >>> read_json(path)
    {'n': 3}
    """
    return json.loads(Path(path).read_text())


def save_npz(path, info, *, info_key="info", compress=False, **arrays) -> None:
    """Write ``arrays`` and the JSON-able dict ``info`` to ``path`` (.npz) atomically.

    ``info`` is stored as a JSON string under ``info_key``, so :func:`load_npz`
    reads the file back without unpickling anything.

    Examples
    --------
    >>> from lowdim.io import load_npz, save_npz
    >>> path = tmp / "run.npz"
    >>> save_npz(path, {"version": "0.1.0"}, compress=True, K=np.eye(2))
    >>> sorted(np.load(path, allow_pickle=False).files)   # the info is JSON text, not a pickle
    ['K', 'info']
    """
    import numpy as np

    arrays[info_key] = np.asarray(json.dumps(info, sort_keys=True, default=str))
    with atomic_path(path, suffix=".npz") as tmp:
        with open(tmp, "wb") as fh:
            (np.savez_compressed if compress else np.savez)(fh, **arrays)


def read_npz(path, *, what="an .npz archive of arrays", remedy=REBUILD) -> dict:
    """Every array of the ``.npz`` archive at ``path``, read eagerly and never unpickled.

    Parameters
    ----------
    path : str or Path
    what : str
        What the file should be, for the message (e.g. "a prepared dataset").
    remedy : str
        What to do about a corrupt file, for the message.

    Returns
    -------
    arrays : dict of str -> ndarray

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    CorruptFileError
        If the file is empty, truncated, not an ``.npz`` archive (random bytes, a
        pickle, a single ``.npy``), or holds object arrays (which would need pickle).

    Examples
    --------
    >>> from lowdim.io import read_npz
    >>> path = tmp / "arrays.npz"
    >>> np.savez(path, a=np.arange(3))
    >>> read_npz(path)
    {'a': array([0, 1, 2])}
    """
    import zipfile

    import numpy as np

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file (expected {what})")
    if path.stat().st_size == 0:
        raise CorruptFileError(path, f"the file is empty (0 bytes), not {what}", remedy)
    if not zipfile.is_zipfile(path):
        # np.load would try to unpickle it and suggest allow_pickle=True: never do that.
        raise CorruptFileError(path, f"not an .npz archive (truncated, or another kind of "
                                     f"file), so not {what}", remedy)
    try:
        with np.load(path, allow_pickle=False) as store:
            return {name: store[name] for name in store.files}
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        if "allow_pickle" in str(exc) or "Object arrays" in str(exc):
            problem = "it holds object arrays, which only pickle can read (never done here)"
        else:
            problem = f"unreadable archive ({type(exc).__name__}: {exc})"
        raise CorruptFileError(path, f"{problem}; expected {what}", remedy) from None


def load_npz(path, *, info_key="info"):
    """Read what :func:`save_npz` wrote: ``(arrays, info)``, ``arrays`` a dict by name.

    A corrupt file, or one without the ``info_key`` entry, raises
    :class:`CorruptFileError` naming it.

    Examples
    --------
    >>> from lowdim.io import load_npz, save_npz
    >>> path = tmp / "run.npz"
    >>> save_npz(path, {"seed": 0, "method": "pca"}, Z=np.zeros((2, 3)))
    >>> arrays, info = load_npz(path)
    >>> arrays["Z"].shape, info
    ((2, 3), {'method': 'pca', 'seed': 0})
    """
    what = "a results file written by lowdim.io.save_npz"
    arrays = read_npz(path, what=what)
    if info_key not in arrays:
        raise CorruptFileError(path, f"it has no {info_key!r} entry, so it is not {what}")
    try:
        info = json.loads(str(arrays.pop(info_key)))
    except json.JSONDecodeError as exc:
        raise CorruptFileError(path, f"its {info_key!r} entry is not JSON ({exc})") from None
    return arrays, info


def read_benchmark(path):
    """A Snakemake ``benchmark:`` file as a DataFrame, one row per repeat.

    The columns ``s`` (wall seconds), ``cpu_time`` (s) and ``max_rss`` (MB) are
    numeric; Snakemake's "NA" (a measurement the platform does not give), or a
    column the file lacks, is NaN.

    Examples
    --------
    >>> from lowdim.io import read_benchmark
    >>> path = tmp / "job.tsv"
    >>> _ = path.write_text("s\\th:m:s\\tmax_rss\\tcpu_time\\n3.5\\t0:00:03\\tNA\\t2.9\\n")
    >>> read_benchmark(path)[["s", "max_rss", "cpu_time"]].to_dict("records")
    [{'s': 3.5, 'max_rss': nan, 'cpu_time': 2.9}]
    """
    import pandas as pd

    bench = pd.read_csv(path, sep="\t")
    for column in ("s", "cpu_time", "max_rss"):
        bench[column] = pd.to_numeric(bench.get(column, float("nan")), errors="coerce")
    return bench


def _jsonable(value):
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
