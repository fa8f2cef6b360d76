# The `similarity` part of the workflow (config section `similarity:`): SMS-Nyström.
#
#   dataset -> similarity_matrix (whole K, timed) -> similarity_errors (one job per matrix:
#   every method x fraction x seed, and the matrix's spectra) -> similarity_tidy (one row
#   per measurement) -> similarity_render (error figure, spectra figure, diagnostics table).
# Every setting comes from lowdim.settings.similarity.

from lowdim.settings.similarity import TIDY as SIM_TIDY
from lowdim.settings.similarity import matrix_dataset, matrix_models, matrix_names


SIM_MATRICES = matrix_names(config)
SIM_MATRIX = job_params("similarity", "matrix")
SIM_ERRORS = job_params("similarity", "errors")
SIM_TIDY_JOB = job_params("similarity", "tidy")
SIM_RENDER = job_params("similarity", "render")
SIM_FIGURES = "results/figures/similarity"
SIM_TABLES = "results/tables/similarity"


rule similarity_matrix:
    wildcard_constraints:
        matrix=one_of(SIM_MATRICES),
    input:
        data=lambda w: dataset_npz(matrix_dataset(config, w.matrix)),
        model=lambda w: matrix_models(config, w.matrix),
    output:
        npz="results/similarity/matrices/{matrix}.npz",
        info="results/similarity/matrices/{matrix}.info.csv",
    params:
        **SIM_MATRIX.params,
    log:
        "logs/similarity_matrix/{matrix}.log",
    benchmark:
        "results/benchmarks/similarity_matrix/{matrix}.tsv"
    conda:
        CONDA_ENV
    threads: SIM_MATRIX.threads
    resources:
        **SIM_MATRIX.resources,
    script:
        "../scripts/similarity_matrix.py"


rule similarity_errors:
    wildcard_constraints:
        matrix=one_of(SIM_MATRICES),
    input:
        matrix="results/similarity/matrices/{matrix}.npz",
    output:
        errors="results/similarity/errors/{matrix}.csv",
        eigenvalues="results/similarity/spectra/{matrix}.eigenvalues.csv",
        submatrices="results/similarity/spectra/{matrix}.submatrices.csv",
    params:
        **SIM_ERRORS.params,
    log:
        "logs/similarity_errors/{matrix}.log",
    benchmark:
        "results/benchmarks/similarity_errors/{matrix}.tsv"
    conda:
        CONDA_ENV
    threads: SIM_ERRORS.threads
    script:
        "../scripts/similarity_errors.py"


rule similarity_tidy:
    localrule: True
    input:
        errors=expand("results/similarity/errors/{matrix}.csv", matrix=SIM_MATRICES),
        eigenvalues=expand("results/similarity/spectra/{matrix}.eigenvalues.csv",
                           matrix=SIM_MATRICES),
        submatrices=expand("results/similarity/spectra/{matrix}.submatrices.csv",
                           matrix=SIM_MATRICES),
        matrices=expand("results/similarity/matrices/{matrix}.info.csv", matrix=SIM_MATRICES),
    output:
        **{name: f"results/{path}" for name, path in SIM_TIDY.items()},
    params:
        **SIM_TIDY_JOB.params,
    log:
        "logs/similarity_tidy/tidy.log",
    conda:
        CONDA_ENV
    threads: SIM_TIDY_JOB.threads
    script:
        "../scripts/similarity_tidy.py"


rule similarity_render:
    localrule: True
    input:
        **{name: f"results/{path}" for name, path in SIM_TIDY.items()},
    output:
        error_pdf=f"{SIM_FIGURES}/figure1_error_vs_sample_fraction.pdf",
        error_png=report(
            f"{SIM_FIGURES}/figure1_error_vs_sample_fraction.png",
            caption="../report/similarity_errors.rst",
            category="SMS-Nyström",
            subcategory="Approximation error",
            labels={"figure": "error vs s/n (paper Figure 1)"},
        ),
        spectra_pdf=f"{SIM_FIGURES}/figure2_spectra.pdf",
        spectra_png=report(
            f"{SIM_FIGURES}/figure2_spectra.png",
            caption="../report/similarity_spectra.rst",
            category="SMS-Nyström",
            subcategory="Spectra",
            labels={"figure": "spectra and submatrix conditioning (paper Figure 2)"},
        ),
        table_csv=report(
            f"{SIM_TABLES}/diagnostics.csv",
            caption="../report/similarity_diagnostics.rst",
            category="SMS-Nyström",
            subcategory="Diagnostics",
            labels={"table": "matrix diagnostics and errors"},
        ),
        table_md=f"{SIM_TABLES}/diagnostics.md",
        table_tex=f"{SIM_TABLES}/diagnostics.tex",
    params:
        **SIM_RENDER.params,
    log:
        "logs/similarity_render/render.log",
    conda:
        CONDA_ENV
    threads: SIM_RENDER.threads
    script:
        "../scripts/similarity_render.py"


FINAL_OUTPUTS.append(
    lambda: [
        f"{SIM_FIGURES}/figure1_error_vs_sample_fraction.pdf",
        f"{SIM_FIGURES}/figure1_error_vs_sample_fraction.png",
        f"{SIM_FIGURES}/figure2_spectra.pdf",
        f"{SIM_FIGURES}/figure2_spectra.png",
        f"{SIM_TABLES}/diagnostics.csv",
        f"{SIM_TABLES}/diagnostics.md",
        f"{SIM_TABLES}/diagnostics.tex",
    ]
    if config["similarity"]["enabled"]
    else []
)
