# Input and parameter functions of the `cca` part (no rules here; included by cca.smk).

from lowdim.seeding import derive_seed

CCA = config["cca"]
CCA_FIGURE1 = list(CCA["figure1"]["datasets"])
# one dataset or a list of them (one panel each); [] skips Figure 2
_FIGURE2 = CCA["figure2"]["dataset"]
CCA_FIGURE2 = [] if _FIGURE2 is None else [_FIGURE2] if isinstance(_FIGURE2, str) else _FIGURE2


def cca_datasets():
    """Every dataset of the cca section: Figure 1's, then Figure 2's."""
    return list(dict.fromkeys(CCA_FIGURE1 + CCA_FIGURE2))


def cca_common(dataset):
    """Settings every job on `dataset` depends on (overrides applied)."""
    over = CCA["overrides"].get(dataset, {})
    return {
        "n_components": over.get("n_components", CCA["n_components"]),
        "reg": over.get("reg", CCA["reg"]),
        "rescale": over.get("rescale", CCA["rescale"]),
        "heldout_fraction": CCA["heldout_fraction"],
        "split_seed": derive_seed(config["seed"], "cca", dataset, "split"),
    }


def cca_resource(dataset, key):
    """Scheduler hint `key` (mem_mb, runtime) of the compute jobs on `dataset`."""
    return CCA["overrides"].get(dataset, {}).get(key, CCA[key])


def cca_appgrad_params(dataset, method):
    """Everything that changes an AppGrad run: common settings, iterations, steps, seed."""
    over = CCA["overrides"].get(dataset, {})
    section = CCA[method]
    params = {
        **cca_common(dataset),
        "max_iter": over.get(f"{method}_max_iter", section["max_iter"]),
        "step_size": over.get(f"{method}_step_size", section["step_size"]),
        "checkpoint_count": CCA["checkpoints"]["count"],
        "checkpoint_iterations": CCA["checkpoints"]["iterations"],
        "normalization": CCA["normalization"],
        "seed": derive_seed(config["seed"], "cca", dataset, method),
    }
    if method == "sappgrad":
        params["batch_size"] = over.get("batch_size", section["batch_size"])
        params["normalization_size"] = section["normalization_size"] or None
    return params


def cca_heuristic_params(dataset, heuristic):
    method, _, m = heuristic.partition("-m")
    return {
        **cca_common(dataset),
        "method": method,
        "n_pca_components": int(m) if m else 0,
        "oversample": CCA["figure2"]["oversample"],
        "n_iter": CCA["figure2"]["power_iterations"],
        "seed": derive_seed(config["seed"], "cca", dataset, heuristic),
    }


def cca_heuristics():
    """File stems of the Figure 2 heuristic runs, e.g. nw_cca, pca_cca-m50."""
    names = []
    for method in CCA["figure2"]["methods"]:
        if method == "pca_cca":
            names += [f"pca_cca-m{m}" for m in CCA["figure2"]["pca_components"]]
        else:
            names.append(method)
    return names


def cca_final_outputs():
    if not CCA["enabled"]:
        return []
    targets = []
    if CCA_FIGURE1:
        targets += ["results/figures/cca/figure1_pcc.pdf", "results/cca/tidy/appgrad_trace.csv"]
    if CCA_FIGURE2:
        targets += ["results/figures/cca/figure2_tcc.pdf"]
    if cca_datasets():
        targets += ["results/tables/cca/table1_datasets.md"]
    return targets
