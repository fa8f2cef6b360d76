from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.data import load_dataset
from lowdim.embedding.features import features_summary
from lowdim.tables import write_table

rows = [features_summary(load_dataset(path)) for path in snakemake.input.features]
write_table(pd.DataFrame(rows), snakemake.output.csv, formats=("csv",))
