from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.kernel_cca import figure_kernel_cca

tidy = pd.read_csv(snakemake.input.csv)
fig = figure_kernel_cca(tidy, settings=snakemake.params.settings,
                        title_suffix=f" ({snakemake.params.profile})")
save_figure(fig, snakemake.output.pdf)
