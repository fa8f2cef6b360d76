# The `cca` part of the workflow (config section `cca:`): the AppGrad paper.
#
#   per dataset:  cca_stats, cca_exact (Figure 1 datasets), cca_appgrad (appgrad/sappgrad),
#                 cca_heuristic (Figure 2 dataset: NW-, DW-, PCA-CCA)
#   aggregate:    cca_tidy_pcc, cca_tidy_tcc, cca_tidy_datasets (tidy CSVs)
#   render:       cca_figure1, cca_figure2, cca_table1 (read only the tidy CSVs)

include: "cca_common.smk"


wildcard_constraints:
    cca_method="|".join(APPGRAD_METHODS),
    heuristic="|".join(map(re.escape, CCA_HEURISTICS)) or "__no_heuristic__",


rule cca_stats:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/stats.csv",
    params:
        settings=lambda w: cca_params(w.dataset, "stats"),
    log:
        "logs/cca_stats/{dataset}.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/cca_stats.py"


rule cca_exact:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/exact.csv",
    params:
        settings=lambda w: cca_params(w.dataset, "exact"),
        config_keys=lambda w: cca_keys(w.dataset, "exact"),
    log:
        "logs/cca_exact/{dataset}.log",
    benchmark:
        "results/benchmarks/cca_exact/{dataset}.tsv"
    conda:
        CONDA_ENV
    threads: CCA["threads"]
    resources:
        mem_mb=lambda w: cca_resource(w.dataset, "mem_mb"),
        runtime=lambda w: cca_resource(w.dataset, "runtime"),
    script:
        "../scripts/cca_exact.py"


rule cca_appgrad:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/{cca_method}.csv",
    params:
        settings=lambda w: cca_params(w.dataset, w.cca_method),
        config_keys=lambda w: cca_keys(w.dataset, w.cca_method),
    log:
        "logs/cca_appgrad/{dataset}/{cca_method}.log",
    benchmark:
        "results/benchmarks/cca_appgrad/{dataset}/{cca_method}.tsv"
    conda:
        CONDA_ENV
    threads: CCA["threads"]
    resources:
        mem_mb=lambda w: cca_resource(w.dataset, "mem_mb"),
        runtime=lambda w: cca_resource(w.dataset, "runtime"),
    script:
        "../scripts/cca_appgrad.py"


rule cca_heuristic:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/heuristics/{heuristic}.csv",
    params:
        settings=lambda w: cca_params(w.dataset, w.heuristic),
        config_keys=lambda w: cca_keys(w.dataset, w.heuristic),
    log:
        "logs/cca_heuristic/{dataset}/{heuristic}.log",
    benchmark:
        "results/benchmarks/cca_heuristic/{dataset}/{heuristic}.tsv"
    conda:
        CONDA_ENV
    threads: CCA["threads"]
    resources:
        mem_mb=lambda w: cca_resource(w.dataset, "mem_mb"),
        runtime=lambda w: cca_resource(w.dataset, "runtime"),
    script:
        "../scripts/cca_heuristic.py"


rule cca_tidy_pcc:
    localrule: True
    input:
        traces=expand(
            "results/cca/{dataset}/{method}.csv",
            dataset=CCA_FIGURE1,
            method=["appgrad", "sappgrad"],
        ),
        exact=expand("results/cca/{dataset}/exact.csv", dataset=CCA_FIGURE1),
    output:
        csv="results/cca/tidy/appgrad_trace.csv",
        exact="results/cca/tidy/exact.csv",
    log:
        "logs/cca_tidy_pcc/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/cca_tidy_pcc.py"


rule cca_tidy_tcc:
    localrule: True
    input:
        traces=expand("results/cca/{dataset}/sappgrad.csv", dataset=CCA_FIGURE2),
        heuristics=expand(
            "results/cca/{dataset}/heuristics/{heuristic}.csv",
            dataset=CCA_FIGURE2,
            heuristic=CCA_HEURISTICS,
        ),
    output:
        csv="results/cca/tidy/tcc_flops.csv",
    log:
        "logs/cca_tidy_tcc/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/cca_tidy_tcc.py"


rule cca_tidy_datasets:
    localrule: True
    input:
        stats=expand("results/cca/{dataset}/stats.csv", dataset=CCA_DATASETS),
    output:
        csv="results/cca/tidy/datasets.csv",
    log:
        "logs/cca_tidy_datasets/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/cca_tidy_datasets.py"


rule cca_figure1:
    localrule: True
    input:
        csv="results/cca/tidy/appgrad_trace.csv",
        published=published_files(),
    output:
        pdf="results/figures/cca/figure1_pcc.pdf",
        png=report(
            "results/figures/cca/figure1_pcc.png",
            caption="../report/cca_figure1.rst",
            category="AppGrad CCA",
            subcategory="Figure 1",
            labels={"figure": "Figure 1", "dataset": ", ".join(CCA_FIGURE1)},
        ),
    params:
        datasets=CCA_FIGURE1,
        profile=config["profile"],
    log:
        "logs/cca_figure1/figure1.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/cca_figure1.py"


rule cca_figure2:
    localrule: True
    input:
        csv="results/cca/tidy/tcc_flops.csv",
    output:
        pdf="results/figures/cca/figure2_tcc.pdf",
        png=report(
            "results/figures/cca/figure2_tcc.png",
            caption="../report/cca_figure2.rst",
            category="AppGrad CCA",
            subcategory="Figure 2",
            labels={"figure": "Figure 2", "dataset": ", ".join(CCA_FIGURE2)},
        ),
    params:
        datasets=CCA_FIGURE2,
        profile=config["profile"],
    log:
        "logs/cca_figure2/figure2.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/cca_figure2.py"


rule cca_table1:
    localrule: True
    input:
        csv="results/cca/tidy/datasets.csv",
    output:
        md=report(
            "results/tables/cca/table1_datasets.md",
            caption="../report/cca_table1.rst",
            category="AppGrad CCA",
            subcategory="Table 1",
            labels={"table": "Table 1", "dataset": ", ".join(CCA_DATASETS)},
        ),
        csv="results/tables/cca/table1_datasets.csv",
        tex="results/tables/cca/table1_datasets.tex",
    params:
        profile=config["profile"],
    log:
        "logs/cca_table1/table1.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/cca_table1.py"


FINAL_OUTPUTS.append(cca_final_outputs)
