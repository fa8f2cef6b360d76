from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.data import load_dataset, save_dataset
from lowdim.embedding.features import embedding_features

features = embedding_features(load_dataset(snakemake.input.npz),
                              max_samples=snakemake.params.max_samples,
                              seed=snakemake.params.seed, **snakemake.params.tfidf)
save_dataset(features, snakemake.output.npz)
