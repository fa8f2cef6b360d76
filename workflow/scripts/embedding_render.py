from lowdim.log import log_to_file

log_to_file(snakemake.log[0])

import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.embedding import accuracy_figure, sensitivity_figure, timing_figure
from lowdim.report.published import figure_points
from lowdim.tables import write_table
from lowdim.tables.embedding import (accuracy_table, clustering_table, datasets_table,
                                     significance_table)

inputs, outputs = snakemake.input, snakemake.output
s = snakemake.params.settings
profile, methods = s["profile"], s["methods"]
tidy = {name: pd.read_csv(inputs[name]) for name in inputs.keys() if name != "published"}

if "figure3_timing" in outputs.keys():
    save_figure(timing_figure(tidy["timing"], profile=profile, max_samples=s["max_samples"]),
                outputs.figure3_timing)
if "figure5_sensitivity" in outputs.keys():
    save_figure(sensitivity_figure(tidy["sensitivity"], profile=profile),
                outputs.figure5_sensitivity)
if "figure4_knn_accuracy" in outputs.keys():
    published = figure_points(inputs.published, inputs.classification, "accuracy", profile)
    save_figure(accuracy_figure(tidy["classification"], profile=profile, methods=methods,
                                published=published), outputs.figure4_knn_accuracy)
    tables = {
        "table2_datasets": (datasets_table(tidy["datasets"]),
                            f"Vec2vec Table 2: datasets as embedded ({profile} profile)."),
        "table3_clustering_ari": (clustering_table(tidy["clustering"], methods),
                                  f"Vec2vec Table 3: best ARI of RBF spectral clustering "
                                  f"({profile} profile)."),
        "knn_accuracy": (accuracy_table(tidy["classification"], methods),
                         f"Vec2vec Figure 4 as numbers: kNN accuracy, mean ± 2 std over folds "
                         f"({profile} profile)."),
        "ttests": (significance_table(tidy["ttests"]),
                   f"Paired t-tests of Vec2vec against each method across datasets "
                   f"({profile} profile)."),
    }
    for name, (table, caption) in tables.items():
        write_table(table, outputs[name], caption=caption)
