from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.similarity import spectra_figure

figure = spectra_figure(pd.read_csv(snakemake.input.eigenvalues),
                        pd.read_csv(snakemake.input.submatrices), profile=snakemake.params.profile)
save_figure(figure, snakemake.output.pdf)
