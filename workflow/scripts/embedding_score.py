from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd
from threadpoolctl import threadpool_limits

from lowdim.embedding.experiments import load_sweep, sweep_scores
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

settings, scores = snakemake.params.settings, []
for path in snakemake.input.embeddings:
    sweep = load_sweep(path)
    where = f"scoring {sweep['info']['method']} on {sweep['info']['dataset']}"
    with threadpool_limits(snakemake.threads), \
            config_errors(settings, snakemake.params.config_keys, where):
        scores.append(sweep_scores(sweep, **settings))
write_table(pd.concat(scores, ignore_index=True), snakemake.output.csv, formats=("csv",))
