# The `embedding` part of the workflow (config section `embedding:`): the Vec2vec paper.
#
#   features (raw rows or TF-IDF) -> embed (one job per dataset x method, neighbour
#   sweep inside; the methods of `embedding.batch_methods` one job per dataset, in
#   embedding_embed_batch) -> score (one job per dataset: kNN accuracy per fold, ARI per
#   gamma, of every method's embeddings);
#   sensitivity (one job per dataset x parameter, values swept inside);
#   timing (one job per method, alone on the machine: every size of both panels, each
#   fitted `timing.repeats` times after a warm-up; the methods of
#   `embedding.timing.batch_methods` one after the other in embedding_timing_batch);
#   -> embedding_tidy (best settings, t-tests, datasets, sensitivity, timing)
#   -> embedding_render (Figures 3 to 5, Tables 2 and 3, the accuracy and t-test tables).
# Every setting comes from lowdim.settings.embedding.

from lowdim.embedding.methods import METHOD_NAMES
from lowdim.settings.embedding import SENSITIVITY_PARAMETERS, TABLES as EMBEDDING_TABLES
from lowdim.settings.embedding import TIDY as EMB_TIDY
from lowdim.settings.embedding import batch_methods, timing_batch_methods, timing_methods


EMB_ON = config["embedding"]["enabled"]
EMB_DATASETS = config["embedding"]["datasets"]
EMB_METHODS = config["embedding"]["methods"]
EMB_BATCH = batch_methods(config)
EMB_SENSITIVITY = config["embedding"]["sensitivity"]["datasets"]
EMB_TIMING = timing_methods(config)
EMB_TIMING_BATCH = timing_batch_methods(config)
#: The benchmark file of the job that timed each method of EMB_TIMING: its own, or the batch's.
EMB_TIMING_BENCHMARKS = [
    f"results/benchmarks/embedding_timing/{'batch' if method in EMB_TIMING_BATCH else method}.tsv"
    for method in EMB_TIMING]
EMB_CATEGORY = "Vec2vec"
EMB_FEATURES = job_params("embedding", "features")
EMB_EMBED = job_params("embedding", "embed")
EMB_EMBED_BATCH = job_params("embedding", "embed_batch")
EMB_SCORE = job_params("embedding", "score")
EMB_SENS = job_params("embedding", "sensitivity")
EMB_TIMING_JOB = job_params("embedding", "timing")
EMB_TIMING_BATCH_JOB = job_params("embedding", "timing_batch")
EMB_TIDY_JOB = job_params("embedding", "tidy")
EMB_RENDER = job_params("embedding", "render")
#: The tidy files and the figures of the parts of the experiment this config runs.
EMB_PARTS = {"scores": ["classification", "clustering", "ttests", "scores", "datasets"]
             if EMB_DATASETS else [],
             "sensitivity": ["sensitivity"] if EMB_SENSITIVITY else [],
             "timing": ["timing"] if EMB_TIMING else []}
EMB_TIDY_FILES = {name: f"results/{EMB_TIDY[name]}" for part in EMB_PARTS.values()
                  for name in part}
EMB_FIGURES = {"figure3_timing": "timing", "figure4_knn_accuracy": "scores",
               "figure5_sensitivity": "sensitivity"}
EMB_FIGURES = [name for name, part in EMB_FIGURES.items() if EMB_PARTS[part]]
EMB_TABLE_NAMES = list(EMBEDDING_TABLES) if EMB_DATASETS else []


wildcard_constraints:
    method=one_of(METHOD_NAMES),
    parameter=one_of(SENSITIVITY_PARAMETERS),


rule embedding_features:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        npz="results/embedding/features/{dataset}.npz",
        summary="results/embedding/features/{dataset}.summary.csv",
    params:
        **EMB_FEATURES.params,
    log:
        "logs/embedding_features/{dataset}.log",
    benchmark:
        "results/benchmarks/embedding_features/{dataset}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_FEATURES.threads
    script:
        "../scripts/embedding_features.py"


rule embedding_embed:
    wildcard_constraints:
        method=one_of([method for method in METHOD_NAMES if method not in EMB_BATCH]),
    input:
        features="results/embedding/features/{dataset}.npz",
    output:
        npz="results/embedding/embeddings/{dataset}/{method}.npz",
    params:
        **EMB_EMBED.params,
    log:
        "logs/embedding_embed/{dataset}/{method}.log",
    benchmark:
        "results/benchmarks/embedding_embed/{dataset}/{method}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_EMBED.threads
    resources:
        **EMB_EMBED.resources,
    script:
        "../scripts/embedding_embed.py"


if EMB_BATCH:

    # Methods whose fits take less than a job's start-up (the default profile's cheap
    # ones on 1,000 rows): one process fits them all, one after the other.
    rule embedding_embed_batch:
        input:
            features="results/embedding/features/{dataset}.npz",
        output:
            **{method: f"results/embedding/embeddings/{{dataset}}/{method}.npz"
               for method in EMB_BATCH},
        params:
            **EMB_EMBED_BATCH.params,
        log:
            "logs/embedding_embed_batch/{dataset}.log",
        benchmark:
            "results/benchmarks/embedding_embed_batch/{dataset}.tsv"
        conda:
            CONDA_ENV
        threads: EMB_EMBED_BATCH.threads
        resources:
            **EMB_EMBED_BATCH.resources,
        script:
            "../scripts/embedding_embed_batch.py"


rule embedding_score:
    input:
        embeddings=expand("results/embedding/embeddings/{{dataset}}/{method}.npz",
                          method=EMB_METHODS),
    output:
        csv="results/embedding/tidy/scores/{dataset}.csv",
    params:
        **EMB_SCORE.params,
    log:
        "logs/embedding_score/{dataset}.log",
    benchmark:
        "results/benchmarks/embedding_score/{dataset}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_SCORE.threads
    resources:
        **EMB_SCORE.resources,
    script:
        "../scripts/embedding_score.py"


rule embedding_sensitivity:
    input:
        features="results/embedding/features/{dataset}.npz",
    output:
        csv="results/embedding/sensitivity/{dataset}/{parameter}.csv",
    params:
        **EMB_SENS.params,
    log:
        "logs/embedding_sensitivity/{dataset}/{parameter}.log",
    benchmark:
        "results/benchmarks/embedding_sensitivity/{dataset}/{parameter}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_SENS.threads
    resources:
        **EMB_SENS.resources,
    script:
        "../scripts/embedding_sensitivity.py"


rule embedding_timing:
    wildcard_constraints:
        method=one_of([method for method in METHOD_NAMES if method not in EMB_TIMING_BATCH]),
    output:
        json="results/embedding/timing/{method}.json",
    params:
        **EMB_TIMING_JOB.params,
    log:
        "logs/embedding_timing/{method}.log",
    benchmark:
        "results/benchmarks/embedding_timing/{method}.tsv"
    conda:
        CONDA_ENV
    # every local core (nothing runs beside it) and the `timing` resource (one at a time):
    # JobParams.threads, common.smk
    threads: EMB_TIMING_JOB.threads
    resources:
        **EMB_TIMING_JOB.resources,
    script:
        "../scripts/embedding_timing.py"


if EMB_TIMING_BATCH:

    # One process times the methods of `timing.batch_methods`, one after the other, alone
    # on the machine as each timing job is: one start-up for all of them, through which the
    # other core would idle (the default profile's six spent 2-5 s each outside their timed
    # fits in jobs of their own).
    rule embedding_timing_batch:
        output:
            **{method: f"results/embedding/timing/{method}.json" for method in EMB_TIMING_BATCH},
        params:
            **EMB_TIMING_BATCH_JOB.params,
        log:
            "logs/embedding_timing_batch/batch.log",
        benchmark:
            "results/benchmarks/embedding_timing/batch.tsv"
        conda:
            CONDA_ENV
        threads: EMB_TIMING_BATCH_JOB.threads
        resources:
            **EMB_TIMING_BATCH_JOB.resources,
        script:
            "../scripts/embedding_timing_batch.py"


if EMB_TIDY_FILES:

    rule embedding_tidy:
        localrule: True
        input:
            scores=expand("results/embedding/tidy/scores/{dataset}.csv", dataset=EMB_DATASETS),
            datasets=expand("results/embedding/features/{dataset}.summary.csv",
                            dataset=EMB_DATASETS),
            sensitivity=expand("results/embedding/sensitivity/{dataset}/{parameter}.csv",
                               dataset=EMB_SENSITIVITY, parameter=SENSITIVITY_PARAMETERS),
            timing=expand("results/embedding/timing/{method}.json", method=EMB_TIMING),
            benchmarks=EMB_TIMING_BENCHMARKS,
        output:
            **EMB_TIDY_FILES,
        params:
            **EMB_TIDY_JOB.params,
        log:
            "logs/embedding_tidy/tidy.log",
        conda:
            CONDA_ENV
        threads: EMB_TIDY_JOB.threads
        script:
            "../scripts/embedding_tidy.py"


#: Report items: name -> (subcategory, labels, caption file).
EMB_REPORT = {
    "figure3_timing": ("Timing", {"figure": "Figure 3"}, "embedding_figure3"),
    "figure4_knn_accuracy": ("Classification", {"figure": "Figure 4"}, "embedding_figure4"),
    "figure5_sensitivity": ("Sensitivity", {"figure": "Figure 5"}, "embedding_figure5"),
    "table2_datasets": ("Datasets", {"table": "Table 2"}, "embedding_table2"),
    "table3_clustering_ari": ("Clustering", {"table": "Table 3"}, "embedding_table3"),
    "knn_accuracy": ("Classification", {"table": "Figure 4 numbers"}, "embedding_accuracy"),
    "ttests": ("Significance", {"table": "t-tests"}, "embedding_ttests"),
}
EMB_REPORTED = {**{name: f"results/figures/embedding/{name}.png" for name in EMB_FIGURES},
                **{name: f"results/tables/embedding/{name}.md" for name in EMB_TABLE_NAMES}}


if EMB_FIGURES or EMB_TABLE_NAMES:

    rule embedding_render:
        localrule: True
        input:
            **EMB_TIDY_FILES,
            published=published_files(),
        output:
            **{
                name: report(
                    path,
                    caption=f"../report/{EMB_REPORT[name][2]}.rst",
                    category=EMB_CATEGORY,
                    subcategory=EMB_REPORT[name][0],
                    labels=EMB_REPORT[name][1],
                )
                for name, path in EMB_REPORTED.items()
            },
            other=[f"results/figures/embedding/{name}.pdf" for name in EMB_FIGURES]
            + [f"results/tables/embedding/{name}.{ext}" for name in EMB_TABLE_NAMES
               for ext in ("csv", "tex")],
        params:
            **EMB_RENDER.params,
        log:
            "logs/embedding_render/render.log",
        conda:
            CONDA_ENV
        threads: EMB_RENDER.threads
        script:
            "../scripts/embedding_render.py"


FINAL_OUTPUTS.append(
    lambda: [f"results/figures/embedding/{name}.{ext}" for name in EMB_FIGURES
             for ext in ("pdf", "png")]
    + [f"results/tables/embedding/{name}.{ext}" for name in EMB_TABLE_NAMES
       for ext in ("md", "csv", "tex")]
    if EMB_ON
    else []
)
