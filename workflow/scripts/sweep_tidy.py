from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.sweeps import sweep_tidy
from lowdim.tables import write_table

frames = [pd.read_csv(path) for path in snakemake.input.runs]
write_table(sweep_tidy(snakemake.params.sweep, frames), snakemake.output.csv, formats=("csv",))
