# The `kernel_cca` part of the workflow (config section `kernel_cca:`): kernel CCA on
# (SMS-)Nyström features, solved by AppGrad -- the SMS-Nyström and AppGrad papers combined.
#
#   per setting:  kernel_cca_run (kernel CCA per approximation x landmarks x seed, linear CCA,
#                 exact kernel CCA when n is small)
#   aggregate:    kernel_cca_tidy (one tidy CSV)
#   render:       kernel_cca_figure, kernel_cca_table (read only the tidy CSV)

include: "kernel_cca_common.smk"


rule kernel_cca_run:
    input:
        npz=lambda w: dataset_npz(KCCA_SETTINGS[w.kcca_setting]["dataset"]),
    output:
        csv="results/cca/kernel/{kcca_setting}.csv",
    params:
        setting=lambda w: kernel_cca_setting(w.kcca_setting),
        config_keys=lambda w: kernel_cca_keys(w.kcca_setting),
        seed=lambda w: derive_seed(config["seed"], "kernel_cca", w.kcca_setting),
    wildcard_constraints:
        kcca_setting=KCCA_WILDCARD,
    log:
        "logs/kernel_cca_run/{kcca_setting}.log",
    benchmark:
        "results/benchmarks/kernel_cca_run/{kcca_setting}.tsv"
    conda:
        CONDA_ENV
    threads: KCCA["threads"]
    resources:
        mem_mb=KCCA["mem_mb"],
        runtime=KCCA["runtime"],
    script:
        "../scripts/kernel_cca_run.py"


rule kernel_cca_tidy:
    localrule: True
    input:
        runs=expand("results/cca/kernel/{kcca_setting}.csv", kcca_setting=list(KCCA_SETTINGS)),
    output:
        csv="results/cca/tidy/kernel_cca.csv",
    log:
        "logs/kernel_cca_tidy/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/kernel_cca_tidy.py"


rule kernel_cca_figure:
    localrule: True
    input:
        csv="results/cca/tidy/kernel_cca.csv",
    output:
        pdf="results/figures/cca/kernel_cca_tcc.pdf",
        png=report(
            "results/figures/cca/kernel_cca_tcc.png",
            caption="../report/kernel_cca_figure.rst",
            category="Kernel CCA",
            subcategory="Figure",
            labels={"figure": "held-out TCC", "setting": ", ".join(KCCA_SETTINGS)},
        ),
    params:
        settings=list(KCCA_SETTINGS),
        profile=config["profile"],
    log:
        "logs/kernel_cca_figure/figure.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/kernel_cca_figure.py"


rule kernel_cca_table:
    localrule: True
    input:
        csv="results/cca/tidy/kernel_cca.csv",
    output:
        md=report(
            "results/tables/cca/kernel_cca.md",
            caption="../report/kernel_cca_table.rst",
            category="Kernel CCA",
            subcategory="Table",
            labels={"table": "kernel CCA", "setting": ", ".join(KCCA_SETTINGS)},
        ),
        csv="results/tables/cca/kernel_cca.csv",
        tex="results/tables/cca/kernel_cca.tex",
    params:
        profile=config["profile"],
    log:
        "logs/kernel_cca_table/table.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/kernel_cca_table.py"


FINAL_OUTPUTS.append(kernel_cca_final_outputs)
