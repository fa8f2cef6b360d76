from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table

table = pd.concat([pd.read_csv(path) for path in snakemake.input.summaries], ignore_index=True)
caption = (f"Datasets prepared in this run (profile {snakemake.params.settings['profile']}). "
           "n: items; dimensions per matrix; sizes in MB.")
write_table(table, snakemake.output.csv, formats=("csv", "md"), caption=caption)
