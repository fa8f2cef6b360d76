from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.cca import figure_tcc_flops

points = pd.read_csv(snakemake.input.csv, keep_default_na=False, na_values=[""])
points["setting"] = points["setting"].fillna("")
fig = figure_tcc_flops(points, snakemake.params.datasets,
                       title_suffix=f" ({snakemake.params.profile})")
save_figure(fig, snakemake.output.pdf)
