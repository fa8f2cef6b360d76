"""URL-Reputation-shaped replica day files, and the memory of the ``url_reputation`` parser on them.

``url_svmlight.tar.gz`` holds ``url_svmlight/Day0.svm`` … ``Day120.svm`` (svmlight, labels
+1/-1, 1-based indices) and ``FeatureTypes`` (the real-valued columns). The replica has the
real data's size: 2,396,130 rows over 121 days, 3,231,961 columns, 64 real-valued columns
(8 set per row) and binary host (38 %) and lexical (62 %) columns from ``sparse_two_view``
(about 116 binary non-zeros per row). Each parser runs in its own process; its peak RSS
(VmHWM) is compared with the bytes of the views it returns.

    python benchmarks/url_replica.py --parse ARCHIVE --how streamed|stacked   (one measurement)
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "src")]

ROWS, COLUMNS, DAYS, REAL = 2_396_130, 3_231_961, 121, 64


class _Rows:
    """The replica's rows in order, from one :func:`sparse_two_view_blocks` stream.

    Only the current block is held: ``get(a, b)`` takes rows ``[a, b)``, each call
    continuing where the previous one stopped.
    """

    def __init__(self, rows, p_host, p_lex, seed):
        from lowdim.data.sources.synthetic import sparse_two_view_blocks

        factors = min(2000, p_host // 5)  # templates of 1-8 features, 4.5 on average
        self.blocks = sparse_two_view_blocks(rows, p_host, p_lex, n_factors=factors,
                                             noise_nnz=53, random_state=0)
        self.rng = np.random.default_rng(seed)
        self.block, self.lo, self.hi = None, 0, 0

    def _next(self):
        host, lexical, y = next(self.blocks)
        n = y.size
        cols = np.sort(np.argsort(self.rng.random((n, REAL)), axis=1)[:, :8], axis=1)
        real = sp.csr_matrix((self.rng.uniform(0.01, 10.0, n * 8), cols.ravel(),
                              np.arange(0, 8 * n + 1, 8)), shape=(n, REAL))
        self.block = (sp.hstack([real, host, lexical], format="csr"),
                      np.where(y % 3 == 0, 1, -1))
        self.lo, self.hi = self.hi, self.hi + n

    def get(self, a, b):
        if a < self.lo:
            raise ValueError(f"rows are read in order: {a} requested after {self.lo}")
        parts, labels = [], []
        while a < b:
            if a >= self.hi:
                self._next()
            stop = min(b, self.hi)
            parts.append(self.block[0][a - self.lo: stop - self.lo])
            labels.append(self.block[1][a - self.lo: stop - self.lo])
            a = stop
        return sp.vstack(parts, format="csr"), np.concatenate(labels)


def write_replica(path: Path, rows=ROWS, columns=COLUMNS, days=DAYS, seed=0):
    """Write the replica archive (gzip level 1); returns its size in bytes."""
    from sklearn.datasets import dump_svmlight_file

    p_host = int(0.38 * (columns - REAL))
    source = _Rows(rows, p_host, columns - REAL - p_host, seed)
    bounds = np.linspace(0, rows, days + 1).astype(int)
    with tarfile.open(path, "w:gz", compresslevel=1) as tar:
        for d in range(days):
            X, y = source.get(bounds[d], bounds[d + 1])
            buffer = io.BytesIO()
            dump_svmlight_file(X, y, buffer, zero_based=False)
            _add(tar, f"url_svmlight/Day{d}.svm", buffer.getvalue())
        _add(tar, "url_svmlight/FeatureTypes", "".join(f"{j}\n" for j in range(1, REAL + 1))
             .encode())
    return path.stat().st_size


def _add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _stacked(archive):
    """The peer of the library's parser, written the direct way: every day as scikit-learn
    returns it (int64 CSR), all days stacked, then sliced by column."""
    import re

    from sklearn.datasets import load_svmlight_file

    from lowdim.data.parsing import members_under

    days, real = {}, None
    for name, data in members_under(archive, "url_svmlight/", "url_reputation"):
        if name.endswith("FeatureTypes"):
            real = np.asarray([int(v) for v in re.findall(rb"\d+", data)]) - 1
            continue
        X, _ = load_svmlight_file(io.BytesIO(data), zero_based=False)
        days[int(re.search(r"Day(\d+)", name)[1])] = sp.csr_matrix(X)
    p = max(X.shape[1] for X in days.values())
    X = sp.vstack([sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], p))
                   for _, X in sorted(days.items())], format="csr")
    return X[:, real], X[:, np.setdiff1d(np.arange(p), real)]


def measure(archive: Path, how: str) -> dict:
    from lowdim.data import get_spec
    from lowdim.memory import peak_rss

    start = time.perf_counter()
    if how == "streamed":
        ds = get_spec("url_reputation").parser({"url_svmlight.tar.gz": archive}, n_rows=0,
                                                views="feature_types", x_columns=[0, 1],
                                                y_columns=[1, 2], x_max_features=0,
                                                y_max_features=0)
        views = (ds.X, ds.Y)
    else:
        views = _stacked(archive)
    seconds = time.perf_counter() - start
    out = sum(A.data.nbytes + A.indices.nbytes + A.indptr.nbytes for A in views)
    return {"parser": how, "rows": views[0].shape[0],
            "columns": views[0].shape[1] + views[1].shape[1],
            "nnz": int(sum(A.nnz for A in views)), "seconds": seconds, "peak_rss": peak_rss(),
            "output_bytes": int(out)}


def _run(archive, how):
    result = subprocess.run([sys.executable, __file__, "--parse", str(archive), "--how", how],
                            capture_output=True, text=True, env={**os.environ})
    if result.returncode:
        return {"parser": how, "error": result.stderr[-2000:]}
    return json.loads(result.stdout.strip().splitlines()[-1])


def parser_memory(full: bool, quick: bool = False, fraction: float | None = None,
                  min_free_gib: float | None = None) -> dict:
    """Write a replica and measure the parsers on it.

    Full size; or ``fraction`` of the rows at the full 3.2M columns (the day count, the
    columns and the non-zeros per row as the real data's); or else 1/20 of the rows and
    columns (1/500 with ``quick``). ``min_free_gib``: the free memory the full size asks
    for at the start (default 20 GiB; the streamed parser peaked at 7.63 GiB).
    """
    from lowdim.memory import available_memory

    need = 20.0 if min_free_gib is None else min_free_gib
    if full and available_memory() < need * 2 ** 30:
        sys.exit(f"the full-size parser measurement needs {need:g} GiB free, "
                 f"{available_memory() / 2**30:.1f} available; rerun when `free -g` shows it")
    if fraction:
        scale, rows, columns = fraction, int(ROWS * fraction), COLUMNS
    else:
        scale = 1.0 if full else (0.002 if quick else 0.05)
        rows, columns = int(ROWS * scale), int(COLUMNS * scale)
    with tempfile.TemporaryDirectory(prefix="url_replica_") as tmp:
        archive = Path(tmp) / "url_svmlight.tar.gz"
        tick = time.perf_counter()
        size = write_replica(archive, rows, columns)
        written = time.perf_counter() - tick
        runs = [_run(archive, "streamed")] + ([] if full or fraction else
                                              [_run(archive, "stacked")])
    for r in runs:
        if "error" in r:
            raise RuntimeError(f"parser {r['parser']} failed: {r['error']}")
    return {"rows": runs, "fraction": fraction, "scale": scale, "days": DAYS, "n_rows": rows,
            "n_columns": columns, "archive_bytes": size, "write_seconds": written,
            "date": time.strftime("%Y-%m-%d %H:%M"), "load_average": os.getloadavg()[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parse", type=Path, required=True)
    parser.add_argument("--how", choices=["streamed", "stacked"], default="streamed")
    args = parser.parse_args()
    print(json.dumps(measure(args.parse, args.how)))


if __name__ == "__main__":
    main()
