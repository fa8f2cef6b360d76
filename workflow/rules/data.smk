# Datasets: download (remote only) -> prepare -> dataset table. A rehearsal first writes
# format-exact replicas (replica_mirror), which the downloads fetch through resources.mirrors.

from lowdim.data import dataset_names
from lowdim.settings.data import datasets, raw_file, raw_files, replica_files, replica_manifest


DATASETS = datasets(config)
REPLICA_FILES = replica_files(config)
REPLICA_MANIFEST = replica_manifest(config)
DOWNLOAD = job_params("data", "download")
PREPARE = job_params("data", "prepare")
REPLICA_MIRROR = job_params("data", "replica_mirror")
DATA_TABLE = job_params("data", "table")


wildcard_constraints:
    dataset=one_of(sorted(set(dataset_names()) | set(DATASETS))),


if REPLICA_FILES:

    rule replica_mirror:
        output:
            manifest=REPLICA_MANIFEST,
            files=REPLICA_FILES,
        params:
            **REPLICA_MIRROR.params,
        log:
            "logs/replica_mirror/replicas.log",
        conda:
            CONDA_ENV
        threads: REPLICA_MIRROR.threads
        script:
            "../scripts/replica_mirror.py"


rule download:
    localrule: True
    input:
        manifest=REPLICA_MANIFEST or [],
    output:
        raw_file(config),
    params:
        **DOWNLOAD.params,
    log:
        "logs/download/{dataset}/{filename}.log",
    conda:
        CONDA_ENV
    threads: DOWNLOAD.threads
    script:
        "../scripts/download.py"


rule prepare:
    input:
        raw=lambda w: raw_files(config, w.dataset),
    output:
        npz="results/data/{dataset}.npz",
        summary="results/data/{dataset}.summary.csv",
    params:
        **PREPARE.params,
    log:
        "logs/prepare/{dataset}.log",
    benchmark:
        "results/benchmarks/prepare/{dataset}.tsv"
    conda:
        CONDA_ENV
    threads: PREPARE.threads
    resources:
        **PREPARE.resources,
    script:
        "../scripts/prepare.py"


rule dataset_table:
    localrule: True
    input:
        summaries=expand("results/data/{dataset}.summary.csv", dataset=DATASETS),
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
        **DATA_TABLE.params,
    log:
        "logs/dataset_table/datasets.log",
    conda:
        CONDA_ENV
    threads: DATA_TABLE.threads
    script:
        "../scripts/dataset_table.py"


FINAL_OUTPUTS.append(
    lambda: [dataset_npz(name) for name in DATASETS]
    + ["results/tables/data/datasets.csv", "results/tables/data/datasets.md"]
)
