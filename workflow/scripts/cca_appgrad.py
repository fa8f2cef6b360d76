from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

threadpool_limits(snakemake.threads)

from lowdim.cca.experiments import checkpoint_iterations, load_views, run_appgrad, run_replicates
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

s = snakemake.params.settings
name, views = load_views(snakemake.input.npz, s)
job = f"{snakemake.wildcards.cca_method} on {name}"
with config_errors(s, snakemake.params.config_keys, job):
    trace = run_replicates(run_appgrad, views, seed=s["seed"], n_seeds=s["n_seeds"],
                           method=snakemake.wildcards.cca_method,
                           n_components=s["n_components"], reg=s["reg"],
                           step_size=s["step_size"], max_iter=s["max_iter"],
                           checkpoints=checkpoint_iterations(s["max_iter"], s["checkpoint_count"],
                                                             s["checkpoint_iterations"]),
                           batch_size=s.get("batch_size"),
                           normalization_size=s.get("normalization_size"),
                           normalization=s["normalization"])
trace.insert(0, "dataset", name)
write_table(trace, snakemake.output.csv, formats=("csv",))
