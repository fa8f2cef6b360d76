from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.similarity import error_curves_figure, matrix_labels, spectra_figure
from lowdim.tables import write_table
from lowdim.tables.similarity import diagnostics_table

tidy = {name: pd.read_csv(path) for name, path in snakemake.input.items()}
s = snakemake.params.settings
profile, fraction = s["profile"], s["table_fraction"]
labels = matrix_labels(tidy["matrices"], tidy["eigenvalues"])
save_figure(error_curves_figure(tidy["errors"], labels, profile=profile),
            snakemake.output.error_pdf)
save_figure(spectra_figure(tidy["eigenvalues"], tidy["submatrices"], profile=profile),
            snakemake.output.spectra_pdf)
table = diagnostics_table(tidy["eigenvalues"], tidy["errors"], tidy["matrices"], fraction=fraction)
caption = (f"Similarity matrices (profile {profile}): size, negative eigenvalues and their share "
           f"of the spectrum's mass, and each method's median relative Frobenius error at "
           f"s/n ≈ {fraction}.")
write_table(table, snakemake.output.table_csv, caption=caption)
