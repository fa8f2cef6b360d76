from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table
from lowdim.tables.kernel_cca import table_kernel_cca

table = table_kernel_cca(pd.read_csv(snakemake.input.csv))
caption = (f"Kernel CCA on (SMS-)Nyström features (profile {snakemake.params.profile}): "
           "held-out correlations and similarity evaluations, mean ± sd over landmark draws.")
write_table(table, snakemake.output.md, caption=caption)
