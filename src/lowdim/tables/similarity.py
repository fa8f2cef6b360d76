"""SMS-Nyström paper tables, built from tidy result files."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..approx.diagnostics import spectrum_summary
from ..methods import method_label, method_order
from .select import rows_nearest

__all__ = ["diagnostics_table"]


def diagnostics_table(eigenvalues, errors, matrices=None, fraction=0.1) -> pd.DataFrame:
    """Per-matrix diagnostics beside the methods' errors at one sample fraction.

    Parameters
    ----------
    eigenvalues : DataFrame
        ``matrix, rank, eigenvalue``: the full spectrum of each matrix.
    errors : DataFrame
        Tidy errors ``matrix, method, s, s/n, seed, error, ...``.
    matrices : DataFrame, optional
        ``matrix, kind, dataset, seconds`` (time to evaluate the whole matrix).
    fraction : float, default=0.1
        Sample fraction whose errors are shown; per matrix the row with
        ``s/n`` closest to it (``s`` is rounded, so ``s/n`` is rarely exact).

    Returns
    -------
    table : DataFrame
        One row per matrix: n, negative eigenvalues, negative eigenvalue mass
        ``sum |lambda < 0| / sum |lambda|``, lambda_min / lambda_max, and the
        median relative error of each method at ``s/n ≈ fraction``.

    Examples
    --------
    >>> from lowdim.approx import error_curve, spectrum_tables
    >>> from lowdim.tables.similarity import diagnostics_table
    >>> X = rng.standard_normal((100, 10))
    >>> K = np.tanh(X @ X.T / 5 + 1)
    >>> eigenvalues, _ = spectrum_tables(K, [0.5], 1, 0, "tanh")
    >>> errors = pd.concat([error_curve(K, method, [0.1], 3, 0, "tanh")
    ...                     for method in ("nystrom", "sms_nystrom")])
    >>> table = diagnostics_table(eigenvalues, errors, fraction=0.1)
    >>> row = table.iloc[0].to_dict()
    >>> row["matrix"], row["n"], row["negative eigenvalues"], row["negative mass"], row["s/n"]
    ('tanh', 100, 49, 0.276, 0.1)
    >>> row["error SMS-Nyström"], bool(row["error Nyström"] > row["error SMS-Nyström"])
    (0.434, True)
    """
    info = {} if matrices is None else matrices.set_index("matrix").to_dict("index")
    methods = method_order(errors["method"])
    rows = []
    for name, spectrum in eigenvalues.groupby("matrix", sort=False):
        summary = spectrum_summary(spectrum["eigenvalue"].to_numpy())
        lam_min = summary["lambda_min"] if summary["n_negative"] else max(summary["lambda_min"], 0)
        row = {"matrix": name}
        if name in info:
            row.update({"kind": info[name].get("kind"), "dataset": info[name].get("dataset")})
        row.update({"n": summary["n"], "negative eigenvalues": summary["n_negative"],
                    "negative mass": round(summary["negative_mass"], 4),
                    # rounding noise below the tolerance of spectrum_summary counts as 0
                    "λmin / λmax": float(f"{lam_min / summary['lambda_max']:.3g}")})
        if name in info and "seconds" in info[name]:
            row["time to form K (s)"] = round(float(info[name]["seconds"]), 2)
        table = errors[errors["matrix"] == name]
        if len(table):
            closest, at = rows_nearest(table, "s/n", fraction)
            row["s/n"] = round(closest, 3)
            for method in methods:
                values = at.loc[at["method"] == method, "error"]
                row[f"error {method_label(method)}"] = (
                    float(f"{values.median():.3g}") if len(values) else np.nan)
        rows.append(row)
    return pd.DataFrame(rows)
