from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table

table = pd.concat([pd.read_csv(p) for p in snakemake.input.stats], ignore_index=True)
write_table(table, snakemake.output.csv, formats=("csv",))
