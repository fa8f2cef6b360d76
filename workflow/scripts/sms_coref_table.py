from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.report.published import load_published
from lowdim.tables import write_table
from lowdim.tables.sms_tasks import coreference_table, published_coreference

tidy = pd.read_csv(snakemake.input.tidy)
published = published_coreference(load_published(snakemake.input.published))
table = coreference_table(tidy, published)
caption = (f"Coreference-style clustering (profile {snakemake.params.profile}): pooled CoNLL F1 "
           f"(%) of average-linkage clustering on 1 − K̃ over the test topics, mean ± std over "
           f"runs, the distance threshold tuned on the tuning topics; published ECB+ numbers "
           f"(authors' code) beside ours.")
write_table(table, snakemake.output.csv, caption=caption)
