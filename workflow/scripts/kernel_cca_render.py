from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.kernel_cca import figure_kernel_cca
from lowdim.tables import write_table
from lowdim.tables.kernel_cca import table_kernel_cca

s = snakemake.params.settings
tidy = pd.read_csv(snakemake.input.csv)
save_figure(figure_kernel_cca(tidy, settings=s["settings"], title_suffix=f" ({s['profile']})"),
            snakemake.output.figure)
caption = (f"Kernel CCA on (SMS-)Nyström features (profile {s['profile']}): held-out "
           "correlations and similarity evaluations, mean ± sd over landmark draws.")
write_table(table_kernel_cca(tidy), snakemake.output.table, caption=caption)
