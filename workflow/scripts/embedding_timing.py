from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.embedding.timing import timing_runs
from lowdim.io import write_json
from lowdim.job_errors import config_errors

method, settings = snakemake.wildcards.method, snakemake.params.settings
# The job holds every local core so that nothing runs beside it; the fits use the threads
# their settings give them (`n_jobs`), BLAS's included.
with threadpool_limits(settings["n_jobs"]), \
        config_errors(settings, snakemake.params.config_keys, f"timing {method}"):
    runs = timing_runs(method, **settings)
write_json(snakemake.output.json, runs)
