from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from pathlib import Path

import pandas as pd

from lowdim.io import atomic_path
from lowdim.report.render import overview_html, summary_rst
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
scorecard = pd.read_csv(snakemake.input.scorecard)
params = snakemake.params
with atomic_path(outputs.rst) as tmp:
    tmp.write_text(summary_rst(params.parts, params.datasets, stages, scorecard))
with atomic_path(outputs.overview) as tmp:
    tmp.write_text(overview_html(params.profile, stages, scorecard, similarity, cca))
