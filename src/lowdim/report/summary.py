"""The cross-paper summary at the top of the report: what ran, how long, what was saved.

Inputs are files the workflow already writes: Snakemake ``benchmark:`` files
(``results/benchmarks/<rule>/**.tsv``) and the papers' tidy CSVs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..io import read_benchmark
from ..tables.select import rows_nearest

__all__ = ["PAPER_OF_RULE", "stage_times", "similarity_savings", "cca_savings"]

#: Rule-name prefix -> the part of the report it belongs to.
PAPER_OF_RULE = (("prepare", "Data"), ("download", "Data"), ("similarity", "SMS-Nyström"),
                 ("sms_", "SMS-Nyström tasks"), ("embedding", "Vec2vec"), ("vec2vec", "Vec2vec"),
                 ("cca", "AppGrad CCA"), ("kernel_cca", "Kernel CCA"))


def _paper(rule: str) -> str:
    for prefix, paper in PAPER_OF_RULE:
        if rule.startswith(prefix):
            return paper
    return "Other"


def stage_times(benchmark_root) -> pd.DataFrame:
    """Wall time, CPU time and peak memory per rule, summed over its jobs.

    Parameters
    ----------
    benchmark_root : str or Path
        ``results/benchmarks``; each rule writes ``<rule>/<wildcards>.tsv``.

    Returns
    -------
    table : DataFrame
        Columns: part, rule, jobs, wall time (s), longest job (s), CPU time (s),
        peak memory (MB). Sorted by part, then by wall time.

    Examples
    --------
    >>> from lowdim.report.summary import stage_times
    >>> for rule, seconds in (("embedding_embed", 3.5), ("embedding_embed", 4.0), ("cca_exact", 9.0)):
    ...     path = tmp / rule / f"job{seconds}.tsv"
    ...     path.parent.mkdir(exist_ok=True)
    ...     _ = path.write_text(f"s\\th:m:s\\tmax_rss\\tcpu_time\\n{seconds}\\t0:00:04\\t100\\t{seconds}\\n")
    >>> print(stage_times(tmp).to_string(index=False))
           part            rule  jobs  wall time (s)  longest job (s)  CPU time (s)  peak memory (MB)
    AppGrad CCA       cca_exact     1            9.0              9.0           9.0             100.0
        Vec2vec embedding_embed     2            7.5              4.0           7.5             100.0
    """
    rows = []
    for path in sorted(Path(benchmark_root).glob("*/**/*.tsv")):
        rule = path.relative_to(benchmark_root).parts[0]
        bench = read_benchmark(path)
        if bench.empty:
            continue
        last = bench.iloc[-1]
        rows.append({"rule": rule, "s": float(last["s"]), "cpu_time": float(last["cpu_time"]),
                     "max_rss": float(last["max_rss"])})
    columns = ["part", "rule", "jobs", "wall time (s)", "longest job (s)", "CPU time (s)",
               "peak memory (MB)"]
    if not rows:
        return pd.DataFrame(columns=columns)
    jobs = pd.DataFrame(rows)
    table = jobs.groupby("rule").agg(jobs=("s", "size"), wall=("s", "sum"), longest=("s", "max"),
                                     cpu=("cpu_time", "sum"), rss=("max_rss", "max")).reset_index()
    table.insert(0, "part", table["rule"].map(_paper))
    table.columns = columns
    return table.sort_values(["part", "wall time (s)", "rule"], ascending=[True, False, True],
                             ignore_index=True).round(2)


def similarity_savings(errors: pd.DataFrame, matrices: pd.DataFrame,
                       fraction: float = 0.1) -> pd.DataFrame:
    """Similarity evaluations each method needs at ``fraction`` against the full matrix.

    Parameters
    ----------
    errors : DataFrame
        Tidy errors: matrix, method, s/n, evaluations, error.
    matrices : DataFrame
        Tidy matrix table: matrix, n, evaluations (of the full symmetric matrix).
    fraction : float, default=0.1
        The sample fraction s/n compared (the closest one run).

    Returns
    -------
    table : DataFrame
        matrix, method, s/n, evaluations, full matrix evaluations, fraction of
        full, median relative error.

    Examples
    --------
    >>> from lowdim.report.summary import similarity_savings
    >>> errors = pd.DataFrame({"matrix": "wmd_lee", "method": ["nystrom", "sms_nystrom"],
    ...                        "s/n": 0.1, "evaluations": [1625, 1950], "error": [0.3, 0.2]})
    >>> matrices = pd.DataFrame({"matrix": ["wmd_lee"], "n": [130], "evaluations": [8515]})
    >>> print(similarity_savings(errors, matrices).to_string(index=False))
     matrix      method  s/n  evaluations  full matrix evaluations  fraction of full  median relative error
    wmd_lee     nystrom  0.1         1625                     8515             0.191                    0.3
    wmd_lee sms_nystrom  0.1         1950                     8515             0.229                    0.2
    """
    rows = []
    full = matrices.set_index("matrix")["evaluations"]
    for (matrix, method), group in errors.groupby(["matrix", "method"], sort=True):
        closest, at = rows_nearest(group, "s/n", fraction)
        evaluations = float(at["evaluations"].median())
        rows.append({"matrix": matrix, "method": method, "s/n": round(float(closest), 3),
                     "evaluations": int(evaluations),
                     "full matrix evaluations": int(full[matrix]),
                     "fraction of full": round(evaluations / full[matrix], 3),
                     "median relative error": round(float(at["error"].median()), 4)})
    return pd.DataFrame(rows)


def cca_savings(trace: pd.DataFrame, exact: pd.DataFrame, targets=(0.95, 0.99)) -> pd.DataFrame:
    """FLOPs AppGrad needs to reach a PCC target against the FLOPs of exact CCA.

    The ratio sets like against like: the FLOPs AppGrad performed (``flops_performed``,
    sparse products counted by their non-zeros) against exact CCA's, both counted by the
    code. The paper's formulas (``flops``: a data matrix as n·p per use, Figure 1's axis)
    are shown beside them. A target is read at the first checkpoint of the trace that
    reaches it, so the FLOPs are an upper bound, by up to the gap between checkpoints. A
    method run with several seeds (``seed``) is read per seed, and the table gives the
    median over the seeds that reach the target, and how many do.

    Parameters
    ----------
    trace : DataFrame
        Tidy AppGrad trace: dataset, method, iteration, flops, flops_performed, pcc_in,
        and seed (the replicate) when a method ran several times (without
        ``flops_performed``, the formulas' count is the ratio's).
    exact : DataFrame
        Tidy exact CCA: dataset, flops.
    targets : sequence of float
        In-sample PCC levels (fractions).

    Returns
    -------
    table : DataFrame
        dataset, method, target PCC (%), the seeds that reach it (``2 of 3``), the
        iteration and FLOPs (performed, and by the paper's formulas) where it is first
        reached (medians over those seeds; NaN if none does), exact CCA FLOPs, ratio
        (exact / AppGrad performed; > 1 means AppGrad is cheaper).

    Examples
    --------
    >>> from lowdim.report.summary import cca_savings
    >>> trace = pd.DataFrame({"dataset": "digits_halves", "method": "sappgrad",
    ...                       "iteration": [10, 100, 1000], "flops": [1e6, 1e7, 1e8],
    ...                       "flops_performed": [2e5, 2e6, 2e7],
    ...                       "pcc_in": [0.80, 0.96, 0.995]})
    >>> exact = pd.DataFrame({"dataset": ["digits_halves"], "flops": [5e6]})
    >>> table = cca_savings(trace, exact)
    >>> print(table[["target PCC (%)", "seeds reaching it", "first checkpoint reaching it",
    ...              "FLOPs performed", "exact / AppGrad (performed)"]].to_string(index=False))
     target PCC (%) seeds reaching it  first checkpoint reaching it  FLOPs performed  exact / AppGrad (performed)
               95.0            1 of 1                         100.0        2000000.0                         2.50
               99.0            1 of 1                        1000.0       20000000.0                         0.25
    """
    exact_flops = exact.set_index("dataset")["flops"]
    performed = "flops_performed" if "flops_performed" in trace else "flops"
    trace = trace if "seed" in trace else trace.assign(seed=0)
    rows = []
    for (dataset, method), group in trace.groupby(["dataset", "method"], sort=True):
        runs = [run.sort_values("iteration", kind="stable")
                for _, run in group.groupby("seed", sort=True)]
        for target in targets:
            firsts = pd.DataFrame([run[run["pcc_in"] >= target].iloc[0] for run in runs
                                   if (run["pcc_in"] >= target).any()])
            reached = len(firsts) > 0
            done = float(firsts[performed].median()) if reached else np.nan
            reference = float(exact_flops.get(dataset, np.nan))
            rows.append({
                "dataset": dataset, "method": method, "target PCC (%)": 100 * target,
                "seeds reaching it": f"{len(firsts)} of {len(runs)}",
                "first checkpoint reaching it":
                    float(firsts["iteration"].median()) if reached else np.nan,
                "FLOPs performed": done,
                "FLOPs (paper's formulas)": float(firsts["flops"].median()) if reached else np.nan,
                "exact CCA FLOPs": reference,
                "exact / AppGrad (performed)": reference / done if done else np.nan})
    return pd.DataFrame(rows)
