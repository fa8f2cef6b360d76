from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.io import atomic_path

for name in snakemake.output.keys():  # each output concatenates the input list of its name
    paths = snakemake.input[name]
    paths = [paths] if isinstance(paths, str) else paths
    table = pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)
    with atomic_path(snakemake.output[name]) as tmp:
        table.to_csv(tmp, index=False)
