from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.tables import write_table
from lowdim.embedding.timing import timing_table
from lowdim.io import read_json

runs = [read_json(path) for path in snakemake.input.runs]
write_table(timing_table(runs, snakemake.input.benchmarks), snakemake.output.csv,
            formats=("csv",))
