"""AppGrad against its peers, as ratios from one run on the same data in the same process.

    python benchmarks/cca_appgrad.py                 # the issue's sizes (several minutes)
    python benchmarks/cca_appgrad.py --quick         # small sizes, a smoke run

Prints:

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
import time
import tracemalloc

import numpy as np
from threadpoolctl import threadpool_limits

from lowdim.cca import AppGradCCA, ExactCCA, tcc
from lowdim.data.sources.synthetic import planted_two_view, sparse_two_view


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
    print(f"\n1. time to PCC 0.99, n = {n:,}, p = {p}/{p}, k = {k}")
    X, Y, _ = planted_two_view(n, p, p, np.linspace(0.95, 0.05, 40), random_state=0)
    X, Y = X - X.mean(0), Y - Y.mean(0)  # centred, so scikit-learn's CCA solves the same problem
    start = time.perf_counter()
    exact = ExactCCA(k).fit(X, Y)
    t_exact = time.perf_counter() - start
    target = tcc(X, Y, exact.x_weights_, exact.y_weights_)
    print(f"   exact CCA: {t_exact:.2f} s, TCC {target:.4f}")
    results = {}
    for precompute in (False, True):
        est = _appgrad_trace(X, Y, k, max_iter, precompute=precompute)
        seconds = _first(est.trace_, "seconds", target, 0.99)
        its = _first(est.trace_, "iteration", target, 0.99)
        per_iter = np.diff(est.trace_["seconds"].to_numpy()).mean()
        results[est.solver_] = (seconds, its, per_iter)
        print(f"   AppGrad ({est.solver_} path): PCC 0.99 after {its} iterations, {seconds:.2f} s "
              f"(setup included); {1e3 * per_iter:.2f} ms per iteration")
    sk_seconds, sk_weights = _sklearn_with_cap(X, Y, k, cap)
    for path, (seconds, _, _) in results.items():
        if seconds is None:
            print(f"   ratio ({path}): AppGrad never reached PCC 0.99 in {max_iter} iterations")
            continue
        sk = f"> {cap / seconds:.1f}" if sk_seconds is None else f"{sk_seconds / seconds:.1f}"
        print(f"   speed-up of AppGrad ({path} path): {t_exact / seconds:.2f}x over exact CCA, "
              f"{sk}x over scikit-learn CCA")
    if sk_seconds is None:
        print(f"   scikit-learn CCA: > {cap:.0f} s (stopped)")
    else:
        sk_pcc = tcc(X, Y, *sk_weights) / target
        print(f"   scikit-learn CCA: {sk_seconds:.2f} s, PCC {sk_pcc:.4f}")
    print(f"   Gram path per iteration: {results['data'][2] / results['gram'][2]:.0f}x faster "
          f"than the data path")
    return X, Y, target


def flops_to_pcc(X, Y, k, target, max_iter, stochastic_iter, step):
    print(f"\n2. FLOPs to PCC 0.95 (authors' formulas), stochastic (b = 50) against batch")
    batch = _appgrad_trace(X, Y, k, max_iter, precompute=True)
    f_batch = _first(batch.trace_, "flops", target, 0.95)
    checkpoints = sorted(set(np.unique(np.logspace(0, np.log10(stochastic_iter), 60).astype(int))))
    rows = []
    for step_size in ("auto", step):
        est = AppGradCCA(k, batch_size=50, max_iter=stochastic_iter, step_size=step_size,
                         checkpoints=checkpoints, trace_tcc=True, random_state=0).fit(X, Y)
        f_sgd = _first(est.trace_, "flops", target, 0.95)
        final = est.trace_["tcc_train"].iloc[-1] / target
        rows.append((step_size, f_sgd, final, est.step_size_[0]))
    print(f"   batch AppGrad: {f_batch:.3g} FLOPs")
    for step_size, f_sgd, final, eta in rows:
        reached = ("never reached" if f_sgd is None else
                   f"{f_sgd:.3g} FLOPs, {f_batch / f_sgd:.1f}x fewer than batch")
        print(f"   stochastic, step {step_size} (= {eta:.3g}): {reached}; "
              f"PCC {final:.4f} after {stochastic_iter} iterations")


def _peak(fit):
    tracemalloc.start()
    start = time.perf_counter()
    fit()
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, seconds


def peak_memory(n, p, k):
    print(f"\n3. peak memory beyond the data, sparse n = {n:,}, p = {p:,}/{p:,}, k = {k}")
    X, Y, _ = sparse_two_view(n, p, p, n_factors=100, noise_nnz=5, random_state=0)
    runs = {
        "AppGrad (batch)": lambda: AppGradCCA(k, max_iter=20, tol=0, random_state=0).fit(X, Y),
        "AppGrad (stochastic)": lambda: AppGradCCA(k, batch_size=50, max_iter=200,
                                                   random_state=0).fit(X, Y),
        "exact CCA": lambda: ExactCCA(k, reg=1e-4).fit(X, Y),
    }
    peaks = {}
    for name, fit in runs.items():
        peaks[name], seconds = _peak(fit)
        print(f"   {name}: peak {peaks[name] / 2**20:,.1f} MiB ({seconds:.1f} s)")
    for name in ("AppGrad (batch)", "AppGrad (stochastic)"):
        print(f"   exact CCA / {name}: {peaks['exact CCA'] / peaks[name]:.0f}x the memory")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=70000)
    parser.add_argument("--p", type=int, default=392)
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--cap", type=float, default=120.0, help="seconds for scikit-learn's CCA")
    parser.add_argument("--max-iter", type=int, default=300)
    parser.add_argument("--stochastic-iter", type=int, default=5000)
    parser.add_argument("--stochastic-step", type=float, default=0.02)
    parser.add_argument("--memory-n", type=int, default=100000)
    parser.add_argument("--memory-p", type=int, default=10000, help="columns per view")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--parts", default="123", help="which measurements to run, e.g. 13")
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    args = parser.parse_args()
    if args.quick:
        args.n, args.p, args.cap, args.memory_n, args.memory_p = 5000, 60, 10.0, 5000, 1000
        args.stochastic_iter = 1000
    with threadpool_limits(args.threads):
        if "1" in args.parts or "2" in args.parts:
            X, Y, target = time_to_pcc(args.n, args.p, args.k, args.cap if "1" in args.parts
                                       else 0.0, args.max_iter)
        if "2" in args.parts:
            flops_to_pcc(X, Y, args.k, target, args.max_iter, args.stochastic_iter,
                         args.stochastic_step)
        if "3" in args.parts:
            peak_memory(args.memory_n, args.memory_p, args.k)


if __name__ == "__main__":
    main()
