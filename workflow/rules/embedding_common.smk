# Config helpers of the `embedding` part (input functions, params, final targets).
# Kept apart from the rules in embedding.smk, as `snakemake --lint` asks. Every job's
# settings come from lowdim.settings.

from lowdim.embedding.methods import METHOD_NAMES
from lowdim.embedding.timing import TIMING_DATA
from lowdim.settings import SENSITIVITY_PARAMETERS, config_keys, embedding_settings, values


EMB = config["embedding"]
EMB_TIMING = EMB["timing"]
EMB_SENS = EMB["sensitivity"]
EMBEDDING_TABLES = ["table2_datasets", "table3_clustering_ari", "knn_accuracy", "ttests"]


def embedding_params(job, **identity):
    """Values of the settings of embedding job `job` (features, embed, score, sensitivity,
    timing) identified by `identity` (dataset, method, parameter, axis)."""
    return sorted_params(values(embedding_settings(config, job, **identity)))


def embedding_keys(job, **identity):
    """The config key of each setting of `embedding_params`, for the job's error messages."""
    return sorted_params(config_keys(embedding_settings(config, job, **identity)))


def embedding_scores():
    return expand("results/embedding/tidy/scores/{dataset}/{method}.csv",
                  dataset=EMB["datasets"], method=EMB["methods"])


def embedding_sensitivity_parts():
    return expand("results/embedding/sensitivity/{dataset}/{parameter}.csv",
                  dataset=EMB_SENS["datasets"], parameter=SENSITIVITY_PARAMETERS)


def embedding_timing_jobs():
    """(axis, method) of every timing job: one per method with a value left to time."""
    return [(axis, method)
            for axis in TIMING_DATA
            for method in EMB_TIMING["methods"]
            if embedding_params("timing", method=method, axis=axis)["values"]]


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
