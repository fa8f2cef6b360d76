from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.embedding.selection import select_best, significance_tests
from lowdim.tables import write_table

scores = pd.concat([pd.read_csv(path) for path in snakemake.input.scores], ignore_index=True)
classification, clustering = select_best(scores)
write_table(scores, snakemake.output.scores, formats=("csv",))
write_table(classification, snakemake.output.classification, formats=("csv",))
write_table(clustering, snakemake.output.clustering, formats=("csv",))
write_table(significance_tests(classification, clustering, alpha=snakemake.params.alpha),
            snakemake.output.ttests, formats=("csv",))
