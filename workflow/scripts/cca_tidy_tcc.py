from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import numpy as np
import pandas as pd

from lowdim.tables import write_table

traces = [pd.read_csv(p).assign(setting="") for p in snakemake.input.traces]
points = pd.concat(traces + [pd.read_csv(p) for p in snakemake.input.heuristics],
                   ignore_index=True)
points["log_flops"] = np.log(points["flops"])
columns = ["dataset", "method", "setting", "iteration", "flops", "log_flops", "flops_performed",
           "seconds", "tcc_in", "tcc_out"]
write_table(points.reindex(columns=columns), snakemake.output.csv, formats=("csv",))
