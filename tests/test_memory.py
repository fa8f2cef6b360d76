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
