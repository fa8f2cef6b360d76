# The `sms_tasks` part of the workflow (config section `sms_tasks:`): the SMS-Nyström
# paper's downstream tasks on approximated similarity matrices.
#
#   WMD classification: dataset -> WMD kernel (or the `similarity` rules' matrix)
#     -> WME similarities (per D_max) -> one classification job per corpus x method
#   GLUE: dataset -> cross-encoder matrix -> scores of every method
#   Coreference: dataset -> pairwise MLP and topic matrices -> one clustering job per
#     corpus (every method, the exact matrix included)
#   -> sms_tasks_tidy -> sms_tasks_render (the three tables; GLUE's says why it did not run
#      when no task is configured or the extra is missing)
# Every setting comes from lowdim.settings.sms_tasks.

from lowdim.settings.sms_tasks import TABLES as TASK_TABLES
from lowdim.settings.sms_tasks import TASKS_DIR as _TASKS_DIR
from lowdim.settings.sms_tasks import TIDY as TASK_TIDY
from lowdim.settings.sms_tasks import (coref_corpora, coref_dataset, glue_models, glue_tasks,
                                       table_parts, tidy_parts, wmd_corpora, wmd_corpus,
                                       wmd_kernel_file, wmd_methods, wme_files)


TASKS_DIR = f"results/{_TASKS_DIR}"
TASKS_TABLES = "results/tables/similarity"
PUBLISHED_TASKS = repository_path("config/published/sms_tasks.yaml")
WMD_CORPORA = wmd_corpora(config)
WMD_METHODS = wmd_methods(config)
GLUE_TASKS = glue_tasks(config)
COREF_CORPORA = coref_corpora(config)
TASK_TIDY_PARTS = tidy_parts(config)
TASK_TABLE_PARTS = table_parts(config)
WMD_KERNEL = job_params("sms_tasks", "wmd_kernel")
WME = job_params("sms_tasks", "wme")
WMD_CLASSIFY = job_params("sms_tasks", "wmd_classify")
GLUE_MATRIX = job_params("sms_tasks", "glue_matrix")
GLUE_SCORES = job_params("sms_tasks", "glue_scores")
COREF_MATRICES = job_params("sms_tasks", "coref_matrices")
COREF_CLUSTER = job_params("sms_tasks", "coref_cluster")
TASKS_TIDY = job_params("sms_tasks", "tidy")
TASKS_RENDER = job_params("sms_tasks", "render")
# Per rule, not global: other parts of the workflow use wildcards of the same names.
TASK_WILDCARDS = {
    "corpus": one_of(WMD_CORPORA),
    "wmd_method": one_of(WMD_METHODS),
    "task": one_of(GLUE_TASKS),
    "coref": one_of(COREF_CORPORA),
}


rule sms_wmd_kernel:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["corpus"],
    input:
        data=lambda w: dataset_npz(wmd_corpus(config, w.corpus)["dataset"]),
    output:
        npz=f"{TASKS_DIR}/wmd/{{corpus}}/kernel.npz",
    params:
        **WMD_KERNEL.params,
    log:
        "logs/sms_wmd_kernel/{corpus}.log",
    benchmark:
        "results/benchmarks/sms_wmd_kernel/{corpus}.tsv"
    conda:
        CONDA_ENV
    threads: WMD_KERNEL.threads
    resources:
        **WMD_KERNEL.resources,
    script:
        "../scripts/sms_wmd_kernel.py"


rule sms_wme_similarities:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["corpus"],
        d_max=r"\d+",
    input:
        data=lambda w: dataset_npz(wmd_corpus(config, w.corpus)["dataset"]),
        kernel=lambda w: wmd_kernel_file(config, w.corpus),
    output:
        npz=f"{TASKS_DIR}/wmd/{{corpus}}/wme_dmax{{d_max}}.npz",
    params:
        **WME.params,
    log:
        "logs/sms_wme_similarities/{corpus}/dmax{d_max}.log",
    benchmark:
        "results/benchmarks/sms_wme_similarities/{corpus}/dmax{d_max}.tsv"
    conda:
        CONDA_ENV
    threads: WME.threads
    # WME then its classification is the default run's longest chain after the WMD kernel:
    # started as soon as the kernel exists, it does not run alone at the end (scheduling
    # only; nothing it computes changes)
    priority: 1
    resources:
        **WME.resources,
    script:
        "../scripts/sms_wme_similarities.py"


rule sms_wmd_classify:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["corpus"],
        method=TASK_WILDCARDS["wmd_method"],
    input:
        data=lambda w: dataset_npz(wmd_corpus(config, w.corpus)["dataset"]),
        kernel=lambda w: wmd_kernel_file(config, w.corpus),
        wme=lambda w: wme_files(config, w.corpus, w.method),
    output:
        csv=f"{TASKS_DIR}/wmd/{{corpus}}/{{method}}.csv",
    params:
        **WMD_CLASSIFY.params,
    log:
        "logs/sms_wmd_classify/{corpus}/{method}.log",
    benchmark:
        "results/benchmarks/sms_wmd_classify/{corpus}/{method}.tsv"
    conda:
        CONDA_ENV
    priority: 1  # see sms_wme_similarities
    threads: WMD_CLASSIFY.threads
    resources:
        **WMD_CLASSIFY.resources,
    script:
        "../scripts/sms_wmd_classify.py"


rule sms_glue_matrix:
    wildcard_constraints:
        task=TASK_WILDCARDS["task"],
    input:
        data=lambda w: dataset_npz(w.task),
        model=lambda w: glue_models(config, w.task),
    output:
        npz=f"{TASKS_DIR}/glue/{{task}}/matrix.npz",
    params:
        **GLUE_MATRIX.params,
    log:
        "logs/sms_glue_matrix/{task}.log",
    benchmark:
        "results/benchmarks/sms_glue_matrix/{task}.tsv"
    conda:
        CONDA_ENV
    threads: GLUE_MATRIX.threads
    resources:
        **GLUE_MATRIX.resources,
    script:
        "../scripts/sms_glue_matrix.py"


rule sms_glue_scores:
    wildcard_constraints:
        task=TASK_WILDCARDS["task"],
    input:
        matrix=f"{TASKS_DIR}/glue/{{task}}/matrix.npz",
    output:
        csv=f"{TASKS_DIR}/glue/{{task}}/scores.csv",
    params:
        **GLUE_SCORES.params,
    log:
        "logs/sms_glue_scores/{task}.log",
    benchmark:
        "results/benchmarks/sms_glue_scores/{task}.tsv"
    conda:
        CONDA_ENV
    threads: GLUE_SCORES.threads
    script:
        "../scripts/sms_glue_scores.py"


rule sms_coref_matrices:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["coref"],
    input:
        data=lambda w: dataset_npz(coref_dataset(config, w.corpus)),
    output:
        npz=f"{TASKS_DIR}/coref/{{corpus}}/topics.npz",
    params:
        **COREF_MATRICES.params,
    log:
        "logs/sms_coref_matrices/{corpus}.log",
    benchmark:
        "results/benchmarks/sms_coref_matrices/{corpus}.tsv"
    conda:
        CONDA_ENV
    threads: COREF_MATRICES.threads
    resources:
        **COREF_MATRICES.resources,
    script:
        "../scripts/sms_coref_matrices.py"


rule sms_coref_cluster:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["coref"],
    input:
        topics=f"{TASKS_DIR}/coref/{{corpus}}/topics.npz",
    output:
        csv=f"{TASKS_DIR}/coref/{{corpus}}/clustering.csv",
    params:
        **COREF_CLUSTER.params,
    log:
        "logs/sms_coref_cluster/{corpus}.log",
    benchmark:
        "results/benchmarks/sms_coref_cluster/{corpus}.tsv"
    conda:
        CONDA_ENV
    threads: COREF_CLUSTER.threads
    resources:
        **COREF_CLUSTER.resources,
    script:
        "../scripts/sms_coref_cluster.py"


#: Each task's results, in the order of its tidy file's labels (lowdim.settings.sms_tasks).
TASK_RESULTS = {
    "wmd_classification": expand(f"{TASKS_DIR}/wmd/{{corpus}}/{{method}}.csv",
                                 corpus=WMD_CORPORA, method=WMD_METHODS),
    "glue": expand(f"{TASKS_DIR}/glue/{{task}}/scores.csv", task=GLUE_TASKS),
    "coreference": expand(f"{TASKS_DIR}/coref/{{corpus}}/clustering.csv", corpus=COREF_CORPORA),
}


if TASK_TIDY_PARTS:

    rule sms_tasks_tidy:
        localrule: True
        input:
            **{part: TASK_RESULTS[part] for part in TASK_TIDY_PARTS},
        output:
            **{part: f"results/{TASK_TIDY[part]}" for part in TASK_TIDY_PARTS},
        params:
            **TASKS_TIDY.params,
        log:
            "logs/sms_tasks_tidy/tidy.log",
        conda:
            CONDA_ENV
        threads: TASKS_TIDY.threads
        script:
            "../scripts/sms_tidy.py"


TASK_CAPTIONS = {
    "wmd_classification": ("WMD classification", "WMD document classification (paper Table 1)"),
    "glue": ("GLUE", "GLUE with an approximated cross-encoder matrix"),
    "coreference": ("Coreference", "coreference clustering, CoNLL F1"),
}


if TASK_TABLE_PARTS:

    rule sms_tasks_render:
        localrule: True
        input:
            **{part: f"results/{TASK_TIDY[part]}" for part in TASK_TIDY_PARTS},
            published=PUBLISHED_TASKS,
        output:
            **{
                part: report(
                    f"{TASKS_TABLES}/{TASK_TABLES[part]}.csv",
                    caption=f"../report/sms_tasks_{part}.rst",
                    category="SMS-Nyström",
                    subcategory=TASK_CAPTIONS[part][0],
                    labels={"table": TASK_CAPTIONS[part][1]},
                )
                for part in TASK_TABLE_PARTS
            },
            other=[f"{TASKS_TABLES}/{TASK_TABLES[part]}.{ext}" for part in TASK_TABLE_PARTS
                   for ext in ("md", "tex")],
        params:
            **TASKS_RENDER.params,
        log:
            "logs/sms_tasks_render/render.log",
        conda:
            CONDA_ENV
        threads: TASKS_RENDER.threads
        script:
            "../scripts/sms_tasks_render.py"


FINAL_OUTPUTS.append(
    lambda: [f"{TASKS_TABLES}/{TASK_TABLES[part]}.{ext}" for part in TASK_TABLE_PARTS
             for ext in ("csv", "md", "tex")]
    if config["sms_tasks"]["enabled"]
    else []
)
