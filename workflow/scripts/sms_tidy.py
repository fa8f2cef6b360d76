from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.io import atomic_path

# One row per measurement: each task's results, with the labels their paths carry.
labels = snakemake.params.settings["labels"]
for part in snakemake.output.keys():
    paths = snakemake.input[part]
    paths = [paths] if isinstance(paths, str) else paths
    table = pd.concat([pd.read_csv(path).assign(**label)
                       for path, label in zip(paths, labels[part])], ignore_index=True)
    front = [c for c in ("corpus", "task") if c in table.columns]
    table = table[front + [c for c in table.columns if c not in front]]
    with atomic_path(snakemake.output[part]) as tmp:
        table.to_csv(tmp, index=False)
