from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.cca.kernel_experiments import kernel_cca_experiment
from lowdim.data import load_dataset
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

setting = dict(snakemake.params.settings)
seed = setting.pop("seed")
# Limit BLAS and OpenMP after the imports above have loaded them (a limit set before a
# library is loaded does not reach it).
with threadpool_limits(snakemake.threads), \
        config_errors(snakemake.params.settings, snakemake.params.config_keys,
                      f"kernel CCA {setting['name']}"):
    rows = kernel_cca_experiment(load_dataset(snakemake.input.npz), setting, seed=seed)
write_table(rows, snakemake.output.csv, formats=("csv",))
