# Input functions of the `kernel_cca` part (workflow/rules/kernel_cca.smk); its config is
# checked with the others at start (lowdim.config_checks).

from lowdim.seeding import derive_seed
from lowdim.settings import config_keys, kernel_cca_settings, values


KCCA = config["kernel_cca"]
KCCA_SETTINGS = {setting["name"]: setting for setting in KCCA["settings"]}
# Per rule, not global: other parts of the workflow have wildcards of their own.
KCCA_WILDCARD = "|".join(KCCA_SETTINGS) or "__no_setting__"


def kernel_cca_setting(name):
    """Everything that changes a setting's results (lowdim.settings.kernel_cca_settings)."""
    return sorted_params(values(kernel_cca_settings(config, name)))


def kernel_cca_keys(name):
    """The config key of each entry of `kernel_cca_setting`, for the job's error messages."""
    return sorted_params(config_keys(kernel_cca_settings(config, name)))


def kernel_cca_final_outputs():
    if not KCCA["enabled"] or not KCCA_SETTINGS:
        return []
    return ["results/figures/cca/kernel_cca_tcc.pdf", "results/tables/cca/kernel_cca.md",
            "results/cca/tidy/kernel_cca.csv"]
