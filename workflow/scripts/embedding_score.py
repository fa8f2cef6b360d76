from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.embedding.experiments import load_sweep, score_sweep
from lowdim.job_errors import config_errors
from lowdim.tables import write_table

sweep = load_sweep(snakemake.input.embeddings)
settings = snakemake.params.settings
where = f"scoring {sweep['info']['method']} on {sweep['info']['dataset']}"
with threadpool_limits(snakemake.threads), \
        config_errors(settings, snakemake.params.config_keys, where):
    scores = score_sweep(sweep["embeddings"], sweep["settings"], sweep["y"], **settings)
seconds = dict(zip(sweep["settings"], sweep["seconds"]))
scores.insert(0, "method", sweep["info"]["method"])
scores.insert(0, "dataset", sweep["info"]["dataset"])
scores["fit_seconds"] = scores["setting"].map(seconds)
write_table(scores, snakemake.output.csv, formats=("csv",))
