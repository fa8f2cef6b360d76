from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.cca import figure_pcc
from lowdim.report.published import figure_points

profile = snakemake.params.profile
published = figure_points(snakemake.input.published, snakemake.input.csv, "pcc_in", profile)
fig = figure_pcc(pd.read_csv(snakemake.input.csv), datasets=snakemake.params.datasets,
                 title_suffix=f" ({profile})", published=published)
save_figure(fig, snakemake.output.pdf)
