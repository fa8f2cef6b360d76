from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.io import atomic_path
from lowdim.job_errors import config_errors
from lowdim.similarity.matrices import load_matrix
from lowdim.tasks.wmd_classification import classify_documents, corpus_splits

s, method = snakemake.params.settings, snakemake.wildcards.method
wme = {d: load_matrix(path) for d, path in zip(s["d_max"], snakemake.input.wme)}
if wme:  # WME needs only its similarities to the random documents, not the kernel
    K, items = None, next(iter(wme.values()))[1]
    wme = {d: S for d, (S, _, _) in wme.items()}
else:
    K, items, _ = load_matrix(snakemake.input.kernel)
with threadpool_limits(snakemake.threads), \
        config_errors(s, snakemake.params.config_keys, f"{method} on {snakemake.wildcards.corpus}"):
    y, splits, info = corpus_splits(load_dataset(snakemake.input.data), items, seed=s["seed"],
                                    **s["splits"])
    table = classify_documents(method, K, y, splits, gamma0=s["gamma0"], gammas=s["gammas"],
                               ranks=s["ranks"], C_grid=s["svm"]["C"],
                               n_folds=s["svm"]["cv_folds"], max_iter=s["svm"]["max_iter"],
                               seed=s["seed"], options=s["options"], wme=wme,
                               **({"sicur_features": s["sicur_features"]}
                                  if s["sicur_features"] else {}))
table["given_splits"] = info["given_splits"]
table["left_out"] = info["left_out"]
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
