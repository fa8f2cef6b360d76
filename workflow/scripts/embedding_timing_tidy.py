from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.embedding.experiments import write_csv
from lowdim.embedding.timing import timing_table
from lowdim.io import read_json

runs = [read_json(path) for path in snakemake.input.runs]
write_csv(timing_table(runs, snakemake.input.benchmarks), snakemake.output.csv)
