from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.embedding.timing import timing_run
from lowdim.io import write_json

with threadpool_limits(snakemake.threads):
    run = timing_run(snakemake.wildcards.axis, int(snakemake.wildcards.value),
                     snakemake.wildcards.method, fixed=snakemake.params.fixed,
                     n_components=snakemake.params.n_components,
                     n_neighbors=snakemake.params.n_neighbors, params=snakemake.params.params,
                     seed=snakemake.params.seed, n_jobs=snakemake.params.n_jobs)
write_json(snakemake.output.json, run)
