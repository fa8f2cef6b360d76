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
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.linalg  # noqa: F401  (loads LAPACK before the thread limit is set)
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import KernelCenterer
from threadpoolctl import threadpool_limits

from _report import read_json, section, table, write_json, write_report
from lowdim.cca import KernelCCA, canonical_correlations, exact_kernel_cca
from lowdim.data.sources.synthetic import nonlinear_two_view
from lowdim.similarity import median_gamma

K, REG = 2, 1e-3
TITLE = "KernelCCA against exact kernel CCA (`benchmarks/kernel_cca.py`)"


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
    return float(np.sum(est.score_components(Xt, Yt))), sum(est.evaluations_)


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


def measured_frame(rows, matches) -> pd.DataFrame:
    return pd.DataFrame([{
        "n": r["n"], "method": "exact kernel CCA" if r["method"] == "exact"
        else "KernelCCA (Nyström + AppGrad)",
        "s": f"{r['s']:,}" + (" ←" if matches[r["n"]][1] is r else ""),
        "held-out TCC": r["tcc"], "wall s": r["wall"], "CPU s": r["cpu"],
        "peak MiB": r["peak"], "evaluations": r["evaluations"]} for r in rows])


def ratios_frame(matches) -> pd.DataFrame:
    out = []
    for n, (exact, ours) in matches.items():
        row = {"n": n, "s at 99 % of exact's TCC": ours["s"] if ours else "not reached"}
        if ours:
            row.update({"TCC ours / exact": ours["tcc"] / exact["tcc"],
                        "CPU exact / ours": exact["cpu"] / ours["cpu"],
                        "memory exact / ours": exact["peak"] / ours["peak"],
                        "evaluations exact / ours": exact["evaluations"] / ours["evaluations"]})
        out.append(row)
    return pd.DataFrame(out)


def large_frame(large) -> pd.DataFrame:
    n, s, q, ours, exact = (large[k] for k in ("n", "s", "q", "ours", "exact"))
    return pd.DataFrame([
        {"measure": "CPU seconds", f"KernelCCA, s = {s} (measured)": f"{ours['cpu']:.1f}",
         "exact kernel CCA (extrapolated)": f"{exact['cpu_fit']:,.0f} (fitted n^"
                                            f"{exact['b_time']:.2f}); {exact['cpu_cubic']:,.0f} (n^3)",
         "exact / ours": f"{exact['cpu_fit'] / ours['cpu']:,.0f}× – "
                         f"{exact['cpu_cubic'] / ours['cpu']:,.0f}×"},
        {"measure": "wall seconds", f"KernelCCA, s = {s} (measured)": f"{ours['wall']:.1f}",
         "exact kernel CCA (extrapolated)": "—", "exact / ours": "—"},
        {"measure": "peak traced memory, MiB",
         f"KernelCCA, s = {s} (measured)": f"{ours['peak']:,.0f}",
         "exact kernel CCA (extrapolated)": f"{exact['peak']:,.0f} (n^2; fitted exponent "
                                            f"{exact['b_memory']:.2f})",
         "exact / ours": f"{exact['peak'] / ours['peak']:,.0f}×"},
        {"measure": f"similarity evaluations (both views, {n:,} training + {q:,} held-out rows)",
         f"KernelCCA, s = {s} (measured)": f"{ours['evaluations']:,}",
         "exact kernel CCA (extrapolated)": f"{exact['evaluations']:,} (counted)",
         "exact / ours": f"{exact['evaluations'] / ours['evaluations']:,.0f}×"},
        {"measure": f"held-out TCC (k = {K})",
         f"KernelCCA, s = {s} (measured)": f"{ours['tcc']:.4f}",
         "exact kernel CCA (extrapolated)": f"{exact['tcc']:.4f} at n = {exact['n']:,} "
                                            f"(the largest measured)", "exact / ours": "—"}])


def render(stored) -> list[str]:
    """The tables of ``kernel_cca.md`` from the stored measurements."""
    rows, large, meta = stored["rows"], stored["large"], stored["meta"]
    matches = equal_correlation(rows)
    sizes = ", ".join(f"{n:,}" for n in sorted({r["n"] for r in rows}))
    return [section("Setting", f"One run, {meta['date']}, {meta['machine']}, {meta['cores']} "
                    f"cores, load average at the end {meta['load']}, `--threads "
                    f"{meta['threads']}`; data `nonlinear_two_view`, RBF per view with the "
                    f"median heuristic's width, k = {K}, λ = {REG}, {meta['heldout']:,} held-out "
                    f"rows."),
            section(f"1. Measured, n = {sizes} (← marks the smallest s at 99 % of exact's "
                    f"held-out TCC)", table(measured_frame(rows, matches),
                                            formats={"TCC": ".4f", " s": ".2f", "MiB": ",.0f"})),
            section("Ratios at equal held-out correlation (exact / KernelCCA)",
                    table(ratios_frame(matches), ".3g")),
            section(f"2. n = {large['n']:,} training rows", table(large_frame(large), numparse=False))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exact-n", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--landmarks", type=int, nargs="+", default=[25, 50, 100, 200, 400])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--heldout", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("kernel_cca.md"),
                        help="the Markdown report (its measurements beside it, .json)")
    parser.add_argument("--render", action="store_true", help="only rewrite --out's tables")
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run")
    args = parser.parse_args(argv)
    results = args.out.with_suffix(".json")
    if not args.render:
        write_json(results, measure(args))
    print(write_report(args.out, TITLE, render(read_json(results))))


def measure(args) -> dict:
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
    return {"rows": rows, "large": {"n": args.n, "s": s, "q": args.heldout, "ours": ours,
                                    "exact": exact},
            "meta": {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": platform.machine(),
                     "cores": os.cpu_count(), "threads": args.threads, "heldout": args.heldout,
                     "load": ", ".join(f"{v:.1f}" for v in os.getloadavg())}}


if __name__ == "__main__":
    main()
