"""Helpers shared by the parsers of downloaded datasets.

Every parser reads verified local files and turns them into a
:class:`~lowdim.data.prepared.Dataset`. When a file does not hold what the
real format promises (an archive without an expected member, a ``.mat`` file
without an expected variable, a record of the wrong length), the parser raises
a :class:`FormatError` that names the dataset, the file and what was
expected, so a user can tell a truncated download from a changed upstream
format.

Archive members are read through :mod:`lowdim.data.archive` (no extraction to
disk, no path traversal possible since nothing is written).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._validation import ArgumentValueError
from .archive import MissingMemberError, iter_members, read_member

__all__ = ["FormatError", "MissingVariableError", "MissingMemberError", "member_bytes",
           "members_under", "load_mat", "require_variables", "subsample",
           "encode_labels", "split_indices", "text_lines"]


class FormatError(ValueError):
    """A downloaded file does not have the layout its real format promises.

    Examples
    --------
    >>> from lowdim.data.parsing import FormatError
    >>> err = FormatError("mnist", "train-images-idx3-ubyte.gz", "IDX magic 0 0 8 3")
    >>> isinstance(err, ValueError), str(err)
    (True, "dataset 'mnist', file 'train-images-idx3-ubyte.gz': expected IDX magic 0 0 8 3")
    """

    def __init__(self, dataset: str, path, expected: str):
        self.dataset, self.path, self.expected = dataset, Path(path), expected
        super().__init__(f"dataset {dataset!r}, file {self.path.name!r}: expected {expected}")


class MissingVariableError(FormatError, KeyError):
    """A MATLAB ``.mat`` file lacks a variable the parser needs.

    Examples
    --------
    >>> from lowdim.data.parsing import MissingVariableError, require_variables
    >>> try:
    ...     require_variables({"X": 1}, ["X", "Y"], "wmd_bbcsport", "bbcsport.mat")
    ... except MissingVariableError as err:
    ...     print(str(err))
    dataset 'wmd_bbcsport', file 'bbcsport.mat': expected variable 'Y' (found: ['X'])
    """

    def __str__(self):
        return self.args[0]


def text_lines(text: str) -> list[str]:
    r"""The lines of ``text``, split at "\n" only, each without a trailing "\r".

    ``str.splitlines`` also splits at U+0085, U+2028, U+2029, "\x0b", "\x0c" and
    "\x1c"-"\x1e", which are text inside a record of the real files (U+0085 is
    cp1252's ellipsis byte read as latin-1): a record holding one would be read as two,
    and a web snippet would gain a fake label. A final newline does not start a line.

    Examples
    --------
    >>> from lowdim.data.parsing import text_lines
    >>> text_lines("a\u2028b c\r\nd\n")
    ['a\u2028b c', 'd']
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def member_bytes(archive, member: str, dataset: str) -> bytes:
    """Bytes of one archive member; a missing member names the dataset and archive.

    Examples
    --------
    >>> from lowdim.data.parsing import member_bytes
    >>> from lowdim.data.replicas import zip_bytes
    >>> path = tmp / "a.zip"
    >>> _ = path.write_bytes(zip_bytes({"d/x.txt": b"1"}))
    >>> member_bytes(path, "d/x.txt", "toy")
    b'1'
    """
    return read_member(archive, member, dataset=dataset)


def members_under(archive, prefix: str, dataset: str):
    """Yield ``(name, bytes)`` of the regular files under ``prefix``, in one pass.

    Yields
    ------
    name : str
        The member's path inside the archive.
    data : bytes
        Its contents.

    Examples
    --------
    >>> from lowdim.data.parsing import members_under
    >>> from lowdim.data.replicas import zip_bytes
    >>> path = tmp / "a.zip"
    >>> _ = path.write_bytes(zip_bytes({"train/x.txt": b"1", "test/y.txt": b"2"}))
    >>> list(members_under(path, "train/", "toy"))
    [('train/x.txt', b'1')]
    """
    yield from iter_members(archive, prefix=prefix, dataset=dataset)


def load_mat(path, dataset: str, required=(), any_of=()):
    """Read a MATLAB v5 ``.mat`` file with scipy and check its variables.

    Parameters
    ----------
    path : Path
    dataset : str
        For error messages.
    required : sequence of str
        Variables that must all be present.
    any_of : sequence of sequence of str
        Groups of alternative names: at least one name of each group must be present.

    Returns
    -------
    mat : dict of str -> ndarray
        As returned by :func:`scipy.io.loadmat` (cell arrays are object arrays).

    Examples
    --------
    >>> import scipy.io
    >>> from lowdim.data.parsing import load_mat
    >>> path = tmp / "x.mat"
    >>> scipy.io.savemat(path, {"X": np.eye(2), "the_words": np.array(["a", "b"])})
    >>> mat = load_mat(path, "toy", required=["X"], any_of=[["words", "the_words"]])
    >>> mat["X"].shape
    (2, 2)
    >>> load_mat(path, "toy", required=["Y"])
    Traceback (most recent call last):
        ...
    lowdim.data.parsing.MissingVariableError: dataset 'toy', file 'x.mat': expected variable 'Y' (found: ['X', 'the_words'])
    """
    import scipy.io

    path = Path(path)
    try:
        mat = scipy.io.loadmat(path)
    except (ValueError, TypeError, OSError, NotImplementedError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise FormatError(dataset, path, f"a MATLAB v5 .mat file readable by scipy ({exc})") \
            from exc
    require_variables(mat, required, dataset, path)
    present = sorted(k for k in mat if not k.startswith("__"))
    for group in any_of:
        if not any(name in mat for name in group):
            raise MissingVariableError(dataset, path,
                                       f"one of the variables {list(group)} (found: {present})")
    return mat


def require_variables(mat, names, dataset: str, path) -> None:
    """Raise :class:`MissingVariableError` for the first of ``names`` not in ``mat``.

    Examples
    --------
    >>> from lowdim.data.parsing import require_variables
    >>> require_variables({"X": 1, "Y": 2}, ["X", "Y"], "toy", "toy.mat") is None
    True
    """
    present = sorted(k for k in mat if not k.startswith("__"))
    for name in names:
        if name not in mat:
            raise MissingVariableError(dataset, path, f"variable {name!r} (found: {present})")


def subsample(n: int, n_rows: int, seed: int) -> np.ndarray:
    """Sorted row indices: all rows when ``n_rows`` is 0 or >= n, else a seeded random subset.

    Parameters
    ----------
    n : int
        Number of rows available.
    n_rows : int
        Rows to keep; 0 keeps all.
    seed : int

    Returns
    -------
    rows : ndarray of int64, sorted ascending

    Examples
    --------
    >>> from lowdim.data.parsing import subsample
    >>> subsample(10, 4, seed=0), subsample(5, 0, seed=0)
    (array([2, 4, 5, 7]), array([0, 1, 2, 3, 4]))
    """
    if n_rows < 0:
        raise ArgumentValueError(f"`n_rows` must be >= 0, got {n_rows}", "n_rows")
    if n_rows == 0 or n_rows >= n:
        return np.arange(n, dtype=np.int64)
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n, size=n_rows, replace=False)).astype(np.int64)


def kept_rows(n: int, n_rows: int) -> int:
    """How many rows :func:`subsample` keeps of ``n`` (for sizes known before preparing)."""
    return n if n_rows <= 0 or n_rows >= n else int(n_rows)


def encode_labels(values, names=None):
    """Integer codes 0..C-1 for ``values`` and the class names they stand for.

    Parameters
    ----------
    values : sequence
        One label per item.
    names : sequence of str, optional
        Class names in code order; default: the sorted distinct values.

    Returns
    -------
    y : ndarray of int64 of shape (n,)
    label_names : ndarray of str of shape (C,)

    Examples
    --------
    >>> from lowdim.data.parsing import encode_labels
    >>> encode_labels(["pos", "neg", "pos"])
    (array([1, 0, 1]), array(['neg', 'pos'], dtype='<U3'))
    >>> encode_labels(["pos", "neg"], names=["pos", "neg"])
    (array([0, 1]), array(['pos', 'neg'], dtype='<U3'))
    """
    values = np.asarray([str(v) for v in values], dtype=str)
    if names is None:
        names = np.unique(values)
    names = np.asarray(list(names), dtype=str)
    index = {name: i for i, name in enumerate(names.tolist())}
    unknown = sorted(set(values.tolist()) - set(index))
    if unknown:
        raise ArgumentValueError(f"labels {unknown[:5]} are not among the class names "
                                 f"{names.tolist()}", ("values", "names"))
    y = np.fromiter((index[v] for v in values.tolist()), dtype=np.int64, count=len(values))
    return y, names


def split_indices(is_train, rows=None):
    """``train_idx``/``test_idx`` of shape (1, m) from a boolean train mask.

    Parameters
    ----------
    is_train : ndarray of bool of shape (n_all,)
        True for rows of the official training split.
    rows : ndarray of int, optional
        Rows kept (sorted); indices are renumbered to positions in ``rows``.

    Returns
    -------
    train_idx, test_idx : ndarrays of int64 of shape (1, m), or (None, None)
        None when either part would be empty.

    Examples
    --------
    >>> from lowdim.data.parsing import split_indices
    >>> split_indices(np.array([True, True, False, True, False]))
    (array([[0, 1, 3]]), array([[2, 4]]))
    >>> split_indices(np.array([True, True, False, True, False]), rows=np.array([1, 2, 3]))
    (array([[0, 2]]), array([[1]]))
    """
    mask = np.asarray(is_train, dtype=bool)
    if rows is not None:
        mask = mask[rows]
    train = np.flatnonzero(mask)
    test = np.flatnonzero(~mask)
    if train.size == 0 or test.size == 0:
        return None, None
    return train[None, :].astype(np.int64), test[None, :].astype(np.int64)
