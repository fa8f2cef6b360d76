"""Settings of the similarity part (the SMS-Nyström paper's Figures 1 and 2).

Jobs: ``matrix`` (one similarity matrix, built whole and timed), ``errors`` (every
approximation method at every sample fraction and seed on one matrix, and the matrix's
spectra: one job per matrix), ``tidy`` and ``render`` (both figures and the diagnostics
table). A change of any approximation setting reruns each matrix's ``errors`` job, never
its ``matrix`` job.
"""

from __future__ import annotations

from ._core import (Job, config_check, duplicates, enabled, job, kind_problem, problem, seed,
                    setting)
from .models import built_models, model_location

__all__ = ["MATRIX_DATASET_KINDS", "TIDY", "matrix_dataset", "matrix_models", "matrix_names"]

#: Dataset kinds each kind of similarity matrix is built from (lowdim.similarity.matrices).
MATRIX_DATASET_KINDS = {"wmd": ("text",), "mlp": ("dense", "sparse", "text", "mentions"),
                        "crossencoder": ("pairs",)}
#: The part's tidy files, relative to ``results/``.
TIDY = {"errors": "similarity/tidy/errors.csv",
        "eigenvalues": "similarity/tidy/eigenvalues.csv",
        "submatrices": "similarity/tidy/submatrix_eigenvalues.csv",
        "matrices": "similarity/tidy/matrices.csv"}


def matrix_names(config: dict) -> list:
    """The names of the configured matrices (``similarity.matrices``), in order.

    Examples
    --------
    >>> from lowdim.settings.similarity import matrix_names
    >>> matrix_names(config)[:2]
    ['wmd_pang_lee', 'wmd_lee']
    """
    return [spec["name"] for spec in config["similarity"]["matrices"]]


def _matrix(config, name):
    """``(key, spec)`` of the matrix named ``name``."""
    matrices = config["similarity"]["matrices"]
    i = next(i for i, spec in enumerate(matrices) if spec["name"] == name)
    return f"similarity.matrices[{i}]", matrices[i]


def matrix_dataset(config: dict, name: str) -> str:
    """The dataset matrix ``name`` is built from.

    Examples
    --------
    >>> from lowdim.settings.similarity import matrix_dataset
    >>> matrix_dataset(config, "wmd_lee")
    'lee'
    """
    return _matrix(config, name)[1]["dataset"]


def matrix_models(config: dict, name: str) -> list:
    """The locally built cross-encoder matrix ``name`` loads, if any (an input of its job).

    Examples
    --------
    >>> from lowdim.settings.similarity import matrix_models
    >>> config = {"models": {"tiny": {}}, "similarity": {"matrices": [
    ...     {"name": "ce", "kind": "crossencoder", "crossencoder": {"model": "tiny"}}]}}
    >>> matrix_models(config, "ce")
    ['results/models/tiny']
    """
    spec = _matrix(config, name)[1]
    return built_models(config, spec["crossencoder"]["model"]) if spec["kind"] == "crossencoder" \
        else []


@job("similarity", "matrix", ("threads", "mem_mb", "runtime", "gpu", "gpu_model"))
def matrix_job(config, *, matrix):
    """What builds the matrix: its kind, dataset, items and its kind's options, a seed; and
    the scheduler hints of its entry (threads, memory, runtime, GPU)."""
    key, spec = _matrix(config, matrix)
    settings = {name: (spec[name], f"{key}.{name}")
                for name in ("kind", "dataset", "n_items", "split", spec["kind"])}
    if spec["kind"] == "crossencoder":  # a model built from `models:` loads from its path
        options = spec["crossencoder"]
        settings["crossencoder"] = ({**options, "model": model_location(config, options["model"])},
                                    f"{key}.crossencoder")
    settings["seed"] = seed(config, "similarity_matrix", matrix)
    resources = {name: (spec[name], f"{key}.{name}")
                 for name in ("threads", "mem_mb", "runtime", "gpu", "gpu_model")}
    return Job(settings, resources)


@job("similarity", "errors")
def errors_job(config, *, matrix):
    """Every method's error curve on the matrix (each run's seed derives from the base seed,
    the matrix, s and the repetition), and its spectra."""
    settings = {name: setting(config, f"similarity.{name}")
                for name in ("methods", "fractions", "n_seeds", "sms")}
    settings["seed"] = setting(config, "seed")
    settings["spectrum_sizes"] = setting(config, "similarity.spectra.sizes")
    settings["n_draws"] = setting(config, "similarity.spectra.n_draws")
    settings["spectrum_seed"] = seed(config, "similarity_spectrum", matrix)
    return Job(settings, {"threads": (1, "")})


@job("similarity", "tidy")
def tidy_job(config):
    """Concatenates the matrices' results: nothing to set."""
    return Job({}, {"threads": (1, "")})


@job("similarity", "render")
def render_job(config):
    """The profile (in the captions) and the sample fraction the diagnostics table reads."""
    return Job({"profile": setting(config, "profile"),
                "table_fraction": setting(config, "similarity.table_fraction")},
               {"threads": (1, "")})


def sms_fraction_problem(config: dict, part: str):
    """A problem if a landmark fraction of section ``part`` (``similarity``,
    ``sms_tasks.glue``, ...) times SMS-Nyström's multiplier exceeds 1, else None."""
    from ..approx.methods import SMS_METHODS

    methods, _ = setting(config, f"{part}.methods")
    fractions, fractions_key = setting(config, f"{part}.fractions")
    multiplier, multiplier_key = setting(config, f"{part}.sms.multiplier")
    too_big = [f for f in fractions if f * multiplier > 1]
    if set(SMS_METHODS) & set(methods) and too_big:
        return problem(fractions_key, fractions,
                       f"each fraction times {multiplier_key} = {multiplier} must be <= 1 "
                       f"(|S2| would exceed n for {too_big})")
    return None


@config_check
def check_similarity(config):
    """Matrix names given once; each matrix built from a dataset of a kind its similarity
    reads; the table's fraction among the fractions; SMS-Nyström's |S2| at most n."""
    names = (matrix_names(config), "similarity.matrices")
    duplicated = duplicates(names)
    if enabled(config, "similarity") is None:  # sms_tasks may still name a matrix
        yield from filter(None, [duplicated])
        return
    if not names[0]:
        yield problem(names[1], [], "must list a matrix when similarity.enabled is true")
    for name in names[0]:
        settings = matrix_job(config, matrix=name).settings
        kind = settings["kind"][0]
        yield from filter(None, [kind_problem(
            config, settings["dataset"], MATRIX_DATASET_KINDS[kind],
            f"a dataset a `{kind}` matrix can read", labelled=kind == "mlp")])
    fraction, fraction_key = render_job(config).settings["table_fraction"]
    fractions, fractions_key = errors_job(config, matrix=None).settings["fractions"]
    if not any(abs(f - fraction) < 1e-12 for f in fractions):
        yield problem(fraction_key, fraction, f"must be one of {fractions_key} {fractions}")
    yield from filter(None, [duplicated, sms_fraction_problem(config, "similarity")])
