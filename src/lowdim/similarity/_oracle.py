"""The similarity-oracle protocol: lazy, cached, counted block evaluation.

A *similarity oracle* stands for an ``n x n`` similarity matrix ``K`` whose
entries are expensive to compute (a word mover's distance, a network forward
pass). Approximation methods ask it for blocks ``K[rows, cols]``; the oracle
computes only the entries it has not computed before, counts them, and may
spread the work over several cores.
"""

from __future__ import annotations

import logging
import os

import numpy as np

from .._validation import ArgumentValueError, check_number
from ..progress import Progress

__all__ = ["SimilarityOracle", "check_n_jobs"]

logger = logging.getLogger("lowdim")

#: Calls that evaluate at least this many new entries log progress lines.
_PROGRESS_MIN_PAIRS = 20_000


def check_n_jobs(n_jobs) -> int:
    """Return a positive worker count for ``n_jobs`` (``-1`` or ``None`` = all cores).

    Parameters
    ----------
    n_jobs : int or None
        Workers asked for: a positive int, ``-1`` or None for every core.

    Returns
    -------
    n_jobs : int
        The positive worker count.

    Raises
    ------
    ValueError
        If ``n_jobs`` is 0 or below -1, or not an integer.

    Examples
    --------
    >>> from lowdim.similarity import check_n_jobs
    >>> check_n_jobs(2)
    2
    >>> check_n_jobs(-1) >= 1
    True
    >>> check_n_jobs(0)
    Traceback (most recent call last):
        ...
    lowdim._validation.ArgumentValueError: `n_jobs` must be a positive integer or -1, got 0
    """
    if n_jobs is None or n_jobs == -1:
        return max(1, os.cpu_count() or 1)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise ArgumentValueError(f"`n_jobs` must be a positive integer or -1, got {n_jobs!r}",
                                 "n_jobs")
    return int(n_jobs)


class SimilarityOracle:
    """Base class: evaluate blocks of a similarity matrix lazily.

    Subclasses set ``self._n`` and ``self.symmetric`` and implement
    :meth:`_pair_task`, which names a module-level function computing the
    similarities of a batch of index pairs. This class validates indices,
    removes repeated entries, looks up and fills the cache, checks the values
    are finite, counts the entries actually computed and splits large batches
    into chunks.

    Parameters
    ----------
    n_jobs : int, default=1
        Cores used to evaluate a block; ``-1`` uses all cores.
    cache : bool, default=True
        Keep every computed entry so asking for it again costs nothing and is
        not counted again. Turn off when computing a whole large matrix once
        (the cache holds 16 bytes per entry).
    chunk_size : int, default=2048
        Pairs per parallel task.

    Attributes
    ----------
    n : int
        Number of items (rows and columns of ``K``).
    symmetric : bool
        True when ``K[i, j] == K[j, i]``; then ``(i, j)`` and ``(j, i)`` are one
        entry, computed and counted once.
    evaluations : int
        Number of distinct entries computed so far.

    Examples
    --------
    >>> from lowdim.similarity import DenseOracle, SimilarityOracle
    >>> oracle = DenseOracle(np.arange(16.0).reshape(4, 4), symmetrize=True)
    >>> isinstance(oracle, SimilarityOracle), oracle.n, oracle.symmetric
    (True, 4, True)
    >>> oracle([0, 1], [2, 3])
    array([[ 5. ,  7.5],
           [ 7.5, 10. ]])
    >>> oracle.evaluations
    4
    >>> _ = oracle([3, 2], [1, 0])  # the same entries, mirrored: cached, not counted again
    >>> oracle.evaluations
    4
    """

    symmetric = True

    def __init__(self, n_jobs=1, cache=True, chunk_size=2048):
        self.n_jobs = check_n_jobs(n_jobs)
        self.cache = bool(cache)
        self.chunk_size = check_number(chunk_size, "chunk_size", integer=True, minimum=1)
        self._n_evaluations = 0
        self._cache_keys = np.empty(0, dtype=np.int64)
        self._cache_values = np.empty(0, dtype=np.float64)

    # -- the protocol -------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of items."""
        return self._n

    @property
    def shape(self) -> tuple[int, int]:
        """``(n, n)``."""
        return (self._n, self._n)

    @property
    def evaluations(self) -> int:
        """Distinct entries computed so far (cached repeats are not counted)."""
        return self._n_evaluations

    def reset(self) -> None:
        """Forget the cache and set the evaluation counter to zero."""
        self._n_evaluations = 0
        self._cache_keys = np.empty(0, dtype=np.int64)
        self._cache_values = np.empty(0, dtype=np.float64)

    def __call__(self, rows, cols) -> np.ndarray:
        """Return the dense block ``K[rows, cols]``, computing only new entries.

        Parameters
        ----------
        rows : array-like of int, shape (r,)
        cols : array-like of int, shape (c,)

        Returns
        -------
        block : ndarray of shape (r, c), float64
        """
        return self.evaluate(rows, cols, record=True)

    def evaluate(self, rows, cols, record=True) -> np.ndarray:
        """Return ``K[rows, cols]``.

        Parameters
        ----------
        rows, cols : array-like of int
            Indices of the rows and columns of the block.
        record : bool, default=True
            If False, bypass the cache and the counter: used to measure an
            approximation's error without charging it for the evaluations.

        Returns
        -------
        block : ndarray of shape (len(rows), len(cols))
            The entries, float64.
        """
        rows = self._check_index(rows, "rows")
        cols = self._check_index(cols, "cols")
        keys = self._keys(rows[:, None], cols[None, :]).ravel()
        ukeys, inverse = np.unique(keys, return_inverse=True)
        values = np.empty(ukeys.size, dtype=np.float64)
        hit = self._lookup(ukeys, values) if record else np.zeros(ukeys.size, dtype=bool)
        new = ukeys[~hit]
        if new.size:
            new_values = self._compute_checked(new // self._n, new % self._n)
            values[~hit] = new_values
            if record:
                self._n_evaluations += int(new.size)
                if self.cache:
                    self._store(new, new_values)
        return values[inverse].reshape(rows.size, cols.size)

    # -- subclass hooks -------------------------------------------------------------------
    #: joblib backend used when ``n_jobs > 1``: "loky" (processes) for work that holds
    #: the GIL, "threading" for work that releases it (BLAS, torch).
    _backend = "threading"

    def _pair_task(self):
        """Return ``(func, args)``: ``func(*args, i, j)`` gives ``K[i[t], j[t]]``.

        ``func`` must be a module-level function and ``args`` picklable, so
        the chunks can run in worker processes. Override.
        """
        raise NotImplementedError

    def _compute_serial(self, i, j, progress, size=None) -> np.ndarray:
        """Compute pairs chunk by chunk (``size``, default ``chunk_size``) in this process."""
        func, args = self._pair_task()
        size = size or self.chunk_size
        out = np.empty(i.size, dtype=np.float64)
        for a in range(0, i.size, size):
            b = min(a + size, i.size)
            out[a:b] = func(*args, i[a:b], j[a:b])
            progress.update(b - a)
        return out

    def _compute_chunks(self, i, j, progress) -> np.ndarray:
        """Compute pairs chunk by chunk, in parallel over ``n_jobs`` workers."""
        size = self.chunk_size
        if self.n_jobs > 1:
            # At most ~4 tasks per worker: each task ships (or memory-maps) the shared
            # arguments, and joblib hashes large arrays every time it does.
            size = max(size, -(-i.size // (4 * self.n_jobs)))
        bounds = [(a, min(a + size, i.size)) for a in range(0, i.size, size)]
        if self.n_jobs == 1 or len(bounds) == 1:
            return self._compute_serial(i, j, progress, size)
        from joblib import Parallel, delayed

        func, args = self._pair_task()
        out = np.empty(i.size, dtype=np.float64)
        parallel = Parallel(n_jobs=self.n_jobs, backend=self._backend, return_as="generator")
        results = parallel(delayed(func)(*args, i[a:b], j[a:b]) for a, b in bounds)
        for (a, b), values in zip(bounds, results):
            out[a:b] = values
            progress.update(b - a)
        return out

    # -- internals ------------------------------------------------------------------------
    def _check_index(self, index, name) -> np.ndarray:
        arr = np.asarray(index)
        if arr.ndim != 1:
            raise ArgumentValueError(f"`{name}` must be a 1-D array of indices, got shape "
                                     f"{arr.shape}", name)
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise ArgumentValueError(f"`{name}` must hold integer indices, got dtype {arr.dtype}",
                                     name)
        arr = arr.astype(np.int64, copy=False)
        if arr.size and (arr.min() < 0 or arr.max() >= self._n):
            bad = arr[(arr < 0) | (arr >= self._n)][0]
            raise IndexError(f"`{name}` contains index {bad}, outside [0, n = {self._n})")
        return arr

    def _keys(self, i, j) -> np.ndarray:
        if self.symmetric:
            i, j = np.minimum(i, j), np.maximum(i, j)
        return i * np.int64(self._n) + j

    def _lookup(self, ukeys, values) -> np.ndarray:
        if not self._cache_keys.size:
            return np.zeros(ukeys.size, dtype=bool)
        pos = np.searchsorted(self._cache_keys, ukeys)
        pos_c = np.minimum(pos, self._cache_keys.size - 1)
        hit = self._cache_keys[pos_c] == ukeys
        values[hit] = self._cache_values[pos_c[hit]]
        return hit

    def _store(self, new_keys, new_values) -> None:
        # Both sides are sorted and disjoint, so one insert keeps the cache sorted.
        pos = np.searchsorted(self._cache_keys, new_keys)
        self._cache_keys = np.insert(self._cache_keys, pos, new_keys)
        self._cache_values = np.insert(self._cache_values, pos, new_values)

    def _compute_checked(self, i, j) -> np.ndarray:
        name = type(self).__name__
        if i.size >= _PROGRESS_MIN_PAIRS:
            with Progress(f"{name} ({self.n_jobs} jobs)", total=int(i.size), unit="pairs") as p:
                values = self._compute_chunks(i, j, p)
        else:
            values = self._compute_chunks(i, j, _NoProgress())
        values = np.asarray(values, dtype=np.float64).reshape(i.size)
        bad = ~np.isfinite(values)
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{name} returned {int(bad.sum())} non-finite similarities, "
                             f"first K[{i[t]}, {j[t]}] = {values[t]}")
        return values

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(n={self._n}, symmetric={self.symmetric}, "
                f"n_jobs={self.n_jobs}, evaluations={self._n_evaluations})")


class _NoProgress:
    def update(self, n=1):
        pass
