from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.cca.experiments import dataset_stats, load_views
from lowdim.tables import write_table

name, views = load_views(snakemake.input.npz, snakemake.params.settings)
write_table(pd.DataFrame([dataset_stats(name, views)]), snakemake.output.csv, formats=("csv",))
