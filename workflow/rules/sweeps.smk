# Sweeps (config `sweeps:`, lowdim.sweeps): one run of an experiment per value of one key.
#
# Each value is a module of this workflow with its own validated config and its results
# and logs under results/sweeps/{sweep}/{leaf}~{value}/ and logs/sweeps/...: its jobs
# depend only on that value, so changing or adding one value runs only its jobs, and the
# runs never overwrite each other. Prepared datasets the value leaves alone are the main
# run's (dataset_npz). Then tidy (the metric of every run) -> table and figure.

from lowdim.sweeps import expand_sweeps


try:
    SWEEPS = {
        sweep.name: sweep
        for sweep in expand_sweeps(
            config, lambda c: check_config(validate_config(c, SCHEMA))
        )
    }
except ConfigError as error:
    sys.exit(str(error))


for _sweep in SWEEPS.values():
    for _run in _sweep.runs:
        _module = _run.module

        module:
            name:
                _module
            snakefile:
                os.path.join(workflow.basedir, "Snakefile")
            config:
                _run.config
            replace_prefix:
                {"results/": _run.prefix, "logs/": _run.log_prefix}

        use rule * from _module exclude all as _module*


wildcard_constraints:
    sweep="|".join(SWEEPS) or "no_sweep",


rule sweep_tidy:
    input:
        runs=lambda w: SWEEPS[w.sweep].targets(),
    output:
        csv="results/sweeps/{sweep}/tidy.csv",
    params:
        sweep=lambda w: sorted_params(SWEEPS[w.sweep].params()),
        config_keys=lambda w: SWEEPS[w.sweep].config_keys(),
    log:
        "logs/sweep_tidy/{sweep}.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sweep_tidy.py"


rule sweep_table:
    input:
        csv="results/sweeps/{sweep}/tidy.csv",
    output:
        md=report(
            "results/tables/sweeps/{sweep}.md",
            caption="../report/sweep.rst",
            category="Sweeps",
            subcategory="{sweep}",
            labels={"sweep": "{sweep}", "kind": "table"},
        ),
        csv="results/tables/sweeps/{sweep}.csv",
        tex="results/tables/sweeps/{sweep}.tex",
    params:
        caption=lambda w: f"Sweep {w.sweep}: {SWEEPS[w.sweep].metric.label} against "
        f"{SWEEPS[w.sweep].key} ({config['profile']} profile).",
        higher_is_better=lambda w: SWEEPS[w.sweep].metric.higher_is_better,
        config_keys=lambda w: SWEEPS[w.sweep].config_keys(),
    log:
        "logs/sweep_table/{sweep}.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sweep_table.py"


rule sweep_figure:
    input:
        csv="results/sweeps/{sweep}/tidy.csv",
    output:
        pdf="results/figures/sweeps/{sweep}.pdf",
        png=report(
            "results/figures/sweeps/{sweep}.png",
            caption="../report/sweep.rst",
            category="Sweeps",
            subcategory="{sweep}",
            labels={"sweep": "{sweep}", "kind": "figure"},
        ),
    params:
        label=lambda w: SWEEPS[w.sweep].metric.axis,
        profile=config["profile"],
        config_keys=lambda w: SWEEPS[w.sweep].config_keys(),
    log:
        "logs/sweep_figure/{sweep}.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sweep_figure.py"


FINAL_OUTPUTS.append(
    lambda: [
        f"results/{kind}/sweeps/{name}.{ext}"
        for name in SWEEPS
        for kind, exts in (("tables", ("md", "csv", "tex")), ("figures", ("pdf", "png")))
        for ext in exts
    ]
)
