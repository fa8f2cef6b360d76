from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.config_checks import embedding_job_keys, naming_config_keys
from lowdim.embedding.experiments import load_sweep, score_sweep
from lowdim.tables import write_table

sweep = load_sweep(snakemake.input.embeddings)
classification, clustering = snakemake.params.classification, snakemake.params.clustering
where = f"scoring {sweep['info']['method']} on {sweep['info']['dataset']}"
with threadpool_limits(snakemake.threads), \
        naming_config_keys(embedding_job_keys(snakemake.config, "score"), where):
    scores = score_sweep(sweep["embeddings"], sweep["settings"], sweep["y"],
                         k_grid=classification["k_grid"], n_splits=classification["n_splits"],
                         standardize=classification["standardize"],
                         gammas=clustering["gammas"],
                         standardize_clustering=clustering["standardize"],
                         random_state=snakemake.params.seed)
seconds = dict(zip(sweep["settings"], sweep["seconds"]))
scores.insert(0, "method", sweep["info"]["method"])
scores.insert(0, "dataset", sweep["info"]["dataset"])
scores["fit_seconds"] = scores["setting"].map(seconds)
write_table(scores, snakemake.output.csv, formats=("csv",))
