# The `similarity` part of the workflow (config section `similarity:`): SMS-Nyström.
#
#   dataset -> similarity_matrix (whole K, timed) -> similarity_errors (one job per
#   matrix x method: every fraction x seed) and similarity_spectrum -> similarity_tidy_*
#   (one row per measurement) -> error figure, spectra figure, diagnostics table.

include: "similarity_common.smk"


rule similarity_matrix:
    wildcard_constraints:
        matrix=SIM_WILDCARDS["matrix"],
    input:
        data=lambda w: dataset_npz(SIM_MATRICES[w.matrix]["dataset"]),
        model=lambda w: sim_model_inputs(w.matrix),
    output:
        npz="results/similarity/matrices/{matrix}.npz",
        info="results/similarity/matrices/{matrix}.info.csv",
    params:
        spec=lambda w: sim_spec(w.matrix),
        seed=lambda w: derive_seed(config["seed"], "similarity_matrix", w.matrix),
    log:
        "logs/similarity_matrix/{matrix}.log",
    benchmark:
        "results/benchmarks/similarity_matrix/{matrix}.tsv"
    conda:
        CONDA_ENV
    threads: lambda w: SIM_MATRICES[w.matrix]["threads"]
    resources:
        mem_mb=lambda w: SIM_MATRICES[w.matrix]["mem_mb"],
        runtime=lambda w: SIM_MATRICES[w.matrix]["runtime"],
        gpu=lambda w: SIM_MATRICES[w.matrix]["gpu"],
        gpu_model=lambda w: SIM_MATRICES[w.matrix]["gpu_model"],
    script:
        "../scripts/similarity_matrix.py"


rule similarity_errors:
    wildcard_constraints:
        matrix=SIM_WILDCARDS["matrix"],
        method=SIM_WILDCARDS["method"],
    input:
        matrix="results/similarity/matrices/{matrix}.npz",
    output:
        csv="results/similarity/errors/{matrix}/{method}.csv",
    params:
        fractions=SIM["fractions"],
        n_seeds=SIM["n_seeds"],
        seed=config["seed"],
        options=lambda w: sim_method_options(w.method),
    log:
        "logs/similarity_errors/{matrix}/{method}.log",
    benchmark:
        "results/benchmarks/similarity_errors/{matrix}/{method}.tsv"
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/similarity_errors.py"


rule similarity_spectrum:
    wildcard_constraints:
        matrix=SIM_WILDCARDS["matrix"],
    input:
        matrix="results/similarity/matrices/{matrix}.npz",
    output:
        eigenvalues="results/similarity/spectra/{matrix}.eigenvalues.csv",
        submatrices="results/similarity/spectra/{matrix}.submatrices.csv",
    params:
        sizes=SIM["spectra"]["sizes"],
        n_draws=SIM["spectra"]["n_draws"],
        seed=lambda w: derive_seed(config["seed"], "similarity_spectrum", w.matrix),
    log:
        "logs/similarity_spectrum/{matrix}.log",
    benchmark:
        "results/benchmarks/similarity_spectrum/{matrix}.tsv"
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/similarity_spectrum.py"


rule similarity_tidy_errors:
    localrule: True
    input:
        errors=sim_per_matrix_method("results/similarity/errors/{matrix}/{method}.csv"),
    output:
        errors=f"{SIM_TIDY}/errors.csv",
    log:
        "logs/similarity_tidy_errors/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/similarity_tidy.py"


rule similarity_tidy_spectra:
    localrule: True
    input:
        eigenvalues=sim_per_matrix("results/similarity/spectra/{matrix}.eigenvalues.csv"),
        submatrices=sim_per_matrix("results/similarity/spectra/{matrix}.submatrices.csv"),
        matrices=sim_per_matrix("results/similarity/matrices/{matrix}.info.csv"),
    output:
        eigenvalues=f"{SIM_TIDY}/eigenvalues.csv",
        submatrices=f"{SIM_TIDY}/submatrix_eigenvalues.csv",
        matrices=f"{SIM_TIDY}/matrices.csv",
    log:
        "logs/similarity_tidy_spectra/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/similarity_tidy.py"


rule similarity_error_figure:
    localrule: True
    input:
        errors=f"{SIM_TIDY}/errors.csv",
        eigenvalues=f"{SIM_TIDY}/eigenvalues.csv",
        matrices=f"{SIM_TIDY}/matrices.csv",
    output:
        pdf="results/figures/similarity/figure1_error_vs_sample_fraction.pdf",
        png=report(
            "results/figures/similarity/figure1_error_vs_sample_fraction.png",
            caption="../report/similarity_errors.rst",
            category="SMS-Nyström",
            subcategory="Approximation error",
            labels={"figure": "error vs s/n (paper Figure 1)"},
        ),
    params:
        profile=config["profile"],
    log:
        "logs/similarity_error_figure/figure.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/similarity_error_figure.py"


rule similarity_spectra_figure:
    localrule: True
    input:
        eigenvalues=f"{SIM_TIDY}/eigenvalues.csv",
        submatrices=f"{SIM_TIDY}/submatrix_eigenvalues.csv",
    output:
        pdf="results/figures/similarity/figure2_spectra.pdf",
        png=report(
            "results/figures/similarity/figure2_spectra.png",
            caption="../report/similarity_spectra.rst",
            category="SMS-Nyström",
            subcategory="Spectra",
            labels={"figure": "spectra and submatrix conditioning (paper Figure 2)"},
        ),
    params:
        profile=config["profile"],
    log:
        "logs/similarity_spectra_figure/figure.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/similarity_spectra_figure.py"


rule similarity_diagnostics_table:
    localrule: True
    input:
        errors=f"{SIM_TIDY}/errors.csv",
        eigenvalues=f"{SIM_TIDY}/eigenvalues.csv",
        matrices=f"{SIM_TIDY}/matrices.csv",
    output:
        csv=report(
            "results/tables/similarity/diagnostics.csv",
            caption="../report/similarity_diagnostics.rst",
            category="SMS-Nyström",
            subcategory="Diagnostics",
            labels={"table": "matrix diagnostics and errors"},
        ),
        md="results/tables/similarity/diagnostics.md",
        tex="results/tables/similarity/diagnostics.tex",
    params:
        profile=config["profile"],
        table_fraction=SIM["table_fraction"],
    log:
        "logs/similarity_diagnostics_table/table.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/similarity_diagnostics_table.py"


FINAL_OUTPUTS.append(
    lambda: [
        "results/figures/similarity/figure1_error_vs_sample_fraction.pdf",
        "results/figures/similarity/figure1_error_vs_sample_fraction.png",
        "results/figures/similarity/figure2_spectra.pdf",
        "results/figures/similarity/figure2_spectra.png",
        "results/tables/similarity/diagnostics.csv",
        "results/tables/similarity/diagnostics.md",
        "results/tables/similarity/diagnostics.tex",
    ]
    if SIM["enabled"]
    else []
)
