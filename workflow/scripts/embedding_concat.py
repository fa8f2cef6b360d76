from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.embedding.experiments import write_csv

write_csv(pd.concat([pd.read_csv(path) for path in snakemake.input.parts], ignore_index=True),
          snakemake.output.csv)
