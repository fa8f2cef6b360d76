"""SMS-Nyström on a WMD kernel against forming the whole matrix; WMD oracle against a plain loop.

Run from the repository root::

    PYTHONPATH=src python benchmarks/sms_wmd.py [--dataset lee] [--n 200] [--jobs 2]

Prints, and writes to ``benchmarks/sms_wmd_<dataset>.md``, side-by-side ratios measured in
one process on the same documents:

1. SMS-Nyström at s/n = 0.1 against evaluating the whole WMD kernel matrix,
   in similarity evaluations and in seconds (both through ``WMDOracle`` on ``--jobs``
   processes, fresh cache each), with the approximation's relative Frobenius error;
2. the WMD oracle's pairs per second against a plain double loop that calls
   ``ot.dist`` and ``ot.emd2`` (POT defaults) per pair, on the same block of
   document pairs, on one process each and on ``--jobs`` processes each, with the
   largest difference between their distances.

Each comparison runs :data:`ROUNDS` rounds, its sides alternating which goes first, after
POT's import and the worker processes' start (both untimed, paid once per session); the
medians of wall and CPU seconds (this process and its workers) are stored.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

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


def plain_documents(bow, vocab, glove):
    """Each document's GloVe vectors and normalised word weights, the loop's input."""
    docs = []
    for d in range(bow.shape[0]):
        row = bow.getrow(d)
        keep = [k for k, c in enumerate(row.indices) if vocab[c] in glove.vocab]
        words = [vocab[row.indices[k]] for k in keep]
        weights = row.data[keep] / row.data[keep].sum()
        docs.append((np.asarray(glove.vectors[[glove.vocab[w] for w in words]], float), weights))
    return docs


def plain_loop(docs, rows, cols):
    """WMD by a double loop over ot.dist + ot.emd2 with POT's defaults; ``docs[i]`` is
    document ``i``'s (vectors, weights)."""
    ot = _import_ot()
    out = np.empty((len(rows), len(cols)))
    for a, i in enumerate(rows):
        for b, j in enumerate(cols):
            M = ot.dist(docs[i][0], docs[j][0], metric="euclidean")
            out[a, b] = ot.emd2(docs[i][1], docs[j][1], M)
    return out


def plain_wmd(bow, vocab, glove, rows, cols):
    """The peer: :func:`plain_documents` then :func:`plain_loop`, in this process."""
    return plain_loop(plain_documents(bow, vocab, glove), rows, cols)


def plain_wmd_parallel(bow, vocab, glove, rows, cols, jobs):
    """:func:`plain_wmd` over ``jobs`` processes (joblib's loky workers, the oracle's
    backend), a share of the rows each; each worker is sent only the documents of its
    share, as the oracle sends its workers arrays, not the word vectors."""
    from joblib import Parallel, delayed

    docs = plain_documents(bow, vocab, glove)
    parts = [part for part in np.array_split(rows, jobs) if part.size]
    return np.vstack(Parallel(n_jobs=jobs)(
        delayed(plain_loop)({i: docs[i] for i in (*part, *cols)}, part, cols)
        for part in parts))


#: Alternated rounds of each timed comparison (its median is reported)
ROUNDS = 3


def cpu_seconds():
    """CPU seconds (user + system) of this process and its live children, the oracle's and
    joblib's worker processes, which outlive each call."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.NoSuchProcess:  # a worker that ended: its time is not in the rounds'
            pass
    return total


def timed(function, *args, **kwargs):
    """``(result, wall seconds, CPU seconds)`` of one call."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def alternated(sides: dict, rounds: int = ROUNDS) -> dict:
    """Every round of each side, ``name -> [(result, wall, cpu), ...]``: the sides run
    forward in even rounds and backward in odd ones, so neither always runs first (on a warm
    cache, or after the other has loaded the machine)."""
    runs = {name: [] for name in sides}
    for r in range(rounds):
        for name in (list(sides) if r % 2 == 0 else list(sides)[::-1]):
            runs[name].append(timed(sides[name]))
    return runs


def medians(runs: dict) -> tuple[dict, dict]:
    """Median wall and CPU seconds of each side of :func:`alternated`."""
    return ({k: float(np.median([w for _, w, _ in v])) for k, v in runs.items()},
            {k: float(np.median([c for _, _, c in v])) for k, v in runs.items()})


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
    # POT's import, once for both sides before any timing (the loop would pay it otherwise)
    _import_ot()
    bow, vocab, glove = documents(args.dataset, args.n)
    n = bow.shape[0]
    r, c = args.block
    if r + c > n:
        parser.error(f"--block {r} {c} needs {r + c} documents, the run has n = {n}")
    rows, cols = np.arange(r), np.arange(r, r + c)

    def oracle(jobs):
        return WMDOracle.from_bow(bow, vocab, glove, args.gamma, n_jobs=jobs)

    # The workers start once, untimed, as in a user's session; then each side runs warm.
    # Each worker imports POT in the loop's warm-up too.
    _, startup_seconds, _ = timed(oracle(args.jobs), np.arange(2 * args.jobs),
                                  np.arange(2 * args.jobs, min(64, n)))
    plain_wmd_parallel(bow, vocab, glove, np.arange(2 * args.jobs), cols[:2], args.jobs)
    s = int(round(FRACTION * n))
    matrix = alternated({"whole": lambda: full_matrix(oracle(args.jobs)),  # fresh caches
                         "sms": lambda: sms_nystrom(oracle(args.jobs), s, random_state=0)})
    K, approx = matrix["whole"][0][0], matrix["sms"][0][0]
    pairs = r * c

    def chunked():  # a fresh cache each round, a few chunks per worker
        block = oracle(args.jobs)
        block.chunk_size = max(1, pairs // (4 * args.jobs))
        return block(rows, cols)

    with threadpool_limits(1):  # one process each: no BLAS threads beside it either
        serial = alternated({"plain": lambda: plain_wmd(bow, vocab, glove, rows, cols),
                             "serial": lambda: oracle(1)(rows, cols)})
    parallel = alternated({
        "plain_parallel": lambda: plain_wmd_parallel(bow, vocab, glove, rows, cols, args.jobs),
        "parallel": chunked})
    difference = np.abs(-np.log(serial["serial"][0][0]) / args.gamma
                        - serial["plain"][0][0]).max()
    seconds, cpu = medians({**matrix, **serial, **parallel})

    stored = {
        "dataset": args.dataset, "n": n, "words_per_document": float(np.mean(np.diff(bow.indptr))),
        "gamma": args.gamma, "jobs": args.jobs, "pairs": pairs, "rounds": ROUNDS,
        "evaluations": {"sms": int(approx.evaluations), "whole": n * (n + 1) // 2},
        "seconds": {**seconds, "startup": startup_seconds}, "cpu_seconds": cpu,
        "relative_error": float(relative_frobenius_error(approx, K)),
        "largest_difference": float(difference),
        "meta": {"date": time.strftime("%Y-%m-%d %H:%M"),
                 "machine": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                 "load_average": os.getloadavg()[0]}}
    write_json(out.with_suffix(".json"), stored)
    print(write_report(out, title(stored), render(stored)))


def title(stored) -> str:
    return (f"SMS-Nyström and the WMD oracle on {stored['dataset']} "
            f"(`benchmarks/sms_wmd.py`)")


def render(stored) -> list[str]:
    """The tables of ``sms_wmd_<dataset>.md`` from the stored measurements."""
    ev, sec, cpu, meta = (stored["evaluations"], stored["seconds"], stored["cpu_seconds"],
                          stored["meta"])
    pairs, jobs = stored["pairs"], stored["jobs"]
    evaluations = pd.DataFrame([{
        "comparison": f"similarity evaluations: SMS-Nyström s/n = {FRACTION:g} vs whole matrix",
        "ours": ev["sms"], "peer": ev["whole"], "ratio (peer / ours)": ev["whole"] / ev["sms"]}])
    processes = f"{jobs} process{'es' if jobs > 1 else ''}"
    rows = [(f"SMS-Nyström s/n = {FRACTION:g} vs the whole matrix, {processes} each", "sms",
             "whole"),
            ("the pair block, 1 process each: oracle vs plain ot.emd2 loop", "serial", "plain"),
            (f"the pair block, {processes} each: oracle vs plain ot.emd2 loop", "parallel",
             "plain_parallel")]
    seconds = pd.DataFrame([
        {"median of the rounds": name, "ours (s)": sec[a], "peer (s)": sec[b],
         "ratio (peer / ours)": sec[b] / sec[a], "ours CPU / wall": cpu[a] / sec[a],
         "peer CPU / wall": cpu[b] / sec[b], "CPU ratio (peer / ours)": cpu[b] / cpu[a]}
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
                    f"(before every timed round, in none of them)",
         "value": sec["startup"]}])
    return [section("Measured", f"One run, {meta['date']}, {meta['machine']}, {meta['cores']} "
                    f"cores, load average {meta['load_average']:.1f} at the end, `--jobs "
                    f"{jobs}`, gamma = {stored['gamma']}, GloVe 6B 50d. Each comparison ran "
                    f"{stored['rounds']} rounds, its two sides alternating which went first, "
                    f"after POT's import and the workers' start; seconds are the rounds' "
                    f"medians, CPU that of this process and its workers.",
                    table(evaluations, formats={"ratio": ".2f"}),
                    table(seconds, formats={"ours (s)": ".2f", "peer (s)": ".2f",
                                            "ratio": ".2f", "CPU / wall": ".2f"}),
                    table(facts, ".4g"))]


if __name__ == "__main__":
    main()
