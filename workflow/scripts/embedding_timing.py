from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.embedding.timing import limit_threads, timing_run
from lowdim.io import write_json

with limit_threads(snakemake.threads):
    run = timing_run(snakemake.wildcards.axis, int(snakemake.wildcards.value),
                     snakemake.wildcards.method, fixed=snakemake.params.fixed,
                     n_components=snakemake.params.n_components,
                     n_neighbors=snakemake.params.n_neighbors, params=snakemake.params.params,
                     seed=snakemake.params.seed, n_jobs=snakemake.params.n_jobs)
write_json(snakemake.output.json, run)
