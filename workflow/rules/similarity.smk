# The `similarity` part of the workflow (config section `similarity:`): SMS-Nyström.
#
#   dataset -> similarity_matrix (whole K, timed) -> similarity_errors (one job per
#   matrix x method: every fraction x seed) and similarity_spectrum -> similarity_tidy
#   -> error figure, spectra figure, diagnostics table.

from lowdim.seeding import derive_seed


SIM = config["similarity"]
SIM_MATRICES = {spec["name"]: spec for spec in SIM["matrices"]}
SIM_TIDY = "results/similarity/tidy"


def _check_similarity_config():
    names = [spec["name"] for spec in SIM["matrices"]]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        sys.exit(f"config: similarity.matrices: duplicated name(s) {duplicated}")
    if SIM["enabled"] and not names:
        sys.exit("config: similarity.matrices: empty, but similarity.enabled is true")
    if not any(abs(f - SIM["table_fraction"]) < 1e-12 for f in SIM["fractions"]):
        sys.exit(f"config: similarity.table_fraction: got {SIM['table_fraction']}; "
                 f"must be one of similarity.fractions {SIM['fractions']}")
    too_big = [f for f in SIM["fractions"] if f * SIM["sms"]["multiplier"] > 1]
    if "sms_nystrom" in SIM["methods"] and too_big:
        sys.exit(f"config: similarity.fractions: {too_big} times sms.multiplier "
                 f"{SIM['sms']['multiplier']} exceeds 1 (|S2| would exceed n)")


_check_similarity_config()


def sim_spec(matrix):
    """The result-changing part of a matrix's config: its kind's options only."""
    spec = SIM_MATRICES[matrix]
    keys = ("kind", "dataset", "n_items", spec["kind"])
    return {key: spec[key] for key in keys}


def sim_method_options(method):
    return dict(SIM["sms"]) if method == "sms_nystrom" else {}


def sim_per_matrix(pattern):
    return expand(pattern, matrix=list(SIM_MATRICES))


def sim_per_matrix_method(pattern):
    return expand(pattern, matrix=list(SIM_MATRICES), method=SIM["methods"])


# Per rule, not global: other parts of the workflow have wildcards of the same names.
SIM_WILDCARDS = {
    "matrix": "|".join(SIM_MATRICES) or "__no_matrix__",
    "method": "|".join(SIM["methods"]),
}


rule similarity_matrix:
    wildcard_constraints:
        matrix=SIM_WILDCARDS["matrix"],
    input:
        data=lambda w: dataset_npz(SIM_MATRICES[w.matrix]["dataset"]),
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
    threads: lambda w: SIM_MATRICES[w.matrix]["threads"]
    resources:
        mem_mb=lambda w: SIM_MATRICES[w.matrix]["mem_mb"],
        runtime=lambda w: SIM_MATRICES[w.matrix]["runtime"],
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
    threads: 1
    script:
        "../scripts/similarity_spectrum.py"


rule similarity_tidy:
    input:
        errors=sim_per_matrix_method("results/similarity/errors/{matrix}/{method}.csv"),
        eigenvalues=sim_per_matrix("results/similarity/spectra/{matrix}.eigenvalues.csv"),
        submatrices=sim_per_matrix("results/similarity/spectra/{matrix}.submatrices.csv"),
        matrices=sim_per_matrix("results/similarity/matrices/{matrix}.info.csv"),
    output:
        errors=f"{SIM_TIDY}/errors.csv",
        eigenvalues=f"{SIM_TIDY}/eigenvalues.csv",
        submatrices=f"{SIM_TIDY}/submatrix_eigenvalues.csv",
        matrices=f"{SIM_TIDY}/matrices.csv",
    log:
        "logs/similarity_tidy/tidy.log",
    threads: 1
    script:
        "../scripts/similarity_tidy.py"


rule similarity_error_figure:
    input:
        errors=f"{SIM_TIDY}/errors.csv",
        eigenvalues=f"{SIM_TIDY}/eigenvalues.csv",
        matrices=f"{SIM_TIDY}/matrices.csv",
    output:
        pdf="results/figures/similarity/error_vs_sample_fraction.pdf",
        png=report(
            "results/figures/similarity/error_vs_sample_fraction.png",
            caption="../report/similarity_errors.rst",
            category="SMS-Nyström",
            subcategory="Approximation error",
            labels={"figure": "error vs s/n (paper Figure 1)"},
        ),
    params:
        profile=config["profile"],
    log:
        "logs/similarity_error_figure/figure.log",
    threads: 1
    script:
        "../scripts/similarity_error_figure.py"


rule similarity_spectra_figure:
    input:
        eigenvalues=f"{SIM_TIDY}/eigenvalues.csv",
        submatrices=f"{SIM_TIDY}/submatrix_eigenvalues.csv",
    output:
        pdf="results/figures/similarity/spectra.pdf",
        png=report(
            "results/figures/similarity/spectra.png",
            caption="../report/similarity_spectra.rst",
            category="SMS-Nyström",
            subcategory="Spectra",
            labels={"figure": "spectra and submatrix conditioning (paper Figure 2)"},
        ),
    params:
        profile=config["profile"],
    log:
        "logs/similarity_spectra_figure/figure.log",
    threads: 1
    script:
        "../scripts/similarity_spectra_figure.py"


rule similarity_diagnostics_table:
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
    threads: 1
    script:
        "../scripts/similarity_diagnostics_table.py"


FINAL_OUTPUTS.append(
    lambda: [
        "results/figures/similarity/error_vs_sample_fraction.pdf",
        "results/figures/similarity/error_vs_sample_fraction.png",
        "results/figures/similarity/spectra.pdf",
        "results/figures/similarity/spectra.png",
        "results/tables/similarity/diagnostics.csv",
        "results/tables/similarity/diagnostics.md",
        "results/tables/similarity/diagnostics.tex",
    ]
    if SIM["enabled"]
    else []
)
