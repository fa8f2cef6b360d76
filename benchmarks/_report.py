"""A benchmark's ``.md``: a hand-written interpretation, kept, above tables built from data.

Every benchmark stores its measurements (``<name>.json`` or ``.csv`` beside its ``.md``) and
writes the ``.md`` from them with :func:`write_report`:

- the *interpretation* between :data:`START` and :data:`END` is written by hand and cites
  the tables by their headings; a rewrite keeps it as it is;
- everything after :data:`END` is generated from the measurements (``pandas.to_markdown``),
  so a re-run cannot leave a number of the tables stale, and
  ``tests/test_benchmarks.py`` checks that the committed tables are what the stored
  measurements give.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))  # this checkout's lowdim

from lowdim.io import atomic_path  # noqa: E402

START = "<!-- interpretation: written by hand, kept when the benchmark rewrites this file -->"
END = "<!-- generated: everything below is written by the benchmark from its measurements -->"
#: What a new report says until someone has read its tables.
UNWRITTEN = "*Not interpreted yet: read the tables below.*"


def hand_written(path: Path) -> str:
    """The interpretation of the report at ``path``, or :data:`UNWRITTEN` if it has none."""
    if not path.exists():
        return UNWRITTEN
    text = path.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return UNWRITTEN
    return text.split(START, 1)[1].split(END, 1)[0].strip() or UNWRITTEN


def generated_part(path: Path) -> str:
    """What follows :data:`END` in the report at ``path`` (empty if it has no marker)."""
    text = path.read_text(encoding="utf-8")
    return text.split(END, 1)[1].strip() if END in text else ""


def write_report(path, title: str, sections: list[str]) -> str:
    """Write ``# title``, the kept interpretation, then ``sections`` (Markdown); return the
    generated part."""
    path = Path(path)
    generated = "\n\n".join(s.strip() for s in sections if s and s.strip())
    text = f"# {title}\n\n{START}\n\n{hand_written(path)}\n\n{END}\n\n{generated}\n"
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return generated


def table(frame: pd.DataFrame, floatfmt: str = ".3g", formats: dict | None = None,
          numparse: bool = True) -> str:
    """A DataFrame as a Markdown table (no index); missing values (None, NaN) as an em dash.

    ``formats`` maps a piece of a column name to the format of that column's numbers (the
    first piece found in the name wins); other columns take ``floatfmt``. ``numparse=False``
    prints text cells as they are (text that reads as a number would be reformatted).
    """
    formats = formats or {}
    per_column = tuple(next((f for key, f in formats.items() if key in str(column)), floatfmt)
                       for column in frame.columns)
    frame = frame.astype(object).where(frame.notna(), None)
    return frame.to_markdown(index=False, floatfmt=per_column, intfmt=",", missingval="—",
                             disable_numparse=not numparse)


def section(heading: str, *parts: str, level: int = 2) -> str:
    """A heading and its parts, blank lines between."""
    return "\n\n".join([f"{'#' * level} {heading}", *[p for p in parts if p]])


def number(value, spec: str = ".3g", none: str = "—") -> str:
    """``value`` formatted, or ``none`` for None and NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return none
    return format(value, spec)


def read_json(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_json(path: Path, data) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
