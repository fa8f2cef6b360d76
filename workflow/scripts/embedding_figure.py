from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.embedding import accuracy_figure, sensitivity_figure, timing_figure
from lowdim.report.published import figure_points

profile = snakemake.params.profile
if snakemake.rule == "embedding_figure3":
    fig = timing_figure(pd.read_csv(snakemake.input.timing), profile=profile,
                        max_samples=snakemake.params.max_samples)
elif snakemake.rule == "embedding_figure4":
    published = figure_points(snakemake.input.published, snakemake.input.classification,
                              "accuracy", profile)
    fig = accuracy_figure(pd.read_csv(snakemake.input.classification), profile=profile,
                          methods=snakemake.params.methods, published=published)
else:
    fig = sensitivity_figure(pd.read_csv(snakemake.input.sensitivity), profile=profile)
save_figure(fig, snakemake.output.pdf)
