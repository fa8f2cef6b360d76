"""The cost model of the paper profile: fits of the measured points, and each rule's work.

:func:`fit_all` fits one model per job kind (the ``model`` column of :data:`MODELS`) to the
points of ``paper_resources_points.py``, or takes it from the full-size measurements of
``cca_scale.py``. :data:`RULES` gives, for every rule of the workflow, how its jobs are
costed: a kind and the job's work counts (from the job's wildcards, the paper profile's
settings and the dataset registry's sizes), with the stand-in named where a kind's fit is
used for a job it was not measured on; or why the rule is not projected.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import least_squares, nnls

from _report import section, table
from paper_resources_points import EMBED_D, SPARSE_N, classify_grid

GB = 1024.0  # MB
#: Limits a projected job is flagged beyond
LIMITS = {"memory_gb": 24.0, "wall_days": 7.0}


# -- fits -------------------------------------------------------------------------------------
def _spread(predicted, measured) -> float:
    """Largest relative misfit at the measured points."""
    return float(np.max(np.abs(np.asarray(predicted) / np.asarray(measured) - 1)))


def power_fit(x, t):
    """``t = p0 * x^p1`` by least squares in logs."""
    A = np.c_[np.ones(len(x)), np.log(x)]
    (log_c, a), *_ = np.linalg.lstsq(A, np.log(t), rcond=None)
    return [float(np.exp(log_c)), float(a)]


def affine_power_fit(x, w, t):
    """``t = p0 + p1 * x * w^p2`` (a fixed cost plus a per-unit cost), relative residuals."""
    x, w, t = map(np.asarray, (x, w, t))

    def residuals(q):
        return (q[0] + q[1] * x * w ** q[2]) / t - 1

    start = [t.min() / 2, np.median(t / x), 0.5]
    return [float(v) for v in least_squares(residuals, start,
                                            bounds=([0, 0, -2], [np.inf, np.inf, 3])).x]


def linear_fit(columns, t):
    """``t = sum p_i * column_i``, p_i >= 0, relative residuals (each row divided by t)."""
    A = np.column_stack(columns) / np.asarray(t)[:, None]
    return [float(v) for v in nnls(A, np.ones(len(t)))[0]]


@dataclass(frozen=True)
class Model:
    """How one kind is fitted: its formula, the points' work counts it reads, and the fit."""

    formula: str
    fit: str            # "power", "affine_power" or "linear"
    columns: tuple      # work-count columns (the power fit's x is the product of the first
    divide: tuple = ()  # ... divided by these) and the columns t is divided by

    def x(self, frame):
        return np.prod([frame[c] for c in self.columns], axis=0)

    def seconds(self, p, work: dict) -> float:
        values = {c: float(work[c]) for c in set(self.columns) | set(self.divide)}
        scale = np.prod([values[c] for c in self.divide]) if self.divide else 1.0
        if self.fit == "power":
            return scale * p[0] * np.prod([values[c] for c in self.columns]) ** p[1]
        if self.fit == "affine_power":
            x, w = values[self.columns[0]], values[self.columns[1]]
            return scale * (p[0] + p[1] * x * w ** p[2])
        return scale * sum(q * values[c] for q, c in zip(p, self.columns))


#: kind -> (points selected by (kind, method argument), model)
MODELS = {
    "wmd": Model("s = p0 + p1 · pairs · words^p2", "affine_power", ("pairs", "words")),
    "wme": Model("s = p0 · pairs · words · d_mean^p1", "power", ("d_mean",),
                 ("pairs", "words")),
    "wmd_classify": Model("s = p0 · svm_fits · n_train^p1", "power", ("n_train",),
                          ("svm_fits",)),
    "errors": Model("s = p0 · runs · n^p1", "power", ("n",), ("runs",)),
    "spectrum": Model("s = p0 · n^p1", "power", ("n",)),
    "glue_scores": Model("s = p0 · runs · n^p1", "power", ("n",), ("runs",)),
    "mlp_matrix": Model("s = p0 · entries + p1 · pair_iterations", "linear",
                        ("entries", "pair_iterations")),
    "crossencoder": Model("s = p0 · forward_passes · tokens_per_pair^p1", "power",
                          ("tokens_per_pair",), ("forward_passes",)),
    "embed": Model(f"s = p0 · n^p1 (dense, D = {EMBED_D:,}; above the approximate-search "
                   f"switch where there is one)", "power", ("n",)),
    "embed_sparse": Model(f"s = p0 · D^p1 (sparse, n = {SPARSE_N:,})", "power", ("d",)),
    "score": Model("s = p0 · n^p1 per setting", "power", ("n",)),
    "appgrad:appgrad": Model("s = iterations · (p0 · nnz + p1 · p)", "linear", ("nnz", "p"),
                             ("iterations",)),
    "appgrad:sappgrad": Model("s = iterations · (p0 · one + p1 · p)", "linear", ("one", "p"),
                              ("iterations",)),
    "exact": Model("s = p0 · n · p^p1", "power", ("p",), ("n",)),
    "cca_heuristic": Model("s = p0 · n (measured once, at full URL size)", "linear", ("n",)),
    "url_parse": Model("s = p0 · rows (measured once, at full size)", "linear", ("rows",)),
}


def _switches() -> dict:
    """Rows from which a method searches neighbours approximately: umap-learn's own
    threshold (``UMAP.fit``: exact below 4,096 rows, not exported) and Vec2vec's
    ``knn="auto"``."""
    from lowdim.embedding.graph import APPROXIMATE_FROM

    return {"umap": 4096, "vec2vec": APPROXIMATE_FROM, "vec2vec_cooccurrence": APPROXIMATE_FROM}


def _below_switch(points: pd.DataFrame) -> pd.Series:
    """Dense embedding points below their method's approximate-search switch: another
    algorithm (exact search, n² · D), so not fitted with the points above it."""
    switches = _switches()

    def below(row):
        if row["kind"] != "embed" or str(row.get("arg_sparse")) == "True":
            return False
        switch = switches.get(row.get("arg_method"))
        return bool(switch) and row["n"] < switch

    return points.apply(below, axis=1).astype(bool)


def _kind_of(row) -> str:
    """The fitted kind of a measured point (per method where the method changes the cost)."""
    kind = row["kind"]
    if kind == "embed":
        return f"{'embed_sparse' if str(row['arg_sparse']) == 'True' else 'embed'}:" \
               f"{row['arg_method']}"
    if kind in ("wmd_classify", "errors", "appgrad"):
        return f"{kind}:{row['arg_method']}"
    return kind


def model_of(kind: str) -> Model:
    return MODELS.get(kind) or MODELS[kind.split(":")[0]]


def _fit_kind(kind, part) -> dict:
    m = model_of(kind)
    t = part["compute_s"] / (np.prod([part[c] for c in m.divide], axis=0) if m.divide else 1)
    if m.fit == "power":
        p = power_fit(m.x(part), t)
    elif m.fit == "affine_power":
        p = affine_power_fit(part[m.columns[0]], part[m.columns[1]], t)
    else:
        p = linear_fit([part[c] for c in m.columns], t)
    predicted = [m.seconds(p, row) for row in part.to_dict("records")]
    main = "n" if "n" in part and m.columns[0] in ("one", "entries") else m.columns[0]
    return {"kind": kind, "model": m.formula, "p0": p[0], "p1": p[1] if len(p) > 1 else None,
            "p2": p[2] if len(p) > 2 else None, "points": len(part),
            "spread": _spread(predicted, part["compute_s"]), "variable": main,
            "measured_min": float(part[main].min()), "measured_max": float(part[main].max())}


def _stored_fits(stored: dict) -> list[dict]:
    """The heuristics' and the URL parser's full-size runs of ``cca_scale.py``, per row."""
    out = []
    url = stored.get("url")
    if url:
        n = url["case"]["n"]
        for method, r in url["results"].items():
            if method in ("nw_cca", "dw_cca", "randomized") or method.startswith("pca_cca"):
                if r.get("status") == "ok":
                    out.append({"kind": f"cca_heuristic:{method}", "model":
                                MODELS["cca_heuristic"].formula, "p0": r["seconds"] / n,
                                "points": 1, "spread": None, "variable": "n",
                                "measured_min": n, "measured_max": n,
                                "peak_mb_per_row": r["peak_rss"] / 2**20 / n})
    parser = stored.get("url_parser")
    if parser:
        r = next(r for r in parser["rows"] if r["parser"] == "streamed")
        out.append({"kind": "url_parse", "model": MODELS["url_parse"].formula,
                    "p0": r["seconds"] / r["rows"], "points": 1, "spread": None,
                    "variable": "rows", "measured_min": r["rows"], "measured_max": r["rows"],
                    "peak_mb_per_row": r["peak_rss"] / 2**20 / r["rows"]})
    return out


def fit_all(points: pd.DataFrame, stored: dict) -> pd.DataFrame:
    """One row per kind: the model, its parameters p0, p1, p2, the largest relative misfit
    at the measured points (``spread``) and the range measured."""
    points = points[~_below_switch(points)]
    points = points.assign(fitted=points.apply(_kind_of, axis=1), one=1.0)
    rows = [_fit_kind(kind, part) for kind, part in points.groupby("fitted") if len(part) >= 2]
    return pd.DataFrame(rows + _stored_fits(stored))


# -- each rule's jobs -------------------------------------------------------------------------
@dataclass
class Cost:
    """A job's cost: parts ``(kind, work, count)``, and what stands in for what."""

    parts: list
    stand_in: str = ""


def _settings(config, part, kind, **wildcards) -> dict:
    """The values a workflow job passes to the library (lowdim.settings, overrides applied)."""
    from lowdim.settings import job_settings

    return job_settings(config, part, kind, **wildcards).values()


def _sizes(config, dataset) -> dict:
    from lowdim.settings import dataset_facts

    return dataset_facts(config, dataset).bounds


def _cca(config, dataset, job) -> dict:
    """The values a CCA job on ``dataset`` passes to the library (overrides applied)."""
    from lowdim.settings import cca_settings, values

    return values(cca_settings(config, dataset, job))


def _matrix_size(config, spec) -> int:
    n = _sizes(config, spec["dataset"]).get("n")
    return min(spec["n_items"], n) if spec.get("n_items") and n else (spec.get("n_items") or n)


def _matrix_spec(config, name) -> dict:
    return _settings(config, "similarity", "matrix", matrix=name)


#: Tokens of one GLUE sentence pair as the cross-encoder sees it (stand-in: the models'
#: inputs are two short sentences; the measured points had 8 to 27 tokens)
GLUE_TOKENS = 64


def similarity_matrix(job, config):
    spec = _matrix_spec(config, job["matrix"])
    n = _matrix_size(config, spec)
    if spec["kind"] == "wmd":
        from lowdim.data.sources.kusner import KUSNER_TABLE

        words = KUSNER_TABLE[spec["dataset"]][1]
        return Cost([("wmd", {"pairs": n * (n - 1) / 2, "words": words, "n": n}, 1)],
                    "words per document: Kusner et al.'s Table 1")
    if spec["kind"] == "crossencoder":
        return Cost([("crossencoder", {"forward_passes": n * (n - 1), "n": n,
                                       "tokens_per_pair": GLUE_TOKENS}, 1)],
                    f"{GLUE_TOKENS} tokens per pair; BERT-base with random weights measured")
    mlp = spec["mlp"]
    return Cost([("mlp_matrix", {"entries": n * n, "n": n,
                                 "pair_iterations": mlp["n_pairs"] * mlp["max_iter"]}, 1)],
                "digits features measured; the MLP's input width does not enter")


def similarity_errors(job, config):
    """Every method's error curve on the matrix, and its spectra: one job per matrix."""
    n = _matrix_size(config, _matrix_spec(config, job["matrix"]))
    errors = _settings(config, "similarity", "errors", matrix=job["matrix"])
    runs = len(errors["fractions"]) * errors["n_seeds"]
    return Cost([(f"errors:{method}", {"n": n, "runs": runs}, 1) for method in errors["methods"]]
                + [("spectrum", {"n": n}, 1)])


def _corpus(config, name):
    from lowdim.data.sources.kusner import KUSNER_TABLE
    from lowdim.settings.sms_tasks import wmd_corpus

    docs, words, splits = KUSNER_TABLE[wmd_corpus(config, name)["dataset"]]
    return docs, words, splits


def sms_wmd_kernel(job, config):
    docs, words, _ = _corpus(config, job["corpus"])
    return Cost([("wmd", {"pairs": docs * (docs - 1) / 2, "words": words, "n": docs}, 1)],
                "words per document: Kusner et al.'s Table 1")


def sms_wme_similarities(job, config):
    docs, words, _ = _corpus(config, job["corpus"])
    wme = _settings(config, "sms_tasks", "wme", corpus=job["corpus"], d_max=job["d_max"])
    R = min(wme["n_random"], docs)
    return Cost([("wme", {"pairs": docs * R, "words": words, "d_mean": (int(job["d_max"]) + 1) / 2,
                          "n": docs, "R": R}, 1)])


#: Training share of a corpus that the dataset does not split (Kusner et al.'s five splits)
TRAIN_SHARE = 0.7


def sms_wmd_classify(job, config):
    from lowdim.settings.sms_tasks import wmd_corpus_settings

    docs, _, splits = _corpus(config, job["corpus"])
    largest = wmd_corpus_settings(config, job["corpus"])["large_rank_max"][0]
    # the grid as WME's job reads it (its D_max values; the other methods' ranks are the same)
    grid = _settings(config, "sms_tasks", "wmd_classify", corpus=job["corpus"], method="wme")
    n_train = TRAIN_SHARE * docs
    ranks = [r for r in grid["ranks"] if r <= min(largest, n_train)]
    fits = classify_grid(job["method"], len(grid["gammas"]), len(ranks), len(grid["d_max"]),
                         len(grid["svm"]["C"]), grid["svm"]["cv_folds"],
                         min(splits, grid["splits"]["n_splits"]))
    return Cost([(f"wmd_classify:{job['method']}", {"svm_fits": fits, "n_train": n_train,
                                                     "n": docs}, 1)],
                f"{TRAIN_SHARE:.0%} of the documents for training (the five-split corpora's "
                f"share)")


def _glue_n(config, task):
    return 2 * _settings(config, "sms_tasks", "glue_matrix", task=task)["n_pairs"]


def sms_glue_matrix(job, config):
    n = _glue_n(config, job["task"])
    return Cost([("crossencoder", {"forward_passes": n * (n - 1), "n": n,
                                   "tokens_per_pair": GLUE_TOKENS}, 1)],
                f"at most two distinct sentences per pair; {GLUE_TOKENS} tokens per pair")


def sms_glue_scores(job, config):
    glue = _settings(config, "sms_tasks", "glue_scores", task=job["task"])
    runs = len(glue["methods"]) * len(glue["fractions"]) * glue["n_runs"]
    return Cost([("glue_scores", {"n": _glue_n(config, job["task"]), "runs": runs}, 1)])


def sms_coref_matrices(job, config):
    mlp = _settings(config, "sms_tasks", "coref_matrices", corpus=job["corpus"])["spec"]["mlp"]
    return Cost([("mlp_matrix", {"entries": 0.0, "n": 0,
                                 "pair_iterations": mlp["n_pairs"] * mlp["max_iter"]}, 1)],
                "the MLP's training only: the topic matrices (one per topic) are left out")


def _neighbour_settings(config, dataset, method):
    from lowdim.embedding import NEIGHBOR_PARAMETER

    embed = _settings(config, "embedding", "embed", dataset=dataset, method=method)
    return len(embed["neighbors"]) if NEIGHBOR_PARAMETER.get(method) else 1


def _embedding_rows(config, dataset, limit):
    return min(limit, _sizes(config, dataset).get("n", limit))


def _embedded_rows(config, dataset):
    features = _settings(config, "embedding", "features", dataset=dataset)
    return _embedding_rows(config, dataset, features["max_samples"])


def embedding_embed(job, config):
    n = _embedded_rows(config, job["dataset"])
    d = _sizes(config, job["dataset"]).get("p")
    switch = _switches().get(job["method"])
    return Cost([(f"embed:{job['method']}", {"n": n},
                  _neighbour_settings(config, job["dataset"], job["method"]))],
                f"dense D = {EMBED_D:,} measured; this dataset: "
                + (f"D = {d:,}" if d else "TF-IDF features")
                + (f"; below n = {switch:,} the fit above it" if switch and n < switch else ""))


def embedding_score(job, config):
    """Every method's embeddings of the dataset: one job per dataset."""
    n = _embedded_rows(config, job["dataset"])
    methods = _settings(config, "embedding", "render")["methods"]
    return Cost([("score", {"n": n}, _neighbour_settings(config, job["dataset"], method))
                 for method in methods])


def embedding_sensitivity(job, config):
    sens = _settings(config, "embedding", "sensitivity", dataset=job["dataset"],
                     parameter=job["parameter"])
    n = _embedding_rows(config, job["dataset"], sens["max_samples"])
    count = len(sens["values"])
    timing = _settings(config, "embedding", "timing", method="vec2vec")["n_components"]
    topk = sens["params"]["topk"]
    return Cost([("embed:vec2vec", {"n": n}, count), ("score", {"n": n}, count)],
                f"Vec2vec's fit as measured (n_components = {timing}, topk = {topk}) for "
                f"every value swept")


def embedding_timing(job, config):
    """Both panels of Figure 3 for one method: ``repeats`` fits per size after two warm-up
    fits per panel."""
    timing = _settings(config, "embedding", "timing", method=job["method"])
    method, repeats = job["method"], timing["repeats"]
    parts, stand_in = [], []
    if timing["n_samples"]:
        values = timing["n_samples"]
        warm = min(timing["warmup_samples"], max(values))
        switch = _switches().get(method)
        parts += [(f"embed:{method}", {"n": n}, repeats) for n in values]
        parts += [(f"embed:{method}", {"n": warm}, 2)]
        if switch and min(values) < switch:
            stand_in.append(f"below n = {switch:,} (exact neighbour search) the fit above it "
                            f"stands in")
    if timing["n_features"]:
        fixed = timing["n_samples_at"]
        parts += [(f"embed_sparse:{method}", {"d": d, "n": fixed}, repeats)
                  for d in timing["n_features"]]
        parts += [(f"embed_sparse:{method}", {"d": timing["n_features"][0],
                                              "n": min(timing["warmup_samples"], fixed)}, 2)]
        stand_in.append(f"sparse blobs at n = {SPARSE_N:,} measured")
    return Cost(parts, "; ".join(stand_in))


#: Non-zeros per row of the CCA datasets (the sparse ones; a dense view stores every entry)
def _nnz_per_row(dataset, stored_rows):
    return {"ptb": 3.0, "url_reputation": stored_rows}.get(dataset)


def _cca_size(config, dataset, stored):
    sizes = _sizes(config, dataset)
    heldout = _cca(config, dataset, "stats")["heldout_fraction"]
    n_train = sizes.get("n_train") or sizes["n"] * (1 - heldout)
    url = stored.get("url_parser", {}).get("rows", [{}])
    per_row = _nnz_per_row(dataset, url[0].get("nnz", 0) / max(url[0].get("rows", 1), 1))
    p = sizes.get("p1", 0) + sizes.get("p2", 0)
    return n_train, p, (per_row or p) * n_train


def cca_appgrad(job, config, stored):
    n, p, nnz = _cca_size(config, job["dataset"], stored)
    if not p:  # URL: the views' widths are the data's (3.2M columns in all)
        p = float(stored["url_parser"]["rows"][0]["columns"])
    iterations = _cca(config, job["dataset"], job["cca_method"])["max_iter"]
    return Cost([(f"appgrad:{job['cca_method']}", {"nnz": nnz, "p": p, "one": 1.0, "n": n,
                                                    "iterations": iterations}, 1)],
                "sparse synthetic views measured; checkpoint evaluations left out")


def cca_exact(job, config, stored):
    n, p, nnz = _cca_size(config, job["dataset"], stored)
    return Cost([("exact", {"n": n, "p": p, "nnz": nnz}, 1)],
                "dense views measured" + ("" if nnz >= n * p else "; these views are sparse: "
                                          "their Gram matrices are cheap, the p × p "
                                          "factorisations are not"))


def cca_heuristic(job, config, stored):
    n, _, _ = _cca_size(config, job["dataset"], stored)
    name = job["heuristic"].replace("/", "-").replace("pca_cca-m", "pca_cca-m")
    url = stored["url"]["case"]
    return Cost([(f"cca_heuristic:{name}", {"n": n}, 1)],
                f"cca_scale.py's URL-shaped run ({url['n']:,} rows, p = {url['p1']:,}/"
                f"{url['p2']:,}), scaled by rows")


def prepare(job, config, stored):
    if job["dataset"] != "url_reputation":
        return "parses its downloaded files once: bounded by their size (hints in "\
               "`resources.prepare`)"
    rows = _sizes(config, "url_reputation")["n"]
    return Cost([("url_parse", {"rows": rows}, 1)],
                "cca_scale.py's full-size replica day files, scaled by rows")


LOCAL = "aggregates tidy CSVs into tables, figures or the report (a local rule on a cluster)"
#: rule -> cost function(job, config[, stored]) or why its jobs are not projected
RULES = {
    "similarity_matrix": similarity_matrix, "similarity_errors": similarity_errors,
    "sms_wmd_kernel": sms_wmd_kernel,
    "sms_wme_similarities": sms_wme_similarities, "sms_wmd_classify": sms_wmd_classify,
    "sms_glue_matrix": sms_glue_matrix, "sms_glue_scores": sms_glue_scores,
    "sms_coref_matrices": sms_coref_matrices, "embedding_embed": embedding_embed,
    "embedding_score": embedding_score, "embedding_sensitivity": embedding_sensitivity,
    "embedding_timing": embedding_timing, "cca_appgrad": cca_appgrad, "cca_exact": cca_exact,
    "cca_heuristic": cca_heuristic, "prepare": prepare,
    "download": "network-bound: its time is the link's (sizes in config/README.md)",
    "sms_coref_cluster": "average-linkage cuts of per-topic matrices of a few hundred mentions, "
                         "every method (`benchmarks/sms_tasks.md` times one)",
    "embedding_features": "subsamples the rows and computes TF-IDF once: linear in the data",
    "cca_stats": "one pass over the views for Table 1's statistics: linear in the data",
    **{rule: LOCAL for rule in (
        "all", "dataset_table", "cca_tidy", "cca_render", "embedding_tidy", "embedding_render",
        "kernel_cca_tidy", "kernel_cca_render", "report_scorecard", "report_summary",
        "similarity_tidy", "similarity_render", "sms_tasks_tidy", "sms_tasks_render")},
}
_NEEDS_STORED = {"cca_appgrad", "cca_exact", "cca_heuristic", "prepare"}


def job_cost(rule, wildcards, config, stored):
    """``Cost`` of one job, or the reason (str) it is not projected."""
    how = RULES.get(rule, "no cost model for this rule yet")
    if isinstance(how, str):
        return how
    return how(wildcards, config, stored) if rule in _NEEDS_STORED else how(wildcards, config)


# -- memory -------------------------------------------------------------------------------------
def arrays_mb(kind, work) -> float:
    """The largest arrays a job of ``kind`` holds at once (MB), from its work counts."""
    family, method = (kind.split(":") + [""])[:2]
    n = float(work.get("n", 0))
    if family in ("wmd", "errors", "spectrum", "glue_scores", "wmd_classify", "mlp_matrix"):
        return 3 * 8 * n * n / 1e6       # the matrix, a working copy, distances or features
    if family == "wme":
        return 2 * 8 * n * work["R"] / 1e6
    if family == "crossencoder":
        return 8 * n * n / 1e6           # the matrix (the model is in the base)
    if family == "embed":
        dense_square = method in ("isomap", "mds", "cmds", "lle")
        return (8 * n * EMBED_D + (4 * 8 * n * n if dense_square else 0)) / 1e6
    if family == "embed_sparse":
        return 3 * 12 * work["d"] * 0.01 * SPARSE_N / 1e6
    if family == "score":
        return 2 * 8 * n * n / 1e6       # spectral clustering's affinity and its Laplacian
    if family == "appgrad":
        return (2 * 12 * work["nnz"] + 6 * 8 * work["p"] * 20) / 1e6
    if family == "exact":  # the views (CSR when sparse), the Gram matrices and their factors
        data = min(8 * n * work["p"], 12 * work.get("nnz", np.inf))
        return (data + 4 * 8 * work["p"] ** 2) / 1e6
    raise KeyError(kind)


#: Arrays that change by less than this between a kind's points (MB) cannot show how the
#: peak grows with them: such a kind's arrays count once (factor 1)
MIN_ARRAY_SPAN_MB = 16.0


@dataclass(frozen=True)
class Memory:
    """A kind's peak (MB): ``offset + factor · arrays_mb(kind, work)``."""

    offset: float
    factor: float

    def peak(self, kind, work) -> float:
        return self.offset + self.factor * arrays_mb(kind, work)


def _point_work(row) -> dict:
    work = {k: v for k, v in row.items() if pd.notna(v)}
    work.setdefault("R", row.get("arg_n_random", 0))
    return work


def _peaks_and_arrays(points: pd.DataFrame) -> pd.DataFrame:
    """The measured points with their fitted kind and their largest arrays (MB)."""
    points = points.assign(fitted=points.apply(_kind_of, axis=1))
    return points.assign(arrays=[arrays_mb(r["fitted"], _point_work(r))
                                 for r in points.to_dict("records")])


def memory_models(points: pd.DataFrame) -> dict:
    """Per fitted kind, a :class:`Memory` that covers every peak measured for the kind.

    ``factor``: the slope of the measured peaks on the arrays (least squares; 1 where the
    arrays span less than :data:`MIN_ARRAY_SPAN_MB` or the slope is not positive): above 1
    where the libraries hold more copies and temporaries than :func:`arrays_mb` counts,
    below 1 where they hold fewer; ``offset``: the smallest
    with which ``offset + factor · arrays`` is at least every measured peak (the interpreter,
    the libraries and what does not grow).
    """
    out = {}
    for kind, part in _peaks_and_arrays(points).groupby("fitted"):
        arrays, peaks = part["arrays"].to_numpy(), part["max_rss_mb"].to_numpy()
        factor = 1.0
        if np.ptp(arrays) >= MIN_ARRAY_SPAN_MB:
            factor = float(np.polyfit(arrays, peaks, 1)[0])
            factor = factor if factor > 0 else 1.0
        out[kind] = Memory(float(np.max(peaks - factor * arrays)), factor)
    return out


def peak_mb(kind, work, memory, fits) -> float:
    stored = fits.set_index("kind").get("peak_mb_per_row")
    if stored is not None and kind in stored and pd.notna(stored[kind]):
        return stored[kind] * work.get("rows", work.get("n"))
    model = memory.get(kind) or Memory(max(m.offset for m in memory.values()), 1.0)
    return model.peak(kind, work)


def memory_check(points: pd.DataFrame, memory: dict) -> pd.DataFrame:
    """Per kind, the memory model at each measured point against the peak measured there:
    the smallest and largest ratio model / measured (the smallest is at least 1 when the
    model covers every measured peak)."""
    frame = _peaks_and_arrays(points)
    frame["model_mb"] = [memory[r["fitted"]].peak(r["fitted"], _point_work(r))
                         for r in frame.to_dict("records")]
    frame["ratio"] = frame["model_mb"] / frame["max_rss_mb"]
    out = frame.groupby("fitted").agg(points=("ratio", "size"),
                                      largest_measured_mb=("max_rss_mb", "max"),
                                      model_at_it_mb=("model_mb", "max"),
                                      **{"model / measured, min": ("ratio", "min"),
                                         "model / measured, max": ("ratio", "max")})
    out.insert(1, "arrays factor", [memory[k].factor for k in out.index])
    out.insert(2, "offset_mb", [memory[k].offset for k in out.index])
    held_out = memory_holdout(points).set_index("kind")["held-out: model / measured"]
    out["held-out: model / measured"] = held_out.reindex(out.index)
    return out.rename_axis("kind").reset_index()


def memory_holdout(points: pd.DataFrame) -> pd.DataFrame:
    """Per kind, the model fitted without the points of its largest arrays, at those points.

    The model covers every point it is fitted on by construction (its offset is the largest
    residual), so that says nothing; the projection extrapolates to larger arrays, which is
    what this checks: ``held-out: model / measured`` below 1 is a model that would have
    fallen short of the largest peak measured. NaN for a kind with fewer than 3 points or a
    single array size.
    """
    rows = []
    for kind, part in _peaks_and_arrays(points).groupby("fitted"):
        largest = part["arrays"] == part["arrays"].max()
        if len(part) < 3 or largest.all() or (~largest).sum() < 2:
            rows.append({"kind": kind, "held-out: model / measured": np.nan})
            continue
        fitted = memory_models(points.loc[part.index[~largest.to_numpy()]])[kind]
        held = part[largest]
        model = [fitted.peak(kind, _point_work(r)) for r in held.to_dict("records")]
        rows.append({"kind": kind, "held-out: model / measured":
                     float(np.min(np.asarray(model) / held["max_rss_mb"].to_numpy()))})
    return pd.DataFrame(rows, columns=["kind", "held-out: model / measured"])


# -- projection -------------------------------------------------------------------------------
def _job_name(rule, wildcards):
    return "/".join([rule, *wildcards.values()])


def project(jobs: pd.DataFrame, fits: pd.DataFrame, config: dict, stored: dict,
            memory: dict) -> pd.DataFrame:
    """Every job of the dry run: its single-thread hours, wall hours at its threads and
    peak memory, or why it is not projected."""
    by_kind = fits.set_index("kind")
    out = []
    for job in jobs.to_dict("records"):
        wildcards = json.loads(job["wildcards"])
        hints = json.loads(job["resources"])
        row = {"job": _job_name(job["rule"], wildcards), "rule": job["rule"],
               "threads": job["threads"],
               "runtime hint h": float(hints["runtime"]) / 60 if "runtime" in hints else None,
               "mem hint GB": float(hints["mem_mb"]) / GB if "mem_mb" in hints else None}
        cost = job_cost(job["rule"], wildcards, config, stored)
        if isinstance(cost, str):
            out.append({**row, "not projected": cost})
            continue
        missing = list(dict.fromkeys(k for k, _, _ in cost.parts if k not in by_kind.index))
        if missing:
            out.append({**row, "not projected": f"no measured points for {', '.join(missing)}"})
            continue
        seconds = sum(count * model_of(k).seconds(by_kind.loc[k][["p0", "p1", "p2"]].tolist(),
                                                  work) for k, work, count in cost.parts)
        kinds = ", ".join(dict.fromkeys(k for k, _, _ in cost.parts))
        beyond = max(w.get(by_kind.loc[k, "variable"], 0) / by_kind.loc[k, "measured_max"]
                     for k, w, _ in cost.parts)
        out.append({**row, "kind": kinds, "stand-in": cost.stand_in,
                    "beyond measured ×": beyond,
                    "core_hours": seconds / 3600, "wall_hours": seconds / 3600 / job["threads"],
                    "peak_gb": max(peak_mb(k, w, memory, fits) for k, w, _ in cost.parts) / GB})
    frame = pd.DataFrame(out)
    frame["over_limits"] = (frame["peak_gb"] > LIMITS["memory_gb"]) \
        | (frame["wall_hours"] > 24 * LIMITS["wall_days"])
    return frame


# -- the report ---------------------------------------------------------------------------------
FORMATS = {"hours": ".3g", "gb": ".1f", "GB": ".1f", "MB": ",.0f", "spread": ".0%",
           "×": ".3g", "measured_m": ",.4g", "p0": ".3g", "p1": ".3g", "p2": ".3g",
           "_s": ".2f", "load": ".1f", "model /": ".2f", "factor": ".2f"}


def _table(frame):
    return table(frame, ".4g", FORMATS)


def by_rule(projection: pd.DataFrame) -> pd.DataFrame:
    """Per rule: its jobs, how many are projected, their hours and peak, or why not."""
    frame = projection.copy()
    for column in ("core_hours", "peak_gb", "not projected", "kind", "stand-in"):
        if column not in frame:
            frame[column] = None
    rows = []
    for rule, part in frame.groupby("rule", sort=False):
        done = part[part["not projected"].isna()]
        rows.append({"rule": rule, "jobs": len(part), "projected": len(done),
                     "core_hours": done["core_hours"].sum() if len(done) else None,
                     "largest peak_gb": done["peak_gb"].max() if len(done) else None,
                     "fits used": "; ".join(sorted(set(", ".join(done["kind"].dropna())
                                                       .split(", ")) - {""})),
                     "stand-ins": "; ".join(sorted(set(done["stand-in"].dropna()) - {""})),
                     "not projected, why": "; ".join(sorted(set(part["not projected"].dropna())))})
    # The rule's name breaks ties, so the order does not depend on pandas' sort algorithm.
    return pd.DataFrame(rows).sort_values(["core_hours", "rule"], ascending=[False, True],
                                          na_position="last", ignore_index=True)


def _summary(projection) -> str:
    done = projection[projection["not projected"].isna()] if "not projected" in projection \
        else projection
    total = done["core_hours"].sum()
    ce = done[done["kind"].str.contains("crossencoder", na=False)]["core_hours"].sum()
    return (f"The paper profile's dry run lists {len(projection)} jobs of "
            f"{projection['rule'].nunique()} rules; {len(done)} are projected, "
            f"**{total:,.0f} core-hours** in all, the largest peak "
            f"{done['peak_gb'].max():.1f} GB; {len(projection) - len(done)} are not "
            f"projected, each with its reason below. The cross-encoder jobs (the GPU path) "
            f"take {ce:,.0f} of the core-hours ({ce / total:.0%}).")


def report_sections(points, fits, projection, memory) -> list[str]:
    shown_fits = fits.drop(columns=[c for c in ("peak_mb_per_row",) if c in fits])
    args = [c for c in points.columns if c.startswith("arg_")]
    shown = points.assign(point=points[args].apply(
        lambda r: ", ".join(f"{c[4:]}={v}" for c, v in r.items() if pd.notna(v)), axis=1))
    jobs = projection[projection["not projected"].isna()] if "not projected" in projection \
        else projection
    heavy = jobs.sort_values(["core_hours", "job"], ascending=[False, True])[
        ["job", "kind", "threads", "core_hours", "wall_hours", "peak_gb", "beyond measured ×"]]
    over = jobs[jobs["over_limits"]]
    short = jobs[(jobs["wall_hours"] > jobs["runtime hint h"])
                 | (jobs["peak_gb"] > jobs["mem hint GB"])]
    return [
        section("Summary", _summary(projection)),
        section("By rule", _table(by_rule(projection))),
        section("Fits", "`spread`: the largest relative misfit at the measured points; "
                "`measured_min`/`measured_max`: the range of `variable` measured.",
                _table(shown_fits)),
        section("Memory model against the measured peaks",
                "Per kind: the model (`offset_mb` plus `arrays factor` times the kind's "
                "largest arrays) at each measured point, against the peak measured there. "
                "`model / measured, min` is at least 1 by construction (the offset is the "
                "largest residual), so it checks nothing; `held-out: model / measured` is the "
                "test: the model fitted without the points of the kind's largest arrays, at "
                "those points (below 1: it would have fallen short of the largest measured "
                "peak; empty with fewer than 3 points or one array size).",
                _table(memory)),
        section(f"Jobs beyond {LIMITS['memory_gb']:g} GB or {LIMITS['wall_days']:g} days",
                _table(over[["job", "threads", "wall_hours", "peak_gb"]]) if len(over)
                else "None."),
        section("Projections beyond the jobs' own hints",
                "Jobs whose projected wall time (at their threads) or peak is above the "
                "`runtime` or `mem_mb` their rule gives the cluster (from the dry run):",
                _table(short[["job", "threads", "wall_hours", "runtime hint h", "peak_gb",
                              "mem hint GB"]]) if len(short) else "None."),
        section("Every projected job", _table(heavy)),
        section("Measured points", _table(shown[["kind", "point", "compute_s", "wall_s",
                                                 "max_rss_mb", "load_1min"]])),
    ]
