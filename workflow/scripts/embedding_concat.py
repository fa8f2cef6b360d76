from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table

write_table(pd.concat([pd.read_csv(path) for path in snakemake.input.parts], ignore_index=True),
            snakemake.output.csv, formats=("csv",))
