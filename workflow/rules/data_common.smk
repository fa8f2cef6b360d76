# Config checks and input functions of the data part (workflow/rules/data.smk): the
# rehearsal's replica mirror.

REPLICA_MANIFEST = config["resources"]["replica_manifest"]


def _check_replica_config():
    """Only a rehearsal names a replica manifest, and it keeps its files apart from real ones."""
    res = config["resources"]
    if not REPLICA_MANIFEST:
        return
    if config["profile"] != "rehearsal":
        sys.exit(f"config: resources.replica_manifest: got {REPLICA_MANIFEST!r} in profile "
                 f"{config['profile']!r}; only `profile: rehearsal` may name a replica manifest "
                 f"(a real run accepts only the registry's and the lock file's checksums)")
    for key in ("raw_dir", "lockfile"):
        if not Path(res[key]).as_posix().startswith("results/"):
            sys.exit(f"config: resources.{key}: got {res[key]!r}; a rehearsal keeps its raw "
                     f"files and pins under results/, apart from real downloads")
    mirror = str(Path(REPLICA_MANIFEST).parent)
    if not any(Path(m) == Path(mirror) for m in res["mirrors"]):
        sys.exit(f"config: resources.mirrors: got {res['mirrors']}; a rehearsal must list the "
                 f"replica directory {mirror!r}, where the replicas are served from")


_check_replica_config()


def replica_files():
    """Every replica file of the configured remote datasets (<mirror>/<dataset>/<filename>)."""
    mirror = Path(REPLICA_MANIFEST).parent
    return [str(mirror / name / remote.filename) for name in configured_datasets()
            for remote in remote_files(name)]


def remote_files(name):
    """The registry's remote files of dataset `name` (none for offline and own data)."""
    return dataset_spec(name, config["datasets"].get(name)).files
