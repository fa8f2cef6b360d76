from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.job_errors import config_errors
from lowdim.tasks.coreference import make_topics, save_topics, topic_matrices
from lowdim.tasks.encoders import mention_embeddings

s = snakemake.params.settings
spec, seed = s["spec"], s["seed"]
dataset = load_dataset(snakemake.input.data)
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"topics of {dataset.name}"):
    X, usable = mention_embeddings(dataset, spec["encoder"], spec["encoder_model"] or None,
                                   n_jobs=snakemake.threads)
    train, topics = make_topics(dataset, usable, seed=seed, **{
        k: spec[k] for k in ("train_split", "tune_split", "test_split", "train_items",
                             "topic_size", "tune_topics", "test_topics")})
    topics, info = topic_matrices(X, dataset.y, train, topics, spec["mlp"], seed=seed,
                                  n_jobs=snakemake.threads)
save_topics(snakemake.output.npz, topics, {**info, "encoder": spec["encoder"],
                                           "dataset": dataset.name})
