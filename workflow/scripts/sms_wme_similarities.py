from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.data.word_vectors import load_word_vectors
from lowdim.similarity.matrices import load_matrix_items, save_matrix
from lowdim.tasks.wmd_classification import corpus_wme_similarities

dataset = load_dataset(snakemake.input.data)
items = load_matrix_items(snakemake.input.kernel)
vectors = None if dataset.word_vectors is not None else \
    load_word_vectors(snakemake.params.word_vectors)
# More random documents than training documents would only be capped away.
n_random = min(int(snakemake.params.n_random), len(items))
with threadpool_limits(1):
    S, info = corpus_wme_similarities(dataset, items, vectors, n_random,
                                      int(snakemake.wildcards.d_max), snakemake.params.unit_norm,
                                      seed=snakemake.params.seed, n_jobs=snakemake.threads)
save_matrix(snakemake.output.npz, S, items, info)
