from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.cca.experiments import tcc_points
from lowdim.tables import write_table

points = tcc_points([pd.read_csv(p) for p in snakemake.input.traces],
                    [pd.read_csv(p) for p in snakemake.input.heuristics])
write_table(points, snakemake.output.csv, formats=("csv",))
