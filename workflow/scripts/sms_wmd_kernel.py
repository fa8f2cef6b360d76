from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.similarity.matrices import build_matrix, save_matrix

with threadpool_limits(snakemake.threads):
    K, items, info = build_matrix(snakemake.params.spec, load_dataset(snakemake.input.data),
                                  seed=snakemake.params.seed, n_jobs=snakemake.threads)
save_matrix(snakemake.output.npz, K, items,
            {"corpus": snakemake.wildcards.corpus, **info, "threads": snakemake.threads})
