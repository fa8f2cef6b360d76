from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.io import atomic_path
from lowdim.job_errors import config_errors
from lowdim.tasks.glue import glue_scores, load_glue_matrix

task, s = snakemake.wildcards.task, snakemake.params.settings
K, a, b, gold, _ = load_glue_matrix(snakemake.input.matrix)
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"GLUE {task} scores"):
    table = glue_scores(K, a, b, gold, task, s["methods"], s["fractions"], n_runs=s["n_runs"],
                        seed=s["seed"], threshold=s["threshold"], options=s["options"])
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
