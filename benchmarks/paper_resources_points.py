"""The measured points of the paper profile's resource model, one function per job kind.

Each function runs, on replicas or synthetic data, the library call a workflow job runs (the
call of its ``workflow/scripts/*.py``, with the paper profile's settings where they do not
set the size) and returns ``(CPU seconds of that call, work counts)``. ``paper_resources.py``
runs each point in a fresh process with one BLAS/numba/torch thread and adds the process's
wall time and peak resident memory. :data:`GRID` lists the points.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

#: The similarity part's approximation methods and the WMD classification methods, as in
#: ``config/paper.yaml``
SIMILARITY_METHODS = ("nystrom", "sms_nystrom", "shifted_nystrom_exact", "sicur", "stacur",
                      "optimal", "stacur_independent")
CLASSIFY_METHODS = ("wme", "sms_nystrom", "nystrom", "sicur", "stacur", "optimal", "wmd_kernel")
#: Embedding methods and the rows each is measured at: up to the paper's largest timing n,
#: above the approximate-search switch (UMAP from 4,096 rows, Vec2vec from 5,000), except
#: where one fit beyond would not fit a shared machine (LLE's dense eigensolver: n^2 memory,
#: n^3 time; SMACOF MDS: n^2 per iteration)
EMBED_ROWS = {"umap": (2000, 5000, 10000, 30000), "vec2vec": (2000, 5000, 10000, 30000),
              "vec2vec_cooccurrence": (2000, 5000, 30000), "pca": (2000, 5000),
              "cmds": (2000, 5000), "le": (2000, 5000, 10000, 30000), "isomap": (2000, 5000),
              "lle": (2000, 5000, 10000), "mds": (1000, 2000)}
#: Columns of the dense timing data (the paper's ``timing.n_features_at``, SVHN's width)
EMBED_D = 3072
#: Rows of the sparse timing data (the paper's ``timing.n_samples_at``)
SPARSE_N = 2000


def paper_config() -> dict:
    """``config/paper.yaml``, validated, with every default filled in."""
    import yaml

    from lowdim.config import validate_config

    root = Path(__file__).resolve().parents[1]
    return validate_config(yaml.safe_load((root / "config" / "paper.yaml").read_text()),
                           root / "workflow" / "schemas" / "config.schema.yaml")


def paper_settings(part, kind, **wildcards) -> dict:
    """The values a job of the paper profile passes to the library (lowdim.settings); a job
    of ``kind`` named by its first wildcards in the profile where none are given."""
    from lowdim.settings import job_settings, setting
    from lowdim.settings.embedding import timing_methods
    from lowdim.settings.similarity import matrix_names
    from lowdim.settings.sms_tasks import glue_tasks

    config = paper_config()
    datasets, _ = setting(config, "embedding.datasets")
    first = {("similarity", "errors"): lambda: {"matrix": matrix_names(config)[0]},
             ("sms_tasks", "glue_scores"): lambda: {"task": glue_tasks(config)[0]},
             ("embedding", "score"): lambda: {"dataset": datasets[0]},
             ("embedding", "embed"): lambda: {"dataset": datasets[0], "method": "pca"},
             ("embedding", "timing"): lambda: {"method": timing_methods(config)[0]}}
    wildcards = wildcards or first[(part, kind)]()
    return job_settings(config, part, kind, **wildcards).values()


def _cpu(function, *args, **kwargs):
    start = time.process_time()
    result = function(*args, **kwargs)
    return time.process_time() - start, result


# -- similarity and SMS tasks ------------------------------------------------------------------
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
    seconds, (_, items, info) = _cpu(build_matrix, {"kind": "wmd", "n_items": n,
                                                    "wmd": {"gamma": 0.3}}, data)
    return seconds, {"pairs": len(items) * (len(items) - 1) / 2, "words": info["mean_words"]}


def point_wme(tmp, n, words, n_random, d_max):
    from lowdim.tasks.wmd_classification import corpus_wme_similarities

    data = _kusner(tmp, n + 2, words)
    items = np.flatnonzero(np.asarray(data.bow.sum(axis=1)).ravel() > 0)
    seconds, _ = _cpu(corpus_wme_similarities, data, items, None, n_random, d_max)
    return seconds, {"pairs": len(items) * n_random, "words": words, "d_mean": (d_max + 1) / 2}


def classify_grid(method, n_gammas, n_ranks, n_dmax, n_c, n_folds, n_splits):
    """SVM fits of one ``sms_wmd_classify`` job: per split, gamma and rank (WME: and
    ``D_max``) one C grid cross-validated; the exact kernel has no rank."""
    per_gamma = 1 if method == "wmd_kernel" else n_ranks * (n_dmax if method == "wme" else 1)
    return n_splits * n_gammas * per_gamma * n_c * n_folds


def point_wmd_classify(tmp, n, method):
    from lowdim.tasks.wmd_classification import classify_documents, document_splits

    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, n)
    Z = rng.normal(size=(n, 20)) + 2.0 * np.eye(4)[y] @ rng.normal(size=(4, 20))
    K = np.exp(-0.1 * np.sqrt(((Z[:, None] - Z[None]) ** 2).sum(-1)))
    wme = {d: np.exp(-rng.uniform(0.5, 3.0, size=(n, 64))) for d in (3, 6)}
    splits = document_splits(y, n_splits=1, test_fraction=0.3, seed=0)
    ranks = [16, 64]
    gammas, c_grid, folds = list(np.geomspace(0.05, 2, 3)), list(np.geomspace(0.1, 100, 3)), 3
    seconds, _ = _cpu(classify_documents, method, K, y, splits, gamma0=0.1, gammas=gammas,
                      ranks=ranks, C_grid=c_grid, n_folds=folds, max_iter=20000, seed=0,
                      options={}, wme=wme if method == "wme" else None)
    return seconds, {"n_train": int(0.7 * n), "svm_fits": classify_grid(
        method, len(gammas), len(ranks), len(wme), len(c_grid), folds, 1)}


def _similarity_matrix(n, seed=0):
    """A symmetric indefinite n x n similarity matrix (a kernel less a multiple of I)."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, 16))
    K = np.exp(-0.05 * ((A[:, None] - A[None]) ** 2).sum(-1))
    return K - 0.05 * np.eye(n)


def point_errors(tmp, n, method):
    from lowdim.approx.experiment import error_curve
    from lowdim.approx.methods import method_options

    errors = paper_settings("similarity", "errors")
    seconds, _ = _cpu(error_curve, _similarity_matrix(n), method, errors["fractions"],
                      errors["n_seeds"], 0, "replica",
                      options=method_options(method, errors["sms"]))
    return seconds, {"n": n, "runs": len(errors["fractions"]) * errors["n_seeds"]}


def point_spectrum(tmp, n):
    from lowdim.approx.diagnostics import spectrum_tables

    errors = paper_settings("similarity", "errors")
    seconds, _ = _cpu(spectrum_tables, _similarity_matrix(n), errors["spectrum_sizes"],
                      errors["n_draws"], 0, "replica")
    return seconds, {"n": n}


def point_glue_scores(tmp, n, n_runs):
    from lowdim.tasks.glue import glue_scores

    glue = paper_settings("sms_tasks", "glue_scores")
    rng = np.random.default_rng(0)
    a, b = np.arange(0, n, 2), np.arange(1, n, 2)
    gold = rng.integers(0, 2, a.size)
    seconds, _ = _cpu(glue_scores, _similarity_matrix(n), a, b, gold, "mrpc", glue["methods"],
                      glue["fractions"], n_runs=n_runs, seed=0, options=glue["options"])
    return seconds, {"n": n, "runs": len(glue["methods"]) * len(glue["fractions"]) * n_runs}


def point_mlp_matrix(tmp, n, n_pairs, max_iter):
    from lowdim.data import get_spec
    from lowdim.similarity.matrices import build_matrix

    spec = paper_settings("similarity", "matrix", matrix="mlp_digits")
    spec = {**spec, "n_items": n, "mlp": {**spec["mlp"], "n_pairs": n_pairs,
                                          "max_iter": max_iter}}
    spec.pop("seed")  # the measured points' (build_matrix's default)
    seconds, _ = _cpu(build_matrix, spec, get_spec("digits").prepare())
    return seconds, {"entries": n * n, "pair_iterations": n_pairs * max_iter}


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
    seconds, _ = _cpu(full_matrix, oracle)
    return seconds, {"pairs": n * (n - 1) / 2, "forward_passes": n * (n - 1),
                     "tokens_per_pair": float(tokens)}


# -- embedding ----------------------------------------------------------------------------
def _embed_params(method):
    """The paper profile's fixed parameters of ``method`` in its timing job, its neighbour
    count among them where it takes one, and the target dimensionality."""
    from lowdim.embedding.methods import NEIGHBOR_PARAMETER

    timing = paper_settings("embedding", "timing", method=method)
    params = dict(timing["params"])
    if NEIGHBOR_PARAMETER[method] == "n_neighbors":
        params["n_neighbors"] = timing["n_neighbors"]
    return params, timing["n_components"]


#: Methods whose first fit compiles numba code (UMAP and pynndescent, the co-occurrence
#: kernels): their timed fit follows a warm-up fit
COMPILED = ("umap", "vec2vec", "vec2vec_cooccurrence")


def point_embed(tmp, method, n, d, sparse):
    """One fit of the timing job's kind (``timing_data``); for :data:`COMPILED` methods after
    a warm-up fit on at most 5,000 rows that compiles the path the timed fit takes (its CPU
    time is kept apart)."""
    from lowdim.embedding.experiments import fit_embedding
    from lowdim.embedding.timing import timing_data

    data = timing_data("n_features" if sparse else "n_samples", d if sparse else n,
                       n if sparse else d, seed=0)
    params, n_components = _embed_params(method)
    fit = dict(method=method, n_components=n_components, params=params, random_state=0,
               n_jobs=1)
    warmup = _cpu(fit_embedding, data.X[:min(n, 5000)], **fit)[0] if method in COMPILED else 0.0
    seconds, _ = _cpu(fit_embedding, data.X, **fit)
    nnz = int(data.X.nnz if hasattr(data.X, "nnz") else data.X.size)
    return seconds, {"n": data.X.shape[0], "d": data.X.shape[1], "nnz": nnz, "warmup_s": warmup}


def point_score(tmp, n):
    from lowdim.embedding.experiments import score_sweep

    score = paper_settings("embedding", "score")
    d = paper_settings("embedding", "embed")["n_components"]
    rng = np.random.default_rng(0)
    y = rng.integers(0, 10, n)
    Z = rng.normal(size=(1, n, d)) + np.eye(10)[y] @ rng.normal(size=(10, d))
    scoring = {k: v for k, v in score.items() if k != "random_state"}
    seconds, _ = _cpu(score_sweep, Z, ["default"], y, random_state=0, **scoring)
    return seconds, {"n": n, "settings": 1}


# -- cca ------------------------------------------------------------------------------------
def point_appgrad(tmp, method, n, p, iters):
    from lowdim.cca import AppGradCCA
    from lowdim.data.sources.synthetic import sparse_two_view

    X, Y, _ = sparse_two_view(n, p, p, n_factors=50, noise_nnz=5, random_state=0)
    est = AppGradCCA(20, reg=1e-4, max_iter=iters, tol=0, random_state=0,
                     batch_size=50 if method == "sappgrad" else None)
    seconds, _ = _cpu(est.fit, X, Y)
    return seconds, {"n": n, "p": 2 * p, "nnz": int(X.nnz + Y.nnz), "iterations": iters}


def point_exact(tmp, n, p):
    from lowdim.cca import ExactCCA

    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(n, p)), rng.normal(size=(n, p))
    seconds, _ = _cpu(ExactCCA(20, reg=1e-3).fit, X, Y)
    return seconds, {"n": n, "p": 2 * p}


KINDS = {"wmd": point_wmd, "wme": point_wme, "wmd_classify": point_wmd_classify,
         "errors": point_errors, "spectrum": point_spectrum, "glue_scores": point_glue_scores,
         "mlp_matrix": point_mlp_matrix, "crossencoder": point_crossencoder,
         "embed": point_embed, "score": point_score, "appgrad": point_appgrad,
         "exact": point_exact}

#: The measured points: (kind, arguments), cheapest kinds first, then the embeddings, the
#: timing jobs' methods above the approximate-search switch before the sparse timing data.
GRID = (
    [("wmd", {"n": n, "words": 25}) for n in (30, 60, 120, 240, 480)]
    + [("wmd", {"n": 60, "words": w}) for w in (10, 50, 100)]
    + [("wme", {"n": 60, "words": 25, "n_random": r, "d_max": d})
       for r, d in ((64, 6), (256, 6), (64, 21), (256, 21))]
    + [("wmd_classify", {"n": n, "method": m}) for m in CLASSIFY_METHODS for n in (200, 400, 800)]
    + [("errors", {"n": n, "method": m}) for m in SIMILARITY_METHODS for n in (250, 500, 1000)]
    + [("spectrum", {"n": n}) for n in (500, 1000, 2000)]
    + [("glue_scores", {"n": n, "n_runs": 2}) for n in (250, 500, 1000)]
    + [("mlp_matrix", {"n": n, "n_pairs": p, "max_iter": i})
       for n, p, i in ((400, 5000, 50), (800, 5000, 50), (400, 20000, 50), (400, 5000, 200))]
    + [("score", {"n": n}) for n in (500, 1000, 2000, 5000)]
    + [("appgrad", {"method": m, "n": n, "p": p, "iters": it})
       for m, it in (("appgrad", 20), ("sappgrad", 400))
       for n, p in ((20000, 20000), (80000, 20000), (20000, 80000))]
    + [("exact", {"n": 4000, "p": p}) for p in (100, 200, 400, 800, 1600)]
    + [("crossencoder", {"n": n, "words": w}) for n, w in ((8, 4), (8, 12), (16, 4))]
    + [("embed", {"method": m, "n": n, "d": EMBED_D, "sparse": False})
       for m, rows in EMBED_ROWS.items() for n in rows]
    + [("embed", {"method": m, "n": SPARSE_N, "d": d, "sparse": True})
       for m in ("vec2vec", "vec2vec_cooccurrence", "umap", "lle", "le", "mds")
       for d in (1000, 100000)]
)
