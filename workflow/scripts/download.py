from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from pathlib import Path

from lowdim.data import get_spec
from lowdim.data.download import download

dataset, filename = snakemake.wildcards.dataset, snakemake.wildcards.filename
remote = {f.filename: f for f in get_spec(dataset).files}[filename]
checksums = None
if snakemake.input.manifest:  # a rehearsal on replicas (profile: rehearsal)
    from lowdim.data.replicas import read_manifest

    checksums = read_manifest(snakemake.input.manifest)
s = snakemake.params.settings
download(remote, Path(snakemake.output[0]), dataset=dataset, lockfile=s["lockfile"],
         timeout=s["timeout"], retries=s["retries"], mirrors=s["mirrors"], checksums=checksums)
