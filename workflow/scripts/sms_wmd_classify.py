from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

from threadpoolctl import threadpool_limits

from lowdim.data import load_dataset
from lowdim.io import atomic_path
from lowdim.similarity.matrices import load_matrix
from lowdim.tasks.wmd_classification import classify_documents, corpus_splits

params = snakemake.params
wme = {d: load_matrix(path) for d, path in zip(params.d_max, snakemake.input.wme)}
if wme:  # WME needs only its similarities to the random documents, not the kernel
    K, items = None, next(iter(wme.values()))[1]
    wme = {d: S for d, (S, _, _) in wme.items()}
else:
    K, items, _ = load_matrix(snakemake.input.kernel)
y, splits, info = corpus_splits(load_dataset(snakemake.input.data), items,
                                seed=params.seed, **params.splits)
with threadpool_limits(snakemake.threads):
    table = classify_documents(snakemake.wildcards.method, K, y, splits, gamma0=params.gamma0,
                               gammas=params.gammas, ranks=params.ranks, C_grid=params.svm["C"],
                               n_folds=params.svm["cv_folds"], max_iter=params.svm["max_iter"],
                               seed=params.seed, options=params.options, wme=wme,
                               **({"sicur_features": params.sicur_features}
                                  if params.sicur_features else {}))
table["given_splits"] = info["given_splits"]
table["left_out"] = info["left_out"]
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
