from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.data import load_dataset
from lowdim.embedding.experiments import embed_and_save

embed_and_save(load_dataset(snakemake.input.features), snakemake.wildcards.method,
               snakemake.params.settings, snakemake.params.config_keys,
               snakemake.output.npz, threads=snakemake.threads)
