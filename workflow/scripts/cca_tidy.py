from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.cca.experiments import add_pcc, tcc_points
from lowdim.tables import write_table

inputs, outputs = snakemake.input, snakemake.output


def frames(paths):
    return [pd.read_csv(path) for path in paths]


tables = {}
if "appgrad_trace" in outputs.keys():
    tables["exact"] = pd.concat(frames(inputs.exact), ignore_index=True)
    tables["appgrad_trace"] = add_pcc(pd.concat(frames(inputs.traces), ignore_index=True),
                                      tables["exact"])
if "tcc_flops" in outputs.keys():
    tables["tcc_flops"] = tcc_points(frames(inputs.stochastic), frames(inputs.heuristics))
if "datasets" in outputs.keys():
    tables["datasets"] = pd.concat(frames(inputs.stats), ignore_index=True)
for name, table in tables.items():
    write_table(table, outputs[name], formats=("csv",))
