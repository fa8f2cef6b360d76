# Config validation, input functions and get_final_output(); no rules here.

import os
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
from lowdim.config_checks import check_config
from lowdim.data import dataset_spec, declares_own_data
from lowdim.data.own import own_files


SCHEMA = Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml"

# Each key against its schema, then keys against each other and the dataset registry
# (lowdim.config_checks), so a mistake stops the run before any job starts.
try:
    check_complete_profile(config, workflow.overwrite_configfiles)
    _validated = check_config(validate_config(config, SCHEMA))
except ConfigError as error:
    sys.exit(str(error))
# Update in place: Snakemake keeps a reference to this dict.
config.clear()
config.update(_validated)

RAW_DIR = config["resources"]["raw_dir"]

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
    return [repository_path(path) for path in config["report"]["published"]]


def configured_datasets():
    """Names listed under `datasets:` in the config, in order."""
    return list(config["datasets"])


def dataset_npz(name):
    """Prepared file of dataset `name` (results/data/{name}.npz). In a run of a sweep
    (sweeps.smk), the main run's file when the swept value leaves its options alone:
    `local` keeps the module's results/ prefix off it."""
    path = f"results/data/{name}.npz"
    if name in (config["sweep_run"] or {}).get("shared_datasets", []):
        return local(path)
    return path


def dataset_options(name):
    """Options of dataset `name`, defaults filled in."""
    given = config["datasets"].get(name, {})
    return {**dataset_spec(name, given).defaults(), **given}


def raw_files(name):
    """Local paths of the raw files dataset `name` downloads (none for offline data), or the
    files of the user's own data (so that editing them prepares the dataset again)."""
    given = config["datasets"].get(name, {})
    if declares_own_data(given):
        return own_files(name, given)
    return [f"{RAW_DIR}/{name}/{remote.filename}" for remote in dataset_spec(name).files]


def prepare_hint(dataset, key, default):
    """Resource hint `key` of the prepare job of `dataset` (config resources.prepare)."""
    return config["resources"]["prepare"].get(dataset, {}).get(key, default)
