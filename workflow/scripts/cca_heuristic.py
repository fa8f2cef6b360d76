from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

threadpool_limits(snakemake.threads)

from lowdim.cca.experiments import load_views, run_heuristic, run_replicates
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

s = snakemake.params.settings
name, views = load_views(snakemake.input.npz, s)
with config_errors(s, snakemake.params.config_keys, f"{s['method']} on {name}"):
    rows = run_replicates(run_heuristic, views, seed=s["seed"], n_seeds=s["n_seeds"],
                          method=s["method"], n_components=s["n_components"], reg=s["reg"],
                          n_pca_components=s["n_pca_components"], oversample=s["oversample"],
                          n_iter=s["n_iter"])
rows.insert(0, "dataset", name)
write_table(rows, snakemake.output.csv, formats=("csv",))
