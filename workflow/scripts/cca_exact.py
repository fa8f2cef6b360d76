from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

threadpool_limits(snakemake.threads)

import pandas as pd

from lowdim.cca.experiments import load_views, run_exact
from lowdim.config_checks import cca_job_keys, naming_config_keys
from lowdim.tables import write_table

settings = snakemake.params.settings
name, views = load_views(snakemake.input.npz, settings)
with naming_config_keys(cca_job_keys(snakemake.config, name), f"exact CCA on {name}"):
    row = run_exact(views, n_components=settings["n_components"], reg=settings["reg"],
                    method=settings["method"])
write_table(pd.DataFrame([{"dataset": name, **row}]), snakemake.output.csv, formats=("csv",))
