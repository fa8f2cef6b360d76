from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.similarity import error_curves_figure, matrix_labels

errors = pd.read_csv(snakemake.input.errors)
labels = matrix_labels(pd.read_csv(snakemake.input.matrices),
                       pd.read_csv(snakemake.input.eigenvalues))
save_figure(error_curves_figure(errors, labels, profile=snakemake.params.profile),
            snakemake.output.pdf)
