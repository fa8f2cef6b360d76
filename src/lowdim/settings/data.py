"""Settings of the data part: downloads, prepared datasets, the dataset table.

Jobs: ``download`` (one raw file), ``prepare`` (one dataset), ``replica_mirror`` (a
rehearsal's replicas of every remote dataset) and ``table``. The prepared file of a
dataset is ``results/data/<name>.npz`` (:func:`prepared_file`).
"""

from __future__ import annotations

from pathlib import PurePath

from ._core import Job, config_check, job, problem, seed, setting

__all__ = ["PREPARE_DEFAULTS", "dataset_options", "datasets", "prepared_file", "raw_file",
           "raw_files", "remote_files", "replica_files", "replica_manifest"]

#: Resources of a prepare job whose dataset ``resources.prepare`` does not list.
PREPARE_DEFAULTS = {"threads": 1, "mem_mb": 4000, "runtime": 30}


def datasets(config: dict) -> list:
    """Names listed under ``datasets:``, in order.

    Examples
    --------
    >>> from lowdim.settings.data import datasets
    >>> datasets(config)[:3]
    ['digits', 'digits_halves', 'pang_lee']
    """
    return list(config["datasets"])


def dataset_options(config: dict, name: str) -> dict:
    """Options of dataset ``name``, defaults filled in.

    Examples
    --------
    >>> from lowdim.settings.data import dataset_options
    >>> dataset_options(config, "digits_halves")["split"]
    'left_right'
    """
    from ..data import dataset_spec

    given = config["datasets"].get(name) or {}
    return {**dataset_spec(name, given).defaults(), **given}


def prepared_file(config: dict, name: str) -> tuple:
    """``(path, shared)``: the prepared file of dataset ``name`` (``results/data/<name>.npz``),
    and whether a run of a sweep shares it with the main run (the swept value leaves the
    dataset's options alone: the workflow then reads the main run's file).

    Examples
    --------
    >>> from lowdim.settings.data import prepared_file
    >>> prepared_file(config, "digits")
    ('results/data/digits.npz', False)
    """
    shared = name in (config.get("sweep_run") or {}).get("shared_datasets", [])
    return f"results/data/{name}.npz", shared


def remote_files(config: dict, name: str) -> list:
    """The registry's remote files of dataset ``name`` (none for offline and own data).

    Examples
    --------
    >>> from lowdim.settings.data import remote_files
    >>> remote_files(config, "digits")    # shipped with scikit-learn: nothing to download
    []
    """
    from ..data import dataset_spec

    return list(dataset_spec(name, config["datasets"].get(name)).files)


def raw_files(config: dict, name: str) -> list:
    """Local paths of the raw files dataset ``name`` downloads (none for offline data), or
    the files of the user's own data (so that editing them prepares the dataset again).

    Examples
    --------
    >>> from lowdim.settings.data import raw_files
    >>> raw_files(config, "digits")
    []
    """
    from ..data import declares_own_data
    from ..data.own import own_files

    given = config["datasets"].get(name, {})
    if declares_own_data(given):
        return own_files(name, given)
    return [raw_file(config, name, remote.filename) for remote in remote_files(config, name)]


def raw_file(config: dict, dataset: str = "{dataset}", filename: str = "{filename}") -> str:
    """Where a raw file is downloaded to (``<resources.raw_dir>/<dataset>/<filename>``); by
    default the pattern with both as wildcards.

    Examples
    --------
    >>> from lowdim.settings.data import raw_file
    >>> raw_file(config), raw_file(config, "mnist", "mnist_784.arff")
    ('resources/raw/{dataset}/{filename}', 'resources/raw/mnist/mnist_784.arff')
    """
    return f"{config['resources']['raw_dir']}/{dataset}/{filename}"


def replica_manifest(config: dict) -> str:
    """The manifest of a rehearsal's replicas (``resources.replica_manifest``), else ``""``.

    Examples
    --------
    >>> from lowdim.settings.data import replica_manifest
    >>> replica_manifest(config)     # not a rehearsal
    ''
    """
    return config["resources"]["replica_manifest"] or ""


def replica_files(config: dict) -> list:
    """Every replica file of the configured remote datasets (``<mirror>/<dataset>/<file>``),
    none outside a rehearsal.

    Examples
    --------
    >>> import yaml
    >>> from lowdim.config import checkout_config, validate_config
    >>> _, schema = checkout_config()           # the checkout's schema
    >>> rehearsal_file = schema.parents[2] / "config" / "rehearsal.yaml"
    >>> rehearsal = validate_config(yaml.safe_load(rehearsal_file.read_text()), schema)
    >>> from lowdim.settings.data import replica_files
    >>> replica_files(config), replica_files(rehearsal)[0]
    ([], 'results/rehearsal/mirror/mnist/train-images-idx3-ubyte.gz')
    """
    manifest = replica_manifest(config)
    if not manifest:
        return []
    mirror = PurePath(manifest).parent
    return [str(mirror / name / remote.filename) for name in datasets(config)
            for remote in remote_files(config, name)]


@job("data", "download")
def download_job(config, *, dataset, filename):
    """How a raw file is fetched: lock file, timeout, retries, mirrors."""
    settings = {name: setting(config, f"resources.{name}")
                for name in ("lockfile", "timeout", "retries", "mirrors")}
    return Job(settings, {"threads": (1, "")})


@job("data", "prepare", ("threads", "mem_mb", "runtime"))
def prepare_job(config, *, dataset):
    """The dataset's options (defaults filled in) and where its raw files are."""
    settings = {"options": (dataset_options(config, dataset), f"datasets.{dataset}"),
                "raw_dir": setting(config, "resources.raw_dir"),
                "lockfile": setting(config, "resources.lockfile")}
    manifest = replica_manifest(config)
    settings["manifest"] = (manifest if manifest and remote_files(config, dataset) else "",
                            "resources.replica_manifest")
    hints = config["resources"]["prepare"].get(dataset, {})
    # a hint not given is the workflow's default, set by no key
    resources = {name: (hints[name], f"resources.prepare.{dataset}.{name}") if name in hints
                 else (default, "") for name, default in PREPARE_DEFAULTS.items()}
    return Job(settings, resources)


@job("data", "replica_mirror")
def replica_mirror_job(config):
    """The remote datasets a rehearsal writes replicas of, and their seed."""
    from ..data import dataset_spec

    names = [name for name in datasets(config)
             if not dataset_spec(name, config["datasets"].get(name)).offline]
    return Job({"datasets": (names, "datasets"), "seed": (config["seed"], "seed")},
               {"threads": (1, "")})


@job("data", "table")
def table_job(config):
    """The profile, named in the table's caption."""
    return Job({"profile": setting(config, "profile")}, {"threads": (1, "")})


@config_check
def check_replica_manifest(config):
    """Only a rehearsal names a replica manifest, and it keeps its files apart from real ones."""
    manifest, manifest_key = setting(config, "resources.replica_manifest")
    if not manifest:
        return
    profile, profile_key = setting(config, "profile")
    if profile != "rehearsal":
        yield problem(manifest_key, manifest,
                      f"only `{profile_key}: rehearsal` may name a replica manifest, not "
                      f"profile {profile!r} (a real run accepts only the registry's and the "
                      f"lock file's checksums)")
    for name in ("raw_dir", "lockfile"):
        path, key = setting(config, f"resources.{name}")
        if not PurePath(path).as_posix().startswith("results/"):
            yield problem(key, path, "a rehearsal keeps its raw files and pins under results/, "
                                     "apart from real downloads")
    mirrors, mirrors_key = setting(config, "resources.mirrors")
    mirror = PurePath(manifest).parent
    if not any(PurePath(m) == mirror for m in mirrors):
        yield problem(mirrors_key, mirrors,
                      f"a rehearsal must list the replica directory {str(mirror)!r}, where the "
                      f"replicas are served from")
