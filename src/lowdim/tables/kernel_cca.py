"""The kernel CCA table: held-out correlations and similarity evaluations per method."""

from __future__ import annotations

import pandas as pd

from ..methods import METHOD_STYLES, method_label
from .write import format_mean_std

__all__ = ["table_kernel_cca"]

#: Row order of the methods (lowdim.methods).
_ORDER = {method: i for i, method in enumerate(METHOD_STYLES)}


def table_kernel_cca(tidy: pd.DataFrame) -> pd.DataFrame:
    """One row per setting, method and number of landmarks, draws summarised as mean ± sd.

    Parameters
    ----------
    tidy : DataFrame
        Rows of :func:`lowdim.cca.kernel_experiments.kernel_cca_experiment`.

    Returns
    -------
    table : DataFrame
        setting, method, landmarks s, draws, held-out ρ1, held-out TCC,
        in-sample TCC, evaluations (both views, fit + held-out), the share of
        exact kernel CCA's evaluations, seconds.

    Examples
    --------
    >>> from lowdim.tables.kernel_cca import table_kernel_cca
    >>> table = table_kernel_cca(kernel_cca_tidy)
    >>> print(table[["method", "landmarks s", "draws", "share of exact's evaluations"]]
    ...       .to_string(index=False))
                          method landmarks s  draws share of exact's evaluations
                      Linear CCA           –      1                            –
    Kernel CCA, Nyström features          20      2                        0.407
    Kernel CCA, Nyström features          60      2                        0.571
        Exact kernel CCA (n × n)         240      1                        1.000
    """
    rows = []
    settings = {name: i for i, name in enumerate(dict.fromkeys(tidy["setting"]))}
    order = tidy.assign(_setting=tidy["setting"].map(settings),
                        _order=tidy["method"].map(_ORDER).fillna(len(_ORDER)))
    order = order.sort_values(["_setting", "_order", "n_landmarks"], kind="stable")
    for (setting, method, s), part in order.groupby(["setting", "method", "n_landmarks"],
                                                    sort=False):
        exact = tidy[(tidy["setting"] == setting) & (tidy["method"] == "exact_kernel_cca")]
        share = (f"{part['evaluations'].mean() / exact['evaluations'].iloc[0]:.3f}"
                 if len(exact) and method != "linear_cca" else "–")
        rows.append({
            "setting": setting,
            "method": method_label(method),
            "landmarks s": "–" if method == "linear_cca" else int(s),
            "draws": len(part),
            "held-out ρ1": format_mean_std(part["rho1_out"], 3),
            "held-out TCC": format_mean_std(part["tcc_out"], 3),
            "in-sample TCC": format_mean_std(part["tcc_in"], 3),
            "evaluations": f"{int(part['evaluations'].mean()):,}",
            "share of exact's evaluations": share,
            "seconds": f"{part['seconds'].mean():.2f}",
        })
    return pd.DataFrame(rows)
