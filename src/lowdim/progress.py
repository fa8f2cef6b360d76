"""Progress lines for long work (WMD matrices, walks, AppGrad iterations, downloads).

Every long loop logs a start line with the amount of work, progress lines at
most every ``every`` seconds, and an end line with the count, elapsed time and
rate, e.g.::

    WMD block 300x600: start, 180000 pairs
    WMD block 300x600: 61234/180000 pairs (34.0%), 1021.3 pairs/s, eta 116 s
    WMD block 300x600: done, 180000 pairs in 176.2 s (1021.6 pairs/s)
"""

from __future__ import annotations

import logging
import time

__all__ = ["Progress"]


class Progress:
    """Count work done and log it at a bounded rate.

    Parameters
    ----------
    desc : str
        What is being done, used as the line prefix.
    total : int or None
        Amount of work expected, in ``unit``; None when unknown.
    unit : str, default="items"
        Unit of work, e.g. "pairs", "walks", "iterations", "bytes".
    logger : logging.Logger, optional
        Defaults to the ``lowdim`` logger.
    every : float, default=10.0
        Minimum seconds between progress lines.

    Examples
    --------
    >>> with Progress("walks", total=10, unit="walks") as p:
    ...     for _ in range(10):
    ...         p.update(1)
    """

    def __init__(self, desc, total=None, unit="items", logger=None, every=10.0):
        self.desc = desc
        self.total = total
        self.unit = unit
        self.logger = logger or logging.getLogger("lowdim")
        self.every = every
        self.done = 0
        self._start = None
        self._last = None

    def __enter__(self):
        self._start = self._last = time.perf_counter()
        amount = f"{self.total} {self.unit}" if self.total is not None else f"unknown {self.unit}"
        self.logger.info("%s: start, %s", self.desc, amount)
        return self

    def update(self, n=1):
        """Record ``n`` more units done; log if ``every`` seconds have passed."""
        self.done += n
        now = time.perf_counter()
        if now - self._last >= self.every:
            self._last = now
            self.logger.info("%s: %s", self.desc, self._status(now))

    def _status(self, now):
        elapsed = max(now - self._start, 1e-12)
        rate = self.done / elapsed
        if self.total:
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            return (f"{self.done}/{self.total} {self.unit} ({100.0 * self.done / self.total:.1f}%), "
                    f"{rate:.1f} {self.unit}/s, eta {eta:.0f} s")
        return f"{self.done} {self.unit}, {rate:.1f} {self.unit}/s"

    @property
    def elapsed(self):
        """Seconds since the start line."""
        return time.perf_counter() - self._start

    def __exit__(self, exc_type, exc, tb):
        elapsed = max(self.elapsed, 1e-12)
        if exc_type is None:
            self.logger.info("%s: done, %d %s in %.2f s (%.1f %s/s)", self.desc, self.done,
                             self.unit, elapsed, self.done / elapsed, self.unit)
        else:
            self.logger.error("%s: failed after %d %s in %.2f s: %s", self.desc, self.done,
                              self.unit, elapsed, exc)
        return False
