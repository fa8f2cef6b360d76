from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.cca.experiments import table_datasets
from lowdim.plots import save_figure
from lowdim.plots.cca import figure_pcc, figure_tcc_flops
from lowdim.report.published import figure_points
from lowdim.tables import write_table

inputs, outputs = snakemake.input, snakemake.output
s = snakemake.params.settings
profile = s["profile"]
if "figure1" in outputs.keys():
    published = figure_points(inputs.published, inputs.appgrad_trace, "pcc_in", profile)
    save_figure(figure_pcc(pd.read_csv(inputs.appgrad_trace), datasets=s["figure1_datasets"],
                           title_suffix=f" ({profile})", published=published), outputs.figure1)
if "figure2" in outputs.keys():
    points = pd.read_csv(inputs.tcc_flops, keep_default_na=False, na_values=[""])
    points["setting"] = points["setting"].fillna("")
    save_figure(figure_tcc_flops(points, s["figure2_datasets"], title_suffix=f" ({profile})"),
                outputs.figure2)
if "table1" in outputs.keys():
    caption = (f"Table 1: datasets of the CCA experiments (profile {profile}); sparsity is the "
               f"fraction of zero entries.")
    write_table(table_datasets(pd.read_csv(inputs.datasets)), outputs.table1, caption=caption)
