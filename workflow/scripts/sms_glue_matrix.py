from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from lowdim.data import load_dataset
from lowdim.job_errors import config_errors
from lowdim.tasks.glue import glue_matrix, labelled_pairs, save_glue_matrix

s = snakemake.params.settings
with config_errors(s, snakemake.params.config_keys, f"GLUE {snakemake.wildcards.task}"):
    sentences, a, b, gold = labelled_pairs(load_dataset(snakemake.input.data), s["split"],
                                           s["n_pairs"], seed=s["seed"])
    K, info = glue_matrix(sentences, s["model"], n_jobs=snakemake.threads,
                          **{k: s[k] for k in ("score", "label_index", "batch_size", "max_length",
                                               "device")})
save_glue_matrix(snakemake.output.npz, K, a, b, gold,
                 {"task": snakemake.wildcards.task, "n_sentences": len(sentences),
                  "n_pairs": int(a.size), **info})
