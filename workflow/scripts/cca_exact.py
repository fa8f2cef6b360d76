from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

threadpool_limits(snakemake.threads)

import pandas as pd

from lowdim.cca.experiments import load_views, run_exact
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

settings = snakemake.params.settings
name, views = load_views(snakemake.input.npz, settings)
with config_errors(settings, snakemake.params.config_keys, f"exact CCA on {name}"):
    row = run_exact(views, n_components=settings["n_components"], reg=settings["reg"],
                    method=settings["method"])
write_table(pd.DataFrame([{"dataset": name, **row}]), snakemake.output.csv, formats=("csv",))
