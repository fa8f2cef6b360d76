"""Kernel CCA on Nyström features + AppGrad against exact kernel CCA (n x n), in one process.

    python benchmarks/kernel_cca.py          # the stored sizes (about 17 minutes, 6.5 GiB)
    python benchmarks/kernel_cca.py --quick --out /tmp/kcca.md   # small sizes, a smoke run

Data: ``nonlinear_two_view`` (two views of one angle, related only nonlinearly), RBF kernels
with one width per view from the median heuristic on the first training rows, k = 2, λ = 1e-3,
a fixed set of held-out test rows (the last rows of the draw) and a separate validation block
of the same generator (its own seed) on which KernelCCA's own rule chooses s.

The number of landmarks s is chosen by a rule a user of ``KernelCCA`` can apply, fixed before
the run and reading only KernelCCA's own output (:func:`own_rule`): go up the landmark grid
(25, 50, 100, 200, 400: each s double the one before) and stop at the first s whose TCC on the
validation rows gains less than 1 % (relative) at the next s; if none does, the largest s.
Exact kernel CCA's TCC is the yardstick the chosen s is compared with, never the chooser.

1. At the ``--exact-n`` sizes, where the two n x n matrices fit: exact regularised kernel CCA
   (``rbf_kernel`` matrices, eigendecompositions; ``lowdim.cca.exact_kernel_cca``) and
   ``KernelCCA`` (Nyström features, batch AppGrad) for each ``--landmarks`` s: wall and CPU
   seconds, peak traced memory (tracemalloc), similarity evaluations and held-out TCC on the
   test rows, and KernelCCA's TCC on the validation rows; per n, the ratios at the s of the
   own rule.
2. At ``--n`` training rows (50,000: two 20 GB matrices, which do not fit): the own rule
   applied again at that n (one fit per s it reads, scored on the validation rows; CPU
   seconds counted), then ``KernelCCA`` at the chosen s, measured; exact kernel CCA
   extrapolated from part 1 (time by the fitted power of n,
   and by n^3, of CPU time; memory by n^2; evaluations counted exactly: n (n + 1) / 2 per view
   plus n per held-out row and view).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
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
from lowdim.memory import available_memory
from lowdim.similarity import median_gamma

K, REG = 2, 1e-3
#: The own rule's threshold: stop when doubling s gains less than this (relative) in TCC.
GAIN = 0.01
#: The seed of the validation draw (the training and test rows are the draw of seed 0).
VALIDATION_SEED = 1
#: Exact kernel CCA's peak memory per n² (bytes): measured 112, 111 and 106 at n = 2,000,
#: 4,000 and 8,000 (2026-12-07), so the largest, with room for the process's own.
EXACT_BYTES_PER_N2 = 120
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


def _tcc(est, X, Y):
    return float(np.sum(est.score_components(X, Y)))


def _nystrom(X, Y, Xt, Yt, gammas, s):
    """Held-out TCC, fit evaluations and the fitted KernelCCA with s landmarks."""
    est = KernelCCA(K, gamma=gammas, n_landmarks=s, reg=REG, random_state=0).fit(X, Y)
    return _tcc(est, Xt, Yt), sum(est.evaluations_), est


def _exact_evaluations(n, q):
    return 2 * (n * (n + 1) // 2 + q * n)


def small_n(data, validation, sizes, landmarks, q):
    """Part 1: exact against KernelCCA at each n of ``sizes``; returns the measured rows.

    Each KernelCCA row also has its TCC on the ``validation`` rows (scored after, outside the
    measurement), which the own rule reads; exact's rows have none.
    """
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
            (tcc, fit, est), wall, cpu, peak = _measure(
                lambda: _nystrom(X[:n], Y[:n], Xt, Yt, gammas, s))
            validation_tcc = _tcc(est, *validation)
            rows.append({"n": n, "method": "nystrom", "s": s, "tcc": tcc,
                         "validation_tcc": validation_tcc, "wall": wall, "cpu": cpu,
                         "peak": peak, "evaluations": fit + 2 * q * s})
            print(f"      s = {s}: {wall:.2f} s, {peak:,.0f} MiB, TCC {tcc:.4f} "
                  f"(validation {validation_tcc:.4f})")
    return rows


def own_rule(scored, gain=GAIN):
    """KernelCCA's own choice of s: the first s whose TCC gains less than ``gain`` (relative)
    at the next s; the last s if none does.

    ``scored`` yields ``(s, TCC)`` pairs, s increasing (KernelCCA's own scores, on the
    user's validation rows); it is read lazily, no further than the rule needs. Returns the
    chosen s (None if ``scored`` is empty) and the list of the s read.
    """
    read, previous = [], None
    for s, tcc in scored:
        read.append(s)
        if previous is not None and tcc - previous[1] < gain * abs(previous[1]):
            return previous[0], read
        previous = (s, tcc)
    return (previous[0] if previous else None), read


def choices(rows, gain=GAIN):
    """Per n: exact's row, the KernelCCA row of the s the own rule chooses (None if no s < n)
    and the KernelCCA rows the rule read. Only KernelCCA's rows are given to the rule."""
    out = {}
    for n in sorted({r["n"] for r in rows}):
        exact = next(r for r in rows if r["n"] == n and r["method"] == "exact")
        ours = sorted((r for r in rows if r["n"] == n and r["method"] == "nystrom"),
                      key=lambda r: r["s"])
        s, read = own_rule(((r["s"], r["validation_tcc"]) for r in ours), gain)
        out[n] = (exact, next((r for r in ours if r["s"] == s), None),
                  [r for r in ours if r["s"] in read])
    return out


def _power_fit(ns, values):
    """Exponent b and the function n -> c n^b of a least-squares fit in log-log."""
    b, log_c = np.polyfit(np.log(ns), np.log(values), 1)
    return b, lambda n: float(np.exp(log_c) * n**b)


def _at(value, n_from, n_to, power):
    return value * (n_to / n_from) ** power


def large_n(data, validation, n, landmarks, q, exact_rows):
    """Part 2: the own rule applied at n, KernelCCA measured at the s it chooses; exact
    extrapolated from the measured sizes. Returns the chosen s, the rule's search (s,
    validation TCC and CPU seconds of each fit it read), ours and exact."""
    X, Y = data
    Xt, Yt = X[-q:], Y[-q:]
    gammas = tuple(median_gamma(A[:n], "rbf", random_state=0)[0] for A in (X, Y))
    search = []

    def scored():
        for s in landmarks:
            cpu = time.process_time()
            est = KernelCCA(K, gamma=gammas, n_landmarks=s, reg=REG, random_state=0).fit(
                X[:n], Y[:n])
            tcc = _tcc(est, *validation)
            search.append({"s": s, "validation_tcc": tcc, "cpu": time.process_time() - cpu})
            print(f"   s = {s}: validation TCC {tcc:.4f}, {search[-1]['cpu']:.1f} CPU s")
            yield s, tcc

    s, _ = own_rule(scored())
    print(f"   the own rule chooses s = {s}; measuring it")
    (tcc, fit, _), wall, cpu, peak = _measure(
        lambda: _nystrom(X[:n], Y[:n], Xt, Yt, gammas, s))
    ours = {"tcc": tcc, "wall": wall, "cpu": cpu, "peak": peak, "evaluations": fit + 2 * q * s}
    ns = np.array([r["n"] for r in exact_rows], dtype=float)
    last = exact_rows[-1]
    b_time, fit_time = _power_fit(ns, [r["cpu"] for r in exact_rows])
    b_memory, _ = _power_fit(ns, [r["peak"] for r in exact_rows])
    exact = {"cpu_fit": fit_time(n), "cpu_cubic": _at(last["cpu"], last["n"], n, 3),
             "peak": _at(last["peak"], last["n"], n, 2), "evaluations": _exact_evaluations(n, q),
             "b_time": b_time, "b_memory": b_memory, "tcc": last["tcc"], "n": last["n"]}
    return s, search, ours, exact


def _rule(gain):
    return f"< {gain * 100:g} % validation gain on doubling"


def measured_frame(rows, chosen) -> pd.DataFrame:
    return pd.DataFrame([{
        "n": r["n"], "method": "exact kernel CCA" if r["method"] == "exact"
        else "KernelCCA (Nyström + AppGrad)",
        "s": f"{r['s']:,}" + (" ←" if chosen[r["n"]][1] is r else ""),
        "held-out TCC (test)": r["tcc"], "validation TCC": r.get("validation_tcc"),
        "wall s": r["wall"], "CPU s": r["cpu"], "peak MiB": r["peak"],
        "evaluations": r["evaluations"]} for r in rows])


def ratios_frame(chosen, gain=GAIN) -> pd.DataFrame:
    out = []
    for n, (exact, ours, read) in chosen.items():
        row = {"n": n, f"s by the own rule ({_rule(gain)})": ours["s"] if ours else "no s < n"}
        if ours:
            row.update({"TCC ours / exact (test)": ours["tcc"] / exact["tcc"],
                        "CPU exact / ours": exact["cpu"] / ours["cpu"],
                        "memory exact / ours": exact["peak"] / ours["peak"],
                        "evaluations exact / ours": exact["evaluations"] / ours["evaluations"],
                        "CPU exact / ours, every fit the rule read":
                            exact["cpu"] / sum(r["cpu"] for r in read)})
        out.append(row)
    return pd.DataFrame(out)


def large_frame(large) -> pd.DataFrame:
    n, s, q, ours, exact = (large[k] for k in ("n", "s", "q", "ours", "exact"))
    search = large["search"]
    searched = sum(r["cpu"] for r in search)
    return pd.DataFrame([
        {"measure": f"s by the own rule at n = {n:,} (validation TCC at each s read)",
         f"KernelCCA, s = {s} (measured)": f"{s} (validation TCC at s = " + ", ".join(
             f"{r['s']}: {r['validation_tcc']:.4f}" for r in search) + ")",
         "exact kernel CCA (extrapolated)": "—", "exact / ours": "—"},
        {"measure": "CPU seconds", f"KernelCCA, s = {s} (measured)": f"{ours['cpu']:.1f}",
         "exact kernel CCA (extrapolated)": f"{exact['cpu_fit']:,.0f} (fitted n^"
                                            f"{exact['b_time']:.2f}); {exact['cpu_cubic']:,.0f} (n^3)",
         "exact / ours": f"{exact['cpu_fit'] / ours['cpu']:,.0f}× – "
                         f"{exact['cpu_cubic'] / ours['cpu']:,.0f}×"},
        {"measure": f"CPU seconds of the rule's search ({len(search)} fits, s = "
                    f"{', '.join(str(r['s']) for r in search)})",
         f"KernelCCA, s = {s} (measured)": f"{searched:.1f}",
         "exact kernel CCA (extrapolated)": "as above (no search)",
         "exact / ours": f"{exact['cpu_fit'] / searched:,.0f}× – "
                         f"{exact['cpu_cubic'] / searched:,.0f}×"},
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
        {"measure": f"held-out TCC on the test rows (k = {K})",
         f"KernelCCA, s = {s} (measured)": f"{ours['tcc']:.4f}",
         "exact kernel CCA (extrapolated)": f"{exact['tcc']:.4f} at n = {exact['n']:,} "
                                            f"(the largest measured)", "exact / ours": "—"}])


class StaleMeasurements(SystemExit):
    """The stored measurements predate the own rule for s: the benchmark must be re-run."""


def _check(stored, path):
    missing = [f"n = {r['n']:,}, s = {r['s']}" for r in stored["rows"]
               if r["method"] == "nystrom" and "validation_tcc" not in r]
    if missing or "search" not in stored["large"] or "gain" not in stored["meta"]:
        raise StaleMeasurements(
            f"{path}: measured before KernelCCA's own rule for s (no TCC on validation rows"
            f"{' at ' + '; '.join(missing[:3]) if missing else ''}"
            f"{', …' if len(missing) > 3 else ''}), so the tables cannot be rendered from it; "
            f"re-run `python benchmarks/kernel_cca.py` (without --render) to measure them.")


def render(stored, path="the stored measurements") -> list[str]:
    """The tables of ``kernel_cca.md`` from the stored measurements."""
    _check(stored, path)
    rows, large, meta = stored["rows"], stored["large"], stored["meta"]
    gain = meta["gain"]
    chosen = choices(rows, gain)
    sizes = ", ".join(f"{n:,}" for n in sorted({r["n"] for r in rows}))
    return [section("Setting", f"One run, {meta['date']}, {meta['machine']}, {meta['cores']} "
                    f"cores, load average at the end {meta['load']}, `--threads "
                    f"{meta['threads']}`; data `nonlinear_two_view`, RBF per view with the "
                    f"median heuristic's width, k = {K}, λ = {REG}, {meta['heldout']:,} held-out "
                    f"test rows; s chosen on {meta['validation']:,} validation rows of a "
                    f"separate draw (seed {meta['validation_seed']}) by the own rule: the first "
                    f"s of the grid whose validation TCC gains less than {gain * 100:g} % at the "
                    f"next (doubled) s, else the largest."),
            section(f"1. Measured, n = {sizes} (← marks the s chosen by KernelCCA's own rule: "
                    f"{_rule(gain)})",
                    table(measured_frame(rows, chosen),
                          formats={"TCC": ".4f", " s": ".2f", "MiB": ",.0f"})),
            section("Ratios at the s of KernelCCA's own rule (exact / KernelCCA)",
                    table(ratios_frame(chosen, gain), ".3g")),
            section(f"2. n = {large['n']:,} training rows", table(large_frame(large), numparse=False))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exact-n", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    parser.add_argument("--landmarks", type=int, nargs="+", default=[25, 50, 100, 200, 400])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--heldout", type=int, default=5000)
    parser.add_argument("--validation", type=int, default=5000,
                        help="rows of the separate validation draw the own rule reads")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("kernel_cca.md"),
                        help="the Markdown report (its measurements beside it, .json)")
    parser.add_argument("--render", action="store_true", help="only rewrite --out's tables")
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run")
    args = parser.parse_args(argv)
    if args.quick and not args.render \
            and args.out.resolve() == parser.get_default("out").resolve():
        parser.error("--quick needs --out: it would overwrite the committed "
                     "kernel_cca.md and kernel_cca.json")
    results = args.out.with_suffix(".json")
    if not args.render:
        write_json(results, measure(args))
    print(write_report(args.out, TITLE, render(read_json(results), results)))


def check_memory(n: int) -> None:
    """Exit, naming ``--exact-n``, when exact kernel CCA at ``n`` rows would not fit in the
    memory available now (:data:`EXACT_BYTES_PER_N2`), rather than swap or be killed."""
    need, free = EXACT_BYTES_PER_N2 * n * n / 2**30, available_memory() / 2**30
    if need > free:
        sys.exit(f"--exact-n {n:,} needs about {need:.1f} GiB for exact kernel CCA, "
                 f"{free:.1f} GiB available; pass smaller sizes to --exact-n")


def measure(args) -> dict:
    if args.quick:
        args.exact_n, args.landmarks, args.n, args.heldout = [200, 400], [25, 50], 2000, 200
        args.validation = 200
    check_memory(max(args.exact_n))
    landmarks = sorted(args.landmarks)
    # training rows first, the test rows last: the same draw as before the validation block
    X, Y, _ = nonlinear_two_view(max(args.n, max(args.exact_n)) + args.heldout, random_state=0)
    # the validation block: a separate draw of the same generator, disjoint from both
    Xv, Yv, _ = nonlinear_two_view(args.validation, random_state=VALIDATION_SEED)
    with threadpool_limits(args.threads):
        print(f"1. exact kernel CCA against KernelCCA, k = {K}, λ = {REG}, "
              f"{args.heldout:,} held-out test rows, {args.validation:,} validation rows")
        rows = small_n((X, Y), (Xv, Yv), args.exact_n, landmarks, args.heldout)
        chosen = choices(rows)
        print("   s by the own rule: " + ", ".join(
            f"n = {n:,}: {c[1]['s'] if c[1] else '—'}" for n, c in chosen.items()))
        exact_rows = [c[0] for c in chosen.values()]
        print(f"2. n = {args.n:,}: the own rule, then KernelCCA at its s")
        s, search, ours, exact = large_n((X, Y), (Xv, Yv), args.n,
                                         [s for s in landmarks if s < args.n], args.heldout,
                                         exact_rows)
    return {"rows": rows, "large": {"n": args.n, "s": s, "q": args.heldout, "search": search,
                                    "ours": ours, "exact": exact},
            "meta": {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": platform.machine(),
                     "cores": os.cpu_count(), "threads": args.threads, "heldout": args.heldout,
                     "validation": args.validation, "validation_seed": VALIDATION_SEED,
                     "gain": GAIN, "load": ", ".join(f"{v:.1f}" for v in os.getloadavg())}}


if __name__ == "__main__":
    main()
