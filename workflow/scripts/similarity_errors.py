from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.approx import error_curve
from lowdim.io import atomic_path
from lowdim.similarity.matrices import load_matrix

K, _, _ = load_matrix(snakemake.input.matrix)
with threadpool_limits(snakemake.threads):
    table = error_curve(K, snakemake.wildcards.method, snakemake.params.fractions,
                        snakemake.params.n_seeds, snakemake.params.seed,
                        snakemake.wildcards.matrix, options=snakemake.params.options)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
