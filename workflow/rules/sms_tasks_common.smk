# Input functions and targets of the `sms_tasks` part (workflow/rules/sms_tasks.smk).

import importlib.util

from lowdim.approx import SMS_METHODS
from lowdim.seeding import derive_seed
from lowdim.settings import wmd_corpus_settings


TASKS = config["sms_tasks"]
WMDC = TASKS["wmd_classification"]
GLUE = TASKS["glue"]
COREF = TASKS["coreference"]
WMD_CORPORA = {c["name"]: c for c in WMDC["corpora"]}
GLUE_TASKS = {t["dataset"]: t for t in GLUE["tasks"]}
COREF_CORPORA = {c["name"]: c for c in COREF["corpora"]}
TASKS_DIR = "results/similarity/tasks"
TASKS_TIDY = "results/similarity/tidy"
TASKS_TABLES = "results/tables/similarity"
PUBLISHED_TASKS = str(Path(workflow.basedir) / "config" / "published" / "sms_tasks.yaml")


def glue_not_run_reason():
    """Why the GLUE table cannot be computed in this run, or "" when it can."""
    if not GLUE["tasks"]:
        return (f"no GLUE task is configured in profile {config['profile']!r} "
                f"(sms_tasks.glue.tasks is empty): the cross-encoder matrices need fine-tuned "
                f"transformer models and the GLUE downloads; config/paper.yaml runs them")
    missing = [m for m in ("transformers", "torch") if importlib.util.find_spec(m) is None]
    if missing:
        return (f"the `crossencoder` extra is not installed (missing {', '.join(missing)}): "
                f"pip install 'lowdim[crossencoder]'")
    return ""


def wmd_kernel_path(corpus):
    """The WMD kernel of a corpus: the `similarity` matrix it names, or our own."""
    matrix = WMD_CORPORA[corpus]["matrix"]
    if matrix:
        return f"results/similarity/matrices/{matrix}.npz"
    return f"{TASKS_DIR}/wmd/{corpus}/kernel.npz"


def wmd_corpus(corpus, name):
    """Setting `name` (gamma0, word_vectors, large_rank_max) of WMD corpus `corpus`: its own,
    or that of the `similarity` matrix it names (lowdim.settings)."""
    return wmd_corpus_settings(config, corpus)[name][0]


def wme_inputs(wildcards):
    if wildcards.method != "wme":
        return []
    return expand(f"{TASKS_DIR}/wmd/{wildcards.corpus}/wme_dmax{{d}}.npz",
                  d=WMDC["wme"]["d_max"])


def wmd_outputs(pattern):
    return expand(pattern, corpus=list(WMD_CORPORA), method=WMDC["methods"])


# Per rule, not global: other parts of the workflow use wildcards of the same names.
TASK_WILDCARDS = {
    "corpus": "|".join(WMD_CORPORA) or "__no_corpus__",
    "wmd_method": "|".join(WMDC["methods"]),
    "task": "|".join(GLUE_TASKS) or "__no_task__",
    "coref": "|".join(COREF_CORPORA) or "__no_corpus__",
    "coref_method": "|".join(["exact"] + COREF["methods"]),
}


def sms_tasks_targets():
    if not TASKS["enabled"]:
        return []
    targets = []
    parts = (("table1_wmd_classification", WMDC, WMD_CORPORA), ("glue", GLUE, True),
             ("coreference", COREF, COREF_CORPORA))
    for name, part, configured in parts:
        if part["enabled"] and configured:
            targets += expand(f"{TASKS_TABLES}/{name}.{{ext}}", ext=["csv", "md", "tex"])
    return targets

