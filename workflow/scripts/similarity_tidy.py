from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.io import atomic_path

for name in ("errors", "eigenvalues", "submatrices", "matrices"):
    table = pd.concat([pd.read_csv(path) for path in snakemake.input[name]], ignore_index=True)
    with atomic_path(snakemake.output[name]) as tmp:
        table.to_csv(tmp, index=False)
