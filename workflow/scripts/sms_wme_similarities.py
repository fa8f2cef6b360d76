from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.data.word_vectors import load_word_vectors
from lowdim.job_errors import config_errors
from lowdim.similarity.matrices import load_matrix_items, save_matrix
from lowdim.tasks.wmd_classification import corpus_wme_similarities

s = snakemake.params.settings
dataset = load_dataset(snakemake.input.data)
items = load_matrix_items(snakemake.input.kernel)
vectors = None if dataset.word_vectors is not None else load_word_vectors(s["word_vectors"])
# More random documents than training documents would only be capped away.
n_random = min(int(s["n_random"]), len(items))
with threadpool_limits(1), config_errors(s, snakemake.params.config_keys, "WME similarities"):
    S, info = corpus_wme_similarities(dataset, items, vectors, n_random,
                                      int(snakemake.wildcards.d_max), s["unit_norm"],
                                      seed=s["seed"], n_jobs=snakemake.threads)
save_matrix(snakemake.output.npz, S, items, info)
