from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.report.published import load_published
from lowdim.tables import write_table
from lowdim.tables.sms_tasks import (coreference_table, glue_table, not_run_table,
                                     published_coreference, wmd_classification_table)

s = snakemake.params.settings
profile = s["profile"]


def wmd_classification(tidy):
    table = wmd_classification_table(tidy, s["small_rank_max"], s["large_rank_max"],
                                     s["large_by_corpus"])
    return table, (f"WMD document classification (profile {profile}): test accuracy (%) of a "
                   f"linear SVM, mean ± std over the splits, at the best rank ≤ "
                   f"{s['small_rank_max']} and ≤ the large-rank limit (chosen with gamma and C "
                   f"by cross-validation on the training split), and the similarity evaluations "
                   f"as % of the exact kernel's.")


def glue(tidy):
    if s["glue_not_run"]:
        return (not_run_table(s["glue_not_run"]),
                f"GLUE with an approximated cross-encoder matrix (profile {profile}): not run.")
    return glue_table(tidy), (f"GLUE with an approximated cross-encoder matrix (profile "
                              f"{profile}): pair predictions read off the approximation, mean ± "
                              f"std over runs, beside the exact matrix's score (STS-B: "
                              f"Pearson/Spearman; MRPC: F1; RTE: accuracy).")


def coreference(tidy):
    published = published_coreference(load_published(snakemake.input.published))
    return coreference_table(tidy, published), (
        f"Coreference-style clustering (profile {profile}): pooled CoNLL F1 (%) of average-"
        f"linkage clustering on 1 − K̃ over the test topics, mean ± std over runs, the distance "
        f"threshold tuned on the tuning topics; the published ECB+ numbers (authors' code) "
        f"beside ours on ECB+, – on other corpora (the offline profile's digits pseudo-topics).")


TABLES = {"wmd_classification": wmd_classification, "glue": glue, "coreference": coreference}
for part in s["parts"]:
    tidy = pd.read_csv(snakemake.input[part]) if part in snakemake.input.keys() else None
    table, caption = TABLES[part](tidy)
    write_table(table, snakemake.output[part], caption=caption)
