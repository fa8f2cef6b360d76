# Config checks, input functions and targets of the `sms_tasks` part (workflow/rules/sms_tasks.smk).

import importlib.util

from lowdim.approx import SMS_METHODS
from lowdim.seeding import derive_seed


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


def _tasks_config_errors():
    """One line per problem the schema cannot see (cross-references between sections)."""
    errors = []
    for part, names in (("wmd_classification.corpora", [c["name"] for c in WMDC["corpora"]]),
                        ("coreference.corpora", [c["name"] for c in COREF["corpora"]]),
                        ("glue.tasks", [t["dataset"] for t in GLUE["tasks"]])):
        duplicated = sorted({n for n in names if names.count(n) > 1})
        if duplicated:
            errors.append(f"sms_tasks.{part}: duplicated name(s) {duplicated}")
    matrices = SIM_MATRICES
    for corpus in WMDC["corpora"]:
        name, matrix = corpus["name"], corpus["matrix"]
        if matrix and (matrix not in matrices or matrices[matrix]["kind"] != "wmd"
                       or matrices[matrix]["dataset"] != corpus["dataset"]):
            errors.append(f"sms_tasks.wmd_classification.corpora[{name}].matrix: got {matrix!r}; "
                          f"must name a `similarity.matrices` entry of kind wmd on dataset "
                          f"{corpus['dataset']!r}")
    for corpus in [None] + WMDC["corpora"]:
        large = (corpus or {}).get("large_rank_max") or WMDC["large_rank_max"]
        if WMDC["small_rank_max"] > large:
            errors.append(f"sms_tasks.wmd_classification.small_rank_max: got "
                          f"{WMDC['small_rank_max']}; must be <= large_rank_max {large}"
                          + (f" of corpus {corpus['name']}" if corpus else ""))
    for part in (GLUE, COREF):
        too_big = [f for f in part["fractions"] if f * part["sms"]["multiplier"] > 1]
        if set(SMS_METHODS) & set(part["methods"]) and too_big:
            errors.append(f"sms_tasks: fractions {too_big} times sms.multiplier "
                          f"{part['sms']['multiplier']} exceed 1 (|S2| would exceed n)")
    return errors


if TASKS["enabled"]:
    for _error in _tasks_config_errors():
        sys.exit(f"config: {_error}")


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


def wmd_gamma0(corpus):
    matrix = WMD_CORPORA[corpus]["matrix"]
    if matrix:
        return SIM_MATRICES[matrix]["wmd"]["gamma"]
    return WMD_CORPORA[corpus]["gamma0"]


def wmd_word_vectors(corpus):
    matrix = WMD_CORPORA[corpus]["matrix"]
    if matrix:
        return SIM_MATRICES[matrix]["wmd"]["word_vectors"]
    return WMD_CORPORA[corpus]["word_vectors"]


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

