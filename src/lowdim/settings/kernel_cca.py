"""Settings of the kernel_cca part: kernel CCA on (SMS-)Nyström features, solved by AppGrad.

Jobs: ``run`` (one entry of ``kernel_cca.settings``: every approximation, landmark count and
seed, linear CCA, and exact kernel CCA when n is small), ``tidy`` and ``render``.
"""

from __future__ import annotations

from ._core import (Job, _names_of_kind, config_check, dataset_facts, duplicates, enabled, job,
                    kind_problem, problem, seed, width_problem)

__all__ = ["KERNEL_CCA_SHARED", "TIDY", "kernel_cca_names", "kernel_cca_settings"]

#: Section keys of ``kernel_cca`` that every setting shares.
KERNEL_CCA_SHARED = ("landmarks", "n_seeds", "reg", "heldout_fraction", "solver", "max_iter",
                     "tol", "exact_max_n")
#: The part's tidy file, relative to ``results/``.
TIDY = {"kernel_cca": "cca/tidy/kernel_cca.csv"}


def kernel_cca_names(config: dict) -> list:
    """The names of the configured settings (``kernel_cca.settings``), in order.

    Examples
    --------
    >>> from lowdim.settings.kernel_cca import kernel_cca_names
    >>> kernel_cca_names(config)
    ['nonlinear_rbf', 'digits_rbf', 'digits_mlp']
    """
    return [entry["name"] for entry in config["kernel_cca"]["settings"]]


def kernel_cca_settings(config: dict, name: str) -> dict:
    """Everything that changes the results of kernel CCA setting ``name``:
    ``{argument: (value, key)}``, its own keys and the section's shared ones.

    A setting's ``n_components`` of 0 takes ``kernel_cca.n_components``; ``mlp`` is
    listed only for the MLP similarity, the one that reads it.

    Examples
    --------
    >>> from lowdim.settings import kernel_cca_settings
    >>> settings = kernel_cca_settings(config, "nonlinear_rbf")
    >>> settings["n_components"][1], settings["landmarks"]
    ('kernel_cca.n_components', ([25, 50, 100, 200], 'kernel_cca.landmarks'))
    """
    section = config["kernel_cca"]
    index = next(i for i, s in enumerate(section["settings"]) if s["name"] == name)
    own = section["settings"][index]
    settings = {argument: (value, f"kernel_cca.settings[{index}].{argument}")
                for argument, value in own.items()
                if argument != "mlp" or own["similarity"] == "mlp"}
    if not own["n_components"]:
        settings["n_components"] = (section["n_components"], "kernel_cca.n_components")
    settings.update({argument: (section[argument], f"kernel_cca.{argument}")
                     for argument in KERNEL_CCA_SHARED})
    return settings


@job("kernel_cca", "run", ("threads", "mem_mb", "runtime"))
def run_job(config, *, kcca_setting):
    """One setting's experiment (its settings, and the seed every run derives its own from);
    the section's threads, memory and runtime."""
    section = config["kernel_cca"]
    resources = {name: (section[name], f"kernel_cca.{name}")
                 for name in ("threads", "mem_mb", "runtime")}
    return Job({**kernel_cca_settings(config, kcca_setting),
                "seed": seed(config, "kernel_cca", kcca_setting)}, resources)


@job("kernel_cca", "tidy")
def tidy_job(config):
    """Concatenates the settings' rows: nothing to set."""
    return Job({}, {"threads": (1, "")})


@job("kernel_cca", "render")
def render_job(config):
    """The profile and the settings' order in the figure."""
    return Job({"profile": (config["profile"], "profile"),
                "settings": (kernel_cca_names(config), "kernel_cca.settings")},
               {"threads": (1, "")})


@config_check
def check_kernel_cca(config):
    """Setting names given once, at least one setting, each on a two-view dataset with
    k <= min(p1, p2) (linear CCA runs on the views themselves) and, for the MLP
    similarity, class labels to train it on."""
    if enabled(config, "kernel_cca") is None:
        return
    names = (kernel_cca_names(config), "kernel_cca.settings")
    if not names[0]:
        yield problem(names[1], [], "must list a setting when kernel_cca.enabled is true")
    yield from filter(None, [duplicates(names)])
    for name in names[0]:
        settings = kernel_cca_settings(config, name)
        wrong = kind_problem(config, settings["dataset"], ("two_view",), "a two-view dataset")
        if wrong:
            yield wrong
            continue
        facts = dataset_facts(config, settings["dataset"][0])
        yield from filter(None, [width_problem(settings["n_components"], facts),
                                 _mlp_labels_problem(config, settings, facts)])


def _mlp_labels_problem(config, settings, facts):
    """A problem if the setting's similarity is the pairwise MLP, which trains on class
    labels, and its dataset has none, else None."""
    similarity, key = settings["similarity"]
    if similarity != "mlp" or facts.labelled:
        return None
    return problem(key, similarity, f"the pairwise MLP trains on class labels, but dataset "
                                    f"{facts.name} ({settings['dataset'][1]}) has none; "
                                    f"labelled two-view datasets: "
                                    f"{_names_of_kind(config, ('two_view',), labelled=True)}")
