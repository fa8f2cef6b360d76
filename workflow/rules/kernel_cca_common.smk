# Config checks and input functions of the `kernel_cca` part (workflow/rules/kernel_cca.smk).

from lowdim.seeding import derive_seed


KCCA = config["kernel_cca"]
KCCA_SETTINGS = {setting["name"]: setting for setting in KCCA["settings"]}
# Per rule, not global: other parts of the workflow have wildcards of their own.
KCCA_WILDCARD = "|".join(KCCA_SETTINGS) or "__no_setting__"

#: Section keys that change every setting's results.
KCCA_SHARED = ("landmarks", "n_seeds", "reg", "heldout_fraction", "solver", "max_iter", "tol",
               "exact_max_n")


def _check_kernel_cca_config():
    names = [setting["name"] for setting in KCCA["settings"]]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        sys.exit(f"config: kernel_cca.settings: duplicated name(s) {duplicated}")
    if KCCA["enabled"] and not names:
        sys.exit("config: kernel_cca.settings: empty, but kernel_cca.enabled is true")
    for i, setting in enumerate(KCCA["settings"]):
        kind = dataset_spec(setting["dataset"], config["datasets"].get(setting["dataset"])).kind
        if kind != "two_view":
            sys.exit(f"config: kernel_cca.settings.{i}.dataset: got {setting['dataset']!r} "
                     f"(kind {kind!r}); expected a two_view dataset")


_check_kernel_cca_config()


def kernel_cca_setting(name):
    """Everything that changes a setting's results: its own keys and the section's shared ones."""
    setting = dict(KCCA_SETTINGS[name])
    setting["n_components"] = setting["n_components"] or KCCA["n_components"]
    if setting["similarity"] != "mlp":
        setting.pop("mlp")  # only the MLP similarity reads its options
    return sorted_params({**setting, **{key: KCCA[key] for key in KCCA_SHARED}})


def kernel_cca_final_outputs():
    if not KCCA["enabled"] or not KCCA_SETTINGS:
        return []
    return ["results/figures/cca/kernel_cca_tcc.pdf", "results/tables/cca/kernel_cca.md",
            "results/cca/tidy/kernel_cca.csv"]
