# Input functions of the `models` section (workflow/rules/models.smk).

MODELS = config["models"]


def model_path(name):
    """Where a cross-encoder `model:` is loaded from: a locally built model, or as given
    (a Hugging Face name or a local path)."""
    return f"results/models/{name}" if name in MODELS else name


def model_inputs(*names):
    """The locally built models among `names` (inputs of the jobs that load them)."""
    return [model_path(name) for name in names if name in MODELS]
