"""AppGrad against its peers, as ratios from one run on the same data in the same process.

    python benchmarks/cca_appgrad.py                 # the issue's sizes (several minutes)
    python benchmarks/cca_appgrad.py --quick         # small sizes, a smoke run

Writes ``cca_appgrad.json`` (the measurements) and the tables of ``cca_appgrad.md``:

1. n = 70,000, p = 392/392, k = 20 (MNIST-shaped planted data): AppGrad **as run**, against
   exact CCA and scikit-learn's CCA (NIPALS, in a forked child stopped after ``--cap``
   seconds and reported as "> cap"). AppGrad stops by a rule fixed before the run, never at
   a checkpoint chosen with exact CCA's answer: its configured iteration count
   (``--max-iter``, no tolerance), or :data:`STOP_RULE` (early stopping on a tenth of its
   own training rows). The methods alternate over ``--rounds`` rounds; each row is the
   median fit, every fit's wall seconds and CPU / wall ratio beside it, the load average
   after each round stored.
2. FLOPs (the authors' formulas) for stochastic AppGrad to reach PCC 0.95, against batch.
3. Peak traced memory (tracemalloc) of AppGrad against exact CCA on sparse data with
   ``--memory-p`` columns per view.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import platform
import resource
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from _report import read_json, section, table, write_json, write_report
from lowdim.cca import AppGradCCA, ExactCCA, tcc
from lowdim.data.sources.synthetic import planted_two_view, sparse_two_view

TITLE = "AppGrad against its peers (`benchmarks/cca_appgrad.py`)"


def _first(trace, column, target, threshold):
    """First trace row whose ``column`` reaches ``threshold · target`` (None if never)."""
    hits = trace[trace["tcc_train"] >= threshold * target]
    return None if hits.empty else hits.iloc[0][column]


#: AppGrad's stopping rule in part 1, fixed before the run: the rule of ``cca_scale``'s
#: ``*_stop`` methods (early stopping on a tenth of the training rows, checked at 20 evenly
#: spaced iterations up to ``--max-iter``, stopping once two checks in a row gain < 0.1 %).
STOP_RULE = dict(early_stopping=True, validation_fraction=0.1, n_iter_no_change=2, tol=1e-3)
STOP_CHECKS = 20


def _sklearn_cca(X, Y, k, queue):
    from sklearn.cross_decomposition import CCA

    start = time.perf_counter()
    est = CCA(k, scale=False, max_iter=500).fit(X, Y)
    queue.put((time.perf_counter() - start, est.x_rotations_, est.y_rotations_))


def _sklearn_with_cap(X, Y, k, cap):
    """Seconds of scikit-learn's CCA and its weights, or (None, None) past ``cap`` seconds,
    and the child's CPU seconds."""
    ctx = mp.get_context("fork")  # the child shares the views, nothing is copied
    queue = ctx.Queue()
    before = _children_cpu()
    child = ctx.Process(target=_sklearn_cca, args=(X, Y, k, queue))
    start = time.perf_counter()
    child.start()
    child.join(cap)
    if child.is_alive():
        child.terminate()
        child.join()
        return None, None, _children_cpu() - before, time.perf_counter() - start
    seconds, Wx, Wy = queue.get()
    child.join()
    return seconds, (Wx, Wy), _children_cpu() - before, time.perf_counter() - start


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(fit) -> tuple:
    """(result, wall seconds, CPU seconds of this process) of ``fit()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fit()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _appgrad_fit(X, Y, k, max_iter, stop):
    kw = dict(STOP_RULE, checkpoints=list(range(max_iter // STOP_CHECKS, max_iter + 1,
                                                max_iter // STOP_CHECKS))) if stop \
        else dict(tol=0)
    with warnings.catch_warnings():  # a run that reaches max_iter warns
        warnings.simplefilter("ignore")
        return AppGradCCA(k, max_iter=max_iter, random_state=0, **kw).fit(X, Y)


def _fit_row(method, round_, wall, cpu, pcc=None, iterations=None):
    return {"method": method, "round": round_, "seconds": wall, "cpu_seconds": cpu,
            "cpu_over_wall": cpu / wall if wall else None, "pcc_in": pcc,
            "iterations": iterations}


def as_run(n, p, k, cap, max_iter, rounds):
    """Part 1: exact CCA, AppGrad as run (two stopping rules fixed before the run) and
    scikit-learn's CCA, alternated over ``rounds`` rounds on the same views."""
    print(f"1. as run, n = {n:,}, p = {p}/{p}, k = {k}, {rounds} rounds", flush=True)
    X, Y, _ = planted_two_view(n, p, p, np.linspace(0.95, 0.05, 40), random_state=0)
    X, Y = X - X.mean(0), Y - Y.mean(0)  # centred, so scikit-learn's CCA solves the same problem
    exact = ExactCCA(k).fit(X, Y)
    target = tcc(X, Y, exact.x_weights_, exact.y_weights_)
    fits, loads = [], []
    for round_ in range(rounds):
        _, wall, cpu = _timed(lambda: ExactCCA(k).fit(X, Y))
        fits.append(_fit_row("exact", round_, wall, cpu, 1.0))
        for method, stop in (("appgrad_fixed", False), ("appgrad_stop", True)):
            est, wall, cpu = _timed(lambda: _appgrad_fit(X, Y, k, max_iter, stop))
            fits.append(_fit_row(method, round_, wall, cpu,
                                 tcc(X, Y, est.x_weights_, est.y_weights_) / target,
                                 int(est.n_iter_)))
        seconds, weights, cpu, wall = _sklearn_with_cap(X, Y, k, cap)
        fits.append(_fit_row("sklearn", round_, seconds if seconds is not None else wall, cpu,
                             None if weights is None else tcc(X, Y, *weights) / target))
        fits[-1]["stopped_at_cap"] = seconds is None
        loads.append(os.getloadavg()[0])
        print(f"round {round_ + 1}: " + ", ".join(f"{f['method']} {f['seconds']:.1f} s"
                                                  for f in fits[-4:]), flush=True)
    part = {"n": n, "p": p, "k": k, "cap": cap, "max_iter": max_iter, "rounds": rounds,
            "stop_rule": {**STOP_RULE, "checks": STOP_CHECKS}, "exact_tcc": target,
            "fits": fits, "load_after_round": loads}
    return part, (X, Y, target)


def _appgrad_trace(X, Y, k, max_iter, **kw):
    est = AppGradCCA(k, max_iter=max_iter, tol=0, checkpoints=list(range(1, max_iter + 1)),
                     trace_tcc=True, random_state=0, **kw).fit(X, Y)
    return est


def flops_to_pcc(X, Y, k, target, max_iter, stochastic_iter, step):
    """Part 2: FLOPs (the authors' formulas) of stochastic and batch AppGrad to PCC 0.95."""
    print("2. FLOPs to PCC 0.95", flush=True)
    batch = _appgrad_trace(X, Y, k, max_iter, precompute=True)
    checkpoints = sorted(set(np.unique(np.logspace(0, np.log10(stochastic_iter), 60).astype(int))))
    runs = []
    for step_size in ("auto", step):
        est = AppGradCCA(k, batch_size=50, max_iter=stochastic_iter, step_size=step_size,
                         checkpoints=checkpoints, trace_tcc=True, random_state=0).fit(X, Y)
        runs.append({"step": step_size, "step_used": float(est.step_size_[0]),
                     "flops": _first(est.trace_, "flops", target, 0.95),
                     "final_pcc": float(est.trace_["tcc_train"].iloc[-1] / target)})
    return {"batch_flops": _first(batch.trace_, "flops", target, 0.95), "batch_size": 50,
            "stochastic_iter": stochastic_iter, "stochastic": runs}


def _peak(fit):
    """Peak traced bytes, wall and CPU seconds of ``fit()`` (tracemalloc slows both sides)."""
    tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    fit()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, seconds, cpu


#: Part 3's ridge, on every side alike: AppGradCCA's and ExactCCA's default λ.
PART3_REG = 0.005


def peak_memory(n, p, k):
    """Part 3: peak traced memory of AppGrad and exact CCA on sparse views, one λ for all."""
    print(f"3. peak memory, sparse n = {n:,}, p = {p:,}/{p:,}, k = {k}", flush=True)
    X, Y, _ = sparse_two_view(n, p, p, n_factors=100, noise_nnz=5, random_state=0)
    runs = {
        "AppGrad (batch, 20 iterations)": lambda: AppGradCCA(
            k, reg=PART3_REG, max_iter=20, tol=0, random_state=0).fit(X, Y),
        "AppGrad (stochastic, 200 iterations)": lambda: AppGradCCA(
            k, reg=PART3_REG, batch_size=50, max_iter=200, random_state=0).fit(X, Y),
        "exact CCA": lambda: ExactCCA(k, reg=PART3_REG).fit(X, Y),
    }
    rows = []
    for name, fit in runs.items():
        peak, seconds, cpu = _peak(fit)
        rows.append({"method": name, "peak_bytes": peak, "seconds": seconds,
                     "cpu_seconds": cpu})
        print(f"   {name}: {peak / 2**20:,.1f} MiB, {seconds:.1f} s", flush=True)
    return {"n": n, "p": p, "k": k, "reg": PART3_REG, "runs": rows}


def render(stored) -> list[str]:
    """The tables of ``cca_appgrad.md`` from the stored measurements."""
    meta, out = stored["meta"], []
    dates = "; ".join(f"part {key[-1]} on {stored[key]['meta']['date']} (load average "
                      f"{stored[key]['meta']['load_average']:.1f} at its end)"
                      for key in ("part1", "part2", "part3")
                      if key in stored and "meta" in stored[key])
    out.append(section("Setting", f"{meta['machine']}, {meta['cores']} cores, `--threads "
                       f"{meta['threads']}`; {dates or meta['date']}. Same data, same process "
                       "for every row of a part; part 1 alternates its methods over rounds, "
                       "parts 2 and 3 run once."))
    if "part1" in stored:
        out.append(_render_part1(stored["part1"]))
    if "part2" in stored:
        out.append(_render_part2(stored["part2"]))
    if "part3" in stored:
        out.append(_render_part3(stored["part3"]))
    return out


#: Part 1's rows: method key -> what the row says.
PART1_METHODS = {
    "exact": "exact CCA (Cholesky whitening + SVD)",
    "appgrad_fixed": "AppGrad, the configured {max_iter} iterations",
    "appgrad_stop": "AppGrad, early stopping (rule fixed before the run)",
    "sklearn": "scikit-learn `CCA` (NIPALS)",
}


def part1_summary(part) -> pd.DataFrame:
    """One row per method of part 1: the median fit over the rounds (wall and CPU seconds),
    every fit beside it, and exact CCA's median over it. CPU seconds are the ratio that a
    shared machine distorts least; a capped row has no median (the cap is not its time)."""
    fits = pd.DataFrame(part["fits"])
    exact = fits[fits["method"] == "exact"]
    rows = []
    for method, label in PART1_METHODS.items():
        own = fits[fits["method"] == method]
        if own.empty:
            continue
        capped = bool(own.get("stopped_at_cap", pd.Series(False)).fillna(False).any())
        wall, cpu = own["seconds"].median(), own["cpu_seconds"].median()
        rows.append({"method": label.format(max_iter=part["max_iter"])
                     + (f", stopped at the {part['cap']:g}-s cap" if capped else ""),
                     "median wall s": None if capped else wall,
                     "median CPU s": None if capped else cpu,
                     "every fit: wall s (CPU / wall)": ", ".join(
                         f"{w:.2f} ({r:.2f})" for w, r in zip(own["seconds"],
                                                             own["cpu_over_wall"])),
                     "iterations": own["iterations"].median()
                     if own["iterations"].notna().any() else None,
                     "PCC_in": own["pcc_in"].median() if own["pcc_in"].notna().any() else None,
                     "exact / this, CPU s": None if method == "exact" or capped
                     else exact["cpu_seconds"].median() / cpu,
                     "exact / this, wall s": None if method == "exact" or capped
                     else exact["seconds"].median() / wall,
                     "capped": capped, "least CPU s": own["cpu_seconds"].min()})
    return pd.DataFrame(rows)


def at_least(value: float) -> str:
    """A lower bound, rounded down to 2 significant digits: ``3.61`` -> ``3.6``."""
    digits = 1 - int(math.floor(math.log10(abs(value))))
    return f"{math.floor(value * 10 ** digits) / 10 ** digits:g}"


def _render_part1(part):
    summary = part1_summary(part)
    shown = summary.drop(columns=["capped", "least CPU s"])
    rule = part["stop_rule"]
    note = (f"Exact TCC {part['exact_tcc']:.2f}. {part['rounds']} rounds, the methods "
            "alternating within each; the load average after each round: "
            + ", ".join(f"{v:.1f}" for v in part["load_after_round"]) + ". Early stopping: "
            f"`AppGradCCA(early_stopping=True, validation_fraction={rule['validation_fraction']}, "
            f"n_iter_no_change={rule['n_iter_no_change']}, tol={rule['tol']:g})`, checked at "
            f"{rule['checks']} evenly spaced iterations up to {part['max_iter']}. One thread "
            "each: a CPU / wall ratio below 1 is a fit that shared its core.")
    capped = summary[summary["capped"]]
    if len(capped):
        appgrad = summary[~summary["capped"] & (summary["method"] != PART1_METHODS["exact"])]
        note += (f" scikit-learn's CCA did not finish within {part['cap']:g} s of wall time in "
                 f"any round, having used at least {capped['least CPU s'].min():.1f} CPU s, so "
                 f"AppGrad's faster rule takes less than 1/"
                 f"{at_least(capped['least CPU s'].min() / appgrad['median CPU s'].min())} of "
                 "its CPU time.")
    return section(f"1. AppGrad as run against exact CCA: n = {part['n']:,}, p = {part['p']}/"
                   f"{part['p']}, k = {part['k']} (planted, MNIST-shaped)",
                   table(shown, formats={"median": ".2f", "iterations": ".0f",
                                         "PCC": ".4f", "/": ".2f"}), note)


def _render_part2(part):
    rows = [{"method": "batch AppGrad", "FLOPs to PCC 0.95": part["batch_flops"],
             "batch / this": 1.0, f"PCC after {part['stochastic_iter']:,} iterations": None}]
    for run in part["stochastic"]:
        rows.append({"method": f"stochastic AppGrad (b = {part['batch_size']}), step "
                               f"{run['step']} (= {run['step_used']:.3g})",
                     "FLOPs to PCC 0.95": run["flops"],
                     "batch / this": part["batch_flops"] / run["flops"] if run["flops"] else None,
                     f"PCC after {part['stochastic_iter']:,} iterations": run["final_pcc"]})
    return section("2. FLOPs to in-sample PCC 0.95 (the authors' formulas), stochastic vs batch",
                   table(pd.DataFrame(rows), formats={"PCC after": ".3f", "/": ".1f"}))


def _render_part3(part):
    exact = next(r for r in part["runs"] if r["method"] == "exact CCA")
    rows = [{"method": r["method"], "peak MiB": r["peak_bytes"] / 2**20, "seconds": r["seconds"],
             "CPU / wall": (r["cpu_seconds"] / r["seconds"] if "cpu_seconds" in r
                            else "not recorded"),
             "exact / this": exact["peak_bytes"] / r["peak_bytes"]} for r in part["runs"]]
    reg = (f"λ = {part['reg']:g} for every method" if "reg" in part
           else "λ = 1e-4 for exact CCA, 0.005 for AppGrad (before they were made equal)")
    return section(f"3. Peak memory beyond the data (tracemalloc): sparse n = {part['n']:,}, "
                   f"p = {part['p']:,}/{part['p']:,}, k = {part['k']}, {reg}",
                   table(pd.DataFrame(rows), formats={"MiB": ",.1f", "seconds": ".1f",
                                                      "CPU / wall": ".2f", "/": ".0f"}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=70000)
    parser.add_argument("--p", type=int, default=392)
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds for scikit-learn's CCA")
    parser.add_argument("--max-iter", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3, help="part 1: rounds of every method")
    parser.add_argument("--stochastic-iter", type=int, default=5000)
    parser.add_argument("--stochastic-step", type=float, default=0.02)
    parser.add_argument("--memory-n", type=int, default=100000)
    parser.add_argument("--memory-p", type=int, default=10000, help="columns per view")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--parts", default="123", help="which measurements to run, e.g. 13")
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("cca_appgrad.md"),
                        help="the Markdown report (its measurements beside it, .json)")
    parser.add_argument("--render", action="store_true", help="only rewrite --out's tables")
    args = parser.parse_args()
    results = args.out.with_suffix(".json")
    if not args.render:
        stored = read_json(results) if results.exists() and args.parts != "123" else {}
        write_json(results, merge(stored, measure(args)))
    print(write_report(args.out, TITLE, render(read_json(results))))


def merge(stored: dict, new: dict) -> dict:
    """``new`` parts in place of the stored ones; the others kept, each with the date and
    load average of the run it came from."""
    for key in ("part1", "part2", "part3"):
        if key in stored and "meta" not in stored[key]:
            stored[key]["meta"] = {k: stored["meta"][k] for k in ("date", "load_average")}
    return {**stored, **new}


def measure(args) -> dict:
    if args.quick:
        args.n, args.p, args.cap, args.memory_n, args.memory_p = 5000, 60, 10.0, 5000, 1000
        args.rounds = min(args.rounds, 2)
        args.stochastic_iter = 1000
    stored = {"meta": {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": platform.machine(),
                       "cores": os.cpu_count(), "threads": args.threads}}
    with threadpool_limits(args.threads):
        if "1" in args.parts or "2" in args.parts:
            part1, (X, Y, target) = as_run(args.n, args.p, args.k, args.cap, args.max_iter,
                                           args.rounds if "1" in args.parts else 0)
            if "1" in args.parts:
                stored["part1"] = _stamped(part1)
        if "2" in args.parts:
            stored["part2"] = _stamped(flops_to_pcc(X, Y, args.k, target, args.max_iter,
                                                    args.stochastic_iter, args.stochastic_step))
        if "3" in args.parts:
            stored["part3"] = _stamped(peak_memory(args.memory_n, args.memory_p, args.k))
    stored["meta"]["load_average"] = os.getloadavg()[0]
    return stored


def _stamped(part: dict) -> dict:
    return {**part, "meta": {"date": time.strftime("%Y-%m-%d %H:%M"),
                             "load_average": os.getloadavg()[0]}}


if __name__ == "__main__":
    main()
