"""SMS-Nyström on a WMD kernel against forming the whole matrix; WMD oracle against a plain loop.

Run from the repository root::

    PYTHONPATH=src python benchmarks/sms_wmd.py [--dataset lee] [--n 200] [--jobs 2]

Prints, and writes to ``benchmarks/sms_wmd_<dataset>.md``, side-by-side ratios measured in
one process on the same documents:

1. SMS-Nyström at s/n = 0.1 against evaluating the whole WMD kernel matrix,
   in similarity evaluations and in seconds (both through ``WMDOracle``, fresh
   cache each), with the approximation's relative Frobenius error;
2. the WMD oracle's pairs per second against a plain double loop that calls
   ``ot.dist`` and ``ot.emd2`` (POT defaults) per pair, on the same block of
   document pairs, with the largest difference between their distances.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

import pandas as pd

from _report import read_json, section, table, write_json, write_report
from lowdim.approx import relative_frobenius_error, sms_nystrom
from lowdim.data import get_spec
from lowdim.data.word_vectors import load_glove50
from lowdim.similarity import WMDOracle, full_matrix, in_vocabulary_counts
from lowdim.similarity.wmd import _import_ot

#: SMS-Nyström's sample size as a share of the documents, s / n
FRACTION = 0.1


def documents(name, n, seed=0):
    """The first ``n`` usable documents of a text dataset, as bag-of-words rows."""
    data = get_spec(name).prepare()
    glove = load_glove50()
    usable = np.flatnonzero(in_vocabulary_counts(data.bow, data.vocab, glove) > 0)
    items = np.sort(np.random.default_rng(seed).choice(usable, size=min(n, usable.size),
                                                       replace=False))
    return data.bow[items], data.vocab, glove


def plain_wmd(bow, vocab, glove, rows, cols):
    """WMD by a double loop over ot.dist + ot.emd2 with POT's defaults: the peer."""
    ot = _import_ot()
    docs = []
    for d in range(bow.shape[0]):
        row = bow.getrow(d)
        keep = [k for k, c in enumerate(row.indices) if vocab[c] in glove.vocab]
        words = [vocab[row.indices[k]] for k in keep]
        weights = row.data[keep] / row.data[keep].sum()
        docs.append((np.asarray(glove.vectors[[glove.vocab[w] for w in words]], float), weights))
    out = np.empty((len(rows), len(cols)))
    for a, i in enumerate(rows):
        for b, j in enumerate(cols):
            M = ot.dist(docs[i][0], docs[j][0], metric="euclidean")
            out[a, b] = ot.emd2(docs[i][1], docs[j][1], M)
    return out


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="lee")
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--gamma", type=float, default=0.1)
    parser.add_argument("--block", type=int, nargs=2, default=(20, 40),
                        help="rows x columns of the pair block for the throughput comparison")
    parser.add_argument("--out", default=None,
                        help="Markdown file (default benchmarks/sms_wmd_<dataset>.md)")
    parser.add_argument("--render", action="store_true", help="only rewrite the .md's tables "
                        "from its stored .json")
    args = parser.parse_args()
    out = Path(args.out or Path(__file__).with_name(f"sms_wmd_{args.dataset}.md"))
    if args.render:
        stored = read_json(out.with_suffix(".json"))
        print(write_report(out, title(stored), render(stored)))
        return
    bow, vocab, glove = documents(args.dataset, args.n)
    n = bow.shape[0]

    def oracle(jobs):
        return WMDOracle.from_bow(bow, vocab, glove, args.gamma, n_jobs=jobs)

    K, full_seconds = timed(full_matrix, oracle(args.jobs))
    s = int(round(FRACTION * n))
    sms_oracle = oracle(args.jobs)
    approx, sms_seconds = timed(sms_nystrom, sms_oracle, s, random_state=0)
    error = relative_frobenius_error(approx, K)

    r, c = args.block
    if r + c > n:
        parser.error(f"--block {r} {c} needs {r + c} documents, the run has n = {n}")
    rows, cols = np.arange(r), np.arange(r, r + c)
    pairs = r * c
    plain, plain_seconds = timed(plain_wmd, bow, vocab, glove, rows, cols)
    serial, serial_seconds = timed(oracle(1), rows, cols)
    warm = oracle(args.jobs)
    _, startup_seconds = timed(warm, np.arange(2 * args.jobs),
                               np.arange(2 * args.jobs, min(64, n)))
    warm.chunk_size = max(1, pairs // (4 * args.jobs))  # a few chunks per worker
    parallel, parallel_seconds = timed(warm, rows, cols)
    difference = np.abs(-np.log(serial) / args.gamma - plain).max()

    stored = {
        "dataset": args.dataset, "n": n, "words_per_document": float(np.mean(np.diff(bow.indptr))),
        "gamma": args.gamma, "jobs": args.jobs, "pairs": pairs,
        "evaluations": {"sms": int(approx.evaluations), "whole": n * (n + 1) // 2},
        "seconds": {"sms": sms_seconds, "whole": full_seconds, "plain": plain_seconds,
                    "serial": serial_seconds, "parallel": parallel_seconds,
                    "startup": startup_seconds},
        "relative_error": float(error), "largest_difference": float(difference),
        "meta": {"date": time.strftime("%Y-%m-%d %H:%M"),
                 "machine": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                 "load_average": os.getloadavg()[0]}}
    write_json(out.with_suffix(".json"), stored)
    print(write_report(out, title(stored), render(stored)))


def title(stored) -> str:
    return (f"SMS-Nyström and the WMD oracle on {stored['dataset']} "
            f"(`benchmarks/sms_wmd.py`)")


def render(stored) -> list[str]:
    """The table of ``sms_wmd_<dataset>.md`` from the stored measurements."""
    ev, sec, meta = stored["evaluations"], stored["seconds"], stored["meta"]
    pairs, jobs = stored["pairs"], stored["jobs"]
    evaluations = pd.DataFrame([{
        "comparison": f"similarity evaluations: SMS-Nyström s/n = {FRACTION:g} vs whole matrix",
        "ours": ev["sms"], "peer": ev["whole"], "ratio (peer / ours)": ev["whole"] / ev["sms"]}])
    rows = [(f"SMS-Nyström s/n = {FRACTION:g} vs the whole matrix", sec["sms"], sec["whole"]),
            ("the pair block: oracle, 1 process vs plain ot.emd2 loop", sec["serial"],
             sec["plain"]),
            (f"the pair block: oracle, {jobs} process{'es' if jobs > 1 else ''} vs plain "
             f"ot.emd2 loop", sec["parallel"], sec["plain"])]
    seconds = pd.DataFrame([{"seconds": name, "ours": a, "peer": b, "ratio (peer / ours)": b / a}
                            for name, a, b in rows])
    facts = pd.DataFrame([
        {"measure": "documents n", "value": stored["n"]},
        {"measure": "distinct words per document", "value": stored["words_per_document"]},
        {"measure": "pairs in the throughput block", "value": pairs},
        {"measure": f"SMS-Nyström relative Frobenius error at s/n = {FRACTION:g}",
         "value": stored["relative_error"]},
        {"measure": "largest difference, oracle vs plain loop WMD",
         "value": stored["largest_difference"]},
        {"measure": f"seconds to start the {jobs} workers and a first small block "
                    f"(in the whole-matrix and SMS-Nyström rows, not the block rows)",
         "value": sec["startup"]}])
    return [section("Measured", f"One run, {meta['date']}, {meta['machine']}, {meta['cores']} "
                    f"cores, load average {meta['load_average']:.1f} at the end, `--jobs "
                    f"{jobs}`, gamma = {stored['gamma']}, GloVe 6B 50d.",
                    table(evaluations, formats={"ratio": ".2f"}),
                    table(seconds, formats={"ours": ".2f", "peer": ".2f", "ratio": ".2f"}),
                    table(facts, ".4g"))]


if __name__ == "__main__":
    main()
