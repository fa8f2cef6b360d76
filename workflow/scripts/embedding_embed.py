from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.config_checks import embedding_job_keys, naming_config_keys
from lowdim.data import load_dataset
from lowdim.embedding.experiments import embed_sweep, save_sweep, sweep_settings

data = load_dataset(snakemake.input.features)
method = snakemake.wildcards.method
with threadpool_limits(snakemake.threads), \
        naming_config_keys(embedding_job_keys(snakemake.config, "embed"), f"{method} on {data.name}"):
    sweep = embed_sweep(data.X, method, n_components=snakemake.params.n_components,
                        settings=sweep_settings(method, snakemake.params.neighbors, data.n),
                        params=snakemake.params.params, random_state=snakemake.params.seed,
                        n_jobs=snakemake.params.n_jobs)
save_sweep(snakemake.output.npz, sweep, dataset=data.name, method=method, y=data.y,
           meta={"seed": snakemake.params.seed, "params": snakemake.params.params})
