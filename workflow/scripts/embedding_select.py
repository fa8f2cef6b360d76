from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.embedding.experiments import select_best, significance_tests, write_csv

scores = pd.concat([pd.read_csv(path) for path in snakemake.input.scores], ignore_index=True)
classification, clustering = select_best(scores)
write_csv(scores, snakemake.output.scores)
write_csv(classification, snakemake.output.classification)
write_csv(clustering, snakemake.output.clustering)
write_csv(significance_tests(classification, clustering, alpha=snakemake.params.alpha),
          snakemake.output.ttests)
