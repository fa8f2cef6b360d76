from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table
from lowdim.tables.embedding import (accuracy_table, clustering_table, datasets_table,
                                     significance_table)

profile, methods = snakemake.params.profile, snakemake.params.methods
classification = pd.read_csv(snakemake.input.classification)
tables = {
    "table2": (datasets_table(pd.read_csv(snakemake.input.datasets)),
               f"Vec2vec Table 2: datasets as embedded ({profile} profile)."),
    "table3": (clustering_table(pd.read_csv(snakemake.input.clustering), methods),
               f"Vec2vec Table 3: best ARI of RBF spectral clustering ({profile} profile)."),
    "accuracy": (accuracy_table(classification, methods),
                 f"Vec2vec Figure 4 as numbers: kNN accuracy, mean ± 2 std over folds "
                 f"({profile} profile)."),
    "ttests": (significance_table(pd.read_csv(snakemake.input.ttests)),
               f"Paired t-tests of Vec2vec against each method across datasets "
               f"({profile} profile)."),
}
for key, (table, caption) in tables.items():
    write_table(table, snakemake.output[key], caption=caption)
