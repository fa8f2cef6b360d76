from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data.pipeline import prepare_dataset, write_prepared
from lowdim.job_errors import config_errors

s = snakemake.params.settings
dataset = snakemake.wildcards.dataset
checksums = None
if s["manifest"]:  # a rehearsal on replicas (profile: rehearsal)
    from lowdim.data.replicas import read_manifest

    checksums = read_manifest(s["manifest"])
# Limit BLAS and OpenMP after the imports above have loaded them (a limit set before a
# library is loaded does not reach it).
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"preparing {dataset}", keyless=False):
    prepared = prepare_dataset(dataset, s["options"], raw_dir=s["raw_dir"],
                               lockfile=s["lockfile"], checksums=checksums)
write_prepared(prepared, snakemake.output.npz, snakemake.output.summary)
