# Datasets: download (remote only) -> prepare -> dataset table. A rehearsal first writes
# format-exact replicas (replica_mirror), which the downloads fetch through resources.mirrors.

from lowdim.data import dataset_names


include: "data_common.smk"


wildcard_constraints:
    dataset="|".join(sorted(set(dataset_names()) | set(configured_datasets()))),


if REPLICA_MANIFEST:

    rule replica_mirror:
        output:
            manifest=REPLICA_MANIFEST,
            files=replica_files(),
        params:
            datasets=[name for name in configured_datasets()
                      if not dataset_spec(name, config["datasets"].get(name)).offline],
            seed=config["seed"],
        log:
            "logs/replica_mirror/replicas.log",
        conda:
            CONDA_ENV
        threads: 1
        script:
            "../scripts/replica_mirror.py"


rule download:
    localrule: True
    input:
        manifest=REPLICA_MANIFEST or [],
    output:
        f"{RAW_DIR}/{{dataset}}/{{filename}}",
    params:
        lockfile=config["resources"]["lockfile"],
        timeout=config["resources"]["timeout"],
        retries=config["resources"]["retries"],
        mirrors=config["resources"]["mirrors"],
    log:
        "logs/download/{dataset}/{filename}.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/download.py"


rule prepare:
    input:
        raw=lambda w: raw_files(w.dataset),
    output:
        npz="results/data/{dataset}.npz",
        summary="results/data/{dataset}.summary.csv",
    params:
        options=lambda w: dataset_options(w.dataset),
        raw_dir=RAW_DIR,
        lockfile=config["resources"]["lockfile"],
        manifest=lambda w: REPLICA_MANIFEST if REPLICA_MANIFEST and remote_files(w.dataset) else "",
    log:
        "logs/prepare/{dataset}.log",
    benchmark:
        "results/benchmarks/prepare/{dataset}.tsv"
    conda:
        CONDA_ENV
    threads: lambda w: prepare_hint(w.dataset, "threads", 1)
    resources:
        mem_mb=lambda w: prepare_hint(w.dataset, "mem_mb", 4000),
        runtime=lambda w: prepare_hint(w.dataset, "runtime", 30),
    script:
        "../scripts/prepare.py"


rule dataset_table:
    localrule: True
    input:
        summaries=lambda w: expand(
            "results/data/{dataset}.summary.csv", dataset=configured_datasets()
        ),
    output:
        csv=report(
            "results/tables/data/datasets.csv",
            caption="../report/datasets.rst",
            category="Data",
            subcategory="Datasets",
            labels={"table": "datasets"},
        ),
        md="results/tables/data/datasets.md",
    params:
        profile=config["profile"],
    log:
        "logs/dataset_table/datasets.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/dataset_table.py"


FINAL_OUTPUTS.append(
    lambda: [dataset_npz(name) for name in configured_datasets()]
    + ["results/tables/data/datasets.csv", "results/tables/data/datasets.md"]
)
