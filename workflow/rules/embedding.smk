# The `embedding` part of the workflow (config section `embedding:`): the Vec2vec paper.
#
#   features (raw rows or TF-IDF) -> embed (one job per dataset x method, neighbour
#   sweep inside) -> score (kNN accuracy per fold, ARI per gamma) -> select (best
#   setting, t-tests) -> Figure 4, Tables 2 and 3, t-test table;
#   sensitivity (one job per dataset x parameter, values swept inside) -> Figure 5;
#   timing (one job per axis x method: warm-up, then one timed fit per value) -> Figure 3.


include: "embedding_common.smk"


EMB_RES = EMB["resources"]
EMB_CATEGORY = "Vec2vec"


wildcard_constraints:
    method="|".join(METHOD_NAMES),
    axis="|".join(TIMING_DATA),
    parameter="|".join(SENSITIVITY_PARAMETERS),
    value=r"\d+",


rule embedding_features:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        npz="results/embedding/features/{dataset}.npz",
    params:
        settings=lambda w: embedding_params("features", dataset=w.dataset),
        config_keys=lambda w: embedding_keys("features", dataset=w.dataset),
    log:
        "logs/embedding_features/{dataset}.log",
    benchmark:
        "results/benchmarks/embedding_features/{dataset}.tsv"
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_features.py"


rule embedding_embed:
    input:
        features="results/embedding/features/{dataset}.npz",
    output:
        npz="results/embedding/embeddings/{dataset}/{method}.npz",
    params:
        settings=lambda w: embedding_params("embed", dataset=w.dataset, method=w.method),
        config_keys=lambda w: embedding_keys("embed", dataset=w.dataset, method=w.method),
    log:
        "logs/embedding_embed/{dataset}/{method}.log",
    benchmark:
        "results/benchmarks/embedding_embed/{dataset}/{method}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_RES["threads"]
    resources:
        mem_mb=EMB_RES["mem_mb"],
        runtime=EMB_RES["runtime"],
    script:
        "../scripts/embedding_embed.py"


rule embedding_score:
    input:
        embeddings="results/embedding/embeddings/{dataset}/{method}.npz",
    output:
        csv="results/embedding/tidy/scores/{dataset}/{method}.csv",
    params:
        settings=lambda w: embedding_params("score", dataset=w.dataset),
        config_keys=lambda w: embedding_keys("score", dataset=w.dataset),
    log:
        "logs/embedding_score/{dataset}/{method}.log",
    benchmark:
        "results/benchmarks/embedding_score/{dataset}/{method}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_RES["threads"]
    resources:
        mem_mb=EMB_RES["mem_mb"],
        runtime=EMB_RES["runtime"],
    script:
        "../scripts/embedding_score.py"


rule embedding_select:
    localrule: True
    input:
        scores=embedding_scores(),
    output:
        classification="results/embedding/tidy/classification.csv",
        clustering="results/embedding/tidy/clustering.csv",
        ttests="results/embedding/tidy/ttests.csv",
        scores="results/embedding/tidy/scores.csv",
    params:
        alpha=EMB["alpha"],
    log:
        "logs/embedding_select/select.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_select.py"


rule embedding_datasets:
    input:
        features=expand("results/embedding/features/{dataset}.npz", dataset=EMB["datasets"]),
    output:
        csv="results/embedding/tidy/datasets.csv",
    log:
        "logs/embedding_datasets/datasets.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_datasets.py"


rule embedding_tables:
    localrule: True
    input:
        datasets="results/embedding/tidy/datasets.csv",
        classification="results/embedding/tidy/classification.csv",
        clustering="results/embedding/tidy/clustering.csv",
        ttests="results/embedding/tidy/ttests.csv",
    output:
        table2=report("results/tables/embedding/table2_datasets.md",
                      caption="../report/embedding_table2.rst", category=EMB_CATEGORY,
                      subcategory="Datasets", labels={"table": "Table 2"}),
        table3=report("results/tables/embedding/table3_clustering_ari.md",
                      caption="../report/embedding_table3.rst", category=EMB_CATEGORY,
                      subcategory="Clustering", labels={"table": "Table 3"}),
        accuracy=report("results/tables/embedding/knn_accuracy.md",
                        caption="../report/embedding_accuracy.rst", category=EMB_CATEGORY,
                        subcategory="Classification", labels={"table": "Figure 4 numbers"}),
        ttests=report("results/tables/embedding/ttests.md",
                      caption="../report/embedding_ttests.rst", category=EMB_CATEGORY,
                      subcategory="Significance", labels={"table": "t-tests"}),
        csv=expand("results/tables/embedding/{table}.csv", table=EMBEDDING_TABLES),
        tex=expand("results/tables/embedding/{table}.tex", table=EMBEDDING_TABLES),
    params:
        profile=config["profile"],
        methods=EMB["methods"],
    log:
        "logs/embedding_tables/tables.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_tables.py"


rule embedding_figure4:
    localrule: True
    input:
        classification="results/embedding/tidy/classification.csv",
        published=published_files(),
    output:
        pdf="results/figures/embedding/figure4_knn_accuracy.pdf",
        png=report("results/figures/embedding/figure4_knn_accuracy.png",
                   caption="../report/embedding_figure4.rst", category=EMB_CATEGORY,
                   subcategory="Classification", labels={"figure": "Figure 4"}),
    params:
        profile=config["profile"],
        methods=EMB["methods"],
    log:
        "logs/embedding_figure4/figure4.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_figure.py"


rule embedding_sensitivity:
    input:
        features="results/embedding/features/{dataset}.npz",
    output:
        csv="results/embedding/sensitivity/{dataset}/{parameter}.csv",
    params:
        settings=lambda w: embedding_params("sensitivity", dataset=w.dataset,
                                            parameter=w.parameter),
        config_keys=lambda w: embedding_keys("sensitivity", dataset=w.dataset,
                                             parameter=w.parameter),
    log:
        "logs/embedding_sensitivity/{dataset}/{parameter}.log",
    benchmark:
        "results/benchmarks/embedding_sensitivity/{dataset}/{parameter}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_RES["threads"]
    resources:
        mem_mb=EMB_RES["mem_mb"],
        runtime=EMB_RES["runtime"],
    script:
        "../scripts/embedding_sensitivity.py"


rule embedding_sensitivity_tidy:
    localrule: True
    input:
        parts=embedding_sensitivity_parts(),
    output:
        csv="results/embedding/tidy/sensitivity.csv",
    log:
        "logs/embedding_sensitivity_tidy/sensitivity.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_concat.py"


rule embedding_figure5:
    localrule: True
    input:
        sensitivity="results/embedding/tidy/sensitivity.csv",
    output:
        pdf="results/figures/embedding/figure5_sensitivity.pdf",
        png=report("results/figures/embedding/figure5_sensitivity.png",
                   caption="../report/embedding_figure5.rst", category=EMB_CATEGORY,
                   subcategory="Sensitivity", labels={"figure": "Figure 5"}),
    params:
        profile=config["profile"],
    log:
        "logs/embedding_figure5/figure5.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_figure.py"


rule embedding_timing:
    output:
        json="results/embedding/timing/{axis}/{method}.json",
    params:
        settings=lambda w: embedding_params("timing", method=w.method, axis=w.axis),
        config_keys=lambda w: embedding_keys("timing", method=w.method, axis=w.axis),
    log:
        "logs/embedding_timing/{axis}/{method}.log",
    benchmark:
        "results/benchmarks/embedding_timing/{axis}/{method}.tsv"
    conda:
        CONDA_ENV
    threads: EMB_TIMING["threads"]
    resources:
        mem_mb=EMB_RES["mem_mb"],
        runtime=EMB_RES["runtime"],
    script:
        "../scripts/embedding_timing.py"


rule embedding_timing_tidy:
    localrule: True
    input:
        benchmarks=[f"results/benchmarks/embedding_timing/{a}/{m}.tsv"
                    for a, m in embedding_timing_jobs()],
        runs=[f"results/embedding/timing/{a}/{m}.json" for a, m in embedding_timing_jobs()],
    output:
        csv="results/embedding/tidy/timing.csv",
    log:
        "logs/embedding_timing_tidy/timing.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_timing_tidy.py"


rule embedding_figure3:
    localrule: True
    input:
        timing="results/embedding/tidy/timing.csv",
    output:
        pdf="results/figures/embedding/figure3_timing.pdf",
        png=report("results/figures/embedding/figure3_timing.png",
                   caption="../report/embedding_figure3.rst", category=EMB_CATEGORY,
                   subcategory="Timing", labels={"figure": "Figure 3"}),
    params:
        profile=config["profile"],
        max_samples=sorted_params(EMB_TIMING["max_samples"]),
    log:
        "logs/embedding_figure3/figure3.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/embedding_figure.py"


FINAL_OUTPUTS.append(embedding_final_outputs)
