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

from lowdim.approx import relative_frobenius_error, sms_nystrom
from lowdim.data import get_spec
from lowdim.data.word_vectors import load_glove50
from lowdim.similarity import WMDOracle, full_matrix, in_vocabulary_counts
from lowdim.similarity.wmd import _import_ot


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
    args = parser.parse_args()
    bow, vocab, glove = documents(args.dataset, args.n)
    n = bow.shape[0]

    def oracle(jobs):
        return WMDOracle.from_bow(bow, vocab, glove, args.gamma, n_jobs=jobs)

    K, full_seconds = timed(full_matrix, oracle(args.jobs))
    s = int(round(0.1 * n))
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

    lines = [
        f"# SMS-Nyström and WMD oracle benchmark ({args.dataset}, n = {n})",
        "",
        f"One run, {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end, "
        f"`--jobs {args.jobs}`, gamma = {args.gamma}, GloVe 6B 50d, "
        f"{np.mean(np.diff(bow.indptr)):.0f} distinct words per document.",
        "",
        "| comparison | ours | peer | ratio (peer / ours) |",
        "|---|---|---|---|",
        f"| similarity evaluations: SMS-Nyström s/n = 0.1 vs whole matrix | "
        f"{approx.evaluations:,} | {n * (n + 1) // 2:,} | "
        f"{n * (n + 1) / 2 / approx.evaluations:.1f} |",
        f"| seconds: SMS-Nyström s/n = 0.1 vs whole matrix | {sms_seconds:.2f} | "
        f"{full_seconds:.2f} | {full_seconds / sms_seconds:.1f} |",
        f"| WMD pairs/s: oracle, 1 process vs plain ot.emd2 loop | {pairs / serial_seconds:.0f} | "
        f"{pairs / plain_seconds:.0f} | {plain_seconds / serial_seconds:.2f} |",
        f"| WMD pairs/s: oracle, {args.jobs} process{'es' if args.jobs > 1 else ''} "
        f"vs plain ot.emd2 loop | "
        f"{pairs / parallel_seconds:.0f} | {pairs / plain_seconds:.0f} | "
        f"{plain_seconds / parallel_seconds:.2f} |",
        "",
        f"SMS-Nyström relative Frobenius error at s/n = 0.1: {error:.4f}. Largest difference "
        f"between the oracle's and the plain loop's WMD on the {pairs} pairs: {difference:.1e}. "
        f"The {args.jobs}-process row is measured after the workers started (starting them and "
        f"a first small block took {startup_seconds:.1f} s); the whole-matrix and SMS-Nyström "
        f"rows include it.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    out = args.out or Path(__file__).with_name(f"sms_wmd_{args.dataset}.md")
    Path(out).write_text(text)


if __name__ == "__main__":
    main()
