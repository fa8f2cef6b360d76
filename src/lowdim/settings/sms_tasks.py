"""Settings of the sms_tasks part: the SMS-Nyström paper's downstream tasks.

WMD classification: ``wmd_kernel`` (a corpus's WMD kernel, unless the corpus names a
``similarity`` matrix), ``wme`` (its WME similarities per ``D_max``), ``wmd_classify``
(one job per corpus and method). GLUE: ``glue_matrix`` (a cross-encoder matrix per task),
``glue_scores``. Coreference: ``coref_matrices`` (a corpus's pairwise MLP and topic
matrices), ``coref_cluster`` (every method, the exact matrix included, on one corpus).
Then ``tidy`` and ``render`` (the three tables).
"""

from __future__ import annotations

import importlib.util

from ._core import (Job, config_check, duplicates, enabled, job, kind_problem, problem, seed,
                    setting)
from .models import built_models, model_location
from .similarity import sms_fraction_problem

__all__ = ["TABLES", "TASKS_DIR", "TIDY", "coref_corpora", "coref_dataset", "glue_models",
           "glue_not_run_reason", "glue_tasks", "table_parts", "tidy_parts", "wmd_corpora",
           "wmd_corpus", "wmd_corpus_settings", "wmd_kernel_file", "wmd_methods", "wme_files"]

_WMDC = "sms_tasks.wmd_classification"
_GLUE = "sms_tasks.glue"
_COREF = "sms_tasks.coreference"
#: The part's tidy files, relative to ``results/``.
TIDY = {"wmd_classification": "similarity/tidy/wmd_classification.csv",
        "glue": "similarity/tidy/glue.csv", "coreference": "similarity/tidy/coreference.csv"}
#: Where the tasks' jobs write, below ``results/``.
TASKS_DIR = "similarity/tasks"
#: Each task's table (``results/tables/similarity/<name>.{csv,md,tex}``).
TABLES = {"wmd_classification": "table1_wmd_classification", "glue": "glue",
          "coreference": "coreference"}
#: Entries of a corpus or task that set only what a job asks of the scheduler.
_HINTS = ("threads", "mem_mb", "runtime", "gpu", "gpu_model")


def _entry(config, section, field, name):
    """``(key, entry)`` of the entry of list ``section.<field>`` whose ``name`` (or
    ``dataset``, for GLUE tasks) is ``name``."""
    entries, key = setting(config, f"{section}.{field}")
    by = "dataset" if field == "tasks" else "name"
    i = next(i for i, entry in enumerate(entries) if entry[by] == name)
    return f"{key}[{i}]", entries[i]


def _hints(key, entry, names):
    return {name: (entry[name], f"{key}.{name}") for name in names}


# -- WMD classification -----------------------------------------------------------------------
def wmd_corpora(config: dict) -> list:
    """Names of the WMD classification corpora, in order.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import wmd_corpora
    >>> wmd_corpora(config)
    ['pang_lee']
    """
    return [corpus["name"] for corpus in setting(config, f"{_WMDC}.corpora")[0]]


def wmd_methods(config: dict) -> list:
    """The WMD classification methods, in order.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import wmd_methods
    >>> wmd_methods(config)[0], wmd_methods(config)[-1]
    ('wme', 'wmd_kernel')
    """
    return list(setting(config, f"{_WMDC}.methods")[0])


def wmd_corpus(config: dict, name: str) -> dict:
    """The config entry of WMD classification corpus ``name``.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import wmd_corpus
    >>> wmd_corpus(config, "pang_lee")["matrix"]
    'wmd_pang_lee'
    """
    return _entry(config, _WMDC, "corpora", name)[1]


def wmd_corpus_settings(config: dict, name: str) -> dict:
    """Settings of WMD classification corpus ``name`` that may come from elsewhere:
    ``gamma0`` and ``word_vectors`` from the ``similarity`` matrix the corpus names (else
    its own), and ``large_rank_max`` (the corpus's, else the section's).

    Examples
    --------
    >>> from lowdim.settings import wmd_corpus_settings
    >>> settings = wmd_corpus_settings(config, "pang_lee")
    >>> settings["gamma0"], settings["large_rank_max"]
    ((0.1, 'similarity.matrices[0].wmd.gamma'), (4096, 'sms_tasks.wmd_classification.large_rank_max'))
    """
    key, corpus = _entry(config, _WMDC, "corpora", name)
    settings = {"gamma0": (corpus["gamma0"], f"{key}.gamma0"),
                "word_vectors": (corpus["word_vectors"], f"{key}.word_vectors")}
    if corpus["matrix"]:
        matrices = config["similarity"]["matrices"]
        i = next(i for i, m in enumerate(matrices) if m["name"] == corpus["matrix"])
        settings = {"gamma0": setting(config, f"similarity.matrices[{i}].wmd.gamma"),
                    "word_vectors": setting(config, f"similarity.matrices[{i}].wmd.word_vectors")}
    if corpus["large_rank_max"]:
        settings["large_rank_max"] = (corpus["large_rank_max"], f"{key}.large_rank_max")
    else:
        settings["large_rank_max"] = setting(config, f"{_WMDC}.large_rank_max")
    return settings


def wmd_kernel_file(config: dict, corpus: str) -> str:
    """The WMD kernel of a corpus: the ``similarity`` matrix it names, or its own.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import wmd_kernel_file
    >>> wmd_kernel_file(config, "pang_lee")
    'results/similarity/matrices/wmd_pang_lee.npz'
    """
    matrix = wmd_corpus(config, corpus)["matrix"]
    if matrix:
        return f"results/similarity/matrices/{matrix}.npz"
    return f"results/{TASKS_DIR}/wmd/{corpus}/kernel.npz"


def wme_files(config: dict, corpus: str, method: str) -> list:
    """The WME similarities a classification job reads: one file per ``D_max`` for ``wme``,
    none for the other methods.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import wme_files
    >>> wme_files(config, "pang_lee", "wme")[0], wme_files(config, "pang_lee", "nystrom")
    ('results/similarity/tasks/wmd/pang_lee/wme_dmax3.npz', [])
    """
    if method != "wme":
        return []
    d_max, _ = setting(config, f"{_WMDC}.wme.d_max")
    return [f"results/{TASKS_DIR}/wmd/{corpus}/wme_dmax{d}.npz" for d in d_max]


@job("sms_tasks", "wmd_kernel", ("threads", "mem_mb", "runtime"))
def wmd_kernel_job(config, *, corpus):
    """The WMD kernel of a corpus that names no ``similarity`` matrix: its own gamma and
    word vectors."""
    key, entry = _entry(config, _WMDC, "corpora", corpus)
    spec = {"kind": "wmd", "dataset": entry["dataset"], "n_items": entry["n_items"],
            "wmd": {"gamma": entry["gamma0"], "word_vectors": entry["word_vectors"]}}
    return Job({"spec": (spec, key), "seed": seed(config, "sms_wmd_kernel", corpus)},
               _hints(key, entry, ("threads", "mem_mb", "runtime")))


@job("sms_tasks", "wme", ("threads", "mem_mb", "runtime"))
def wme_job(config, *, corpus, d_max):
    """WME similarities of a corpus's documents to as many random documents as the largest
    rank, at one ``D_max``."""
    key, entry = _entry(config, _WMDC, "corpora", corpus)
    ranks, ranks_key = setting(config, f"{_WMDC}.ranks")
    settings = {"n_random": (max(ranks), ranks_key),
                "unit_norm": setting(config, f"{_WMDC}.wme.unit_norm"),
                "word_vectors": wmd_corpus_settings(config, corpus)["word_vectors"],
                "seed": seed(config, "sms_wme", corpus, d_max)}
    resources = {"threads": setting(config, f"{_WMDC}.wme.threads"),
                 **_hints(key, entry, ("mem_mb", "runtime"))}
    return Job(settings, resources)


@job("sms_tasks", "wmd_classify", ("threads", "mem_mb", "runtime"))
def wmd_classify_job(config, *, corpus, method):
    """What one method's classification reads: the exact kernel has no ranks, only WME its
    ``D_max`` values, only SMS-Nyström the SMS options, only SiCUR its features' kind (so
    a change to one of those reruns only the method that reads it)."""
    from ..approx.methods import method_options

    key, entry = _entry(config, _WMDC, "corpora", corpus)
    ranks = setting(config, f"{_WMDC}.ranks")
    sms, sms_key = setting(config, f"{_WMDC}.sms")
    features = setting(config, f"{_WMDC}.sicur_features")
    d_max = setting(config, f"{_WMDC}.wme.d_max")
    settings = {"gamma0": wmd_corpus_settings(config, corpus)["gamma0"],
                "gammas": setting(config, f"{_WMDC}.gammas"),
                "ranks": ([], ranks[1]) if method == "wmd_kernel" else ranks,
                "svm": setting(config, f"{_WMDC}.svm"),
                "splits": setting(config, f"{_WMDC}.splits"),
                "options": (method_options(method, sms), sms_key),
                "sicur_features": features if method == "sicur" else ("", features[1]),
                "d_max": d_max if method == "wme" else ([], d_max[1]),
                "seed": seed(config, "sms_wmd_classify", corpus)}
    return Job(settings, {"threads": (1, ""), **_hints(key, entry, ("mem_mb", "runtime"))})


# -- GLUE -------------------------------------------------------------------------------------
def glue_tasks(config: dict) -> list:
    """The configured GLUE tasks (their datasets), in order.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import glue_tasks
    >>> glue_tasks(config)     # offline: no GLUE task
    []
    """
    return [task["dataset"] for task in setting(config, f"{_GLUE}.tasks")[0]]


def glue_not_run_reason(config: dict) -> str:
    """Why the GLUE table cannot be computed in this run, or ``""`` when it can.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import glue_not_run_reason
    >>> glue_not_run_reason(config)[:45]
    "no GLUE task is configured in profile 'offlin"
    """
    tasks, key = setting(config, f"{_GLUE}.tasks")
    if not tasks:
        return (f"no GLUE task is configured in profile {config['profile']!r} ({key} is "
                f"empty): the cross-encoder matrices need fine-tuned transformer models and "
                f"the GLUE downloads; config/paper.yaml runs them")
    missing = [m for m in ("transformers", "torch") if importlib.util.find_spec(m) is None]
    if missing:
        return (f"the `crossencoder` extra is not installed (missing {', '.join(missing)}): "
                f"pip install 'lowdim[crossencoder]'")
    return ""


def glue_models(config: dict, task: str) -> list:
    """The locally built cross-encoder GLUE task ``task`` loads, if any.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import glue_models
    >>> config = {"models": {"tiny_rte": {}},
    ...           "sms_tasks": {"glue": {"tasks": [{"dataset": "rte", "model": "tiny_rte"}]}}}
    >>> glue_models(config, "rte")
    ['results/models/tiny_rte']
    """
    return built_models(config, _entry(config, _GLUE, "tasks", task)[1]["model"])


@job("sms_tasks", "glue_matrix", ("threads", "mem_mb", "runtime", "gpu", "gpu_model"))
def glue_matrix_job(config, *, task):
    """The task's pairs and cross-encoder (a locally built model loads from its path)."""
    key, entry = _entry(config, _GLUE, "tasks", task)
    settings = {name: (value, f"{key}.{name}") for name, value in entry.items()
                if name not in _HINTS + ("threshold",)}
    settings["model"] = (model_location(config, entry["model"]), f"{key}.model")
    settings["seed"] = seed(config, "sms_glue_matrix", task)
    return Job(settings, _hints(key, entry, _HINTS))


@job("sms_tasks", "glue_scores")
def glue_scores_job(config, *, task):
    """Every method's scores on the task's matrix."""
    from ..approx.methods import SMS_METHODS

    key, entry = _entry(config, _GLUE, "tasks", task)
    sms, sms_key = setting(config, f"{_GLUE}.sms")
    settings = {name: setting(config, f"{_GLUE}.{name}")
                for name in ("methods", "fractions", "n_runs")}
    settings["options"] = ({method: dict(sms) for method in SMS_METHODS}, sms_key)
    settings["threshold"] = (entry["threshold"], f"{key}.threshold")
    settings["seed"] = seed(config, "sms_glue_scores", task)
    return Job(settings, {"threads": (1, "")})


# -- coreference ------------------------------------------------------------------------------
def coref_corpora(config: dict) -> list:
    """Names of the coreference corpora, in order.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import coref_corpora
    >>> coref_corpora(config)
    ['digits']
    """
    return [corpus["name"] for corpus in setting(config, f"{_COREF}.corpora")[0]]


def coref_dataset(config: dict, corpus: str) -> str:
    """The dataset of coreference corpus ``corpus``.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import coref_dataset
    >>> coref_dataset(config, "digits")
    'digits'
    """
    return _entry(config, _COREF, "corpora", corpus)[1]["dataset"]


@job("sms_tasks", "coref_matrices", ("threads", "mem_mb", "runtime"))
def coref_matrices_job(config, *, corpus):
    """The corpus's encoder, splits, topics and pairwise MLP."""
    key, entry = _entry(config, _COREF, "corpora", corpus)
    spec = {name: value for name, value in entry.items() if name not in ("name",) + _HINTS}
    return Job({"spec": (spec, key), "seed": seed(config, "sms_coref_matrices", corpus)},
               _hints(key, entry, ("threads", "mem_mb", "runtime")))


@job("sms_tasks", "coref_cluster", ("threads", "mem_mb", "runtime"))
def coref_cluster_job(config, *, corpus):
    """Every method's clustering on the corpus's test topics; the exact matrix first."""
    key, entry = _entry(config, _COREF, "corpora", corpus)
    methods, methods_key = setting(config, f"{_COREF}.methods")
    settings = {"methods": (["exact", *methods], methods_key),
                **{name: setting(config, f"{_COREF}.{name}")
                   for name in ("fractions", "n_runs", "thresholds", "sms")},
                "seed": seed(config, "sms_coref_cluster", corpus)}
    # the corpus's memory and runtime hints hold for its clustering too (a cluster's job)
    return Job(settings, {"threads": (1, ""), **_hints(key, entry, ("mem_mb", "runtime"))})


# -- tidy and render --------------------------------------------------------------------------
def _part_on(config, section):
    return bool(setting(config, f"{section}.enabled")[0])


def tidy_parts(config: dict) -> list:
    """The tasks of this run with a tidy file: ``wmd_classification``, ``glue`` (when a task
    can run) and ``coreference``, among those enabled and configured.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import tidy_parts
    >>> tidy_parts(config)     # offline: no GLUE task to run
    ['wmd_classification', 'coreference']
    """
    parts = []
    if _part_on(config, _WMDC) and wmd_corpora(config):
        parts.append("wmd_classification")
    if _part_on(config, _GLUE) and not glue_not_run_reason(config):
        parts.append("glue")
    if _part_on(config, _COREF) and coref_corpora(config):
        parts.append("coreference")
    return parts


def table_parts(config: dict) -> list:
    """The tasks of this run with a table: those with a tidy file, and GLUE's "not run"
    table when it is enabled but cannot run.

    Examples
    --------
    >>> from lowdim.settings.sms_tasks import table_parts
    >>> table_parts(config)    # GLUE's table says why it did not run
    ['wmd_classification', 'glue', 'coreference']
    """
    parts = tidy_parts(config)
    if _part_on(config, _GLUE) and "glue" not in parts:
        parts.insert(1 if "wmd_classification" in parts else 0, "glue")
    return parts


@job("sms_tasks", "tidy")
def tidy_job(config):
    """The corpus of each WMD classification and coreference result (their rows hold none)."""
    labels = {"wmd_classification": [{"corpus": c} for c in wmd_corpora(config)
                                     for _ in wmd_methods(config)],
              "glue": [{} for _ in glue_tasks(config)],
              "coreference": [{"corpus": c} for c in coref_corpora(config)]}
    return Job({"labels": ({part: labels[part] for part in tidy_parts(config)}, "sms_tasks")},
               {"threads": (1, "")})


@job("sms_tasks", "render")
def render_job(config):
    """The profile, the rank limits of Table 1 and why GLUE did not run (if it did not)."""
    corpora = wmd_corpora(config)
    settings = {"profile": setting(config, "profile"),
                "small_rank_max": setting(config, f"{_WMDC}.small_rank_max"),
                "large_rank_max": setting(config, f"{_WMDC}.large_rank_max"),
                "large_by_corpus": ({c: wmd_corpus_settings(config, c)["large_rank_max"][0]
                                     for c in corpora}, f"{_WMDC}.corpora"),
                "glue_not_run": (glue_not_run_reason(config), f"{_GLUE}.tasks"),
                "parts": (table_parts(config), "sms_tasks")}
    return Job(settings, {"threads": (1, "")})


# -- checks -----------------------------------------------------------------------------------
@config_check
def check_sms_tasks(config):
    """Names given once; WMD classification reads labelled text datasets, and a matrix it
    names is a WMD matrix of the same dataset; small rank limit <= large."""
    if enabled(config, "sms_tasks") is None:
        return
    yield from filter(None, [
        duplicates((wmd_corpora(config), f"{_WMDC}.corpora")),
        duplicates((coref_corpora(config), f"{_COREF}.corpora")),
        duplicates((glue_tasks(config), f"{_GLUE}.tasks")),
        sms_fraction_problem(config, _GLUE), sms_fraction_problem(config, _COREF)])
    if _part_on(config, _WMDC):
        yield from _wmd_corpora(config)


def _wmd_corpora(config):
    from .similarity import matrix_job, matrix_names

    small, small_key = setting(config, f"{_WMDC}.small_rank_max")
    limits = set()
    for name in wmd_corpora(config):
        key, corpus = _entry(config, _WMDC, "corpora", name)
        dataset = (corpus["dataset"], f"{key}.dataset")
        wrong = kind_problem(config, dataset, ("text",), "a text dataset", labelled=True)
        if wrong:
            yield wrong
        matrix = (corpus["matrix"], f"{key}.matrix")
        if matrix[0]:
            spec = matrix_job(config, matrix=matrix[0]).settings \
                if matrix[0] in matrix_names(config) else None
            if spec is None or spec["kind"][0] != "wmd" or spec["dataset"][0] != dataset[0]:
                yield problem(matrix[1], matrix[0],
                              f"must name a similarity.matrices entry of kind wmd on dataset "
                              f"{dataset[0]!r}")
                continue
        large, large_key = wmd_corpus_settings(config, name)["large_rank_max"]
        if small > large and large_key not in limits:  # the section's limit: one line
            limits.add(large_key)
            yield problem(large_key, large, f"must be >= {small_key} = {small}")
