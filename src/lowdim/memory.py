"""Memory the machine has to give, and the peak resident memory of this process.

Used to refuse work up front (exact CCA on views too wide for their
covariance matrices) and by the benchmarks to measure peak memory per method.
Linux reads ``/proc``; elsewhere the functions fall back to what the standard
library offers.
"""

from __future__ import annotations

import os
import re
import resource
from pathlib import Path

__all__ = ["available_memory", "current_rss", "format_bytes", "peak_rss", "reset_peak_rss"]

_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")


def _meminfo_available() -> int | None:
    try:
        text = Path("/proc/meminfo").read_text()
    except OSError:
        return None
    match = re.search(r"^MemAvailable:\s+(\d+) kB", text, re.MULTILINE)
    return int(match[1]) * 1024 if match else None


def _cgroup_room() -> int | None:
    """Bytes left under this process's cgroup memory limit, if it has one."""
    for limit_path in _CGROUP_LIMITS:
        try:
            limit = Path(limit_path).read_text().strip()
            usage_path = Path(limit_path).with_name(
                "memory.current" if limit_path.endswith("max") else "memory.usage_in_bytes")
            usage = int(usage_path.read_text().strip())
        except (OSError, ValueError):
            continue
        if limit.isdigit() and int(limit) < 2 ** 60:
            return max(int(limit) - usage, 0)
    return None


def available_memory() -> int:
    """Bytes a new allocation can take without swapping: the least of MemAvailable and the cgroup room.

    Examples
    --------
    >>> from lowdim.memory import available_memory
    >>> available_memory() > 0
    True
    """
    candidates = [v for v in (_meminfo_available(), _cgroup_room()) if v is not None]
    if not candidates:
        candidates = [os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")]
    return int(min(candidates))


def reset_peak_rss() -> bool:
    """Reset this process's peak resident set size (Linux ``clear_refs`` 5); False if unsupported.

    Examples
    --------
    >>> from lowdim.memory import peak_rss, reset_peak_rss
    >>> supported = reset_peak_rss()    # False where the kernel refuses (no /proc/self/clear_refs)
    >>> peak_rss() > 0
    True
    """
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _status_bytes(field: str) -> int | None:
    try:
        match = re.search(rf"^{field}:\s+(\d+) kB", Path("/proc/self/status").read_text(),
                          re.MULTILINE)
    except OSError:
        return None
    return int(match[1]) * 1024 if match else None


def peak_rss() -> int:
    """Peak resident set size of this process in bytes (since start or the last reset).

    Examples
    --------
    >>> from lowdim.memory import peak_rss
    >>> block = np.ones(50_000_000 // 8)
    >>> peak_rss() >= block.nbytes
    True
    """
    peak = _status_bytes("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def current_rss() -> int:
    """Resident set size of this process now, in bytes (0 where /proc is missing).

    Examples
    --------
    >>> from lowdim.memory import current_rss
    >>> current_rss() > 10_000_000                 # numpy alone keeps more than 10 MB resident
    True
    """
    return _status_bytes("VmRSS") or 0


def format_bytes(n: float) -> str:
    """``1536`` -> ``'1.5 KiB'``: binary units, three significant digits, no exponent.

    Bytes are whole; in a larger unit a size that rounds to 1000 or more is shown in the
    next unit (``0.977 GiB``, not ``1e+03 MiB``).

    Examples
    --------
    >>> from lowdim.memory import format_bytes
    >>> format_bytes(1536), format_bytes(7.63 * 2**30), format_bytes(12)
    ('1.5 KiB', '7.63 GiB', '12 B')
    >>> format_bytes(1000 * 2**20), format_bytes(1023.9 * 2**30)
    ('0.977 GiB', '1 TiB')
    """
    if abs(n) < 1024:
        return f"{int(n)} B"
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        n /= 1024
        text = f"{n:.3g}"
        if abs(float(text)) < 1000:
            return f"{text} {unit}"
    return f"{n:,.0f} PiB"
