from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.cca.experiments import add_pcc
from lowdim.tables import write_table

traces = pd.concat([pd.read_csv(p) for p in snakemake.input.traces], ignore_index=True)
exact = pd.concat([pd.read_csv(p) for p in snakemake.input.exact], ignore_index=True)
write_table(add_pcc(traces, exact), snakemake.output.csv, formats=("csv",))
write_table(exact, snakemake.output.exact, formats=("csv",))
