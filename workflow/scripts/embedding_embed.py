from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.embedding.experiments import embed_sweep, save_sweep, sweep_settings
from lowdim.job_errors import config_errors

data = load_dataset(snakemake.input.features)
method, s = snakemake.wildcards.method, snakemake.params.settings
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"{method} on {data.name}"):
    sweep = embed_sweep(data.X, method, n_components=s["n_components"],
                        settings=sweep_settings(method, s["neighbors"], data.n),
                        params=s["params"], random_state=s["random_state"], n_jobs=s["n_jobs"])
save_sweep(snakemake.output.npz, sweep, dataset=data.name, method=method, y=data.y,
           meta={"seed": s["random_state"], "params": s["params"]})
