"""Vec2vec (both skip-gram solvers) against UMAP on the same data, printed as ratios.

Cases (``--cases``, comma-separated), after issue 18:

- ``points`` (a): n = 20,000 Gaussian blobs, D = 64, d = 10. Vec2vec with gensim
  (the authors' settings), Vec2vec with the co-occurrence solver, UMAP.
- ``mnist`` (b): n = 70,000 Gaussian blobs, D = 784 (MNIST-sized). The
  co-occurrence solver and UMAP (gensim would take about 15 minutes); peak
  memory of each fit is measured in a fresh process per method.
- ``dimensions`` (c): n = 2,000 sparse blobs lifted to D = 100,000 (CSR), the
  same CSR matrix for every method.
- (d) every Vec2vec row prints its stages: graph, walks, then skip-gram
  (gensim) or counting and SGD (co-occurrence).
- ``recall``: recall of the approximate neighbour search (pynndescent, Vec2vec's
  ``knn="auto"`` from 5,000 rows) against exact search, and both times.
- ``knn``: kNN accuracy of the co-occurrence solver at n = 20,000 with
  ``knn="exact"`` against ``"approximate"`` (the old and the default search).
- ``updates``: co-occurrence accuracy and SGD time against ``updates_per_node``
  and ``alpha`` on (a)'s data (the measurement behind their defaults).
- ``search``: pynndescent's settings (neighbours asked for, ``max_candidates``,
  ``n_iters``, ``delta``) on (a)'s data: recall, search time and the solver's
  kNN accuracy on each graph.

Every method runs with ``--threads`` threads (default 2; UMAP unseeded, since
umap-learn is single-threaded when seeded) in one process, after a warm-up that
compiles numba code (reported separately). kNN accuracy is the paper's protocol
(nested 4-fold CV, k in 1..11), on a fixed random 10,000 rows when n is larger.

    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py                # a, c, d
    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py --cases mnist  # b
    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py --cases recall,updates
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

import numpy as np
from threadpoolctl import threadpool_limits

from lowdim.data.sources.synthetic_embedding import gaussian_blobs, sparse_blobs
from lowdim.embedding import UMAPEmbedding, Vec2Vec
from lowdim.embedding import graph as graph_module
from lowdim.embedding.graph import (add_self_loops_to_isolated, cosine_knn_graph,
                                   topk_cosine_neighbors)
from lowdim.embedding.walks import random_walks
from lowdim.evaluate.classification import knn_cv_accuracy

#: Rows scored by the kNN protocol (a random subset beyond this).
SCORED_ROWS = 10_000

#: Methods left out by ``--skip`` (e.g. the gensim solver on a busy machine).
SKIPPED = set()

#: case -> data of the case (generator, arguments)
DATA = {
    "points": (gaussian_blobs, (20_000, 64, 10, 12.0)),
    "mnist": (gaussian_blobs, (70_000, 784, 10, 12.0)),
    "dimensions": (sparse_blobs, (2_000, 100_000, 64, 10, 12.0, 4)),
}


def _data(case, quick=False):
    make, args = DATA[case]
    if quick:  # a tenth of the rows
        args = (args[0] // 10,) + args[1:]
    return make(*args, random_state=0)


def _models(threads, n_components, case):
    """name -> factory of the methods of ``case``."""
    models = {
        "vec2vec (gensim)": lambda: Vec2Vec(n_components=n_components, random_state=0,
                                            n_jobs=threads),
        "vec2vec (co-occurrence)": lambda: Vec2Vec(n_components=n_components,
                                                   solver="cooccurrence", random_state=0,
                                                   n_jobs=threads),
        "umap": lambda: UMAPEmbedding(n_components=n_components, n_jobs=threads),
    }
    if case == "mnist":
        del models["vec2vec (gensim)"]
    return {name: make for name, make in models.items() if name not in SKIPPED}


def _timed(model, X):
    start = time.perf_counter()
    Z = model.fit_transform(X)
    return Z, time.perf_counter() - start


def _warm_up(models):
    """Fit each method twice on small dense and sparse data; return cold - warm seconds.

    5,100 dense rows, so that the approximate neighbour search of UMAP (from 4,096
    rows) and of Vec2vec (from 5,000) is compiled too.
    """
    dense, _ = gaussian_blobs(5100, 16, 3, 4.0, random_state=1)
    sparse, _ = sparse_blobs(300, 20_000, 16, 3, 4.0, 4, random_state=1)
    overhead = {}
    for name, make in models.items():
        total = 0.0
        for X in (dense, sparse):
            _, cold = _timed(_warm_up_model(make), X)
            _, warm = _timed(_warm_up_model(make), X)
            total += cold - warm
        overhead[name] = total
    return overhead


def _warm_up_model(make):
    """``make()``, with one gensim epoch: gensim compiles nothing, the walks are numba."""
    model = make()
    if getattr(model, "solver", None) == "gensim":
        model.set_params(epochs=1)
    return model


def _accuracy(Z, y):
    rows = np.arange(len(y))
    if len(y) > SCORED_ROWS:
        rows = np.sort(np.random.default_rng(0).choice(len(y), SCORED_ROWS, replace=False))
    result = knn_cv_accuracy(Z[rows], y[rows], random_state=0)
    return result.mean, result.two_std


def run_case(case, models, quick=False):
    """Time and score every method of ``case``; print a row per method and the ratios."""
    X, y = _data(case, quick)
    print(f"\n{case}: n = {X.shape[0]:,}, D = {X.shape[1]:,}"
          + (f", CSR nnz = {X.nnz:,}" if hasattr(X, "nnz") else ""))
    seconds, accuracy = {}, {}
    for name, make in models.items():
        model = make()
        Z, seconds[name] = _timed(model, X)
        accuracy[name], two_std = _accuracy(Z, y)
        stages = getattr(model, "timings_", None)
        stages = ("   stages: " + ", ".join(f"{k} {v:.1f} s" for k, v in stages.items())
                  if stages else "")
        print(f"  {name:<24} {seconds[name]:8.1f} s   kNN accuracy {accuracy[name]:.4f} "
              f"± {two_std:.4f}{stages}", flush=True)
    for name in models:
        if name != "umap":
            print(f"  {name} / umap: time ratio {seconds[name] / seconds['umap']:.2f}")
    if {"vec2vec (gensim)", "vec2vec (co-occurrence)"} <= set(models):
        print("  co-occurrence / gensim: time ratio "
              f"{seconds['vec2vec (co-occurrence)'] / seconds['vec2vec (gensim)']:.3f}, "
              "accuracy difference "
              f"{accuracy['vec2vec (co-occurrence)'] - accuracy['vec2vec (gensim)']:+.4f}")
    return seconds, accuracy


def _status_mb(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def _memory_child(case, name, threads, n_components, quick, queue):
    """In a fresh process: data, warm-up, then one fit; report RSS before and peak during."""
    with threadpool_limits(threads):
        models = _models(threads, n_components, case)
        make = models[name]
        _warm_up({name: make})
        X, _ = _data(case, quick)
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # reset the peak-RSS counter (VmHWM) to the current RSS
        before = _status_mb("VmRSS")
        make().fit_transform(X)
        queue.put((before, _status_mb("VmHWM")))


def peak_memory(case, threads, n_components, quick=False):
    """Peak RSS of each method's fit, each in a fresh (spawned) process."""
    context = multiprocessing.get_context("spawn")  # numba's OpenMP layer is not fork-safe
    print(f"\n{case}: peak memory of one fit, fresh process per method (MB)")
    peaks = {}
    for name in _models(threads, n_components, case):
        queue = context.Queue()
        child = context.Process(target=_memory_child,
                                args=(case, name, threads, n_components, quick, queue))
        child.start()
        before, peak = queue.get()
        child.join()
        peaks[name] = peak - before
        print(f"  {name:<24} RSS before fit {before:7.0f}, peak {peak:7.0f}, "
              f"fit's own {peak - before:7.0f}", flush=True)
    print(f"  co-occurrence / umap: memory ratio "
          f"{peaks['vec2vec (co-occurrence)'] / peaks['umap']:.2f} (fit's own)")
    return peaks


#: pynndescent's n_neighbors tried by ``recall`` (0: topk + 1, the old setting).
SEARCH_NEIGHBORS = (0, 10, 20, graph_module.APPROXIMATE_SEARCH_NEIGHBORS)


def recall(threads, sizes=(5_000, 20_000), topk=5, queries=2_000):
    """Recall and time of Vec2vec's approximate neighbour search against exact search.

    For each pynndescent ``n_neighbors`` of :data:`SEARCH_NEIGHBORS`.
    """
    print("\nrecall of the approximate cosine neighbours (topk = 5) against exact search")
    default = graph_module.APPROXIMATE_SEARCH_NEIGHBORS
    for n, d in [(n, 64) for n in sizes] + [(20_000, 784)]:
        X, _ = gaussian_blobs(n, d, 10, 12.0, random_state=0)
        start = time.perf_counter()
        exact, _ = topk_cosine_neighbors(X, topk, knn="exact", n_jobs=threads)
        exact_seconds = time.perf_counter() - start
        rows = np.random.default_rng(0).choice(n, min(queries, n), replace=False)
        for search in SEARCH_NEIGHBORS:
            graph_module.APPROXIMATE_SEARCH_NEIGHBORS = search
            start = time.perf_counter()
            approx, _ = topk_cosine_neighbors(X, topk, knn="approximate", n_jobs=threads,
                                              random_state=0)
            approx_seconds = time.perf_counter() - start
            hits = [np.intersect1d(exact[i], approx[i]).size for i in rows]
            print(f"  n = {n:6,}, D = {d:3}, search {max(search, topk + 1):2}: recall "
                  f"{np.sum(hits) / (topk * rows.size):.4f}, exact {exact_seconds:6.1f} s, "
                  f"approximate {approx_seconds:6.1f} s "
                  f"(ratio {approx_seconds / exact_seconds:.2f})", flush=True)
        graph_module.APPROXIMATE_SEARCH_NEIGHBORS = default


def knn_accuracy(threads, n_components, n=20_000):
    """kNN accuracy of the co-occurrence solver on exact against approximate graphs."""
    X, y = gaussian_blobs(n, 64, 10, 12.0, random_state=0)
    print(f"\nco-occurrence solver, n = {n:,}, D = 64: exact against approximate graph")
    default = graph_module.APPROXIMATE_SEARCH_NEIGHBORS
    for knn, search in [("exact", default), ("approximate", 0), ("approximate", default)]:
        graph_module.APPROXIMATE_SEARCH_NEIGHBORS = search
        model = Vec2Vec(n_components=n_components, solver="cooccurrence", knn=knn,
                        random_state=0, n_jobs=threads)
        Z, seconds = _timed(model, X)
        mean, two_std = _accuracy(Z, y)
        label = knn if knn == "exact" else f"{knn}, search {max(search, 6)}"
        print(f"  {label:<26} {seconds:7.1f} s (graph {model.timings_['graph']:.1f} s)  "
              f"kNN accuracy {mean:.4f} ± {two_std:.4f}", flush=True)
    graph_module.APPROXIMATE_SEARCH_NEIGHBORS = default


#: (alpha, updates_per_node, SGD seeds) of ``updates``: the default alpha first,
#: two seeds each, so that a run stopped early still answers for the default.
UPDATE_GRID = ([(0.1, per_node, (0, 1)) for per_node in (100, 150, 200, 250, 500, 750, 1000,
                                                         1500)]
               + [(0.2, per_node, (0,)) for per_node in (250, 500, 1000)]
               + [(0.05, per_node, (0,)) for per_node in (500, 1000)])


def _points_walks(threads, quick):
    """(a)'s data, its default (approximate) graph and walks, seeded as in Vec2Vec's fit."""
    X, y = _data("points", quick)
    return X, y, _default_walks(X, threads)


def _digits_walks(threads, quick):
    """scikit-learn's digits (1,797 real images, D = 64; exact graph) and their walks."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return X, y, _default_walks(X, threads)


def _default_walks(X, threads):
    graph, _ = add_self_loops_to_isolated(cosine_knn_graph(X, 5, n_jobs=threads,
                                                           random_state=0))
    return random_walks(graph, 10, 20, random_state=0, n_jobs=threads)


#: data of ``updates`` (``--updates-data``)
UPDATE_DATA = {"points": _points_walks, "digits": _digits_walks}


def updates(threads, n_components, quick=False, data=("points",), per_node_only=None):
    """Co-occurrence accuracy and SGD time against updates_per_node and alpha.

    One graph and one set of walks per data set, so only the SGD differs.
    ``per_node_only``: run only these updates_per_node values of the grid.
    """
    from lowdim.embedding.cooccurrence import cooccurrence_sgns

    for name in data:
        X, y, walks = UPDATE_DATA[name](threads, quick)
        n = X.shape[0]
        print(f"\nco-occurrence solver, {name}, n = {n:,}, D = {X.shape[1]}: kNN accuracy "
              "and SGD seconds against updates per node and alpha (one graph, one set of "
              "walks)")
        for alpha, per_node, seeds in UPDATE_GRID:
            if per_node_only and per_node not in per_node_only:
                continue
            for seed in seeds:
                timings = {}
                Z = cooccurrence_sgns(walks, n, n_components, alpha=alpha,
                                      updates_per_node=per_node, seed=seed, n_jobs=threads,
                                      timings=timings)
                mean, two_std = _accuracy(Z, y)
                print(f"  alpha {alpha:<5} updates/node {per_node:5} seed {seed}: accuracy "
                      f"{mean:.4f} ± {two_std:.4f}, counting {timings['counting']:5.1f} s, "
                      f"SGD {timings['sgd']:6.1f} s", flush=True)


#: (label, pynndescent n_neighbors, further NNDescent arguments) of ``search``.
SEARCH_SETTINGS = [
    ("30 (default)", 30, {}),
    ("30, max_candidates 15", 30, {"max_candidates": 15}),
    ("30, n_iters 4", 30, {"n_iters": 4}),
    ("30, delta 0.01", 30, {"delta": 0.01}),
    ("20", 20, {}),
    ("15, UMAP's (max_candidates 60)", 15, {"max_candidates": 60}),
    ("10, max_candidates 60", 10, {"max_candidates": 60}),
]


def search(threads, n_components, quick=False, topk=5, queries=2_000):
    """pynndescent's settings on (a)'s data: recall, graph seconds, solver's kNN accuracy.

    Each setting's graph feeds the co-occurrence solver with its defaults (same
    walk and SGD seeds), so the accuracy column shows what the recall buys.
    """
    from lowdim.embedding.cooccurrence import cooccurrence_sgns

    X, y = _data("points", quick)
    n = X.shape[0]
    # pynndescent compiles on its first call: pay that before timing anything.
    topk_cosine_neighbors(X[:5100], topk, knn="approximate", n_jobs=threads, random_state=0)
    exact, _ = topk_cosine_neighbors(X, topk, knn="exact", n_jobs=threads)
    rows = np.random.default_rng(0).choice(n, min(queries, n), replace=False)
    print(f"\npynndescent settings, n = {n:,}, D = {X.shape[1]}: recall of the top {topk} "
          "against exact search, graph seconds, co-occurrence solver's kNN accuracy")
    default = (graph_module.APPROXIMATE_SEARCH_NEIGHBORS,
               dict(graph_module.APPROXIMATE_SEARCH_OPTIONS))
    for label, neighbors, options in SEARCH_SETTINGS:
        graph_module.APPROXIMATE_SEARCH_NEIGHBORS = neighbors
        graph_module.APPROXIMATE_SEARCH_OPTIONS = options
        start = time.perf_counter()
        approx, _ = topk_cosine_neighbors(X, topk, knn="approximate", n_jobs=threads,
                                          random_state=0)
        seconds = time.perf_counter() - start
        hits = sum(np.intersect1d(exact[i], approx[i]).size for i in rows)
        graph, _ = add_self_loops_to_isolated(cosine_knn_graph(X, topk, n_jobs=threads,
                                                               random_state=0))
        walks = random_walks(graph, 10, 20, random_state=0, n_jobs=threads)
        mean, two_std = _accuracy(cooccurrence_sgns(walks, n, n_components, alpha=0.1,
                                                    seed=0, n_jobs=threads), y)
        print(f"  {label:<32} recall {hits / (topk * rows.size):.4f}, search {seconds:5.1f} s, "
              f"kNN accuracy {mean:.4f} ± {two_std:.4f}", flush=True)
    graph_module.APPROXIMATE_SEARCH_NEIGHBORS, graph_module.APPROXIMATE_SEARCH_OPTIONS = default


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="points,dimensions",
                        help="comma-separated: points, mnist, dimensions, recall, knn, updates, "
                        "search")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--n-components", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="a tenth of the rows")
    parser.add_argument("--skip", default="",
                        help="comma-separated methods to leave out, e.g. 'vec2vec (gensim)'")
    parser.add_argument("--no-memory", action="store_true",
                        help="skip the peak-memory processes of the mnist case")
    parser.add_argument("--updates-data", default="points",
                        help="data of the updates case, comma-separated: points, digits")
    parser.add_argument("--per-node", default="",
                        help="updates case: only these updates_per_node values of the grid")
    args = parser.parse_args(argv)
    cases = args.cases.split(",")
    SKIPPED.update(name for name in args.skip.split(",") if name)
    with threadpool_limits(limits=args.threads):
        timed = [c for c in ("points", "mnist", "dimensions") if c in cases]
        if timed:
            models = {}
            for case in timed:
                models.update(_models(args.threads, args.n_components, case))
            overhead = _warm_up(models)
            print("one-off compilation per process (excluded below): "
                  + ", ".join(f"{k} {v:.1f} s" for k, v in overhead.items()))
        for case in timed:
            run_case(case, _models(args.threads, args.n_components, case), args.quick)
        if "mnist" in cases and not args.no_memory:
            peak_memory("mnist", args.threads, args.n_components, args.quick)
        if "recall" in cases:
            recall(args.threads)
        if "knn" in cases:
            knn_accuracy(args.threads, args.n_components)
        if "updates" in cases:
            updates(args.threads, args.n_components, args.quick,
                    data=args.updates_data.split(","),
                    per_node_only=[int(v) for v in args.per_node.split(",") if v])
        if "search" in cases:
            search(args.threads, args.n_components, args.quick)


if __name__ == "__main__":
    main()
