from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd
from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.io import atomic_path
from lowdim.similarity.matrices import build_matrix, save_matrix

with threadpool_limits(snakemake.threads):
    K, items, info = build_matrix(snakemake.params.spec, load_dataset(snakemake.input.data),
                                  seed=snakemake.params.seed, n_jobs=snakemake.threads)
info = {"matrix": snakemake.wildcards.matrix, **info, "threads": snakemake.threads}
save_matrix(snakemake.output.npz, K, items, info)
with atomic_path(snakemake.output.info) as tmp:
    pd.DataFrame([info]).to_csv(tmp, index=False)
