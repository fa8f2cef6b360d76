"""Tables of the SMS-Nyström downstream tasks, built from their tidy result files."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..methods import method_label, method_order
from .select import best_rank_rows
from .write import format_mean_std

__all__ = ["coreference_table", "glue_table", "not_run_table", "published_coreference",
           "wmd_classification_table"]

def _ranks(values) -> str:
    ranks = sorted({int(v) for v in values})
    return "/".join(map(str, ranks))


def _cap_note(rows) -> str:
    """``"4096 → 138 (s < n_train = 139)"`` for the largest capped request, or ``""``."""
    capped = rows[rows["capped_by"].fillna("").astype(str) != ""]
    if capped.empty:
        return ""
    last = capped.sort_values("rank_requested", kind="stable").iloc[-1]
    reasons = sorted(set(capped["capped_by"].astype(str)))
    return f"{int(last['rank_requested'])} → {int(last['rank'])} ({'; '.join(reasons)})"


def wmd_classification_table(tidy, small_rank_max=550, large_rank_max=4096,
                             large_by_corpus=None) -> pd.DataFrame:
    """The paper's WMD classification table: accuracy at a small and a large rank.

    Parameters
    ----------
    tidy : DataFrame
        Rows of :func:`lowdim.tasks.wmd_classification.classify_documents` with
        a ``corpus`` column.
    small_rank_max, large_rank_max : int
        "Small Rank" is the best rank ``<= small_rank_max`` and "Large Rank"
        the best ``<= large_rank_max``, chosen per split by cross-validated
        accuracy on the training part.
    large_by_corpus : dict of str -> int, optional
        A different large-rank limit for some corpora (the paper's 1500 for
        Twitter and 2500 for Ohsumed).

    Returns
    -------
    table : DataFrame
        One row per corpus and method: test accuracy (%) mean ± std over the
        splits at each rank, the ranks chosen (all distinct values), the
        similarity evaluations as % of the exact kernel's, and the rank caps.

    Examples
    --------
    >>> from scipy.spatial.distance import cdist
    >>> from sklearn.datasets import load_digits
    >>> from lowdim.tables.sms_tasks import wmd_classification_table
    >>> from lowdim.tasks.wmd_classification import classify_documents, document_splits
    >>> X, y = load_digits(return_X_y=True)
    >>> X, y = X[:200] / 16, y[:200]
    >>> K = np.exp(-0.1 * cdist(X, X))   # a stand-in for exp(-gamma0 * WMD)
    >>> splits = document_splits(y, n_splits=2, seed=0)
    >>> tidy = classify_documents("nystrom", K, y, splits, gamma0=0.1, gammas=[0.1],
    ...                           ranks=[10, 40], seed=0).assign(corpus="digits")
    >>> table = wmd_classification_table(tidy, small_rank_max=10, large_rank_max=40)
    >>> table[["method", "splits", "small rank"]].to_dict("records")
    [{'method': 'Nyström', 'splits': 2, 'small rank': '10'}]
    """
    limits = dict(large_by_corpus or {})
    rows = []
    for corpus in dict.fromkeys(tidy["corpus"]):
        mine = tidy[tidy["corpus"] == corpus]
        large_max = int(limits.get(corpus) or large_rank_max)
        small, large = best_rank_rows(mine, small_rank_max), best_rank_rows(mine, large_max)
        for method in method_order(mine["method"]):
            s, lg = (t[t["method"] == method] for t in (small, large))
            full = method == "wmd_kernel"
            rows.append({
                "dataset": corpus, "method": method_label(method),
                "splits": int(lg["split"].nunique()),
                f"small rank (≤ {small_rank_max}) accuracy (%)":
                    format_mean_std(s["test_accuracy"], 2, 100) if len(s) else "–",
                "small rank": "full" if full else (_ranks(s["rank"]) if len(s) else "–"),
                "large rank limit": large_max,
                "large rank accuracy (%)": format_mean_std(lg["test_accuracy"], 2, 100),
                "large rank": "full" if full else _ranks(lg["rank"]),
                "evaluations at small rank (% of exact)":
                    round(100 * float(s["cost_fraction"].mean()), 1) if len(s) else np.nan,
                "evaluations at large rank (% of exact)":
                    round(100 * float(lg["cost_fraction"].mean()), 1),
                "rank cap": _cap_note(mine[mine["method"] == method]),
            })
    return pd.DataFrame(rows)


def glue_table(tidy) -> pd.DataFrame:
    """GLUE scores of the pair predictions, mean ± std over runs, beside the exact matrix's.

    Parameters
    ----------
    tidy : DataFrame
        Rows of :func:`lowdim.tasks.glue.glue_scores` (any number of tasks).

    Returns
    -------
    table : DataFrame
        One row per task, metric, method and sample fraction.

    Examples
    --------
    >>> from lowdim.tables.sms_tasks import glue_table
    >>> from lowdim.tasks.glue import glue_scores
    >>> E = rng.standard_normal((40, 5))
    >>> K = E @ E.T / 5
    >>> a, b = np.arange(0, 40, 2), np.arange(1, 40, 2)
    >>> tidy = glue_scores(K, a, b, K[a, b], "stsb", ["nystrom", "sms_nystrom"], [0.1], n_runs=2)
    >>> print(glue_table(tidy)[["metric", "method", "s/n", "runs", "exact matrix (×100)"]]
    ...       .to_string(index=False))
      metric      method  s/n  runs  exact matrix (×100)
     pearson SMS-Nyström  0.1     2                100.0
     pearson     Nyström  0.1     2                100.0
    spearman SMS-Nyström  0.1     2                100.0
    spearman     Nyström  0.1     2                100.0
    """
    rows = []
    for (task, metric), group in tidy.groupby(["task", "metric"], sort=False):
        exact = float(group["exact"].iloc[0])
        for method in method_order(group["method"]):
            if method == "exact":
                continue
            for fraction, runs in group[group["method"] == method].groupby("fraction"):
                rows.append({"task": task, "metric": metric, "method": method_label(method),
                             "s/n": fraction, "runs": int(runs["run"].nunique()),
                             "score (×100)": format_mean_std(runs["value"], 2, 100),
                             "exact matrix (×100)": round(100 * exact, 2),
                             "evaluations (% of exact)":
                                 round(100 * float((runs["evaluations"]
                                                    / runs["full_evaluations"]).mean()), 1)})
    return pd.DataFrame(rows)


def not_run_table(reason) -> pd.DataFrame:
    """A one-row table stating that an experiment was not run, and why.

    Examples
    --------
    >>> from lowdim.tables.sms_tasks import not_run_table
    >>> not_run_table("sms_tasks.glue.tasks is empty").to_dict("records")
    [{'status': 'not run', 'reason': 'sms_tasks.glue.tasks is empty'}]
    """
    return pd.DataFrame([{"status": "not run", "reason": str(reason)}])


def coreference_table(tidy, published=None) -> pd.DataFrame:
    """Pooled CoNLL F1 of the test topics per method and landmark fraction.

    Parameters
    ----------
    tidy : DataFrame
        Rows of :func:`lowdim.tasks.coreference.coreference_method` with a
        ``corpus`` column (only ``topic == "pooled"`` rows are used).
    published : DataFrame, optional
        ``corpus, method, fraction, published``: published CoNLL F1 (%) shown
        beside ours.

    Returns
    -------
    table : DataFrame
        CoNLL F1 (%) mean ± std over runs, the mean MUC, B³ and CEAF-e F1,
        the tuned threshold, similarity evaluations as % of the exact
        matrices', and the published value where there is one.

    Examples
    --------
    >>> tidy = pd.DataFrame({
    ...     "corpus": "ecbplus", "topic": "pooled", "method": ["exact", "nystrom", "nystrom"],
    ...     "fraction": [1.0, 0.1, 0.1], "run": [0, 0, 1], "conll_f1": [0.40, 0.30, 0.32],
    ...     "muc_f1": [0.5, 0.4, 0.42], "b3_f1": [0.4, 0.3, 0.3], "ceafe_f1": [0.3, 0.2, 0.24],
    ...     "threshold": [0.5, 0.45, 0.55], "evaluations": [1000, 180, 180],
    ...     "full_evaluations": 1000})
    >>> from lowdim.tables.sms_tasks import coreference_table
    >>> published = pd.DataFrame({"corpus": ["ecbplus"], "method": ["nystrom"], "fraction": [0.1],
    ...                           "published": [29.96]})
    >>> table = coreference_table(tidy, published)
    >>> print(table[["method", "runs", "CoNLL F1 (%)", "evaluations (% of exact)",
    ...              "published CoNLL F1 (%)"]].to_string(index=False))
     method  runs CoNLL F1 (%)  evaluations (% of exact)  published CoNLL F1 (%)
      Exact     1        40.00                     100.0                     NaN
    Nyström     2 31.00 ± 1.41                      18.0                   29.96
    """
    pooled = tidy[tidy["topic"] == "pooled"]
    lookup = {}
    if published is not None:
        for _, p in published.iterrows():
            lookup[(p["corpus"], p["method"], round(float(p["fraction"]), 6))] = p["published"]
    rows = []
    for corpus in dict.fromkeys(pooled["corpus"]):
        methods = pooled.loc[pooled["corpus"] == corpus, "method"]
        for method in method_order(methods, first=("exact",)):
            mine = pooled[(pooled["corpus"] == corpus) & (pooled["method"] == method)]
            for fraction, runs in mine.groupby("fraction"):
                rows.append({
                    "dataset": corpus, "method": method_label(method),
                    "landmark fraction": "exact" if method == "exact" else fraction,
                    "runs": int(runs["run"].nunique()),
                    "CoNLL F1 (%)": format_mean_std(runs["conll_f1"], 2, 100),
                    "MUC F1 (%)": round(100 * float(runs["muc_f1"].mean()), 2),
                    "B³ F1 (%)": round(100 * float(runs["b3_f1"].mean()), 2),
                    "CEAF-e F1 (%)": round(100 * float(runs["ceafe_f1"].mean()), 2),
                    "threshold": format_mean_std(runs["threshold"], 2),
                    "evaluations (% of exact)":
                        round(100 * float((runs["evaluations"] / runs["full_evaluations"]).mean()),
                              1),
                    "published CoNLL F1 (%)":
                        lookup.get((corpus, method, round(float(fraction), 6)), np.nan),
                })
    return pd.DataFrame(rows)


def published_coreference(entries, file="results/similarity/tidy/coreference.csv") -> pd.DataFrame:
    """Published CoNLL F1 numbers whose reproduction lives in the coreference tidy file.

    Parameters
    ----------
    entries : list of PublishedEntry
        From :func:`lowdim.report.published.load_published`.
    file : str
        Only entries reproduced from this file are kept.

    Returns
    -------
    published : DataFrame
        ``corpus, method, fraction, published`` (in the published unit, %).

    Examples
    --------
    >>> from lowdim.report.published import PublishedEntry, Setting
    >>> from lowdim.tables.sms_tasks import published_coreference
    >>> entry = PublishedEntry(
    ...     paper="SMS-Nyström", artifact="Figure 3", metric="conll_f1", setting="ECB+",
    ...     provenance="the authors' plotting code", published=29.96,
    ...     settings={"fraction": Setting(0.1, "exact")},
    ...     reproduced={"file": "results/similarity/tidy/coreference.csv", "column": "conll_f1",
    ...                 "where": {"corpus": "ecbplus", "method": "nystrom"}})
    >>> published_coreference([entry]).to_dict("records")
    [{'corpus': 'ecbplus', 'method': 'nystrom', 'fraction': 0.1, 'published': 29.96}]
    """
    rows = []
    for entry in entries:
        if entry.is_claim or entry.reproduced.get("file") != file or entry.metric != "conll_f1":
            continue
        where = entry.selectors(entry.reproduced)  # names and settings, as published
        rows.append({"corpus": where.get("corpus"), "method": where.get("method"),
                     "fraction": float(where.get("fraction", 1.0)),
                     "published": float(entry.published)})
    return pd.DataFrame(rows, columns=["corpus", "method", "fraction", "published"])
