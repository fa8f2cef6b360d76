from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.approx import spectrum_tables
from lowdim.io import atomic_path
from lowdim.similarity.matrices import load_matrix

K, _, _ = load_matrix(snakemake.input.matrix)
with threadpool_limits(snakemake.threads):
    eigenvalues, submatrices = spectrum_tables(K, snakemake.params.sizes, snakemake.params.n_draws,
                                               snakemake.params.seed, snakemake.wildcards.matrix)
for table, path in ((eigenvalues, snakemake.output.eigenvalues),
                    (submatrices, snakemake.output.submatrices)):
    with atomic_path(path) as tmp:
        table.to_csv(tmp, index=False)
