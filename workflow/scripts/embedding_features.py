from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.data import load_dataset, save_dataset
from lowdim.embedding.features import embedding_features, features_summary
from lowdim.io import atomic_path
from lowdim.job_errors import config_errors

dataset = load_dataset(snakemake.input.npz)
settings = snakemake.params.settings
with config_errors(settings, snakemake.params.config_keys, f"features of {dataset.name}"):
    features = embedding_features(dataset, **settings)
save_dataset(features, snakemake.output.npz)
with atomic_path(snakemake.output.summary) as tmp:  # Table 2's row of the dataset
    pd.DataFrame([features_summary(features)]).to_csv(tmp, index=False)
