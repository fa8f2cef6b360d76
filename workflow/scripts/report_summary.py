from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from pathlib import Path

import pandas as pd

from lowdim.io import atomic_path
from lowdim.report.render import overview_html, summary_rst
from lowdim.report.summary import cca_savings, similarity_savings, stage_times
from lowdim.settings.cca import TIDY as CCA_TIDY
from lowdim.settings.similarity import TIDY as SIMILARITY_TIDY


def read(path):
    path = Path("results") / path
    return pd.read_csv(path) if path.exists() else None


s = snakemake.params.settings
stages = stage_times("results/benchmarks")
errors, matrices = read(SIMILARITY_TIDY["errors"]), read(SIMILARITY_TIDY["matrices"])
similarity = (similarity_savings(errors, matrices, s["savings_fraction"])
              if errors is not None and matrices is not None else pd.DataFrame())
trace, exact = read(CCA_TIDY["appgrad_trace"]), read(CCA_TIDY["exact"])
cca = (cca_savings(trace, exact, s["pcc_targets"])
       if trace is not None and exact is not None else pd.DataFrame())
outputs = snakemake.output
for frame, path in ((stages, outputs.stages), (similarity, outputs.similarity), (cca, outputs.cca)):
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)
scorecard = pd.read_csv(snakemake.input.scorecard)
with atomic_path(outputs.rst) as tmp:
    tmp.write_text(summary_rst(s["parts"], s["datasets"], stages, scorecard))
with atomic_path(outputs.overview) as tmp:
    tmp.write_text(overview_html(s["profile"], stages, scorecard, similarity, cca))
