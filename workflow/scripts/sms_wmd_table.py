from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table
from lowdim.tables.sms_tasks import wmd_classification_table

params = snakemake.params
table = wmd_classification_table(pd.read_csv(snakemake.input.tidy), params.small_rank_max,
                                 params.large_rank_max, params.large_by_corpus)
caption = (f"WMD document classification (profile {params.profile}): test accuracy (%) of a "
           f"linear SVM, mean ± std over the splits, at the best rank ≤ {params.small_rank_max} "
           f"and ≤ the large-rank limit (chosen with gamma and C by cross-validation on the "
           f"training split), and the similarity evaluations as % of the exact kernel's.")
write_table(table, snakemake.output.csv, caption=caption)
