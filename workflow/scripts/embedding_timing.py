from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.embedding.timing import timing_sweep
from lowdim.io import write_json

params = snakemake.params
with threadpool_limits(snakemake.threads):
    runs = timing_sweep(snakemake.wildcards.axis, params.values, snakemake.wildcards.method,
                        fixed=params.fixed, n_components=params.n_components,
                        n_neighbors=params.n_neighbors, params=params.params, seed=params.seed,
                        n_jobs=params.n_jobs, warmup_samples=params.warmup_samples)
write_json(snakemake.output.json, runs)
