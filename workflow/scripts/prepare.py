from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.data.pipeline import prepare_dataset, write_prepared

checksums = None
if snakemake.params.manifest:  # a rehearsal on replicas (profile: rehearsal)
    from lowdim.data.replicas import read_manifest

    checksums = read_manifest(snakemake.params.manifest)
dataset = prepare_dataset(snakemake.wildcards.dataset, snakemake.params.options,
                          raw_dir=snakemake.params.raw_dir, lockfile=snakemake.params.lockfile,
                          checksums=checksums)
write_prepared(dataset, snakemake.output.npz, snakemake.output.summary)
