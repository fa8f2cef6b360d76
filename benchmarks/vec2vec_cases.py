"""The cases of ``benchmarks/vec2vec_vs_umap.py`` other than ``peers``: each returns its rows."""

from __future__ import annotations

import time

import numpy as np

import vec2vec_methods as M
from lowdim.embedding import Vec2Vec
from lowdim.embedding import _sgns_kernels as K
from lowdim.embedding import cooccurrence as C
from lowdim.embedding.graph import (add_self_loops_to_isolated, cosine_knn_graph,
                                   topk_cosine_neighbors)
from lowdim.embedding.walks import random_walks
from lowdim.memory import available_memory

def real_data(n=20_000, quick=False):
    """name -> (X, y or None): the default profile's real data (digits, pang_lee's 200
    sentences: all of them), ``n`` of GloVe's most frequent words, ``n`` images and blobs."""
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
            f"images ({n:,})": M.make_data("images", n),
            f"blobs ({n:,})": M.make_data("blobs", n)}


def _score(X, Z, y):
    """kNN accuracy where there are labels, else neighbour preservation (cosine, k = 10)."""
    if y is not None:
        return "kNN accuracy", M.knn_score(Z, y)[0]
    return "neighbour preservation", M.neighbour_preservation(X, Z)


def gap(args):
    """Both solvers at their defaults, seeds 0 and 1, on every data set of :func:`real_data`."""
    rows = []
    for name, (X, y) in real_data(args.n, args.quick).items():
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


def _walks(X, threads, seed=0):
    """Vec2vec's default graph and walks of ``X`` (topk 5, 10 walks of 20)."""
    graph, _ = add_self_loops_to_isolated(cosine_knn_graph(X, 5, n_jobs=threads,
                                                           random_state=seed))
    return random_walks(graph, 10, 20, random_state=seed, n_jobs=threads)


def updates(args, store=None):
    """Co-occurrence accuracy and SGD seconds against updates_per_node and alpha (one set of
    walks per data set, so only the SGD differs), seeds 0 and 1; ``store(entry)`` after
    each data set."""
    rows = []
    for name, (X, y) in real_data(args.n, args.quick).items():
        walks = _walks(X, args.threads)
        for alpha, per_node in [(a, u) for a, u in UPDATE_GRID if a in args.alphas]:
            for seed in (0, 1):
                timings = {}
                Z = C.cooccurrence_sgns(walks, X.shape[0], 10, alpha=alpha,
                                        updates_per_node=per_node, seed=seed,
                                        n_jobs=args.threads, timings=timings)
                metric, score = _score(X, Z, y)
                rows.append({"data": name, "alpha": alpha, "updates_per_node": per_node,
                             "seed": seed, "metric": metric, "score": score,
                             "sgd_seconds": timings["sgd"]})
                print(rows[-1], flush=True)
        if store:
            store({"rows": rows})
    return {"rows": rows}


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
    """Per positive pair (with its ``negative`` noise pairs) of the SGD stage, one thread."""
    import numba

    n = 2_000 if args.quick else 20_000
    X, _ = M.make_data("blobs", n)
    walks = _walks(X, 1)
    numba.set_num_threads(1)
    per_node, d, negative = 100, 10, 5
    tables = _tables(walks, n, per_node)
    tables.pop("n_blocks")
    shift = C.partition_shift(n, d)
    buffers = K._buffers(tables["rates"], shift, negative)
    n_parts = buffers[0].size - 1
    rng = np.random.default_rng(0)
    syn0 = ((rng.random((n, d), dtype=np.float32) - 0.5) / d).astype(np.float32)
    syn1 = np.zeros((n, d), np.float32)
    sigmoid = K.sigmoid_table()

    def draw(b=0):
        K.draw_block(b, *tables.values(), negative, 7, shift, *buffers)

    def train(out_u, out_t):
        K.train_block(out_u, out_t, buffers[5], syn0, syn1, 0.025, sigmoid, negative + 1)

    draw()
    pairs = int(sum(buffers[5][i, -1] - buffers[5][i, 0] for i in range(n_parts)))
    small_u, small_t = buffers[3] % 1024, np.where(buffers[4] >= 0, buffers[4] % 1024,
                                                   -((-buffers[4] - 1) % 1024) - 1)
    parts = {
        "draw (pairs from the walks, noise, bucket sort)": _cpu(draw),
        "train (dot products, sigmoid table, updates)": _cpu(lambda: train(buffers[3],
                                                                           buffers[4])),
        "train, node ids folded into 1,024 rows (in cache)": _cpu(
            lambda: train(small_u.astype(np.int32), small_t.astype(np.int32))),
    }
    numbers = pairs
    uniforms = _cpu(lambda: _splitmix(numbers))
    exact, table = _sigmoid_costs(pairs)
    rows = [{"part": k, "wall_seconds": w, "cpu_seconds": c} for k, (w, c) in parts.items()]
    rows += [{"part": "SplitMix64 numbers, one per pair (a positive pair takes 2 or more)",
              "wall_seconds": uniforms[0], "cpu_seconds": uniforms[1]},
             {"part": "exact sigmoid (exp), once per pair", "wall_seconds": exact[0],
              "cpu_seconds": exact[1]},
             {"part": "gensim's sigmoid table, once per pair", "wall_seconds": table[0],
              "cpu_seconds": table[1]}]
    for row in rows:
        row["ns_per_pair"] = 1e9 * row["cpu_seconds"] / pairs
    return {"n": n, "d": d, "negative": negative, "pairs_in_block": pairs, "n_parts": n_parts,
            "rows": rows}


def _tables(walks, n, per_node):
    """The kernels' input arrays of :func:`cooccurrence_sgns` (one block's worth of rates)."""
    from lowdim.embedding._cooccurrence_kernels import fill_walk_steps, occurrence_starts

    n_blocks = max(1, round(per_node / C.UPDATES_PER_BLOCK))
    starts = occurrence_starts(walks, n)
    positions = np.empty(walks.size, np.int32)
    fill_walk_steps(walks, starts, positions, int(walks.shape[1] - 1).bit_length())
    offsets, step_keep, step_total = K.step_tables(walks.shape[1], 10)
    occurrences = np.bincount(walks.ravel(), minlength=n)
    keep = C.keep_probabilities(occurrences, 1e-3)
    weight = C._pair_weights(walks, n, step_total, keep)
    return {"walks": walks, "starts": starts, "positions": positions, "offsets": offsets,
            "step_keep": step_keep, "keep": keep,
            "noise": K.pack_alias(*K.alias_table(occurrences ** 0.75)),
            "rates": weight * (per_node * n / weight.sum() / n_blocks),
            "phases": K.node_phases(n, 3), "n_blocks": n_blocks}


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
    """``args.n`` blobs (D = 64): Vec2vec's stages and memory, graph recall, kNN; UMAP too;
    ``store(entry)`` after each method."""
    n = 20_000 if args.quick else args.n
    needed = n * 64 * 8 * 12  # data, graph search and walks: measured about 12 copies of X
    if available_memory() < needed + 6 * 2**30:
        raise SystemExit(f"scale: needs about {needed / 2**30:.1f} GiB and 6 GiB left for "
                         f"others; {available_memory() / 2**30:.1f} GiB available")
    X, y = M.make_data("blobs", n)
    M.warm_up(["vec2vec (co-occurrence)", "umap"], 10, args.threads)
    rows_q = np.random.default_rng(1).choice(n, 1_000, replace=False)
    rows = []
    for method in ("vec2vec (co-occurrence)", "umap"):
        fit = M.measure(lambda: M.make_method(method, 10, args.threads), X, args.threads)
        row = {"method": method, **M.fit_row(fit), "peak_gib": fit.peak / 2**30}
        row["knn"], row["knn_2sd"] = M.knn_score(fit.embedding, y)
        if method.startswith("vec2vec"):
            row["graph_recall"] = _recall(X, _top5(fit.model.graph_, rows_q, n), rows_q)
        rows.append(row)
        print(row, flush=True)
        del fit
        if store:
            store({"n": n, "D": 64, "rows": rows})
    return {"n": n, "D": 64, "rows": rows}


def _top5(graph, rows, n):
    """Top-5 neighbours by weight of ``rows`` in ``graph`` (others: -1)."""
    top = np.full((n, 5), -1, dtype=np.int64)
    for i in rows:
        lo, hi = graph.indptr[i], graph.indptr[i + 1]
        order = np.argsort(-graph.data[lo:hi])[:5]
        top[i, :order.size] = graph.indices[lo:hi][order]
    return top
