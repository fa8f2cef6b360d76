"""Free memory and peak resident memory, as the exact-CCA refusal and the benchmarks read them."""

import numpy as np

from fixtures.requirements import require
from lowdim.memory import available_memory, current_rss, format_bytes, peak_rss, reset_peak_rss


def test_peak_rss_sees_an_allocation_and_resets():
    require([] if reset_peak_rss() else ["a writable /proc/self/clear_refs (Linux)"],
            "LOWDIM_REQUIRE_CLEAR_REFS", "the peak-memory reset tests")
    base = current_rss()
    block = np.ones(64 * 2 ** 20 // 8)  # 64 MiB, touched
    assert peak_rss() >= base + 60 * 2 ** 20
    del block
    reset_peak_rss()
    assert peak_rss() < base + 32 * 2 ** 20


def test_available_memory_and_format():
    assert 2 ** 20 < available_memory() < 2 ** 50
    assert format_bytes(1536) == "1.5 KiB" and format_bytes(3 * 2 ** 40) == "3 TiB"
    assert format_bytes(100) == "100 B"


def test_format_bytes_never_writes_an_exponent():
    # 1000-1023 of a unit rounds to 3 digits as 1e+03: the next unit is shown instead
    assert format_bytes(1000 * 2 ** 20) == "0.977 GiB"
    assert format_bytes(1023.5 * 2 ** 10) == "1 MiB"
    assert format_bytes(1023.9 * 2 ** 30) == "1 TiB"
    assert format_bytes(999.4 * 2 ** 10) == "999 KiB" and format_bytes(1023) == "1023 B"
    assert format_bytes(2000 * 2 ** 50) == "2,000 PiB"
    assert all("e+" not in format_bytes(n * 2 ** k) for n in np.linspace(990, 1024, 200)
               for k in (10, 20, 30, 40, 50))
