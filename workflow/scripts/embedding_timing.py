from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.embedding.timing import timing_sweep
from lowdim.io import write_json
from lowdim.job_errors import config_errors

axis, method = snakemake.wildcards.axis, snakemake.wildcards.method
settings = snakemake.params.settings
with threadpool_limits(snakemake.threads), \
        config_errors(settings, snakemake.params.config_keys, f"timing {method} over {axis}"):
    runs = timing_sweep(axis, method=method, **settings)
write_json(snakemake.output.json, runs)
