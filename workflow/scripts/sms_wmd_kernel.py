from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.job_errors import config_errors
from lowdim.similarity.matrices import build_matrix, save_matrix

corpus, s = snakemake.wildcards.corpus, snakemake.params.settings
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"WMD kernel of {corpus}"):
    K, items, info = build_matrix(s["spec"], load_dataset(snakemake.input.data), seed=s["seed"],
                                  n_jobs=snakemake.threads)
save_matrix(snakemake.output.npz, K, items,
            {"corpus": corpus, **info, "threads": snakemake.threads})
