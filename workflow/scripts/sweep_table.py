from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table
from lowdim.tables.sweeps import sweep_caption, sweep_table

tidy = pd.read_csv(snakemake.input.csv, dtype={"value": str}, keep_default_na=False,
                   na_values=[""])
write_table(sweep_table(tidy, snakemake.params.higher_is_better), snakemake.output.md,
            caption=sweep_caption(tidy, snakemake.params.caption))
