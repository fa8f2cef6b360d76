"""Figures 3-5 and Tables 2-3 of the Vec2vec paper render from tidy tables."""

import numpy as np
import pandas as pd

from lowdim.plots import save_figure
from lowdim.plots.embedding import accuracy_figure, sensitivity_figure, timing_figure
from lowdim.tables.embedding import (accuracy_table, clustering_table, datasets_table,
                                     significance_table)

CLASSIFICATION = pd.DataFrame({
    "dataset": ["d1"] * 8 + ["d2"] * 8,
    "method": (["vec2vec"] * 4 + ["umap"] * 4) * 2,
    "accuracy": [0.9, 0.92, 0.94, 0.96, 0.8, 0.8, 0.8, 0.8] * 2,
})


def test_accuracy_figure_and_table(tmp_path):
    fig = accuracy_figure(CLASSIFICATION, profile="test", methods=["umap", "vec2vec"])
    bars = [p.get_width() for p in fig.axes[0].patches]  # horizontal bars, in method order
    np.testing.assert_allclose(bars, [0.8, 0.93])
    paths = save_figure(fig, tmp_path / "fig4")
    assert all(p.stat().st_size > 0 for p in paths)
    table = accuracy_table(CLASSIFICATION, ["vec2vec", "umap"])
    two_std = 2 * np.std([0.9, 0.92, 0.94, 0.96])
    assert table.loc[0, "Vec2vec"] == f"**0.9300 ± {two_std:.4f}**"
    assert table.loc[0, "UMAP"] == "0.8000 ± 0.0000"


def test_clustering_table_marks_the_best_and_missing():
    clustering = pd.DataFrame({"dataset": ["d1", "d1", "d2"], "method": ["vec2vec", "pca", "pca"],
                               "ari": [0.5, 0.7, 0.1]})
    table = clustering_table(clustering, ["vec2vec", "pca"])
    assert list(table.columns) == ["dataset", "Vec2vec", "PCA"]
    assert table.loc[0, "PCA"] == "**0.7000**" and table.loc[1, "Vec2vec"] == "–"


def test_significance_and_datasets_tables():
    tests = pd.DataFrame({"task": ["classification", "clustering"], "method": ["umap", "umap"],
                          "t": [1.0, np.nan], "p": [0.1543, np.nan], "H": [0, np.nan],
                          "alpha": 0.1, "n_pairs": [8, 8], "mean_difference": [0.01, 0.02]})
    table = significance_table(tests)
    assert table.loc[0, "classification p"] == "0.1543" and table.loc[0, "clustering p"] == "–"
    assert table.loc[0, "classification H"] == 0
    assert table.loc[0, "clustering H"] == "not computed"
    datasets = pd.DataFrame({"dataset": ["d"], "source_kind": ["text"], "n": [10],
                             "n_features": [99], "n_classes": [2], "features": ["tf-idf"],
                             "sparsity": [0.95], "source": ["x"]})
    assert datasets_table(datasets).loc[0, "zeros (fraction)"] == "0.9500"


def test_significance_table_counts_the_datasets_of_each_task():
    # clustering has a dataset fewer (an ARI of NaN everywhere): each task shows its own count
    tests = pd.DataFrame({"task": ["classification", "clustering"], "method": "pca",
                          "H": [1, 0], "p": [0.0133, 0.3392], "n_pairs": [4, 3], "alpha": 0.1})
    table = significance_table(tests)
    assert list(table.columns) == ["method", "classification H", "classification p",
                                   "classification datasets", "clustering H", "clustering p",
                                   "clustering datasets", "alpha"]
    row = table.iloc[0]
    assert row["classification p"] == "0.0133" and row["classification datasets"] == 4
    assert row["clustering p"] == "0.3392" and row["clustering datasets"] == 3
    # one dataset (a user's own): no test ran, an empty table, as the workflow renders it
    assert significance_table(tests.iloc[:0]).empty


def test_timing_and_sensitivity_figures(tmp_path):
    timing = pd.DataFrame({"axis": ["n_samples"] * 4 + ["n_features"] * 4,
                           "value": [100, 1000] * 4,
                           "method": ["vec2vec", "vec2vec", "mds", "mds"] * 2,
                           "fit_seconds": [1.0, 5.0, 9.0, 12.0, 3.0, 3.5, 8.0, 30.0],
                           "compile_seconds": [0.5] * 2 + [0.0] * 2 + [0.7] * 2 + [0.1] * 2,
                           "fixed": ["D = 64"] * 4 + ["n = 500"] * 4, "n_jobs": 1})
    fig = timing_figure(timing, profile="test", max_samples={"mds": 1000})
    assert fig._suptitle.get_text() == "Vec2vec Figure 3, timing (test profile, 1 thread(s))"
    assert [ax.get_xlabel() for ax in fig.axes] == ["number of points n", "input dimensionality D"]
    assert fig.axes[0].get_yscale() == "log" and len(fig.axes[0].lines) == 2
    np.testing.assert_array_equal(fig.axes[0].lines[1].get_ydata(), [9.0, 12.0])  # fit times
    labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert labels == ["Vec2vec (0.7 s)", "MDS (0.1 s, n ≤ 1,000)"]
    save_figure(fig, tmp_path / "fig3")
    sensitivity = pd.DataFrame({"dataset": "d", "parameter": ["topk"] * 4 + ["n_components"] * 4,
                                "value": [1, 1, 5, 5, 2, 2, 10, 10],
                                "accuracy": [0.5, 0.7, 0.9, 0.9, 0.3, 0.3, 0.8, 0.9]})
    fig = sensitivity_figure(sensitivity)
    assert fig.axes[0].get_xlabel() == "topk neighbours"
    save_figure(fig, tmp_path / "fig5")
