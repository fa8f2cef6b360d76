"""Vec2vec against UMAP on the same data in the same process, printed as time ratios.

Two cases from the Vec2vec paper's timing study (Figure 3):

- many points: n = 20,000 Gaussian blobs, D = 64 (digits-like), d = 10;
- many dimensions: n = 2,000 sparse blobs lifted to D = 100,000 (CSR), d = 10.
  UMAP gets the same CSR matrix; with ``--umap-dense`` it also gets the dense
  copy, as the authors' scripts passed it.

Both methods run single-threaded with a fixed seed (umap-learn is
single-threaded when seeded) unless ``--threads`` is given, in which case
Vec2vec uses that many threads and UMAP runs unseeded with as many. Each method
is warmed up first on a small problem so the numbers exclude numba's one-off
compilation; that compilation time is reported separately. Every embedding is
scored with the paper's kNN protocol (nested 4-fold CV, k in 1..11).

    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py            # both cases
    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py --quick    # n = 5,000 / D = 20,000
    PYTHONPATH=src python benchmarks/vec2vec_vs_umap.py --variant epochs=2 --threads 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits

from lowdim.data.sources.synthetic_embedding import gaussian_blobs, sparse_blobs
from lowdim.embedding import UMAPEmbedding, Vec2Vec
from lowdim.evaluate.classification import knn_cv_accuracy


def _models(threads, n_components, variants=(), default=True):
    """name -> factory; ``variants`` are Vec2Vec settings such as {"epochs": 2}."""
    seed = 0 if threads == 1 else None
    models = {}
    if default:
        models["vec2vec"] = lambda: Vec2Vec(n_components=n_components, random_state=0,
                                            n_jobs=threads)
    for variant in variants:
        label = "vec2vec (" + ", ".join(f"{k}={v}" for k, v in variant.items()) + ")"
        models[label] = (lambda v=variant: Vec2Vec(n_components=n_components, random_state=0,
                                                   n_jobs=threads, **v))
    models["umap"] = lambda: UMAPEmbedding(n_components=n_components, random_state=seed,
                                           n_jobs=threads)
    return models


def _timed(model, X):
    start = time.perf_counter()
    Z = model.fit_transform(X)
    return Z, time.perf_counter() - start


def _warm_up(models):
    """First fits compile numba code; return the compile overhead per method (s).

    UMAP is warmed on more than 4,096 points so that its nearest-neighbour
    descent (used from that size on) is compiled too.
    """
    overhead = {}
    for name, make in models.items():
        if name != "umap" and overhead:
            continue  # one Vec2vec warm-up compiles for all variants
        X, _ = gaussian_blobs(4500 if name == "umap" else 300, 16, 3, 4.0, random_state=1)
        _, cold = _timed(make(), X)
        _, warm = _timed(make(), X)
        overhead[name] = cold - warm
    return overhead


def _case(title, X, y, models, extra=()):
    print(f"\n{title}: n = {X.shape[0]:,}, D = {X.shape[1]:,}"
          f"{', sparse nnz = %s' % f'{X.nnz:,}' if hasattr(X, 'nnz') else ''}")
    results = {}
    for name, make, data in [(n, m, X) for n, m in models.items()] + list(extra):
        model = make()
        Z, seconds = _timed(model, data)
        accuracy = knn_cv_accuracy(Z, y, random_state=0)
        results[name] = seconds
        stages = ""
        if isinstance(model, Vec2Vec):
            stages = "  (" + ", ".join(f"{k} {v:.1f} s" for k, v in model.timings_.items()) + ")"
        print(f"  {name:<18} {seconds:8.1f} s   kNN accuracy {accuracy.mean:.4f} "
              f"± {accuracy.two_std:.4f}{stages}")
    for name, seconds in results.items():
        if not name.startswith("vec2vec"):
            continue
        for other, other_seconds in results.items():
            if other.startswith("umap"):
                ratio = seconds / other_seconds
                words = f"{ratio:.2f}x slower" if ratio > 1 else f"{1 / ratio:.2f}x faster"
                print(f"  {name} / {other}: time ratio {ratio:.2f} ({words})")
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 5,000 and D = 20,000")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--n-components", type=int, default=10)
    parser.add_argument("--umap-dense", action="store_true",
                        help="also time UMAP on the dense copy of the D-sweep matrix")
    parser.add_argument("--variant", action="append", default=[], metavar="K=V[,K=V]",
                        help="an extra Vec2vec setting, e.g. epochs=2 (repeatable)")
    parser.add_argument("--no-default", action="store_true",
                        help="time only the --variant settings of Vec2vec")
    parser.add_argument("--cases", default="points,dimensions",
                        help="comma-separated subset of: points, dimensions")
    args = parser.parse_args(argv)
    variants = [{k: int(v) for k, v in (kv.split("=") for kv in spec.split(","))}
                for spec in args.variant]
    n_large, d_large = (5000, 20000) if args.quick else (20000, 100000)
    cases = args.cases.split(",")
    with threadpool_limits(limits=args.threads):
        models = _models(args.threads, args.n_components, variants, not args.no_default)
        overhead = _warm_up(models)
        print("one-off numba compilation per process (excluded below): "
              + ", ".join(f"{k} {v:.1f} s" for k, v in overhead.items()))
        if "points" in cases:
            X, y = gaussian_blobs(n_large, 64, 10, 12.0, random_state=0)
            _case("many points", X, y, models)
        if "dimensions" in cases:
            X, y = sparse_blobs(2000, d_large, 64, 10, 12.0, 4, random_state=0)
            extra = []
            if args.umap_dense:
                extra = [("umap (dense input)", models["umap"], X.toarray().astype(np.float32))]
            _case("many dimensions", X, y, models, extra)


if __name__ == "__main__":
    main()
