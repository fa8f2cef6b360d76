# Models built locally from the config (section `models:`): tiny cross-encoders, so that
# the cross-encoder path runs with no hub download (e.g. in the rehearsal profile).

include: "models_common.smk"


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
