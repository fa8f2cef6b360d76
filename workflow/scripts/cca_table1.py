from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.cca.experiments import table_datasets
from lowdim.tables import write_table

table = table_datasets(pd.read_csv(snakemake.input.csv))
caption = (f"Table 1: datasets of the CCA experiments (profile {snakemake.params.profile}); "
           "sparsity is the fraction of zero entries.")
write_table(table, snakemake.output.md, caption=caption)
