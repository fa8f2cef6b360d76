# The `cca` part of the workflow (config section `cca:`): the AppGrad paper.
#
#   per dataset:  cca_stats, cca_exact (Figure 1 datasets), cca_appgrad (appgrad/sappgrad),
#                 cca_heuristic (Figure 2 datasets: NW-, DW-, PCA-CCA)
#   aggregate:    cca_tidy (the traces with PCC, the exact solutions, TCC against FLOPs,
#                 the datasets' statistics)
#   render:       cca_render (Figures 1 and 2, Table 1; reads only the tidy CSVs)
# Every setting comes from lowdim.settings.cca, which applies `cca.overrides`.

from lowdim.cca.methods import APPGRAD_METHODS
from lowdim.settings.cca import TIDY as CCA_TIDY
from lowdim.settings.cca import cca_datasets, cca_figure_datasets, cca_heuristic_runs


CCA_ON = config["cca"]["enabled"]
CCA_FIGURE1 = [name for name, _ in cca_figure_datasets(config, 1)]
CCA_FIGURE2 = [name for name, _ in cca_figure_datasets(config, 2)]
CCA_DATASETS = cca_datasets(config)
# Figure 2's heuristic runs, each also its path below heuristics/ (nw_cca, pca_cca/m50)
CCA_HEURISTICS = cca_heuristic_runs(config)
CCA_STATS = job_params("cca", "stats")
CCA_EXACT = job_params("cca", "exact")
CCA_APPGRAD = job_params("cca", "appgrad")
CCA_HEURISTIC = job_params("cca", "heuristic")
CCA_TIDY_JOB = job_params("cca", "tidy")
CCA_RENDER = job_params("cca", "render")
#: The tidy files of the figures and table this config draws.
CCA_TIDY_PARTS = {"appgrad_trace": CCA_FIGURE1, "exact": CCA_FIGURE1, "tcc_flops": CCA_FIGURE2,
                  "datasets": CCA_DATASETS}
CCA_TIDY_FILES = {name: f"results/{CCA_TIDY[name]}" for name, listed in CCA_TIDY_PARTS.items()
                  if listed}
CCA_OUTPUTS = {"figure1": "results/figures/cca/figure1_pcc",
               "figure2": "results/figures/cca/figure2_tcc",
               "table1": "results/tables/cca/table1_datasets"}
CCA_REPORT = {
    "figure1": ("Figure 1", {"figure": "Figure 1", "dataset": ", ".join(CCA_FIGURE1)}, "png"),
    "figure2": ("Figure 2", {"figure": "Figure 2", "dataset": ", ".join(CCA_FIGURE2)}, "png"),
    "table1": ("Table 1", {"table": "Table 1", "dataset": ", ".join(CCA_DATASETS)}, "md"),
}
CCA_DRAWN = [name for name, drawn in (("figure1", CCA_FIGURE1), ("figure2", CCA_FIGURE2),
                                      ("table1", CCA_DATASETS)) if drawn]
CCA_OTHER = {"figure1": ("pdf",), "figure2": ("pdf",), "table1": ("csv", "tex")}


wildcard_constraints:
    cca_method=one_of(APPGRAD_METHODS),
    heuristic=one_of(CCA_HEURISTICS, "__no_heuristic__"),


rule cca_stats:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/stats.csv",
    params:
        **CCA_STATS.params,
    log:
        "logs/cca_stats/{dataset}.log",
    conda:
        CONDA_ENV
    threads: CCA_STATS.threads
    script:
        "../scripts/cca_stats.py"


rule cca_exact:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/exact.csv",
    params:
        **CCA_EXACT.params,
    log:
        "logs/cca_exact/{dataset}.log",
    benchmark:
        "results/benchmarks/cca_exact/{dataset}.tsv"
    conda:
        CONDA_ENV
    threads: CCA_EXACT.threads
    resources:
        **CCA_EXACT.resources,
    script:
        "../scripts/cca_exact.py"


rule cca_appgrad:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/{cca_method}.csv",
    params:
        **CCA_APPGRAD.params,
    log:
        "logs/cca_appgrad/{dataset}/{cca_method}.log",
    benchmark:
        "results/benchmarks/cca_appgrad/{dataset}/{cca_method}.tsv"
    conda:
        CONDA_ENV
    threads: CCA_APPGRAD.threads
    resources:
        **CCA_APPGRAD.resources,
    script:
        "../scripts/cca_appgrad.py"


rule cca_heuristic:
    input:
        npz=lambda w: dataset_npz(w.dataset),
    output:
        csv="results/cca/{dataset}/heuristics/{heuristic}.csv",
    params:
        **CCA_HEURISTIC.params,
    log:
        "logs/cca_heuristic/{dataset}/{heuristic}.log",
    benchmark:
        "results/benchmarks/cca_heuristic/{dataset}/{heuristic}.tsv"
    conda:
        CONDA_ENV
    threads: CCA_HEURISTIC.threads
    resources:
        **CCA_HEURISTIC.resources,
    script:
        "../scripts/cca_heuristic.py"


if CCA_TIDY_FILES:

    rule cca_tidy:
        localrule: True
        input:
            traces=expand("results/cca/{dataset}/{method}.csv", dataset=CCA_FIGURE1,
                          method=APPGRAD_METHODS),
            exact=expand("results/cca/{dataset}/exact.csv", dataset=CCA_FIGURE1),
            stochastic=expand("results/cca/{dataset}/sappgrad.csv", dataset=CCA_FIGURE2),
            heuristics=expand("results/cca/{dataset}/heuristics/{heuristic}.csv",
                              dataset=CCA_FIGURE2, heuristic=CCA_HEURISTICS),
            stats=expand("results/cca/{dataset}/stats.csv", dataset=CCA_DATASETS),
        output:
            **CCA_TIDY_FILES,
        params:
            **CCA_TIDY_JOB.params,
        log:
            "logs/cca_tidy/tidy.log",
        conda:
            CONDA_ENV
        threads: CCA_TIDY_JOB.threads
        script:
            "../scripts/cca_tidy.py"


if CCA_DRAWN:

    rule cca_render:
        localrule: True
        input:
            **CCA_TIDY_FILES,
            published=published_files(),
        output:
            **{
                name: report(
                    f"{CCA_OUTPUTS[name]}.{CCA_REPORT[name][2]}",
                    caption=f"../report/cca_{name}.rst",
                    category="AppGrad CCA",
                    subcategory=CCA_REPORT[name][0],
                    labels=CCA_REPORT[name][1],
                )
                for name in CCA_DRAWN
            },
            other=[f"{CCA_OUTPUTS[name]}.{ext}" for name in CCA_DRAWN
                   for ext in CCA_OTHER[name]],
        params:
            **CCA_RENDER.params,
        log:
            "logs/cca_render/render.log",
        conda:
            CONDA_ENV
        threads: CCA_RENDER.threads
        script:
            "../scripts/cca_render.py"


FINAL_OUTPUTS.append(
    lambda: ([f"results/{CCA_TIDY['appgrad_trace']}"] if CCA_FIGURE1 else [])
    + [f"{CCA_OUTPUTS[name]}.{ext}" for name in CCA_DRAWN
       for ext in (CCA_REPORT[name][2], *CCA_OTHER[name])]
    if CCA_ON
    else []
)
