from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.io import atomic_path
from lowdim.tasks.glue import glue_scores, load_glue_matrix

params = snakemake.params
K, a, b, gold, _ = load_glue_matrix(snakemake.input.matrix)
with threadpool_limits(snakemake.threads):
    table = glue_scores(K, a, b, gold, snakemake.wildcards.task, params.methods, params.fractions,
                        n_runs=params.n_runs, seed=params.seed, threshold=params.threshold,
                        options=params.options)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
