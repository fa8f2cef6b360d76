from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.tasks.coreference import make_topics, save_topics, topic_matrices
from lowdim.tasks.encoders import mention_embeddings

spec, seed = snakemake.params.spec, snakemake.params.seed
dataset = load_dataset(snakemake.input.data)
with threadpool_limits(snakemake.threads):
    X, usable = mention_embeddings(dataset, spec["encoder"], spec["encoder_model"] or None,
                                   n_jobs=snakemake.threads)
    train, topics = make_topics(dataset, usable, seed=seed, **{
        k: spec[k] for k in ("train_split", "tune_split", "test_split", "train_items",
                             "topic_size", "tune_topics", "test_topics")})
    topics, info = topic_matrices(X, dataset.y, train, topics, spec["mlp"], seed=seed,
                                  n_jobs=snakemake.threads)
save_topics(snakemake.output.npz, topics, {**info, "encoder": spec["encoder"],
                                           "dataset": dataset.name})
