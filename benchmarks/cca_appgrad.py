"""AppGrad against its peers, as ratios from one run on the same data in the same process.

    python benchmarks/cca_appgrad.py                 # the issue's sizes (several minutes)
    python benchmarks/cca_appgrad.py --quick         # small sizes, a smoke run

Writes ``cca_appgrad.json`` (the measurements) and the tables of ``cca_appgrad.md``:

1. n = 70,000, p = 392/392, k = 20 (MNIST-shaped planted data): seconds for batch AppGrad to
   reach in-sample PCC 0.99 (data path and precomputed-Gram path), against exact CCA and
   against scikit-learn's CCA (NIPALS, run in a forked child stopped after ``--cap`` seconds
   and reported as "> cap"); and the per-iteration speed of the Gram path over the data path.
2. FLOPs (the authors' formulas) for stochastic AppGrad to reach PCC 0.95, against batch.
3. Peak traced memory (tracemalloc) of AppGrad against exact CCA on sparse data with
   ``--memory-p`` columns per view.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import time
import tracemalloc
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


def _appgrad_trace(X, Y, k, max_iter, **kw):
    est = AppGradCCA(k, max_iter=max_iter, tol=0, checkpoints=list(range(1, max_iter + 1)),
                     trace_tcc=True, random_state=0, **kw).fit(X, Y)
    return est


def _sklearn_cca(X, Y, k, queue):
    from sklearn.cross_decomposition import CCA

    start = time.perf_counter()
    est = CCA(k, scale=False, max_iter=500).fit(X, Y)
    queue.put((time.perf_counter() - start, est.x_rotations_, est.y_rotations_))


def _sklearn_with_cap(X, Y, k, cap):
    """Seconds of scikit-learn's CCA and its weights, or (None, None) past ``cap`` seconds."""
    ctx = mp.get_context("fork")  # the child shares the views, nothing is copied
    queue = ctx.Queue()
    child = ctx.Process(target=_sklearn_cca, args=(X, Y, k, queue))
    child.start()
    child.join(cap)
    if child.is_alive():
        child.terminate()
        child.join()
        return None, None
    seconds, Wx, Wy = queue.get()
    return seconds, (Wx, Wy)


def time_to_pcc(n, p, k, cap, max_iter):
    """Part 1: seconds to in-sample PCC 0.99 of AppGrad's two paths, exact CCA and scikit-learn."""
    print(f"1. time to PCC 0.99, n = {n:,}, p = {p}/{p}, k = {k}", flush=True)
    X, Y, _ = planted_two_view(n, p, p, np.linspace(0.95, 0.05, 40), random_state=0)
    X, Y = X - X.mean(0), Y - Y.mean(0)  # centred, so scikit-learn's CCA solves the same problem
    start = time.perf_counter()
    exact = ExactCCA(k).fit(X, Y)
    t_exact = time.perf_counter() - start
    target = tcc(X, Y, exact.x_weights_, exact.y_weights_)
    paths = []
    for precompute in (False, True):
        est = _appgrad_trace(X, Y, k, max_iter, precompute=precompute)
        paths.append({"path": est.solver_,
                      "seconds": _first(est.trace_, "seconds", target, 0.99),
                      "iterations": _first(est.trace_, "iteration", target, 0.99),
                      "per_iteration": float(np.diff(est.trace_["seconds"].to_numpy()).mean())})
    sk_seconds, sk_weights = _sklearn_with_cap(X, Y, k, cap)
    part = {"n": n, "p": p, "k": k, "cap": cap, "max_iter": max_iter, "exact_seconds": t_exact,
            "exact_tcc": target, "appgrad": paths, "sklearn_seconds": sk_seconds,
            "sklearn_pcc": None if sk_seconds is None else tcc(X, Y, *sk_weights) / target}
    return part, (X, Y, target)


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
    tracemalloc.start()
    start = time.perf_counter()
    fit()
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, seconds


def peak_memory(n, p, k):
    """Part 3: peak traced memory of AppGrad and exact CCA on sparse views."""
    print(f"3. peak memory, sparse n = {n:,}, p = {p:,}/{p:,}, k = {k}", flush=True)
    X, Y, _ = sparse_two_view(n, p, p, n_factors=100, noise_nnz=5, random_state=0)
    runs = {
        "AppGrad (batch, 20 iterations)": lambda: AppGradCCA(k, max_iter=20, tol=0,
                                                             random_state=0).fit(X, Y),
        "AppGrad (stochastic, 200 iterations)": lambda: AppGradCCA(
            k, batch_size=50, max_iter=200, random_state=0).fit(X, Y),
        "exact CCA": lambda: ExactCCA(k, reg=1e-4).fit(X, Y),
    }
    rows = []
    for name, fit in runs.items():
        peak, seconds = _peak(fit)
        rows.append({"method": name, "peak_bytes": peak, "seconds": seconds})
    return {"n": n, "p": p, "k": k, "runs": rows}


def render(stored) -> list[str]:
    """The tables of ``cca_appgrad.md`` from the stored measurements."""
    meta, out = stored["meta"], []
    out.append(section("Setting", f"One run of each part, {meta['date']}, {meta['machine']}, "
                       f"{meta['cores']} cores, load average {meta['load_average']:.1f} at the "
                       f"end, `--threads {meta['threads']}`. Same data, same process for every "
                       f"row of a part."))
    if "part1" in stored:
        out.append(_render_part1(stored["part1"]))
    if "part2" in stored:
        out.append(_render_part2(stored["part2"]))
    if "part3" in stored:
        out.append(_render_part3(stored["part3"]))
    return out


def _render_part1(part):
    rows = [{"method": "exact CCA (Cholesky whitening + SVD)", "seconds": part["exact_seconds"],
             "iterations": None, "ms per iteration": None, "exact / this": None}]
    for path in part["appgrad"]:
        rows.append({"method": f"AppGrad, {path['path']} path (setup included)",
                     "seconds": path["seconds"], "iterations": path["iterations"],
                     "ms per iteration": 1e3 * path["per_iteration"],
                     "exact / this": part["exact_seconds"] / path["seconds"]
                     if path["seconds"] else None})
    sk = part["sklearn_seconds"]
    rows.append({"method": "scikit-learn `CCA` (NIPALS)" + (f", stopped at the {part['cap']:g}-s "
                                                            f"cap" if sk is None else ""),
                 "seconds": sk, "iterations": None, "ms per iteration": None,
                 "exact / this": part["exact_seconds"] / sk if sk else None})
    best = min(p["seconds"] for p in part["appgrad"] if p["seconds"])
    note = (f"Exact TCC {part['exact_tcc']:.2f}; scikit-learn's CCA "
            + (f"did not finish within {part['cap']:g} s, so AppGrad's fastest path is more "
               f"than {part['cap'] / best:.0f}× faster" if sk is None else
               f"reached PCC {part['sklearn_pcc']:.4f}") + ".")
    return section(f"1. Time to in-sample PCC 0.99: n = {part['n']:,}, p = {part['p']}/"
                   f"{part['p']}, k = {part['k']} (planted, MNIST-shaped)",
                   table(pd.DataFrame(rows), formats={"seconds": ".2f", "ms": ".2f",
                                                      "/": ".2f", "iterations": ".0f"}), note)


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
             "exact / this": exact["peak_bytes"] / r["peak_bytes"]} for r in part["runs"]]
    return section(f"3. Peak memory beyond the data (tracemalloc): sparse n = {part['n']:,}, "
                   f"p = {part['p']:,}/{part['p']:,}, k = {part['k']}",
                   table(pd.DataFrame(rows), formats={"MiB": ",.1f", "seconds": ".1f",
                                                      "/": ".0f"}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=70000)
    parser.add_argument("--p", type=int, default=392)
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds for scikit-learn's CCA")
    parser.add_argument("--max-iter", type=int, default=300)
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
        write_json(results, measure(args))
    print(write_report(args.out, TITLE, render(read_json(results))))


def measure(args) -> dict:
    if args.quick:
        args.n, args.p, args.cap, args.memory_n, args.memory_p = 5000, 60, 10.0, 5000, 1000
        args.stochastic_iter = 1000
    stored = {"meta": {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": platform.machine(),
                       "cores": os.cpu_count(), "threads": args.threads}}
    with threadpool_limits(args.threads):
        if "1" in args.parts or "2" in args.parts:
            part1, (X, Y, target) = time_to_pcc(args.n, args.p, args.k, args.cap
                                                if "1" in args.parts else 0.0, args.max_iter)
            if "1" in args.parts:
                stored["part1"] = part1
        if "2" in args.parts:
            stored["part2"] = flops_to_pcc(X, Y, args.k, target, args.max_iter,
                                           args.stochastic_iter, args.stochastic_step)
        if "3" in args.parts:
            stored["part3"] = peak_memory(args.memory_n, args.memory_p, args.k)
    stored["meta"]["load_average"] = os.getloadavg()[0]
    return stored


if __name__ == "__main__":
    main()
