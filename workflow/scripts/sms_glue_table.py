from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.tables import write_table
from lowdim.tables.sms_tasks import glue_table, not_run_table

params = snakemake.params
if params.not_run:
    table = not_run_table(params.not_run)
    caption = f"GLUE with an approximated cross-encoder matrix (profile {params.profile}): not run."
else:
    table = glue_table(pd.read_csv(snakemake.input.tidy))
    caption = (f"GLUE with an approximated cross-encoder matrix (profile {params.profile}): "
               f"pair predictions read off the approximation, mean ± std over runs, beside the "
               f"exact matrix's score (STS-B: Pearson/Spearman; MRPC: F1; RTE: accuracy).")
write_table(table, snakemake.output.csv, caption=caption)
