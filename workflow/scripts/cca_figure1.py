from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.cca import figure_pcc

trace = pd.read_csv(snakemake.input.csv)
fig = figure_pcc(trace, datasets=snakemake.params.datasets,
                 title_suffix=f" ({snakemake.params.profile})")
save_figure(fig, snakemake.output.pdf)
