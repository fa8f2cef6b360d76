# Config checks and input functions of the `similarity` part (workflow/rules/similarity.smk).

from lowdim.approx import SMS_METHODS
from lowdim.seeding import derive_seed


SIM = config["similarity"]
SIM_MATRICES = {spec["name"]: spec for spec in SIM["matrices"]}
SIM_TIDY = "results/similarity/tidy"


def _check_similarity_config():
    names = [spec["name"] for spec in SIM["matrices"]]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        sys.exit(f"config: similarity.matrices: duplicated name(s) {duplicated}")
    if SIM["enabled"] and not names:
        sys.exit("config: similarity.matrices: empty, but similarity.enabled is true")
    if not any(abs(f - SIM["table_fraction"]) < 1e-12 for f in SIM["fractions"]):
        sys.exit(f"config: similarity.table_fraction: got {SIM['table_fraction']}; "
                 f"must be one of similarity.fractions {SIM['fractions']}")
    too_big = [f for f in SIM["fractions"] if f * SIM["sms"]["multiplier"] > 1]
    if set(SMS_METHODS) & set(SIM["methods"]) and too_big:
        sys.exit(f"config: similarity.fractions: {too_big} times sms.multiplier "
                 f"{SIM['sms']['multiplier']} exceeds 1 (|S2| would exceed n)")


_check_similarity_config()


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
