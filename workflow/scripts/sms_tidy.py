from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.io import atomic_path

# One row per measurement: every job's rows, with the labels its path carries.
parts = [pd.read_csv(path).assign(**labels)
         for path, labels in zip(snakemake.input.csv, snakemake.params.labels)]
table = pd.concat(parts, ignore_index=True)
front = [c for c in ("corpus", "task") if c in table.columns]
table = table[front + [c for c in table.columns if c not in front]]
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
