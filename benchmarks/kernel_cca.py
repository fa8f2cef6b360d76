"""Kernel CCA on Nyström features + AppGrad against exact kernel CCA (n x n), in one process.

    python benchmarks/kernel_cca.py                   # the issue's sizes (about 10 minutes)
    python benchmarks/kernel_cca.py --quick           # small sizes, a smoke run

Data: ``nonlinear_two_view`` (two views of one angle, related only nonlinearly), RBF kernels
with one width per view from the median heuristic on the first training rows, k = 2, λ = 1e-3,
a fixed held-out set.

1. At the ``--exact-n`` sizes, where the two n x n matrices fit: exact regularised kernel CCA
   (``rbf_kernel`` matrices, eigendecompositions; ``lowdim.cca.exact_kernel_cca``) and
   ``KernelCCA`` (Nyström features, batch AppGrad) for each ``--landmarks`` s: wall and CPU
   seconds, peak traced memory (tracemalloc), similarity evaluations and held-out TCC. The
   smallest s whose held-out TCC reaches 99 % of exact's is "equal held-out correlation".
2. At ``--n`` training rows (50,000: two 20 GB matrices, which do not fit): ``KernelCCA`` at
   that s, measured; exact kernel CCA extrapolated from part 1 (time by the fitted power of n,
   and by n^3, of CPU time; memory by n^2; evaluations counted exactly: n (n + 1) / 2 per view
   plus n per held-out row and view).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import tracemalloc

import numpy as np
import scipy.linalg  # noqa: F401  (loads LAPACK before the thread limit is set)
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import KernelCenterer
from threadpoolctl import threadpool_limits

from lowdim.cca import KernelCCA, canonical_correlations, exact_kernel_cca
from lowdim.data.sources.synthetic import nonlinear_two_view
from lowdim.io import atomic_path
from lowdim.similarity import median_gamma

K, REG = 2, 1e-3


def _measure(function):
    """Run ``function()`` twice: timed, then traced (tracemalloc slows Python loops down).

    Returns its result, wall and CPU seconds and the peak traced MiB.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return result, wall, cpu, peak


def _exact(X, Y, Xt, Yt, gammas):
    """Held-out TCC of exact kernel CCA from the two n x n RBF matrices."""
    Kx, Ky = rbf_kernel(X, gamma=gammas[0]), rbf_kernel(Y, gamma=gammas[1])
    _, alpha, beta = exact_kernel_cca(Kx, Ky, K, reg=REG)
    ux = KernelCenterer().fit(Kx).transform(rbf_kernel(Xt, X, gamma=gammas[0])) @ alpha
    uy = KernelCenterer().fit(Ky).transform(rbf_kernel(Yt, Y, gamma=gammas[1])) @ beta
    return float(np.sum(canonical_correlations(ux, uy)))


def _nystrom(X, Y, Xt, Yt, gammas, s):
    """Held-out TCC and fit evaluations of KernelCCA with s landmarks."""
    est = KernelCCA(K, gamma=gammas, n_landmarks=s, reg=REG, random_state=0).fit(X, Y)
    return float(np.sum(est.score(Xt, Yt))), sum(est.evaluations_)


def _exact_evaluations(n, q):
    return 2 * (n * (n + 1) // 2 + q * n)


def small_n(data, sizes, landmarks, q):
    """Part 1: exact against KernelCCA at each n of ``sizes``; returns the measured rows."""
    X, Y = data
    Xt, Yt = X[-q:], Y[-q:]
    rows = []
    for n in sizes:
        gammas = tuple(median_gamma(A[:n], "rbf", random_state=0)[0] for A in (X, Y))
        tcc, wall, cpu, peak = _measure(lambda: _exact(X[:n], Y[:n], Xt, Yt, gammas))
        rows.append({"n": n, "method": "exact", "s": n, "tcc": tcc, "wall": wall, "cpu": cpu,
                     "peak": peak, "evaluations": _exact_evaluations(n, q)})
        print(f"   n = {n:,}: exact kernel CCA {wall:.2f} s, {peak:,.0f} MiB, TCC {tcc:.4f}")
        for s in landmarks:
            if s >= n:
                continue
            (tcc, fit), wall, cpu, peak = _measure(
                lambda: _nystrom(X[:n], Y[:n], Xt, Yt, gammas, s))
            rows.append({"n": n, "method": "nystrom", "s": s, "tcc": tcc, "wall": wall,
                         "cpu": cpu, "peak": peak, "evaluations": fit + 2 * q * s})
            print(f"      s = {s}: {wall:.2f} s, {peak:,.0f} MiB, TCC {tcc:.4f}")
    return rows


def equal_correlation(rows, level=0.99):
    """Per n, the first Nyström row reaching ``level`` of exact's held-out TCC (or None)."""
    matches = {}
    for n in sorted({r["n"] for r in rows}):
        exact = next(r for r in rows if r["n"] == n and r["method"] == "exact")
        hits = [r for r in rows if r["n"] == n and r["method"] == "nystrom"
                and r["tcc"] >= level * exact["tcc"]]
        matches[n] = (exact, min(hits, key=lambda r: r["s"]) if hits else None)
    return matches


def _power_fit(ns, values):
    """Exponent b and the function n -> c n^b of a least-squares fit in log-log."""
    b, log_c = np.polyfit(np.log(ns), np.log(values), 1)
    return b, lambda n: float(np.exp(log_c) * n**b)


def _at(value, n_from, n_to, power):
    return value * (n_to / n_from) ** power


def large_n(data, n, s, q, exact_rows):
    """Part 2: KernelCCA measured at n; exact extrapolated from the measured sizes."""
    X, Y = data
    Xt, Yt = X[-q:], Y[-q:]
    gammas = tuple(median_gamma(A[:n], "rbf", random_state=0)[0] for A in (X, Y))
    (tcc, fit), wall, cpu, peak = _measure(lambda: _nystrom(X[:n], Y[:n], Xt, Yt, gammas, s))
    ours = {"tcc": tcc, "wall": wall, "cpu": cpu, "peak": peak, "evaluations": fit + 2 * q * s}
    ns = np.array([r["n"] for r in exact_rows], dtype=float)
    last = exact_rows[-1]
    b_time, fit_time = _power_fit(ns, [r["cpu"] for r in exact_rows])
    b_memory, _ = _power_fit(ns, [r["peak"] for r in exact_rows])
    exact = {"cpu_fit": fit_time(n), "cpu_cubic": _at(last["cpu"], last["n"], n, 3),
             "peak": _at(last["peak"], last["n"], n, 2), "evaluations": _exact_evaluations(n, q),
             "b_time": b_time, "b_memory": b_memory, "tcc": last["tcc"], "n": last["n"]}
    return ours, exact


def _table(rows, matches):
    lines = ["| n | method | s | held-out TCC | wall s | CPU s | peak MiB | evaluations |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        name = "exact kernel CCA" if r["method"] == "exact" else "KernelCCA (Nyström + AppGrad)"
        mark = " ←" if matches[r["n"]][1] is r else ""
        lines.append(f"| {r['n']:,} | {name} | {r['s']:,}{mark} | {r['tcc']:.4f} | "
                     f"{r['wall']:.2f} | {r['cpu']:.2f} | {r['peak']:,.0f} | "
                     f"{r['evaluations']:,} |")
    return "\n".join(lines)


def _ratios(matches):
    lines = ["| n | s at 99 % of exact's TCC | TCC ours / exact | CPU exact / ours | "
             "memory exact / ours | evaluations exact / ours |", "|---|---|---|---|---|---|"]
    for n, (exact, ours) in matches.items():
        if ours is None:
            lines.append(f"| {n:,} | not reached | | | | |")
            continue
        lines.append(f"| {n:,} | {ours['s']} | {ours['tcc'] / exact['tcc']:.3f} | "
                     f"{exact['cpu'] / ours['cpu']:.1f}× | "
                     f"{exact['peak'] / ours['peak']:.1f}× | "
                     f"{exact['evaluations'] / ours['evaluations']:.1f}× |")
    return "\n".join(lines)


def _large_table(n, s, ours, exact, q):
    return "\n".join([
        "| | KernelCCA, s = {s} (measured) | exact kernel CCA (extrapolated) | exact / ours |"
        .format(s=s),
        "|---|---|---|---|",
        f"| CPU seconds | {ours['cpu']:.1f} | {exact['cpu_fit']:,.0f} (fitted n^"
        f"{exact['b_time']:.2f}); {exact['cpu_cubic']:,.0f} (n^3) | "
        f"{exact['cpu_fit'] / ours['cpu']:,.0f}× – {exact['cpu_cubic'] / ours['cpu']:,.0f}× |",
        f"| wall seconds | {ours['wall']:.1f} | – (wall time moves with the machine's load; "
        f"CPU time does not) | |",
        f"| peak traced memory | {ours['peak']:,.0f} MiB | {exact['peak'] / 1024:,.1f} GiB "
        f"(n^2; fitted exponent {exact['b_memory']:.2f}) | "
        f"{exact['peak'] / ours['peak']:,.0f}× |",
        f"| similarity evaluations (both views, {n:,} training + {q:,} held-out rows) | "
        f"{ours['evaluations']:,} | {exact['evaluations']:,} (counted) | "
        f"{exact['evaluations'] / ours['evaluations']:,.0f}× |",
        f"| held-out TCC (k = {K}) | {ours['tcc']:.4f} | {exact['tcc']:.4f} at n = "
        f"{exact['n']:,} (the largest measured) | |",
    ])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exact-n", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--landmarks", type=int, nargs="+", default=[25, 50, 100, 200, 400])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--heldout", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", default=None, help="also write the Markdown tables here")
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.exact_n, args.landmarks, args.n, args.heldout = [200, 400], [25, 50], 2000, 200
    X, Y, _ = nonlinear_two_view(max(args.n, max(args.exact_n)) + args.heldout, random_state=0)
    with threadpool_limits(args.threads):
        print(f"1. exact kernel CCA against KernelCCA, k = {K}, λ = {REG}, "
              f"{args.heldout:,} held-out rows")
        rows = small_n((X, Y), args.exact_n, args.landmarks, args.heldout)
        matches = equal_correlation(rows)
        reached = [m[1]["s"] for m in matches.values() if m[1] is not None]
        s = max(reached) if reached else max(args.landmarks)
        exact_rows = [m[0] for m in matches.values()]
        print(f"2. n = {args.n:,}: KernelCCA with s = {s}")
        ours, exact = large_n((X, Y), args.n, s, args.heldout, exact_rows)
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    header = (f"# KernelCCA against exact kernel CCA (`benchmarks/kernel_cca.py`)\n\n"
              f"One run, {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, "
              f"{os.cpu_count()} cores, load average at the end {load} (other processes "
              f"running: compare the ratios, not the seconds), `--threads {args.threads}`. "
              f"Data `nonlinear_two_view` (6 + 6 features), RBF per view with the median "
              f"heuristic's width, k = {K}, λ = {REG}, {args.heldout:,} held-out rows; every row "
              f"of a part in the same process. Evaluations count both views, fit and held-out "
              f"rows; memory is the peak traced by tracemalloc (NumPy allocations) in a "
              f"second, untimed call.")
    note = ("Exact kernel CCA does not fit at n = {n:,}: each n x n matrix alone is "
            "{gib:,.1f} GiB, so its time and memory come from part 1 (time as CPU seconds, "
            "which the other processes on the machine inflate less than wall seconds, for "
            "both methods alike); its similarity evaluations are counted. KernelCCA's held-out "
            "TCC at n = {n:,} is compared with exact's at the largest n measured ({levels})."
            ).format(n=args.n, gib=8 * args.n**2 / 2**30, levels=", ".join(
                f"{r['tcc']:.2f} at n = {r['n']:,}" for r in exact_rows))
    text = "\n\n".join([
        header, f"## 1. Measured, n = {', '.join(f'{n:,}' for n in args.exact_n)} "
        f"(← marks the smallest s at 99 % of exact's held-out TCC)", _table(rows, matches),
        "Ratios at equal held-out correlation (exact / KernelCCA):", _ratios(matches),
        f"## 2. n = {args.n:,} training rows", _large_table(args.n, s, ours, exact, args.heldout),
        note])
    print(text)
    if args.out:
        with atomic_path(args.out) as tmp:
            tmp.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
