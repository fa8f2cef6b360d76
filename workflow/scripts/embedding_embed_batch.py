from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import logging

from lowdim.data import load_dataset
from lowdim.embedding.experiments import embed_and_save

data = load_dataset(snakemake.input.features)
fits, keys = snakemake.params.settings["fits"], snakemake.params.settings["fit_keys"]
# one output per method, named by it: the params' dicts come sorted, not in the rule's order
for i, method in enumerate(fits, start=1):
    logging.getLogger("lowdim").info("%s on %s (%d of %d)", method, data.name, i, len(fits))
    embed_and_save(data, method, fits[method], keys[method], snakemake.output[method],
                   threads=snakemake.threads)
