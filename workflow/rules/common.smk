# Config validation, the jobs' settings (job_params), input functions and get_final_output();
# no rules here.

import os
import re
import sys
from pathlib import Path

# The workflow and its jobs import the library from this checkout's src/, so both run the
# same code, with or without conda: the rules' conda environment (CONDA_ENV, relative to
# workflow/rules/) holds the dependencies only, as it cannot install this checkout.
CONDA_ENV = "../envs/lowdim.yaml"
_SRC = str(Path(workflow.basedir) / "src")
if sys.path[0] != _SRC:
    sys.path.insert(0, _SRC)
if os.environ.get("PYTHONPATH", "").split(os.pathsep)[0] != _SRC:
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [_SRC, os.environ.get("PYTHONPATH")]))

# One numba cache for every job of every run of this checkout: jobs inherit the variable,
# cluster jobs too (and they read this file again). UMAP's, pynndescent's and lowdim's JIT
# functions then compile in the first job that needs them, not in each
# (lowdim._numba_cache, benchmarks/workflow_overhead.md). A NUMBA_CACHE_DIR already set
# wins; where this one cannot be written, numba falls back to its default places.
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(workflow.basedir) / ".snakemake" / "numba"))

from lowdim.config import ConfigError, check_complete_profile, validate_config
from lowdim.settings import check_config, job_resources, job_settings
from lowdim.settings.data import prepared_file
from lowdim.settings.report import published_files as configured_published_files


SCHEMA = Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml"

# Each key against its schema, then keys against each other and the dataset registry
# (each part's checks in lowdim.settings), so a mistake stops the run before any job starts.
try:
    check_complete_profile(config, workflow.overwrite_configfiles)
    _validated = check_config(validate_config(config, SCHEMA))
except ConfigError as error:
    sys.exit(str(error))
# Update in place: Snakemake keeps a reference to this dict.
config.clear()
config.update(_validated)

# A timing job (Figure 3) holds the `timing` resource: one at a time, here or on a cluster
# (where each runs in its own allocation; the SLURM plugin passes no such resource on).
# A limit given on the command line (--resources timing=N) wins.
if "timing" not in workflow.global_resources:
    workflow.register_resource("timing", 1)

# Each .smk appends a function returning its final targets for the current config;
# the report's own targets are kept apart because the report depends on all others.
FINAL_OUTPUTS = []
REPORT_OUTPUTS = []


def paper_outputs(wildcards=None):
    """Final targets of the data and the three papers in this profile (not the report's)."""
    return [path for function in FINAL_OUTPUTS for path in function()]


def get_final_output(wildcards=None):
    """Every final target of every enabled part of the workflow."""
    return paper_outputs() + [path for function in REPORT_OUTPUTS for path in function()]


def sorted_params(value):
    """`value` with dict keys sorted at every level: reordering keys in a YAML file must
    not look like a change of params (Snakemake compares params as written)."""
    if isinstance(value, dict):
        return {key: sorted_params(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_params(item) for item in value]
    return value


class JobParams:
    """The settings, config keys, seed and resources of one kind of job (lowdim.settings),
    each a function of the wildcards, for a rule's `params` (**JOB.params: settings and
    config_keys), `threads` (JOB.threads) and `resources` (**JOB.resources: mem_mb,
    runtime, ... as the kind declares them)."""

    def __init__(self, part, kind):
        self.part, self.kind = part, kind
        self._jobs = {}

    def job(self, wildcards):
        """The lowdim.settings.Job the wildcards name (resolved once per job)."""
        key = tuple(wildcards.items())
        if key not in self._jobs:
            self._jobs[key] = job_settings(config, self.part, self.kind, **dict(key))
        return self._jobs[key]

    def settings(self, wildcards):
        return sorted_params(self.job(wildcards).values())

    def config_keys(self, wildcards):
        return sorted_params(self.job(wildcards).config_keys())

    def value(self, name, then=None):
        """A function of the wildcards: the value of setting `name`, passed through `then`."""
        return lambda wildcards: (then or (lambda value: value))(
            self.job(wildcards).values()[name])

    def threads(self, wildcards):
        threads = self.job(wildcards).resource_values()["threads"]
        if "timing" in job_resources(self.part, self.kind) and workflow.local_exec:
            # Nothing runs beside a timing job: it holds every local core, and its fits use
            # the threads its settings give them (its `n_jobs`).
            return max(threads, workflow.cores)
        return threads

    @property
    def params(self):
        return {"settings": self.settings, "config_keys": self.config_keys}

    @property
    def resources(self):
        return {name: self._resource(name) for name in job_resources(self.part, self.kind)
                if name != "threads"}

    def _resource(self, name):
        return lambda wildcards: self.job(wildcards).resource_values()[name]


def job_params(part, kind):
    """Rule arguments of the jobs of `kind` in workflow part `part` (JobParams)."""
    return JobParams(part, kind)


def one_of(names, none="__none__"):
    """A wildcard constraint matching exactly `names` (`none`, which names nothing, when
    there are none)."""
    return "|".join(re.escape(str(name)) for name in names) or none


def repository_path(path):
    """`path` if absolute, else relative to this repository (not the working directory)."""
    return str(Path(workflow.basedir) / path) if not Path(path).is_absolute() else str(path)


def modified_profile_keys(wildcards=None):
    """The result-changing keys this run changed in the file of the profile it names
    (lowdim.report.profile): its scorecard names them, and no row depending on one reads
    "reproduced"."""
    from lowdim.report.profile import profile_modifications

    return profile_modifications(config, workflow.overwrite_configfiles, workflow.basedir,
                                 SCHEMA)


def published_files():
    """The files of published numbers (`report.published`): the scorecard's, and the points
    the paper figures draw beside their curves."""
    return [repository_path(path) for path in configured_published_files(config)]


def dataset_npz(name):
    """Prepared file of dataset `name`. In a run of a sweep (sweeps.smk), the main run's
    file when the swept value leaves its options alone: `local` keeps the module's results/
    prefix off it."""
    path, shared = prepared_file(config, name)
    return local(path) if shared else path
