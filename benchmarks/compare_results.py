"""Compare two runs' result files: are the numbers the same, timing columns aside?

    python benchmarks/compare_results.py BASELINE/results MINE/results [--show 20]

For every CSV below the first ``results/`` (``benchmarks/`` left out: they are timings),
the file at the same path below the second, or the files a restructured DAG merged it
into (:data:`MERGED`: one job per matrix, per dataset, per corpus where there was one per
method), are read and compared column by column, columns that measure time, memory or the
version left out (:data:`IGNORED`). A file reads ``same`` (every value equal, rows in the
same order), ``same rows, other order``, or ``differs`` with the columns that differ and
their largest difference; files only in one run are listed. Exit status 1 if any file
differs or is missing from the second run.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

#: Columns that measure the run, not its result (wall and CPU time, memory, the version).
IGNORED = re.compile(r"second|time|\(s\)|rss|memory|version|cpu_over_wall|^repeat$", re.I)
#: Baseline path pattern -> the path holding its rows now (one job per group, not per method).
MERGED = {
    r"similarity/errors/(?P<m>[^/]+)/[^/]+\.csv": "similarity/errors/{m}.csv",
    r"embedding/tidy/scores/(?P<d>[^/]+)/[^/]+\.csv": "embedding/tidy/scores/{d}.csv",
    r"similarity/tasks/coref/(?P<c>[^/]+)/(?!topics)[^/]+\.csv":
        "similarity/tasks/coref/{c}/clustering.csv",
}


def _csvs(root: Path) -> list:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.csv")
                  if not str(p.relative_to(root)).startswith("benchmarks/"))


def _merged_path(path: str):
    for pattern, target in MERGED.items():
        found = re.fullmatch(pattern, path)
        if found:
            return target.format(**found.groupdict())
    return None


def _kept(frame: pd.DataFrame) -> list:
    return [c for c in frame.columns if not IGNORED.search(str(c))]


def _difference(a: pd.Series, b: pd.Series) -> str:
    x, y = pd.to_numeric(a, errors="coerce"), pd.to_numeric(b, errors="coerce")
    if x.notna().any() and x.isna().equals(a.isna()) and y.isna().equals(b.isna()):
        return f"max |diff| {np.nanmax(np.abs(x.to_numpy() - y.to_numpy())):.3g}"
    return f"{int((a.astype(str) != b.astype(str)).sum())} of {len(a)} values"


def compare(old: pd.DataFrame, new: pd.DataFrame) -> str:
    """``same``, ``same rows, other order`` or ``differs: ...``, timing columns aside."""
    columns = _kept(old)
    if set(columns) - set(new.columns):
        return f"differs: columns gone {sorted(set(columns) - set(new.columns))}"
    extra = sorted(set(_kept(new)) - set(columns))
    note = f" (new columns {extra})" if extra else ""
    if len(old) != len(new):
        return f"differs: {len(old)} rows, now {len(new)}{note}"
    a, b = old[columns].reset_index(drop=True), new[columns].reset_index(drop=True)
    if a.astype(str).equals(b.astype(str)):
        return "same" + note
    key = [str(c) for c in columns]
    a_sorted = a.astype(str).sort_values(key, kind="stable").reset_index(drop=True)
    b_sorted = b.astype(str).sort_values(key, kind="stable").reset_index(drop=True)
    if a_sorted.equals(b_sorted):
        return "same rows, other order" + note
    differing = [c for c in columns if not a[c].astype(str).equals(b[c].astype(str))]
    return "differs: " + "; ".join(f"{c}: {_difference(a[c], b[c])}" for c in differing) + note


def compare_runs(baseline: Path, mine: Path) -> pd.DataFrame:
    """One row per baseline CSV (or group of merged ones): file, now at, verdict."""
    rows, merged = [], {}
    for path in _csvs(baseline):
        target = path if (mine / path).exists() else _merged_path(path)
        if target is None or not (mine / target).exists():
            rows.append({"file": path, "now at": "", "verdict": "missing"})
        elif target != path:
            merged.setdefault(target, []).append(path)
        else:
            rows.append({"file": path, "now at": path,
                         "verdict": compare(pd.read_csv(baseline / path), pd.read_csv(mine / path))})
    for target, parts in merged.items():
        old = pd.concat([pd.read_csv(baseline / p) for p in parts], ignore_index=True)
        rows.append({"file": f"{len(parts)} files merged", "now at": target,
                     "verdict": compare(old, pd.read_csv(mine / target))})
    seen = {r["now at"] for r in rows}
    rows += [{"file": "", "now at": path, "verdict": "new"} for path in _csvs(mine)
             if path not in seen]
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("mine", type=Path)
    args = parser.parse_args(argv)
    table = compare_runs(args.baseline, args.mine)
    with pd.option_context("display.max_rows", None, "display.max_colwidth", 120,
                           "display.width", 250):
        print(table.to_string(index=False))
    counts = table["verdict"].str.split(":").str[0].str.replace(r" \(new columns.*", "",
                                                                 regex=True).value_counts()
    print("\n" + ", ".join(f"{n} {verdict}" for verdict, n in counts.items()))
    return int(table["verdict"].str.startswith(("differs", "missing")).any())


if __name__ == "__main__":
    sys.exit(main())
