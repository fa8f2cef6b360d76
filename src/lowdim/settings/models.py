"""Settings of the models part: cross-encoders built locally from the config (``models:``).

A ``model:`` of a cross-encoder matrix or GLUE task that names one of them loads the
model built at ``results/models/<name>`` (:func:`model_location`); any other name is a
Hugging Face name or a local path, loaded as given.
"""

from __future__ import annotations

from ._core import Job, config_check, job, problem

__all__ = ["built_models", "model_location", "model_names"]


def model_names(config: dict) -> list:
    """The names of the locally built models (``models:``).

    Examples
    --------
    >>> from lowdim.settings.models import model_names
    >>> model_names({"models": {"tiny_rte": {"num_labels": 2}}})
    ['tiny_rte']
    """
    return list(config.get("models", {}))


def model_location(config: dict, name: str) -> str:
    """Where a cross-encoder ``model:`` is loaded from: a locally built model, or as given.

    Examples
    --------
    >>> from lowdim.settings.models import model_location
    >>> config = {"models": {"tiny_rte": {"num_labels": 2}}}
    >>> model_location(config, "tiny_rte"), model_location(config, "cross-encoder/stsb")
    ('results/models/tiny_rte', 'cross-encoder/stsb')
    """
    return f"results/models/{name}" if name in config.get("models", {}) else name


def built_models(config: dict, *names: str) -> list:
    """The locally built models among ``names``: the inputs of a job that loads them.

    Examples
    --------
    >>> from lowdim.settings.models import built_models
    >>> built_models({"models": {"tiny_rte": {}}}, "tiny_rte", "cross-encoder/stsb")
    ['results/models/tiny_rte']
    """
    return [model_location(config, name) for name in names if name in config.get("models", {})]


@job("models", "crossencoder")
def crossencoder_job(config, *, model):
    """The architecture and seed of one locally built cross-encoder."""
    return Job({"spec": (config["models"][model], f"models.{model}")}, {"threads": (1, "")})


@config_check
def check_models(config):
    """Each model's ``hidden_size`` splits evenly over its attention heads (BERT's
    requirement, checked again where the model is built)."""
    for name, spec in config.get("models", {}).items():
        width, heads = spec["hidden_size"], spec["num_attention_heads"]
        if width % heads:
            yield problem(f"models.{name}.hidden_size", width,
                          f"must be a multiple of models.{name}.num_attention_heads = {heads}")
