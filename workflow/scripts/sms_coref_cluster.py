from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.io import atomic_path
from lowdim.job_errors import config_errors
from lowdim.tasks.coreference import coreference_methods, load_topics

s = snakemake.params.settings
topics, _ = load_topics(snakemake.input.topics)
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"clustering {snakemake.wildcards.corpus}"):
    table = coreference_methods(topics, s["methods"], s["fractions"], s["n_runs"],
                                s["thresholds"], seed=s["seed"], sms=s["sms"])
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
