from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.similarity.tiny_crossencoder import build_tiny_crossencoder

spec = dict(snakemake.params.settings["spec"])
spec.pop("kind")  # tiny_bert, the only kind
build_tiny_crossencoder(snakemake.output[0], **spec)
