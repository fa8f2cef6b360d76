from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table
from lowdim.tables.similarity import diagnostics_table

table = diagnostics_table(pd.read_csv(snakemake.input.eigenvalues),
                          pd.read_csv(snakemake.input.errors),
                          pd.read_csv(snakemake.input.matrices),
                          fraction=snakemake.params.table_fraction)
caption = (f"Similarity matrices (profile {snakemake.params.profile}): size, negative "
           f"eigenvalues and their share of the spectrum's mass, and each method's median "
           f"relative Frobenius error at s/n ≈ {snakemake.params.table_fraction}.")
write_table(table, snakemake.output.csv, caption=caption)
