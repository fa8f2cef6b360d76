"""Rewrite every generated number block of the README and the docs from stored measurements.

    python docs/update_numbers.py            # after a benchmark stores new measurements

Each block (``<!-- name:start -->`` ... ``<!-- name:end -->``) listed in
``tooling.numbers.BLOCKS`` is written from the benchmarks' stored output
(``benchmarks/*.json``, ``benchmarks/workflow_overhead/*``); ``tests/test_numbers.py``
checks that the committed files are what this writes.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "docs"), str(ROOT / "src")]  # the docs tooling, this checkout's lowdim

from lowdim.io import atomic_path  # noqa: E402
from tooling.blocks import replace_block  # noqa: E402
from tooling.numbers import BLOCKS  # noqa: E402


def main():
    for name, blocks in BLOCKS.items():
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        for block, generate in blocks.items():
            text = replace_block(text, block, generate())
        with atomic_path(path) as tmp:
            tmp.write_text(text, encoding="utf-8")
        print(f"{name}: {', '.join(blocks)}")


if __name__ == "__main__":
    main()
