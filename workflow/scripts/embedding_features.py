from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.config_checks import embedding_job_keys, naming_config_keys
from lowdim.data import load_dataset, save_dataset
from lowdim.embedding.features import embedding_features

dataset = load_dataset(snakemake.input.npz)
with naming_config_keys(embedding_job_keys(snakemake.config, "features"), f"features of {dataset.name}"):
    features = embedding_features(dataset, max_samples=snakemake.params.max_samples,
                                  seed=snakemake.params.seed, **snakemake.params.tfidf)
save_dataset(features, snakemake.output.npz)
