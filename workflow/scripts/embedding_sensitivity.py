from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.config_checks import embedding_job_keys, naming_config_keys
from lowdim.data import load_dataset
from lowdim.embedding.experiments import sensitivity_sweep
from lowdim.tables import write_table
from lowdim.data.parsing import subsample

data = load_dataset(snakemake.input.features)
rows = subsample(data.n, int(snakemake.params.max_samples), snakemake.params.seed)
classification = snakemake.params.classification
parameter = snakemake.wildcards.parameter
with threadpool_limits(snakemake.threads), \
        naming_config_keys(embedding_job_keys(snakemake.config, "sensitivity", parameter),
                           f"Figure 5, {parameter} on {data.name}"):
    scores = sensitivity_sweep(
        data.X[rows], data.y[rows], parameter=parameter,
        values=snakemake.params.values, n_components=snakemake.params.n_components,
        params=snakemake.params.vec2vec, k_grid=classification["k_grid"],
        n_splits=classification["n_splits"], standardize=classification["standardize"],
        random_state=snakemake.params.seed, n_jobs=snakemake.params.n_jobs)
scores.insert(0, "dataset", data.name)
write_table(scores, snakemake.output.csv, formats=("csv",))
