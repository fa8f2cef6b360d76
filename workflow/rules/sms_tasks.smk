# The `sms_tasks` part of the workflow (config section `sms_tasks:`): the SMS-Nyström
# paper's downstream tasks on approximated similarity matrices.
#
#   WMD classification: dataset -> WMD kernel (or the `similarity` rules' matrix)
#     -> WME similarities (per D_max) -> one classification job per corpus x method
#     -> tidy -> table
#   GLUE: dataset -> cross-encoder matrix -> scores of every method -> tidy -> table
#         (a "not run" table when no task is configured or the extra is missing)
#   Coreference: dataset -> pairwise MLP and topic matrices -> one clustering job per
#     corpus x method (exact included) -> tidy -> table with published numbers

include: "sms_tasks_common.smk"


rule sms_wmd_kernel:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["corpus"],
    input:
        data=lambda w: dataset_npz(WMD_CORPORA[w.corpus]["dataset"]),
    output:
        npz=f"{TASKS_DIR}/wmd/{{corpus}}/kernel.npz",
    params:
        spec=lambda w: sorted_params({
            "kind": "wmd", "dataset": WMD_CORPORA[w.corpus]["dataset"],
            "n_items": WMD_CORPORA[w.corpus]["n_items"],
            "wmd": {"gamma": WMD_CORPORA[w.corpus]["gamma0"],
                    "word_vectors": WMD_CORPORA[w.corpus]["word_vectors"]}}),
        seed=lambda w: derive_seed(config["seed"], "sms_wmd_kernel", w.corpus),
    log:
        "logs/sms_wmd_kernel/{corpus}.log",
    benchmark:
        "results/benchmarks/sms_wmd_kernel/{corpus}.tsv"
    conda:
        CONDA_ENV
    threads: lambda w: WMD_CORPORA[w.corpus]["threads"]
    resources:
        mem_mb=lambda w: WMD_CORPORA[w.corpus]["mem_mb"],
        runtime=lambda w: WMD_CORPORA[w.corpus]["runtime"],
    script:
        "../scripts/sms_wmd_kernel.py"


rule sms_wme_similarities:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["corpus"],
        d_max=r"\d+",
    input:
        data=lambda w: dataset_npz(WMD_CORPORA[w.corpus]["dataset"]),
        kernel=lambda w: wmd_kernel_path(w.corpus),
    output:
        npz=f"{TASKS_DIR}/wmd/{{corpus}}/wme_dmax{{d_max}}.npz",
    params:
        n_random=lambda w: max(WMDC["ranks"]),
        unit_norm=WMDC["wme"]["unit_norm"],
        word_vectors=lambda w: wmd_corpus(w.corpus, "word_vectors"),
        seed=lambda w: derive_seed(config["seed"], "sms_wme", w.corpus, w.d_max),
    log:
        "logs/sms_wme_similarities/{corpus}/dmax{d_max}.log",
    benchmark:
        "results/benchmarks/sms_wme_similarities/{corpus}/dmax{d_max}.tsv"
    conda:
        CONDA_ENV
    threads: WMDC["wme"]["threads"]
    # WME then its classification is the default run's longest chain after the WMD kernel:
    # started as soon as the kernel exists, it does not run alone at the end (scheduling
    # only; nothing it computes changes)
    priority: 1
    resources:
        mem_mb=lambda w: WMD_CORPORA[w.corpus]["mem_mb"],
        runtime=lambda w: WMD_CORPORA[w.corpus]["runtime"],
    script:
        "../scripts/sms_wme_similarities.py"


rule sms_wmd_classify:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["corpus"],
        method=TASK_WILDCARDS["wmd_method"],
    input:
        data=lambda w: dataset_npz(WMD_CORPORA[w.corpus]["dataset"]),
        kernel=lambda w: wmd_kernel_path(w.corpus),
        wme=wme_inputs,
    output:
        csv=f"{TASKS_DIR}/wmd/{{corpus}}/{{method}}.csv",
    params:
        gamma0=lambda w: wmd_corpus(w.corpus, "gamma0"),
        gammas=WMDC["gammas"],
        ranks=lambda w: [] if w.method == "wmd_kernel" else WMDC["ranks"],
        svm=sorted_params(WMDC["svm"]),
        splits=sorted_params(WMDC["splits"]),
        options=lambda w: sorted_params(WMDC["sms"]) if w.method == "sms_nystrom" else {},
        sicur_features=lambda w: WMDC["sicur_features"] if w.method == "sicur" else "",
        d_max=lambda w: WMDC["wme"]["d_max"] if w.method == "wme" else [],
        seed=lambda w: derive_seed(config["seed"], "sms_wmd_classify", w.corpus),
    log:
        "logs/sms_wmd_classify/{corpus}/{method}.log",
    benchmark:
        "results/benchmarks/sms_wmd_classify/{corpus}/{method}.tsv"
    conda:
        CONDA_ENV
    priority: 1  # see sms_wme_similarities
    threads: 1
    resources:
        mem_mb=lambda w: WMD_CORPORA[w.corpus]["mem_mb"],
        runtime=lambda w: WMD_CORPORA[w.corpus]["runtime"],
    script:
        "../scripts/sms_wmd_classify.py"


rule sms_wmd_tidy:
    localrule: True
    input:
        csv=wmd_outputs(f"{TASKS_DIR}/wmd/{{corpus}}/{{method}}.csv"),
    output:
        csv=f"{TASKS_TIDY}/wmd_classification.csv",
    params:
        labels=[{"corpus": c} for c in WMD_CORPORA for m in WMDC["methods"]],
    log:
        "logs/sms_wmd_tidy/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sms_tidy.py"


rule sms_wmd_table:
    localrule: True
    input:
        tidy=f"{TASKS_TIDY}/wmd_classification.csv",
    output:
        csv=report(
            f"{TASKS_TABLES}/table1_wmd_classification.csv",
            caption="../report/sms_tasks_wmd_classification.rst",
            category="SMS-Nyström",
            subcategory="WMD classification",
            labels={"table": "WMD document classification (paper Table 1)"},
        ),
        md=f"{TASKS_TABLES}/table1_wmd_classification.md",
        tex=f"{TASKS_TABLES}/table1_wmd_classification.tex",
    params:
        profile=config["profile"],
        small_rank_max=WMDC["small_rank_max"],
        large_rank_max=WMDC["large_rank_max"],
        large_by_corpus={c: wmd_corpus(c, "large_rank_max") for c in WMD_CORPORA},
    log:
        "logs/sms_wmd_table/table.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sms_wmd_table.py"


rule sms_glue_matrix:
    wildcard_constraints:
        task=TASK_WILDCARDS["task"],
    input:
        data=lambda w: dataset_npz(w.task),
        model=lambda w: model_inputs(GLUE_TASKS[w.task]["model"]),
    output:
        npz=f"{TASKS_DIR}/glue/{{task}}/matrix.npz",
    params:
        task=lambda w: sorted_params({**{k: v for k, v in GLUE_TASKS[w.task].items()
                                        if k not in ("threads", "mem_mb", "runtime", "threshold",
                                                     "gpu", "gpu_model")},
                                     "model": model_path(GLUE_TASKS[w.task]["model"])}),
        seed=lambda w: derive_seed(config["seed"], "sms_glue_matrix", w.task),
    log:
        "logs/sms_glue_matrix/{task}.log",
    benchmark:
        "results/benchmarks/sms_glue_matrix/{task}.tsv"
    conda:
        CONDA_ENV
    threads: lambda w: GLUE_TASKS[w.task]["threads"]
    resources:
        mem_mb=lambda w: GLUE_TASKS[w.task]["mem_mb"],
        runtime=lambda w: GLUE_TASKS[w.task]["runtime"],
        gpu=lambda w: GLUE_TASKS[w.task]["gpu"],
        gpu_model=lambda w: GLUE_TASKS[w.task]["gpu_model"],
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
        methods=GLUE["methods"],
        fractions=GLUE["fractions"],
        n_runs=GLUE["n_runs"],
        options={m: sorted_params(GLUE["sms"]) for m in SMS_METHODS},
        threshold=lambda w: GLUE_TASKS[w.task]["threshold"],
        seed=lambda w: derive_seed(config["seed"], "sms_glue_scores", w.task),
    log:
        "logs/sms_glue_scores/{task}.log",
    benchmark:
        "results/benchmarks/sms_glue_scores/{task}.tsv"
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sms_glue_scores.py"


rule sms_glue_tidy:
    localrule: True
    input:
        csv=expand(f"{TASKS_DIR}/glue/{{task}}/scores.csv", task=list(GLUE_TASKS)),
    output:
        csv=f"{TASKS_TIDY}/glue.csv",
    params:
        labels=[{} for _ in GLUE_TASKS],
    log:
        "logs/sms_glue_tidy/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sms_tidy.py"


rule sms_glue_table:
    localrule: True
    input:
        tidy=[] if glue_not_run_reason() else f"{TASKS_TIDY}/glue.csv",
    output:
        csv=report(
            f"{TASKS_TABLES}/glue.csv",
            caption="../report/sms_tasks_glue.rst",
            category="SMS-Nyström",
            subcategory="GLUE",
            labels={"table": "GLUE with an approximated cross-encoder matrix"},
        ),
        md=f"{TASKS_TABLES}/glue.md",
        tex=f"{TASKS_TABLES}/glue.tex",
    params:
        profile=config["profile"],
        not_run=glue_not_run_reason(),
    log:
        "logs/sms_glue_table/table.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sms_glue_table.py"


rule sms_coref_matrices:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["coref"],
    input:
        data=lambda w: dataset_npz(COREF_CORPORA[w.corpus]["dataset"]),
    output:
        npz=f"{TASKS_DIR}/coref/{{corpus}}/topics.npz",
    params:
        spec=lambda w: sorted_params({k: v for k, v in COREF_CORPORA[w.corpus].items()
                                     if k not in ("name", "threads", "mem_mb", "runtime")}),
        seed=lambda w: derive_seed(config["seed"], "sms_coref_matrices", w.corpus),
    log:
        "logs/sms_coref_matrices/{corpus}.log",
    benchmark:
        "results/benchmarks/sms_coref_matrices/{corpus}.tsv"
    conda:
        CONDA_ENV
    threads: lambda w: COREF_CORPORA[w.corpus]["threads"]
    resources:
        mem_mb=lambda w: COREF_CORPORA[w.corpus]["mem_mb"],
        runtime=lambda w: COREF_CORPORA[w.corpus]["runtime"],
    script:
        "../scripts/sms_coref_matrices.py"


rule sms_coref_cluster:
    wildcard_constraints:
        corpus=TASK_WILDCARDS["coref"],
        method=TASK_WILDCARDS["coref_method"],
    input:
        topics=f"{TASKS_DIR}/coref/{{corpus}}/topics.npz",
    output:
        csv=f"{TASKS_DIR}/coref/{{corpus}}/{{method}}.csv",
    params:
        # the exact matrix has no fractions or runs: changing them leaves its job alone
        fractions=lambda w: [] if w.method == "exact" else COREF["fractions"],
        n_runs=lambda w: 1 if w.method == "exact" else COREF["n_runs"],
        thresholds=COREF["thresholds"],
        options=lambda w: sorted_params(COREF["sms"]) if w.method in SMS_METHODS else {},
        seed=lambda w: derive_seed(config["seed"], "sms_coref_cluster", w.corpus),
    log:
        "logs/sms_coref_cluster/{corpus}/{method}.log",
    benchmark:
        "results/benchmarks/sms_coref_cluster/{corpus}/{method}.tsv"
    conda:
        CONDA_ENV
    threads: 1
    resources:
        mem_mb=lambda w: COREF_CORPORA[w.corpus]["mem_mb"],
    script:
        "../scripts/sms_coref_cluster.py"


rule sms_coref_tidy:
    localrule: True
    input:
        csv=expand(f"{TASKS_DIR}/coref/{{corpus}}/{{method}}.csv", corpus=list(COREF_CORPORA),
                   method=["exact"] + COREF["methods"]),
    output:
        csv=f"{TASKS_TIDY}/coreference.csv",
    params:
        labels=[{"corpus": c} for c in COREF_CORPORA for m in ["exact"] + COREF["methods"]],
    log:
        "logs/sms_coref_tidy/tidy.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sms_tidy.py"


rule sms_coref_table:
    localrule: True
    input:
        tidy=f"{TASKS_TIDY}/coreference.csv",
        published=PUBLISHED_TASKS,
    output:
        csv=report(
            f"{TASKS_TABLES}/coreference.csv",
            caption="../report/sms_tasks_coreference.rst",
            category="SMS-Nyström",
            subcategory="Coreference",
            labels={"table": "coreference clustering, CoNLL F1"},
        ),
        md=f"{TASKS_TABLES}/coreference.md",
        tex=f"{TASKS_TABLES}/coreference.tex",
    params:
        profile=config["profile"],
    log:
        "logs/sms_coref_table/table.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/sms_coref_table.py"


FINAL_OUTPUTS.append(sms_tasks_targets)
