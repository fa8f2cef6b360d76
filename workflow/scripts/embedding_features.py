from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.data import load_dataset, save_dataset
from lowdim.embedding.features import embedding_features, features_summary
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

dataset = load_dataset(snakemake.input.npz)
settings = snakemake.params.settings
with config_errors(settings, snakemake.params.config_keys, f"features of {dataset.name}"):
    features = embedding_features(dataset, **settings)
save_dataset(features, snakemake.output.npz)
write_table(pd.DataFrame([features_summary(features)]), snakemake.output.summary,
            formats=("csv",))
