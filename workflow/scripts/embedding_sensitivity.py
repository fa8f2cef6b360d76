from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.data.parsing import subsample
from lowdim.embedding.experiments import sensitivity_sweep
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

data = load_dataset(snakemake.input.features)
s = dict(snakemake.params.settings)
rows = subsample(data.n, int(s.pop("max_samples")), s["random_state"])
parameter = snakemake.wildcards.parameter
with threadpool_limits(snakemake.threads), \
        config_errors(snakemake.params.settings, snakemake.params.config_keys,
                      f"Figure 5, {parameter} on {data.name}"):
    scores = sensitivity_sweep(data.X[rows], data.y[rows], parameter=parameter, **s)
scores.insert(0, "dataset", data.name)
write_table(scores, snakemake.output.csv, formats=("csv",))
