from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.embedding.selection import select_best, significance_tests
from lowdim.embedding.timing import timing_table
from lowdim.io import read_json
from lowdim.tables import write_table

inputs, outputs = snakemake.input, snakemake.output


def concat(paths):
    return pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)


tables = {}
if "scores" in outputs.keys():
    scores = concat(inputs.scores)
    classification, clustering = select_best(scores)
    tables.update(scores=scores, classification=classification, clustering=clustering,
                  ttests=significance_tests(classification, clustering,
                                            alpha=snakemake.params.settings["alpha"]),
                  datasets=concat(inputs.datasets))
if "sensitivity" in outputs.keys():
    tables["sensitivity"] = concat(inputs.sensitivity)
if "timing" in outputs.keys():
    tables["timing"] = timing_table([read_json(path) for path in inputs.timing],
                                    inputs.benchmarks)
for name, table in tables.items():
    write_table(table, outputs[name], formats=("csv",))
