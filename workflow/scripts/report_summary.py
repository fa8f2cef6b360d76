from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from pathlib import Path

import pandas as pd

from lowdim.io import atomic_path
from lowdim.report.render import summary_rst
from lowdim.report.summary import cca_savings, similarity_savings, stage_times


def read(path):
    return pd.read_csv(path) if Path(path).exists() else None


stages = stage_times("results/benchmarks")
errors, matrices = read("results/similarity/tidy/errors.csv"), read("results/similarity/tidy/matrices.csv")
similarity = (similarity_savings(errors, matrices, snakemake.params.savings_fraction)
              if errors is not None and matrices is not None else pd.DataFrame())
trace, exact = read("results/cca/tidy/appgrad_trace.csv"), read("results/cca/tidy/exact.csv")
cca = (cca_savings(trace, exact, snakemake.params.pcc_targets)
       if trace is not None and exact is not None else pd.DataFrame())
outputs = snakemake.output
for frame, path in ((stages, outputs.stages), (similarity, outputs.similarity), (cca, outputs.cca)):
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)
text = summary_rst(snakemake.params.profile, snakemake.params.seed, snakemake.params.parts,
                   snakemake.params.datasets, stages, pd.read_csv(snakemake.input.scorecard),
                   similarity, cca)
with atomic_path(outputs.rst) as tmp:
    tmp.write_text(text)
