from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import logging

from threadpoolctl import threadpool_limits

from lowdim.embedding.timing import timing_runs
from lowdim.io import write_json
from lowdim.job_errors import config_errors

runs, keys = snakemake.params.settings["runs"], snakemake.params.settings["run_keys"]
# The job holds every local core so that nothing runs beside it; each method's fits use the
# threads its settings give them (`n_jobs`), BLAS's included. One output per method, named
# by it: the params' dicts come sorted, not in the rule's order.
for i, method in enumerate(runs, start=1):
    settings = runs[method]
    logging.getLogger("lowdim").info("timing %s (%d of %d)", method, i, len(runs))
    with threadpool_limits(settings["n_jobs"]), \
            config_errors(settings, keys[method], f"timing {method}"):
        records = timing_runs(method, **settings)
    write_json(snakemake.output[method], records)
