"""What each workflow job passes to the library, resolved from the config in one place.

One module per part of the workflow (:mod:`~lowdim.settings.data`,
:mod:`~lowdim.settings.similarity`, :mod:`~lowdim.settings.sms_tasks`,
:mod:`~lowdim.settings.embedding`, :mod:`~lowdim.settings.cca`,
:mod:`~lowdim.settings.kernel_cca`, and :mod:`~lowdim.settings.models`,
:mod:`~lowdim.settings.report`) resolves every job of its part: its *settings*, each
library argument it sets as ``(value, key)`` (the value after per-dataset overrides, and
the config key that gave it, written as errors write keys:
``cca.overrides.mnist_halves.n_components``, ``cca.figure2.pca_components[1]``), its seed
among them, and its resources (threads, memory, runtime). :func:`job_settings` returns
them as a :class:`Job`. The workflow's rules, the part's checks run when the workflow
starts (:func:`check_config`), a job's error messages (:mod:`lowdim.job_errors`), the
sweeps (:mod:`lowdim.sweeps`) and the benchmarks that project the paper profile all read
these modules, so no other module interprets a config key.

Each function reads the validated config (defaults filled in by
:func:`lowdim.config.validate_config`) and imports no estimator: the workflow calls them
while it builds the DAG.
"""

from __future__ import annotations

from . import cca, data, embedding, kernel_cca, models, report, similarity, sms_tasks
from ._core import (CHECKS, DatasetFacts, Job, check_config, config_check, config_keys,
                    config_problems, dataset_facts, job_kinds, job_resources, job_settings,
                    own_data_problems, parse_key, problem, setting, values)
from .cca import cca_datasets, cca_figure_datasets, cca_heuristic_runs, cca_settings
from .kernel_cca import kernel_cca_settings
from .sms_tasks import wmd_corpus_settings

__all__ = ["CHECKS", "DatasetFacts", "Job", "cca_datasets", "cca_figure_datasets",
           "cca_heuristic_runs", "cca_settings", "check_config", "config_check", "config_keys",
           "config_problems", "dataset_facts", "job_kinds", "job_resources", "job_settings",
           "kernel_cca_settings", "own_data_problems", "parse_key", "problem", "setting",
           "values", "wmd_corpus_settings"]
