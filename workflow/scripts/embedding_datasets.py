from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.data import load_dataset
from lowdim.embedding.experiments import features_summary, write_csv

rows = [features_summary(load_dataset(path)) for path in snakemake.input.features]
write_csv(pd.DataFrame(rows), snakemake.output.csv)
