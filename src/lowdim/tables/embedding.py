"""Tables of the Vec2vec paper, each built from one tidy table.

- :func:`datasets_table` (Table 2): the datasets as embedded.
- :func:`clustering_table` (Table 3): best ARI per dataset and method.
- :func:`accuracy_table`: the numbers behind Figure 4 (mean ± 2 std).
- :func:`significance_table`: paired t-tests of Vec2vec against each method.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..methods import method_label

__all__ = ["datasets_table", "clustering_table", "accuracy_table", "significance_table"]


def datasets_table(datasets: pd.DataFrame) -> pd.DataFrame:
    """Table 2: one row per dataset (name, type, n, D, classes, features, source).

    Examples
    --------
    >>> from lowdim.embedding.experiments import features_summary
    >>> from lowdim.embedding.features import embedding_features
    >>> from lowdim.data import get_spec
    >>> rows = pd.DataFrame([features_summary(embedding_features(get_spec("digits").prepare()))])
    >>> from lowdim.tables.embedding import datasets_table
    >>> datasets_table(rows).iloc[0, :5].to_dict()
    {'dataset': 'digits', 'type': 'dense', 'n (points)': 1797, 'D (features)': 64, 'classes': 10}
    """
    columns = {"dataset": "dataset", "source_kind": "type", "n": "n (points)",
               "n_features": "D (features)", "n_classes": "classes", "features": "features",
               "sparsity": "zeros (fraction)", "source": "source"}
    table = datasets[[c for c in columns if c in datasets]].rename(columns=columns)
    if "zeros (fraction)" in table:
        table["zeros (fraction)"] = table["zeros (fraction)"].map(lambda v: f"{v:.4f}")
    return table


def clustering_table(clustering: pd.DataFrame, methods=None, digits=4) -> pd.DataFrame:
    """Table 3: best ARI (over the gamma range and the neighbour sweep).

    Parameters
    ----------
    clustering : DataFrame
        Columns ``dataset``, ``method``, ``ari``.
    methods : list of str, optional
        Column order.

    Returns
    -------
    DataFrame
        One row per dataset, one column per method (labels), the best of each
        row marked with ``**``.

    Examples
    --------
    >>> from lowdim.tables.embedding import clustering_table
    >>> best = pd.DataFrame({"dataset": ["digits", "digits", "pang_lee", "pang_lee"],
    ...                      "method": ["vec2vec", "umap"] * 2, "ari": [0.81, 0.86, 0.02, 0.01]})
    >>> print(clustering_table(best, digits=2).to_string(index=False))
     dataset  Vec2vec     UMAP
      digits     0.81 **0.86**
    pang_lee **0.02**     0.01
    """
    wide = clustering.pivot_table(index="dataset", columns="method", values="ari",
                                  sort=False)
    return _format_wide(wide, methods, digits, lambda row, m: f"{row[m]:.{digits}f}")


def accuracy_table(classification: pd.DataFrame, methods=None, digits=4) -> pd.DataFrame:
    """Mean kNN accuracy ± 2 std per dataset and method (Figure 4 as numbers).

    Examples
    --------
    >>> from lowdim.tables.embedding import accuracy_table
    >>> folds = pd.DataFrame({"dataset": "digits", "method": ["vec2vec"] * 2 + ["pca"] * 2,
    ...                       "fold": [0, 1, 0, 1], "accuracy": [0.98, 0.96, 0.95, 0.93]})
    >>> print(accuracy_table(folds, digits=3).to_string(index=False))
    dataset           Vec2vec           PCA
     digits **0.970 ± 0.020** 0.940 ± 0.020
    """
    grouped = classification.groupby(["dataset", "method"], sort=False)["accuracy"]
    mean = grouped.mean().unstack()
    two_std = grouped.agg(lambda a: 2.0 * np.std(a)).unstack()
    return _format_wide(mean, methods, digits,
                        lambda row, m: f"{row[m]:.{digits}f} ± {two_std.loc[row.name, m]:.{digits}f}")


def _format_wide(wide, methods, digits, fmt):
    methods = [m for m in (methods or list(wide.columns)) if m in wide.columns]
    rows = []
    for dataset, row in wide[methods].iterrows():
        best = row.max()
        cells = {"dataset": dataset}
        for m in methods:
            if pd.isna(row[m]):
                cells[method_label(m)] = "–"
                continue
            text = fmt(row, m)
            cells[method_label(m)] = f"**{text}**" if np.isclose(row[m], best) else text
        rows.append(cells)
    return pd.DataFrame(rows, columns=["dataset"] + [method_label(m) for m in methods])


def significance_table(tests: pd.DataFrame, digits=4) -> pd.DataFrame:
    """Paired t-tests of Vec2vec against each method, classification and clustering.

    Parameters
    ----------
    tests : DataFrame
        Columns ``task``, ``method``, ``H``, ``p``, ``n_pairs``, ``alpha``.

    Returns
    -------
    DataFrame
        One row per method: for each task, H, p (H reads "not computed" where the test
        was not, its H being NaN) and the number of datasets the test pairs (a task can
        have fewer, where a method has no score on a dataset); then alpha.

    Examples
    --------
    >>> from lowdim.tables.embedding import significance_table
    >>> tests = pd.DataFrame({"task": ["classification", "clustering"], "method": "pca",
    ...                       "H": [1, 0], "p": [0.031, 0.4], "n_pairs": [9, 8], "alpha": 0.1})
    >>> print(significance_table(tests, digits=3).T.to_string(header=False))
    method                     PCA
    classification H             1
    classification p         0.031
    classification datasets      9
    clustering H                 0
    clustering p             0.400
    clustering datasets          8
    alpha                      0.1
    """
    rows = []
    for method, part in tests.groupby("method", sort=False):
        cells = {"method": method_label(method)}
        for _, test in part.iterrows():
            computed = not pd.isna(test["H"])
            cells[f"{test['task']} H"] = int(test["H"]) if computed else "not computed"
            cells[f"{test['task']} p"] = f"{test['p']:.{digits}f}" if computed else "–"
            cells[f"{test['task']} datasets"] = int(test["n_pairs"])
        cells["alpha"] = part["alpha"].iloc[0]
        rows.append(cells)
    table = pd.DataFrame(rows)
    if table.empty:  # no test ran (one dataset, as with a user's own): an empty table
        return table
    return table[[c for c in table.columns if c != "alpha"] + ["alpha"]]
