from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.approx import error_curves, spectrum_tables
from lowdim.io import atomic_path
from lowdim.job_errors import config_errors
from lowdim.similarity.matrices import load_matrix

matrix, s = snakemake.wildcards.matrix, snakemake.params.settings
K, _, _ = load_matrix(snakemake.input.matrix)
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"approximations of {matrix}"):
    errors = error_curves(K, s["methods"], s["fractions"], s["n_seeds"], s["seed"], matrix,
                          sms=s["sms"])
    eigenvalues, submatrices = spectrum_tables(K, s["spectrum_sizes"], s["n_draws"],
                                               s["spectrum_seed"], matrix)
for name, table in (("errors", errors), ("eigenvalues", eigenvalues),
                    ("submatrices", submatrices)):
    with atomic_path(snakemake.output[name]) as tmp:
        table.to_csv(tmp, index=False)
