from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.sweeps import sweep_figure

tidy = pd.read_csv(snakemake.input.csv, dtype={"value": str}, keep_default_na=False,
                   na_values=[""])
save_figure(sweep_figure(tidy, label=snakemake.params.label, profile=snakemake.params.profile),
            snakemake.output.pdf)
