from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.data.pipeline import prepare_dataset, write_prepared

dataset = prepare_dataset(snakemake.wildcards.dataset, snakemake.params.options,
                          raw_dir=snakemake.params.raw_dir, lockfile=snakemake.params.lockfile)
write_prepared(dataset, snakemake.output.npz, snakemake.output.summary)
