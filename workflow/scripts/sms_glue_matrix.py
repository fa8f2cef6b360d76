from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.data import load_dataset
from lowdim.tasks.glue import glue_matrix, labelled_pairs, save_glue_matrix

task = dict(snakemake.params.task)
sentences, a, b, gold = labelled_pairs(load_dataset(snakemake.input.data), task.pop("split"),
                                       task.pop("n_pairs"), seed=snakemake.params.seed)
K, info = glue_matrix(sentences, task.pop("model"), n_jobs=snakemake.threads,
                      **{k: task[k] for k in ("score", "label_index", "batch_size", "max_length",
                                              "device")})
save_glue_matrix(snakemake.output.npz, K, a, b, gold,
                 {"task": snakemake.wildcards.task, "n_sentences": len(sentences),
                  "n_pairs": int(a.size), **info})
