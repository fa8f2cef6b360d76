"""Resource model of the paper profile: measure the heavy job kinds at small sizes, fit, project.

    python benchmarks/paper_resources.py            # measure, fit, write the tables
    python benchmarks/paper_resources.py --fit-only # refit from the measured points

Each point runs the library function a workflow job runs (the same call as its
``workflow/scripts/*.py``) in a fresh process, on replicas or synthetic data shaped
like the paper's, and records the process's wall time and peak resident memory
(the ``s`` and ``max_rss`` columns of a Snakemake ``benchmark:`` file) and the
compute time of the call alone, as CPU time of one thread (BLAS, numba and torch are
held to one thread), which a shared machine disturbs far less than wall time. A per-kind *work count* (WMD pairs x words^a,
AppGrad n.n.z. x k per iteration, ...) is fitted to the compute times, and the fit
is evaluated at the paper profile's sizes (``config/paper.yaml``).

Writes ``benchmarks/paper_resources_points.csv`` (measured points) and
``benchmarks/paper_resources_fits.csv`` (fitted constants); ``paper_resources.md``
holds the projection built from them. Timings on a shared machine are noisy: the
script records the load average next to every point.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
POINTS = HERE / "paper_resources_points.csv"
FITS = HERE / "paper_resources_fits.csv"
PROJECTION = HERE / "paper_resources_projection.csv"
MARKDOWN = HERE / "paper_resources.md"


# --- one measured point, run in its own process ----------------------------------------------
def _kusner(tmp, n_docs, words, seed=0):
    """A Kusner-format replica whose documents have ``words`` distinct words each."""
    from lowdim.data import get_spec
    from lowdim.data.replicas import write_kusner_split

    files, _ = write_kusner_split(Path(tmp), np.random.default_rng(seed), n_docs=n_docs,
                                  n_classes=4, n_words=max(4 * words, 50),
                                  doc_words=(words, words + 1))
    return get_spec("wmd_bbcsport").prepare(files)


def point_wmd(tmp, n, words):
    from lowdim.similarity.matrices import build_matrix

    data = _kusner(tmp, n + 2, words)  # document 2 is empty and dropped
    start = time.process_time()
    _, items, info = build_matrix({"kind": "wmd", "n_items": n, "wmd": {"gamma": 0.3}}, data)
    return time.process_time() - start, {"pairs": len(items) * (len(items) - 1) / 2,
                                          "words": info["mean_words"]}


def point_wme(tmp, n, words, n_random, d_max):
    from lowdim.tasks.wmd_classification import corpus_wme_similarities

    data = _kusner(tmp, n + 2, words)
    items = np.flatnonzero(np.asarray(data.bow.sum(axis=1)).ravel() > 0)
    start = time.process_time()
    corpus_wme_similarities(data, items, None, n_random, d_max)
    return time.process_time() - start, {"pairs": len(items) * n_random, "words": words,
                                          "d_mean": (d_max + 1) / 2}


def point_wmd_classify(tmp, n, method, n_gammas, n_c):
    from lowdim.tasks.wmd_classification import classify_documents, document_splits

    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, n)
    Z = rng.normal(size=(n, 20)) + 2.0 * np.eye(4)[y] @ rng.normal(size=(4, 20))
    D = np.sqrt(((Z[:, None] - Z[None]) ** 2).sum(-1))
    K = np.exp(-0.1 * D)
    splits = document_splits(y, n_splits=1, test_fraction=0.3, seed=0)
    ranks = [] if method == "wmd_kernel" else [16, 64]
    start = time.process_time()
    classify_documents(method, K, y, splits, gamma0=0.1, gammas=list(np.geomspace(0.05, 2, n_gammas)),
                       ranks=ranks, C_grid=list(np.geomspace(0.1, 100, n_c)), n_folds=3,
                       max_iter=20000, seed=0, options={}, wme=None)
    fits = n_gammas * n_c * 3 * max(1, len(ranks))
    return time.process_time() - start, {"n_train": int(0.7 * n), "svm_fits": fits}


def point_embed(tmp, method, n, d, sparse):
    from lowdim.embedding.experiments import fit_embedding
    from lowdim.embedding.timing import timing_data

    data = timing_data("n_features" if sparse else "n_samples", d if sparse else n,
                       n if sparse else d, seed=0)
    params = {"n_neighbors": 10} if method in ("isomap", "lle", "le", "umap") else {}
    # a warm-up fit first: numba's compilation (about 20 s for UMAP, once per job) is not
    # part of the growth; it is recorded on its own
    start = time.process_time()
    fit_embedding(data.X[:200], method, n_components=8, params=params, random_state=0, n_jobs=1)
    warmup = time.process_time() - start
    start = time.process_time()
    fit_embedding(data.X, method, n_components=32, params=params, random_state=0, n_jobs=1)
    return time.process_time() - start, {"n": data.X.shape[0], "d": data.X.shape[1],
                     "nnz": int(data.X.nnz if hasattr(data.X, "nnz") else data.X.size),
                     "warmup_s": warmup}


def point_score(tmp, n):
    from lowdim.embedding.experiments import score_sweep

    rng = np.random.default_rng(0)
    y = rng.integers(0, 10, n)
    Z = rng.normal(size=(1, n, 32)) + np.eye(10)[y] @ rng.normal(size=(10, 32))
    start = time.process_time()
    score_sweep(Z, ["default"], y, gammas=[1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0],
                random_state=0)
    return time.process_time() - start, {"n": n, "settings": 1, "gammas": 8}


def point_crossencoder(tmp, n, words):
    from lowdim.data.replicas.glue import sentence_pool
    from lowdim.similarity import CrossEncoderOracle, full_matrix
    from lowdim.similarity.tiny_crossencoder import build_tiny_crossencoder

    # BERT-base dimensions (110M parameters) with random weights: the cost of a hub model
    path = build_tiny_crossencoder(Path(tmp) / "bert_base", num_labels=2, hidden_size=768,
                                   num_hidden_layers=12, num_attention_heads=12,
                                   intermediate_size=3072)
    pool = sentence_pool(np.random.default_rng(0), 4 * n)[6:]
    sentences = [" ".join((s.split() * words)[:words]) for s in pool[:n]]
    oracle = CrossEncoderOracle(sentences, str(path), n_jobs=1)
    tokens = np.mean([len(oracle.tokenizer_(a, b)["input_ids"])
                      for a, b in zip(sentences, sentences[1:])])
    start = time.process_time()
    full_matrix(oracle)
    return time.process_time() - start, {"pairs": n * (n - 1) / 2, "forward_passes": n * (n - 1),
                                          "tokens_per_pair": float(tokens)}


def point_appgrad(tmp, method, n, p, iters):
    from lowdim.cca import AppGradCCA
    from lowdim.data.sources.synthetic import sparse_two_view

    X, Y, _ = sparse_two_view(n, p, p, n_factors=50, noise_nnz=5, random_state=0)
    est = AppGradCCA(20, reg=1e-4, max_iter=iters, tol=0, random_state=0,
                     batch_size=50 if method == "sappgrad" else None)
    start = time.process_time()
    est.fit(X, Y)
    return time.process_time() - start, {"n": n, "p": 2 * p, "nnz": int(X.nnz + Y.nnz),
                                          "iterations": iters}


def point_exact(tmp, n, p):
    from lowdim.cca import ExactCCA

    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(n, p)), rng.normal(size=(n, p))
    start = time.process_time()
    ExactCCA(20, reg=1e-3).fit(X, Y)
    return time.process_time() - start, {"n": n, "p": 2 * p}


KINDS = {"wmd": point_wmd, "wme": point_wme, "wmd_classify": point_wmd_classify,
         "embed": point_embed, "score": point_score, "crossencoder": point_crossencoder,
         "appgrad": point_appgrad, "exact": point_exact}

#: The measured points: (kind, arguments). Small enough for a shared 2-core machine.
GRID = (
    [("wmd", {"n": 60, "words": w}) for w in (10, 25, 50, 100)]
    + [("wmd", {"n": n, "words": 25}) for n in (30, 120)]
    + [("wme", {"n": 60, "words": 25, "n_random": r, "d_max": d})
       for r, d in ((64, 6), (256, 6), (64, 21), (256, 21))]
    + [("wmd_classify", {"n": n, "method": m, "n_gammas": 3, "n_c": 3})
       for m in ("wmd_kernel", "sms_nystrom") for n in (200, 400, 800)]
    + [("embed", {"method": m, "n": n, "d": 784, "sparse": False})
       for m in ("vec2vec", "umap", "isomap", "lle", "le", "pca", "mds") for n in (500, 1000, 2000)]
    + [("embed", {"method": m, "n": 1000, "d": d, "sparse": True})
       for m in ("vec2vec", "umap", "lle", "le") for d in (2000, 10000, 50000)]
    + [("score", {"n": n}) for n in (500, 1000, 2000)]
    + [("crossencoder", {"n": n, "words": w}) for n, w in ((8, 4), (8, 12), (16, 4))]
    + [("appgrad", {"method": m, "n": n, "p": p, "iters": it})
       for m, it in (("appgrad", 20), ("sappgrad", 400))
       for n, p in ((20000, 20000), (80000, 20000), (20000, 80000))]
    + [("exact", {"n": 4000, "p": p}) for p in (100, 200, 400, 800)]
)


def _child(kind, args):
    with tempfile.TemporaryDirectory() as tmp:
        seconds, work = KINDS[kind](tmp, **args)
    print(json.dumps({"compute_s": seconds, **work}))


def measure(kind, args) -> dict:
    """Run one point in a fresh process: wall, peak RSS (MB), compute seconds and work."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--child", kind, json.dumps(args)],
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                                 "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"})
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out = proc.stdout.read()
    if status:
        raise RuntimeError(f"{kind} {args} failed (status {status})")
    return {"kind": kind, **{f"arg_{k}": v for k, v in args.items()}, "wall_s": wall,
            "max_rss_mb": usage.ru_maxrss / 1024, "cpu_s": usage.ru_utime + usage.ru_stime,
            "load_1min": load, **json.loads(out.strip().splitlines()[-1])}


# --- fits ------------------------------------------------------------------------------------
def _power_fit(x, t):
    """Least squares of log t = log c + a log x: returns (c, a, relative spread of residuals)."""
    A = np.c_[np.ones(len(x)), np.log(x)]
    coef, *_ = np.linalg.lstsq(A, np.log(t), rcond=None)
    resid = np.log(t) - A @ coef
    return float(np.exp(coef[0])), float(coef[1]), float(np.exp(resid.std(ddof=min(1, len(t) - 1))) - 1)


def fits(points: pd.DataFrame) -> pd.DataFrame:
    rows = []
    wmd = points[points.kind == "wmd"]
    if len(wmd):
        # seconds per pair against words per document: c * words^a
        c, a, spread = _power_fit(wmd["words"], wmd["compute_s"] / wmd["pairs"])
        rows.append({"kind": "wmd", "model": "s = c * pairs * words^a", "c": c, "a": a,
                     "spread": spread})
    wme = points[points.kind == "wme"]
    if len(wme):
        c, a, spread = _power_fit(wme["d_mean"], wme["compute_s"] / (wme["pairs"] * wme["words"]))
        rows.append({"kind": "wme", "model": "s = c * n * R * words * d_mean^a", "c": c, "a": a,
                     "spread": spread})
    for method, part in points[points.kind == "wmd_classify"].groupby("arg_method"):
        c, a, spread = _power_fit(part["n_train"], part["compute_s"] / part["svm_fits"])
        rows.append({"kind": f"wmd_classify:{method}", "model": "s = c * svm_fits * n_train^a",
                     "c": c, "a": a, "spread": spread})
    embed = points[(points.kind == "embed") & (points.arg_sparse == False)]  # noqa: E712
    for method, part in embed.groupby("arg_method"):
        c, a, spread = _power_fit(part["n"], part["compute_s"])
        rows.append({"kind": f"embed:{method}", "model": "s = c * n^a (D = 784 dense)",
                     "c": c, "a": a, "spread": spread})
    sparse = points[(points.kind == "embed") & (points.arg_sparse == True)]  # noqa: E712
    for method, part in sparse.groupby("arg_method"):
        c, a, spread = _power_fit(part["d"], part["compute_s"])
        rows.append({"kind": f"embed_sparse:{method}", "model": "s = c * D^a (n = 1000 sparse)",
                     "c": c, "a": a, "spread": spread})
    score = points[points.kind == "score"]
    if len(score):
        c, a, spread = _power_fit(score["n"], score["compute_s"])
        rows.append({"kind": "score", "model": "s = c * n^a per setting (8 gammas, 4 folds)",
                     "c": c, "a": a, "spread": spread})
    ce = points[points.kind == "crossencoder"]
    if len(ce):
        c, a, spread = _power_fit(ce["tokens_per_pair"], ce["compute_s"] / ce["forward_passes"])
        rows.append({"kind": "crossencoder", "model": "s = c * passes * tokens^a (BERT-base)",
                     "c": c, "a": a, "spread": spread})
    for method, part in points[points.kind == "appgrad"].groupby("arg_method"):
        per_iter = part["compute_s"] / part["iterations"]
        # batch: t = c * nnz + a * p; stochastic: t = c + a * p (a minibatch's cost does not
        # grow with n), both fitted by least squares
        first = part["nnz"] if method == "appgrad" else np.ones(len(part))
        A = np.c_[first, part["p"]]
        (alpha, beta), *_ = np.linalg.lstsq(A, per_iter, rcond=None)
        spread = float(np.max(np.abs(A @ [alpha, beta] / per_iter - 1)))
        model = "s/iter = c * nnz + a * p (k = 20)" if method == "appgrad" else \
            "s/iter = c + a * p (k = 20, minibatch 50)"
        rows.append({"kind": f"appgrad:{method}", "model": model,
                     "c": float(alpha), "a": float(beta), "spread": spread})
    exact = points[points.kind == "exact"]
    if len(exact):
        c, a, spread = _power_fit(exact["p"], exact["compute_s"] / exact["n"])
        rows.append({"kind": "exact", "model": "s = c * n * p^a (dense, p = p1 + p2)", "c": c,
                     "a": a, "spread": spread})
    return pd.DataFrame(rows)


# --- projection to the paper profile -----------------------------------------------------------
#: Kusner et al. (2015), Table 1: documents and mean unique words per document.
KUSNER = {"bbcsport": (737, 117), "twitter": (3108, 9.9), "recipe": (4370, 48.5),
          "ohsumed": (9152, 59.2), "classic": (7093, 38.6), "amazon": (8000, 45.0),
          "r8": (7674, 22.6), "20news": (18829, 72.0)}
GB = 1024.0  # MB


def _paper_jobs(config: dict) -> list[dict]:
    """The heavy jobs of the paper profile: kind, job name, threads and the work counts."""
    from lowdim.settings import cca_settings

    jobs = []
    for m in config["similarity"]["matrices"]:
        if m["kind"] == "wmd":
            docs, words = KUSNER[m["dataset"].removeprefix("wmd_")]
            n = min(m.get("n_items") or docs, docs)
            jobs.append({"kind": "wmd", "job": f"similarity_matrix/{m['name']}",
                         "threads": m.get("threads", 1), "pairs": n * (n - 1) / 2,
                         "words": words, "n": n})
        elif m["kind"] == "crossencoder":
            n = m["n_items"]
            jobs.append({"kind": "crossencoder", "job": f"similarity_matrix/{m['name']}",
                         "threads": m.get("threads", 1), "passes": n * (n - 1), "tokens": 64,
                         "n": n})
    wmdc = config["sms_tasks"]["wmd_classification"]
    n_fits = len(wmdc["gammas"]) * len(wmdc["svm"]["C"]) * wmdc["svm"]["cv_folds"]
    for corpus in wmdc["corpora"]:
        docs, words = KUSNER[corpus["name"]]
        threads = corpus.get("threads", 1)
        jobs.append({"kind": "wmd", "job": f"sms_wmd_kernel/{corpus['name']}", "threads": threads,
                     "pairs": docs * (docs - 1) / 2, "words": words, "n": docs})
        for d_max in wmdc["wme"]["d_max"]:
            jobs.append({"kind": "wme", "job": f"sms_wme_similarities/{corpus['name']}/dmax{d_max}",
                         "threads": wmdc["wme"].get("threads", 1), "n": docs,
                         "R": max(wmdc["ranks"]), "words": words, "d_mean": (d_max + 1) / 2})
        for method in wmdc["methods"]:
            kind = "wmd_kernel" if method == "wmd_kernel" else "sms_nystrom"
            ranks = 1 if method == "wmd_kernel" else len(wmdc["ranks"])
            jobs.append({"kind": f"wmd_classify:{kind}", "job": f"sms_wmd_classify/{corpus['name']}/"
                         f"{method}", "threads": threads, "n": docs, "n_train": 0.7 * docs,
                         "svm_fits": n_fits * ranks * wmdc["splits"]["n_splits"]})
    for task in config["sms_tasks"]["glue"]["tasks"]:
        n = 2 * task["n_pairs"]  # distinct sentences of the pairs, at most
        jobs.append({"kind": "crossencoder", "job": f"sms_glue_matrix/{task['dataset']}",
                     "threads": task.get("threads", 1), "passes": n * (n - 1), "tokens": 64,
                     "n": n})
    emb = config["embedding"]
    n_settings = len(emb["neighbors"])
    for dataset in emb["datasets"]:
        n = min(emb["max_samples"], 1440 if dataset == "coil20" else emb["max_samples"])
        for method in ("vec2vec", "umap", "isomap", "lle", "le"):
            jobs.append({"kind": f"embed:{method}", "job": f"embedding_embed/{dataset}/{method}",
                         "threads": emb["resources"]["threads"], "n": n, "repeat": n_settings})
        for method in ("pca", "mds"):
            jobs.append({"kind": f"embed:{method}", "job": f"embedding_embed/{dataset}/{method}",
                         "threads": emb["resources"]["threads"], "n": n, "repeat": 1})
    timing = emb["timing"]
    caps = timing.get("max_samples") or {}
    for method in timing["methods"]:
        for n in timing["n_samples"]:
            if n > caps.get(method, n):  # the workflow times SMACOF only up to its cap
                continue
            jobs.append({"kind": f"embed:{method}", "job": f"embedding_timing/{method}/n{n}",
                         "threads": timing["threads"], "n": n, "repeat": 1})
        for d in timing["n_features"]:
            jobs.append({"kind": f"embed_sparse:{method}", "job": f"embedding_timing/{method}/d{d}",
                         "threads": timing["threads"], "d": d, "repeat": 1,
                         "scale_n": timing["n_samples_at"] / 1000})
    cca = config["cca"]
    url = config["datasets"]["url_reputation"]["n_rows"]
    for method in ("appgrad", "sappgrad"):
        iters = cca_settings(config, "url_reputation", method)["max_iter"][0]
        jobs.append({"kind": f"appgrad:{method}", "job": f"cca_appgrad/url_reputation/{method}",
                     "threads": cca["threads"], "nnz": url * 116.0, "p": 3.2e6,
                     "iterations": iters, "n": url})
    for dataset, n, p in (("mediamill", 30993, 221), ("mnist_halves", 60000, 784),
                          ("ptb", 1_000_000, 2 * config["datasets"]["ptb"]["vocab_size"]),
                          ("planted_cca", config["datasets"]["planted_cca"]["n"],
                           config["datasets"]["planted_cca"]["p1"]
                           + config["datasets"]["planted_cca"]["p2"])):
        jobs.append({"kind": "exact", "job": f"cca_exact/{dataset}", "threads": cca["threads"],
                     "n": n, "p": p})
    return jobs


def _seconds(fit: pd.Series, job: dict) -> float:
    """Single-thread compute seconds of one job from its kind's fit."""
    c, a, kind = fit["c"], fit["a"], job["kind"]
    if kind == "wmd":
        return c * job["pairs"] * job["words"] ** a
    if kind == "wme":
        return c * job["n"] * job["R"] * job["words"] * job["d_mean"] ** a
    if kind.startswith("wmd_classify"):
        return c * job["svm_fits"] * job["n_train"] ** a
    if kind.startswith("embed_sparse"):
        return c * job["d"] ** a * job["scale_n"]
    if kind.startswith("embed"):
        return c * job["n"] ** a * job["repeat"]
    if kind == "crossencoder":
        return c * job["passes"] * job["tokens"] ** a
    if kind == "appgrad:appgrad":
        return (c * job["nnz"] + a * job["p"]) * job["iterations"]
    if kind.startswith("appgrad"):
        return (c + a * job["p"]) * job["iterations"]
    if kind == "exact":
        return c * job["n"] * job["p"] ** a
    raise KeyError(kind)


def _memory_mb(job: dict) -> float:
    """Peak resident memory, analytic: a 400 MB interpreter and libraries plus the job's
    largest arrays (to be checked against the measured ``max_rss_mb`` of the points)."""
    kind, n = job["kind"], job.get("n", 0)
    if kind in ("wmd",) or kind.startswith("wmd_classify"):
        arrays = 3 * 8 * n ** 2              # kernel, distances and one working copy
    elif kind == "wme":
        arrays = 2 * 8 * n * job["R"]        # features and the SVM's copy
    elif kind == "crossencoder":
        arrays = 1200e6 + 8 * n ** 2         # BERT-base weights and activations, the matrix
    elif kind.startswith("appgrad"):
        arrays = 2 * 12 * job["nnz"] + 6 * 8 * job["p"] * 20  # CSR copies, k = 20 iterates
    elif kind == "exact":                    # covariances and their factors; PTB's views are
        data = 2 * 12 * n if job["p"] > 2000 else 8 * n * job["p"]  # one-hot (sparse)
        arrays = data + 4 * 8 * job["p"] ** 2
    elif kind.startswith("embed_sparse"):
        arrays = 3 * 12 * 2000 * job["d"] * 0.01  # TF-IDF at about 1 % density, three copies
    elif kind in ("embed:isomap", "embed:mds"):
        arrays = 4 * 8 * n ** 2              # dense geodesic or distance matrices
    else:                                    # sparse k-NN graphs: the data dominates
        arrays = 3 * 8 * n * 3072 + 8 * n * 64
    return 400 + arrays / 1e6


def project(fit_table: pd.DataFrame, config: dict) -> pd.DataFrame:
    """Core-hours, wall hours at the job's threads, and peak memory of every heavy paper job."""
    by_kind = fit_table.set_index("kind")
    rows = []
    for job in _paper_jobs(config):
        if job["kind"] not in by_kind.index:
            continue
        core_h = _seconds(by_kind.loc[job["kind"]], job) / 3600
        rows.append({"job": job["job"], "kind": job["kind"], "threads": job["threads"],
                     "core_hours": core_h, "wall_hours": core_h / job["threads"],
                     "peak_mb": _memory_mb(job)})
    table = pd.DataFrame(rows)
    table["over_24gb"] = table["peak_mb"] > 24 * GB
    table["over_7days"] = table["wall_hours"] > 7 * 24
    return table


#: What the paper profile offers where a projected job exceeds 24 GB or 7 days of wall time.
INSTEAD = {
    "wmd": "sms_tasks.wmd_classification.corpora[].matrix: the similarity part's kernel of the "
           "same corpus (n_items documents, e.g. 2,000) instead of the whole corpus; or more "
           "threads (WMD pairs are split across processes)",
    "wmd_classify": "the same `matrix:` key (a 2,000-document kernel); fewer `gammas` or "
                    "`svm.C` values; `splits.n_splits`",
    "wme": "a smaller `wme.d_max` or fewer random documents (ranks)",
    "crossencoder": "fewer `n_pairs` per GLUE task, or a GPU node (`threads` then matter less)",
    "appgrad": "stochastic AppGrad only (its iterations do not grow with p); fewer iterations",
    "exact": "`cca.exact_method: auto` refuses up front and names the memory it needs",
    "embed": "a smaller `embedding.max_samples`, fewer `neighbors`, or `timing.max_samples` "
             "per method",
    "embed_sparse": "fewer `timing.n_features` points",
    "score": "fewer `clustering.gammas` or `neighbors`",
}


def markdown(points: pd.DataFrame, fit_table: pd.DataFrame, jobs: pd.DataFrame) -> str:
    """``paper_resources.md``: the measured points, the fits and the projection with totals."""
    args = [c for c in points.columns if c.startswith("arg_")]
    shown = points.assign(point=points[args].apply(
        lambda r: ", ".join(f"{c[4:]}={v}" for c, v in r.items() if pd.notna(v)), axis=1))
    shown = shown[["kind", "point", "compute_s", "wall_s", "max_rss_mb", "load_1min"]].round(2)
    fits_shown = fit_table.assign(c=fit_table.c.map("{:.3g}".format),
                                  a=fit_table.a.map("{:.3g}".format),
                                  spread=fit_table.spread.map("{:.0%}".format))
    proj = jobs.sort_values("core_hours", ascending=False).assign(
        core_hours=jobs.core_hours.round(2), wall_hours=jobs.wall_hours.round(2),
        peak_gb=(jobs.peak_mb / GB).round(1)).drop(columns="peak_mb")
    by_kind = jobs.assign(family=jobs.kind.str.split(":").str[0]).groupby("family").agg(
        jobs=("job", "size"), core_hours=("core_hours", "sum"), peak_gb=("peak_mb", "max"))
    by_kind = by_kind.assign(core_hours=by_kind.core_hours.round(1),
                             peak_gb=(by_kind.peak_gb / GB).round(1)).reset_index()
    over = jobs[jobs.over_24gb | jobs.over_7days]
    lines = [
        "# Resource model of the paper profile (`benchmarks/paper_resources.py`)", "",
        "Each point runs, in a fresh process with one BLAS/numba/torch thread, the library call a",
        "workflow job runs, on replicas or synthetic data shaped like the paper's. `compute_s` is",
        "the CPU time of that call alone (warm-up fits first for the embeddings, so numba's",
        "compilation is not part of the growth); `wall_s` and `max_rss_mb` are the whole",
        "process's, as in a Snakemake `benchmark:` file. The machine was shared (load average",
        "beside each point): wall times are inflated, CPU times much less so. The fits are",
        "power laws in the work count named in `model`; the projection evaluates them at",
        "`config/paper.yaml`'s sizes. Memory is an analytic model (the largest arrays plus a",
        "400 MB interpreter) checked against the measured peaks below. Projections extrapolate",
        "two to five orders of magnitude: read them as the order of the cost, not a quote.", "",
        "## Measured points", "", shown.to_markdown(index=False), "",
        "## Fits", "", fits_shown[["kind", "model", "c", "a", "spread"]].to_markdown(index=False), "",
        "`spread`: the typical relative residual of the fit at the measured points.", "",
        "## Projection to the paper profile", "",
        f"Total: **{jobs.core_hours.sum():,.0f} core-hours** over {len(jobs)} heavy jobs; the "
        f"largest peak memory {jobs.peak_mb.max() / GB:.1f} GB. By kind:", "",
        by_kind.to_markdown(index=False), "",
        "Per job (wall hours at the job's `threads`, assuming they scale):", "",
        proj.to_markdown(index=False), "",
        "## Hints in `config/paper.yaml`", "",
        "From this projection: `runtime` about 3x the projected wall time (at least 60",
        "minutes; the fits' spread and the extrapolation need the margin) and `mem_mb` about",
        "1.5x the projected peak, per similarity matrix, WMD-classification corpus (its kernel,",
        "WME and classification jobs share one hint) and GLUE task. Not in the model: the CCA",
        "jobs' checkpoint evaluations, which at the full URL size take longer than the fit",
        "(12 evaluations on 2.4M rows: about 16 minutes against 87 s of stochastic AppGrad,",
        "`benchmarks/cca_scale.md`), so the CCA hints keep their margin.", "",
        "## Over 24 GB or 7 days", "",
    ]
    if over.empty:
        lines.append("No projected job exceeds 24 GB of memory or 7 days of wall time.")
    for row in over.itertuples():
        why = " and ".join(filter(None, [
            f"{row.peak_mb / GB:.0f} GB" if row.over_24gb else "",
            f"{row.wall_hours / 24:.1f} days at {row.threads} threads" if row.over_7days else ""]))
        lines.append(f"- `{row.job}`: {why}. Instead: {INSTEAD[row.kind.split(':')[0]]}.")
    return "\n".join(lines) + "\n"


def _measured(done: pd.DataFrame, kind: str, point: dict) -> bool:
    rows = done[done.kind == kind]
    for key, value in point.items():
        if f"arg_{key}" not in rows:
            return False
        column = rows[f"arg_{key}"]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            # read back from CSV, an integer column with gaps is float: compare as numbers
            rows = rows[pd.to_numeric(column, errors="coerce") == value]
        else:
            rows = rows[column.astype(str) == str(value)]
    return len(rows) > 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("KIND", "ARGS"), help=argparse.SUPPRESS)
    parser.add_argument("--fit-only", action="store_true")
    parser.add_argument("--kinds", nargs="*", default=None, help="measure only these kinds")
    args = parser.parse_args()
    if args.child:
        _child(args.child[0], json.loads(args.child[1]))
        return
    if not args.fit_only:
        # points already measured are kept (the file is rewritten after every point, so an
        # interrupted run resumes where it stopped); --kinds measures those kinds again
        done = pd.read_csv(POINTS) if POINTS.exists() else pd.DataFrame(columns=["kind"])
        if args.kinds:
            done = done[~done.kind.isin(args.kinds)]
        for kind, point in GRID:
            if args.kinds and kind not in args.kinds or _measured(done, kind, point):
                continue
            row = measure(kind, point)
            print(f"{kind:13s} {point}: {row['compute_s']:.2f} s compute, {row['wall_s']:.1f} s "
                  f"wall, {row['max_rss_mb']:.0f} MB, load {row['load_1min']:.1f}", flush=True)
            done = pd.concat([done, pd.DataFrame([row])], ignore_index=True)
            done.to_csv(POINTS, index=False)
    points = pd.read_csv(POINTS)
    # a point measured again replaces the older measurement
    keys = [c for c in points.columns if c == "kind" or c.startswith("arg_")]
    points = points.drop_duplicates(keys, keep="last")
    points.to_csv(POINTS, index=False)
    table = fits(points)
    table.to_csv(FITS, index=False)
    print(table.to_string(index=False))
    import yaml

    from lowdim.config import validate_config

    config = validate_config(yaml.safe_load((HERE.parent / "config" / "paper.yaml").read_text()),
                             HERE.parent / "workflow" / "schemas" / "config.schema.yaml")
    jobs = project(table, config)
    jobs.to_csv(PROJECTION, index=False)
    MARKDOWN.write_text(markdown(points, table, jobs))
    print(jobs.groupby("kind")[["core_hours", "peak_mb"]].agg({"core_hours": "sum",
                                                               "peak_mb": "max"}).round(1))
    print(f"total: {jobs.core_hours.sum():.0f} core-hours")


if __name__ == "__main__":
    main()
