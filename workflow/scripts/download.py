from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from pathlib import Path

from lowdim.data import get_spec
from lowdim.data.download import download

dataset, filename = snakemake.wildcards.dataset, snakemake.wildcards.filename
remote = {f.filename: f for f in get_spec(dataset).files}[filename]
download(remote, Path(snakemake.output[0]), dataset=dataset,
         lockfile=snakemake.params.lockfile, timeout=snakemake.params.timeout,
         retries=snakemake.params.retries)
