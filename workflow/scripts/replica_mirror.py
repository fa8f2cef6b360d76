from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from pathlib import Path

from lowdim.data.replicas import save_manifest, write_mirror

s = snakemake.params.settings
manifest = write_mirror(Path(snakemake.output.manifest).parent, s["datasets"], seed=s["seed"])
save_manifest(snakemake.output.manifest, manifest)
