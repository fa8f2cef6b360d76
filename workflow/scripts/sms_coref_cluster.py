from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.io import atomic_path
from lowdim.tasks.coreference import coreference_method, load_topics

params = snakemake.params
topics, _ = load_topics(snakemake.input.topics)
with threadpool_limits(snakemake.threads):
    table = coreference_method(topics, snakemake.wildcards.method, params.fractions, params.n_runs,
                               params.thresholds, seed=params.seed, options=params.options)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
