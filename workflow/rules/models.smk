# Models built locally from the config (section `models:`): tiny cross-encoders, so that
# the cross-encoder path runs with no hub download (e.g. in the rehearsal profile).

MODELS = config["models"]


def model_path(name):
    """Where a cross-encoder `model:` is loaded from: a locally built model, or as given
    (a Hugging Face name or a local path)."""
    return f"results/models/{name}" if name in MODELS else name


def model_inputs(*names):
    """The locally built models among `names` (inputs of the jobs that load them)."""
    return [model_path(name) for name in names if name in MODELS]


rule crossencoder_model:
    wildcard_constraints:
        model="|".join(MODELS) or "__no_model__",
    output:
        directory("results/models/{model}"),
    params:
        spec=lambda w: sorted_params(MODELS[w.model]),
    log:
        "logs/crossencoder_model/{model}.log",
    conda:
        CONDA_ENV
    threads: 1
    script:
        "../scripts/crossencoder_model.py"
