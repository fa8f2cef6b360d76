# The `kernel_cca` part of the workflow (config section `kernel_cca:`): kernel CCA on
# (SMS-)Nyström features, solved by AppGrad -- the SMS-Nyström and AppGrad papers combined.
#
#   per setting:  kernel_cca_run (kernel CCA per approximation x landmarks x seed, linear CCA,
#                 exact kernel CCA when n is small)
#   aggregate:    kernel_cca_tidy (one tidy CSV)
#   render:       kernel_cca_render (figure and table; read only the tidy CSV)
# Every setting comes from lowdim.settings.kernel_cca.

from lowdim.settings.kernel_cca import TIDY as KCCA_TIDY
from lowdim.settings.kernel_cca import kernel_cca_names, kernel_cca_settings


KCCA_ON = config["kernel_cca"]["enabled"]
KCCA_SETTINGS = kernel_cca_names(config)
KCCA_RUN = job_params("kernel_cca", "run")
KCCA_TIDY_JOB = job_params("kernel_cca", "tidy")
KCCA_RENDER = job_params("kernel_cca", "render")
KCCA_CSV = f"results/{KCCA_TIDY['kernel_cca']}"


rule kernel_cca_run:
    input:
        npz=lambda w: dataset_npz(kernel_cca_settings(config, w.kcca_setting)["dataset"][0]),
    output:
        csv="results/cca/kernel/{kcca_setting}.csv",
    params:
        **KCCA_RUN.params,
    wildcard_constraints:
        kcca_setting=one_of(KCCA_SETTINGS),
    log:
        "logs/kernel_cca_run/{kcca_setting}.log",
    benchmark:
        "results/benchmarks/kernel_cca_run/{kcca_setting}.tsv"
    conda:
        CONDA_ENV
    threads: KCCA_RUN.threads
    resources:
        **KCCA_RUN.resources,
    script:
        "../scripts/kernel_cca_run.py"


rule kernel_cca_tidy:
    localrule: True
    input:
        runs=expand("results/cca/kernel/{kcca_setting}.csv", kcca_setting=KCCA_SETTINGS),
    output:
        csv=KCCA_CSV,
    params:
        **KCCA_TIDY_JOB.params,
    log:
        "logs/kernel_cca_tidy/tidy.log",
    conda:
        CONDA_ENV
    threads: KCCA_TIDY_JOB.threads
    script:
        "../scripts/kernel_cca_tidy.py"


rule kernel_cca_render:
    localrule: True
    input:
        csv=KCCA_CSV,
    output:
        figure=report(
            "results/figures/cca/kernel_cca_tcc.png",
            caption="../report/kernel_cca_figure.rst",
            category="Kernel CCA",
            subcategory="Figure",
            labels={"figure": "held-out TCC", "setting": ", ".join(KCCA_SETTINGS)},
        ),
        table=report(
            "results/tables/cca/kernel_cca.md",
            caption="../report/kernel_cca_table.rst",
            category="Kernel CCA",
            subcategory="Table",
            labels={"table": "kernel CCA", "setting": ", ".join(KCCA_SETTINGS)},
        ),
        other=["results/figures/cca/kernel_cca_tcc.pdf", "results/tables/cca/kernel_cca.csv",
               "results/tables/cca/kernel_cca.tex"],
    params:
        **KCCA_RENDER.params,
    log:
        "logs/kernel_cca_render/render.log",
    conda:
        CONDA_ENV
    threads: KCCA_RENDER.threads
    script:
        "../scripts/kernel_cca_render.py"


FINAL_OUTPUTS.append(
    lambda: ["results/figures/cca/kernel_cca_tcc.pdf", "results/tables/cca/kernel_cca.md",
             KCCA_CSV]
    if KCCA_ON and KCCA_SETTINGS
    else []
)
