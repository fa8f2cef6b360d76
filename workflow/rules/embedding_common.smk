# Config helpers of the `embedding` part (input functions, seeds, final targets).
# Kept apart from the rules in embedding.smk, as `snakemake --lint` asks.

from lowdim.embedding.timing import timing_values
from lowdim.seeding import derive_seed


EMB = config["embedding"]
EMB_TIMING = EMB["timing"]
EMB_SENS = EMB["sensitivity"]
EMBEDDING_TABLES = ["table2_datasets", "table3_clustering_ari", "knn_accuracy", "ttests"]


def embedding_seed(*keys):
    """Seed of one embedding job, from the base seed and the job's identity."""
    return derive_seed(config["seed"], "embedding", *keys)


def embedding_method_params(method):
    """Fixed parameters of `method` (its swept neighbour count excluded)."""
    if method == "vec2vec":
        return dict(EMB["vec2vec"])
    if method == "vec2vec_cooccurrence":  # fixes the solver; gensim's epochs are unused
        return {k: v for k, v in EMB["vec2vec"].items() if k not in ("solver", "epochs")}
    if method in ("umap", "mds"):
        return dict(EMB[method])
    return {}


def embedding_scores():
    return expand("results/embedding/tidy/scores/{dataset}/{method}.csv",
                  dataset=EMB["datasets"], method=EMB["methods"])


def embedding_sensitivity_parts():
    return expand("results/embedding/sensitivity/{dataset}/{parameter}.csv",
                  dataset=EMB_SENS["datasets"], parameter=["n_components", "topk"])


def embedding_timing_fixed(axis):
    """D of the sweep over n, or n of the sweep over D."""
    return EMB_TIMING["n_features_at"] if axis == "n_samples" else EMB_TIMING["n_samples_at"]


def embedding_timing_values(axis, method):
    """Values of `axis` timed for `method`: those within its cap on n (if any)."""
    return timing_values(axis, EMB_TIMING[axis], embedding_timing_fixed(axis),
                         EMB_TIMING["max_samples"].get(method))


def embedding_timing_jobs():
    """(axis, method) of every timing job: one per method with a value left to time."""
    return [(axis, method)
            for axis in ("n_samples", "n_features")
            for method in EMB_TIMING["methods"]
            if embedding_timing_values(axis, method)]


def embedding_final_outputs():
    """Figures and tables of the parts of the experiment that the config enables."""
    if not EMB["enabled"]:
        return []
    figures, tables = [], []
    if EMB["datasets"]:
        figures.append("figure4_knn_accuracy")
        tables.extend(EMBEDDING_TABLES)
    if EMB_SENS["datasets"]:
        figures.append("figure5_sensitivity")
    if embedding_timing_jobs():
        figures.append("figure3_timing")
    return ([f"results/figures/embedding/{f}.{ext}" for f in figures for ext in ("pdf", "png")]
            + [f"results/tables/embedding/{t}.{ext}" for t in tables
               for ext in ("md", "csv", "tex")])
