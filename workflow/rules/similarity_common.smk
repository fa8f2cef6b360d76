# Input functions of the `similarity` part (workflow/rules/similarity.smk).

from lowdim.approx import SMS_METHODS
from lowdim.seeding import derive_seed


SIM = config["similarity"]
SIM_MATRICES = {spec["name"]: spec for spec in SIM["matrices"]}
SIM_TIDY = "results/similarity/tidy"


def sim_spec(matrix):
    """The result-changing part of a matrix's config: its kind's options only."""
    spec = SIM_MATRICES[matrix]
    keys = ("kind", "dataset", "n_items", "split", spec["kind"])
    spec = {key: spec[key] for key in keys}
    if spec["kind"] == "crossencoder":  # a model built from `models:` loads from its path
        spec["crossencoder"] = {**spec["crossencoder"],
                                "model": model_path(spec["crossencoder"]["model"])}
    return sorted_params(spec)


def sim_model_inputs(matrix):
    """The locally built cross-encoder a matrix loads, if any."""
    spec = SIM_MATRICES[matrix]
    return model_inputs(spec["crossencoder"]["model"]) if spec["kind"] == "crossencoder" else []


def sim_method_options(method):
    return sorted_params(SIM["sms"]) if method in SMS_METHODS else {}


def sim_per_matrix(pattern):
    return expand(pattern, matrix=list(SIM_MATRICES))


def sim_per_matrix_method(pattern):
    return expand(pattern, matrix=list(SIM_MATRICES), method=SIM["methods"])


# Per rule, not global: other parts of the workflow have wildcards of the same names.
SIM_WILDCARDS = {
    "matrix": "|".join(SIM_MATRICES) or "__no_matrix__",
    "method": "|".join(SIM["methods"]),
}
