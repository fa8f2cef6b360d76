# Models built locally from the config (section `models:`): tiny cross-encoders, so that
# the cross-encoder path runs with no hub download (e.g. in the rehearsal profile).

from lowdim.settings.models import model_names


CROSSENCODER_MODEL = job_params("models", "crossencoder")


rule crossencoder_model:
    wildcard_constraints:
        model=one_of(model_names(config)),
    output:
        directory("results/models/{model}"),
    params:
        **CROSSENCODER_MODEL.params,
    log:
        "logs/crossencoder_model/{model}.log",
    conda:
        CONDA_ENV
    threads: CROSSENCODER_MODEL.threads
    script:
        "../scripts/crossencoder_model.py"
