# Input functions of the data part (workflow/rules/data.smk): the rehearsal's replica mirror.
# Its config is checked with the others at start (lowdim.config_checks).

REPLICA_MANIFEST = config["resources"]["replica_manifest"]


def replica_files():
    """Every replica file of the configured remote datasets (<mirror>/<dataset>/<filename>)."""
    mirror = Path(REPLICA_MANIFEST).parent
    return [str(mirror / name / remote.filename) for name in configured_datasets()
            for remote in remote_files(name)]


def remote_files(name):
    """The registry's remote files of dataset `name` (none for offline and own data)."""
    return dataset_spec(name, config["datasets"].get(name)).files
