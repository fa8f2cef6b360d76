from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table

runs = pd.concat([pd.read_csv(path) for path in snakemake.input.runs], ignore_index=True)
write_table(runs, snakemake.output.csv, formats=("csv",))
