from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd
from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.io import atomic_path
from lowdim.job_errors import config_errors
from lowdim.similarity.matrices import build_matrix, save_matrix

matrix = snakemake.wildcards.matrix
spec = dict(snakemake.params.settings)
seed = spec.pop("seed")
with threadpool_limits(snakemake.threads), \
        config_errors(snakemake.params.settings, snakemake.params.config_keys, f"matrix {matrix}"):
    K, items, info = build_matrix(spec, load_dataset(snakemake.input.data), seed=seed,
                                  n_jobs=snakemake.threads)
info = {"matrix": matrix, **info, "threads": snakemake.threads}
save_matrix(snakemake.output.npz, K, items, info)
with atomic_path(snakemake.output.info) as tmp:
    pd.DataFrame([info]).to_csv(tmp, index=False)
