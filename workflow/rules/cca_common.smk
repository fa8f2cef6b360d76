# Input and parameter functions of the `cca` part (no rules here; included by cca.smk).
# Every setting comes from lowdim.settings, which applies `cca.overrides`.

import re

from lowdim.cca.methods import APPGRAD_METHODS
from lowdim.settings import (cca_datasets, cca_figure_datasets, cca_heuristic_runs,
                             cca_resources, cca_settings, config_keys, values)

CCA = config["cca"]
CCA_FIGURE1 = [name for name, _ in cca_figure_datasets(config, 1)]
CCA_FIGURE2 = [name for name, _ in cca_figure_datasets(config, 2)]
CCA_DATASETS = cca_datasets(config)
# Figure 2's heuristic runs, each also its path below heuristics/ (nw_cca, pca_cca/m50)
CCA_HEURISTICS = cca_heuristic_runs(config)


def cca_params(dataset, job):
    """Values of the settings of CCA job `job` (stats, exact, appgrad, sappgrad or a
    heuristic run) on `dataset`."""
    return sorted_params(values(cca_settings(config, dataset, job)))


def cca_keys(dataset, job):
    """The config key of each setting of `cca_params`, for the job's error messages."""
    return sorted_params(config_keys(cca_settings(config, dataset, job)))


def cca_resource(dataset, hint):
    """Scheduler hint `hint` (mem_mb, runtime) of the compute jobs on `dataset`."""
    return cca_resources(config, dataset)[hint][0]


def cca_final_outputs():
    if not CCA["enabled"]:
        return []
    targets = []
    if CCA_FIGURE1:
        targets += ["results/figures/cca/figure1_pcc.pdf", "results/cca/tidy/appgrad_trace.csv"]
    if CCA_FIGURE2:
        targets += ["results/figures/cca/figure2_tcc.pdf"]
    if CCA_DATASETS:
        targets += ["results/tables/cca/table1_datasets.md"]
    return targets
