"""The tables of ``cca_scale.md``, built from the stored results of ``cca_scale.py``.

Every table is a DataFrame made from ``cca_scale.json`` and written with ``to_markdown``;
the interpretation is the hand-written part of ``cca_scale.md`` (``_report.py``). Goals and
their thresholds come from the issue that set them (:data:`GOALS`), verdicts from the data.
Beside a fit's wall seconds stands its CPU / wall ratio (:func:`cpu_over_wall`), or "not
recorded" for runs stored before the worker recorded CPU time.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from _report import number, section
from _report import table as _table

GIB, MIB = 2 ** 30, 2 ** 20
#: PCC_out that counts as "reached" in the time-to-target comparisons
TARGET = 0.95
#: Thresholds of the goals the benchmark checks
GOALS = {"lazy_speedup": 20.0, "exact_speedup": 5.0, "url_memory_gb": 24.0}
LABELS = {"exact": "exact CCA", "appgrad": "AppGrad (batch)", "sappgrad": "AppGrad (stochastic)",
          "appgrad_stop": "AppGrad (batch, early stopping)",
          "sappgrad_stop": "AppGrad (stochastic, early stopping)",
          "cca_zoo_ey": "cca-zoo CCAEY (L-BFGS)", "cca_zoo_sgd": "cca-zoo StochasticCCAEY",
          "randomized": "randomized CCA (2-pass)", "nw_cca": "NW-CCA", "dw_cca": "DW-CCA",
          "sappgrad_long": "AppGrad (stochastic, continued to the heuristics' FLOPs)"}
#: AppGrad runs on all training rows, whose traces the equal-FLOPs and equal-time rows read
APPGRAD = ("appgrad", "sappgrad")
#: AppGrad runs stopped by a rule a user can apply: the time-to-target verdict reads these
AS_RUN = ("appgrad", "sappgrad", "appgrad_stop", "sappgrad_stop")
#: Number formats by a piece of the column name
FORMATS = {"CPU / wall": ".2f", "passes": ".2g", "occurrences": ".3g", "of Y": ".3g",
           "PCC": ".3f", "TCC": ".3f", "fit s": ".2f", " GiB": ".2f", "MiB": ",.0f",
           "misfit": ".1f", "ms /": ".2f", "dense / lazy": ".0f", "iteration": ",.0f",
           "rows": ",.0f", "columns": ",.0f", "non-zeros": ",.0f", "seconds": ".0f"}


#: What a run stored before ``cpu_seconds`` was recorded shows for its CPU / wall ratio
NOT_RECORDED = "not recorded"


def table(frame, floatfmt=".3g"):
    return _table(frame, floatfmt, FORMATS)


#: A PCA-CCA run's name in the results (``pca_cca-m100``), with its m.
PCA_RUN = re.compile(r"pca_cca-m(\d+)")


def label(method: str) -> str:
    pca = PCA_RUN.fullmatch(method)
    if pca:
        return f"PCA-CCA (m = {pca[1]})"
    return LABELS.get(method, method)


def _ok(result) -> bool:
    return bool(result) and result.get("status") == "ok"


def reference(results):
    """Exact CCA's result when it ran, else None."""
    return results["exact"] if _ok(results.get("exact")) else None


def pcc(result, ref, key="tcc_out"):
    """PCC of a result (or trace row) against exact CCA: cca-zoo's on the centred problem."""
    if ref is None:
        return None
    if "centred_tcc_out" in result and "centred_tcc_out" in ref:
        return result["centred_" + key] / ref["centred_" + key]
    return result[key] / ref[key]


def cpu_over_wall(result) -> str:
    """A fit's CPU seconds over its wall seconds (a result or a trace row), as text: the
    threads it really kept busy; :data:`NOT_RECORDED` for a run stored without CPU time."""
    cpu, wall = result.get("cpu_seconds"), result.get("seconds")
    return NOT_RECORDED if cpu is None or not wall else f"{cpu / wall:.2f}"


def cpu_over_wall_of(*results, sep=" / ") -> str:
    """``CPU / wall a / b`` of several fits, or ``CPU / wall not recorded`` if none has it."""
    ratios = [cpu_over_wall(r) for r in results]
    if all(x == NOT_RECORDED for x in ratios):
        return f"CPU / wall {NOT_RECORDED}"
    return "CPU / wall " + sep.join(ratios)


def rows(trace) -> list[dict]:
    return [dict(zip(trace, values)) for values in zip(*trace.values())]


def last_within(trace, column, limit):
    """Last trace row with ``column`` <= limit (None if none)."""
    hits = [r for r in rows(trace) if r[column] <= limit]
    return hits[-1] if hits else None


def continued_run(results, method="sappgrad"):
    """``method``'s continued run (same seed and minibatches, so the same iterates, only more
    of them) when it finished, else None."""
    longer = results.get(method + "_long", {})
    return longer if _ok(longer) else None


def appgrad_trace(results, method):
    """``method``'s trace; its continued run's when there is one."""
    longer = continued_run(results, method)
    return longer["trace"] if longer else results.get(method, {}).get("trace")


def session(results, method):
    """The run (date) that ``method``'s trace comes from: its continued run's if it has one."""
    return (continued_run(results, method) or results.get(method, {})).get("run_date")


def seconds_beside(results, ours, row, method, r) -> str:
    """`` (fit s a vs b)`` when both were timed in one session; wall times of two sessions
    (different loads) are not set side by side."""
    if session(results, ours) != r.get("run_date"):
        return " (timed in different sessions: no time compared)"
    return (f" (fit s {row['seconds']:.0f} vs {r['seconds']:.0f}, "
            f"{cpu_over_wall_of(row, r, sep=' vs ')}, one session)")


def first_at_target(result, ref):
    """Seconds at the first checkpoint whose PCC_out reaches TARGET: knowable only with
    exact CCA in hand, so shown for reference, never as a verdict."""
    if not _ok(result) or ref is None or "trace" not in result:
        return None
    hits = [r["seconds"] for r in rows(result["trace"]) if pcc(r, ref) >= TARGET]
    return hits[0] if hits else None


# -- one case -------------------------------------------------------------------------------
def _iterations(result):
    if "n_iter" in result:
        stopped = result.get("stopped")
        return f"{result['n_iter']:,}" + ("" if stopped is None else
                                          " (stopped)" if stopped else " (max_iter)")
    return f"{result['trace']['iteration'][-1]:,}" if "trace" in result else "—"


METHOD_COLUMNS = ["method", "status", "iterations", "fit s", "CPU / wall", "fit s, each run",
                  "CPU / wall, each run", "PCC_out",
                  "PCC_in", "TCC_out", "TCC_in", "FLOPs (paper formulas)", "FLOPs performed",
                  "first checkpoint at PCC_out ≥ 0.95, s", "peak RSS GiB", "beyond data MiB"]


def methods_frame(entry) -> pd.DataFrame:
    """One row per method: status, fit time as run (and its CPU / wall), PCC, TCC, FLOPs and
    memory."""
    results = entry["results"]
    ref = reference(results)
    out = []
    for method, r in results.items():
        row = {"method": label(method), "status": r.get("status", "?")}
        if _ok(r):
            row.update({
                "iterations": _iterations(r), "fit s": r["seconds"],
                "CPU / wall": cpu_over_wall(r),
                "fit s, each run": " / ".join(f"{s:.1f}" for s in r.get("repeat_seconds", [])),
                "CPU / wall, each run": " / ".join(
                    f"{c / s:.2f}" for s, c in zip(r.get("repeat_seconds", []),
                                                   r.get("repeat_cpu_seconds", []))),
                "PCC_out": pcc(r, ref), "PCC_in": pcc(r, ref, "tcc_in"),
                "TCC_out": r["tcc_out"], "TCC_in": r["tcc_in"],
                "FLOPs (paper formulas)": r.get("flops"),
                "FLOPs performed": r.get("flops_performed"),
                "first checkpoint at PCC_out ≥ 0.95, s": first_at_target(r, ref)})
        if "peak_rss" in r:
            row.update({"peak RSS GiB": r["peak_rss"] / GIB,
                        "beyond data MiB": (r["peak_rss"] - r["rss_before"]) / MIB})
        row["run"] = r.get("run_date")
        out.append(row)
    frame = pd.DataFrame(out, columns=METHOD_COLUMNS + ["run"])
    if frame["run"].nunique() < 2:  # one run: the caption's date
        frame = frame.drop(columns="run")
    return frame.loc[:, [frame[c].replace("", None).notna().any() for c in frame.columns]]


def status_notes(entry) -> str:
    notes = [f"- {label(m)}: {r.get('status')}: {r.get('message', '')}"
             for m, r in entry["results"].items() if not _ok(r)]
    return "\n".join(notes)


def case_header(name, entry) -> str:
    case, meta = entry["case"], entry["meta"]
    continued = continued_run(entry["results"])
    return (f"n = {case['n']:,} training + {case['n_test']:,} held-out rows, p = "
            f"{case['p1']:,}/{case['p2']:,}, {case['nnz_per_row_x']:.0f} non-zeros per row of "
            f"X, k = {case['k']}, λ = {case['reg']:g}, minibatch {case['batch_size']}, "
            f"stochastic {case['sappgrad_iter']:,}"
            + (f" (continued run: {continued['trace']['iteration'][-1]:,})" if continued else "")
            + f" / batch {case['appgrad_iter']:,} iterations"
            + (f", cca-zoo refitted with doubling budgets until its fits' total time passes "
               f"{case['zoo_cap']:,} s" if case.get("zoo") else "")
            + f". Run {meta['date']}{' (--quick)' if meta.get('quick') else ''}, "
            f"{case['threads']} BLAS thread(s), {meta.get('repeats', 1)} run(s) per method, "
            f"load average {meta['load_average']:.1f} at the end, "
            f"{meta['free_gib_at_start']} GiB free at the start; views "
            f"{case['data_bytes'] / GIB:.2f} GiB, generated in {case['generate_seconds']:.0f} s.")


def equal_flops_verdicts(results, key):
    """(method, the better AppGrad, its row, the method's result) at the method's FLOPs.

    For each one-shot method, the last checkpoint of each AppGrad run (its continued run
    where there is one) within the method's FLOPs; the better of the two on ``key``.
    """
    out = []
    for method, r in results.items():
        if method in AS_RUN or "trace" in r or not _ok(r) or "flops" not in r:
            continue
        hits = {ours: last_within(trace, "flops", r["flops"]) for ours in APPGRAD
                if (trace := appgrad_trace(results, ours))}
        hits = {ours: row for ours, row in hits.items() if row}
        if hits:
            ours = max(hits, key=lambda m: hits[m][key])
            out.append((method, ours, hits[ours], r))
    return out


def equal_flops_frame(entry) -> pd.DataFrame:
    """AppGrad's TCC and fit time at each one-shot method's FLOPs (the paper's Figure 2)."""
    out = []
    for key in ("tcc_out", "tcc_in"):
        for method, ours, row, r in equal_flops_verdicts(entry["results"], key):
            same = session(entry["results"], ours) == r.get("run_date")
            out.append({"measure": key.replace("tcc", "TCC"), "method": label(method),
                        "its FLOPs": r["flops"], "its fit s": r["seconds"] if same else None,
                        "its CPU / wall": cpu_over_wall(r) if same else None,
                        "its TCC": r[key], "AppGrad run (the better)": label(ours),
                        "AppGrad iteration": row["iteration"], "AppGrad FLOPs": row["flops"],
                        "AppGrad fit s": row["seconds"] if same else None,
                        "AppGrad CPU / wall": cpu_over_wall(row) if same else None,
                        "AppGrad TCC": row[key],
                        "verdict": "met" if row[key] > r[key] else
                        f"missed by {r[key] - row[key]:.3f}"})
    return pd.DataFrame(out)


def zoo_frame(entry) -> pd.DataFrame:
    """Each cca-zoo budget against AppGrad's last checkpoint within the same wall time."""
    results = entry["results"]
    ref, out = reference(results), []
    for zoo in ("cca_zoo_ey", "cca_zoo_sgd"):
        if not _ok(results.get(zoo)) or ref is None:
            continue
        for row in rows(results[zoo]["trace"]):
            hits = [h for m in APPGRAD if (t := results.get(m, {}).get("trace"))
                    and (h := last_within(t, "seconds", row["seconds"]))]
            best = max(hits, key=lambda h: pcc(h, ref), default=None)
            out.append({"cca-zoo": label(zoo), "budget (iterations)": row["iteration"],
                        "its fit s": row["seconds"], "its CPU / wall": cpu_over_wall(row),
                        "its PCC_out": pcc(row, ref),
                        "its PCC_in": pcc(row, ref, "tcc_in"),
                        "AppGrad PCC_out within that time": best and pcc(best, ref),
                        "AppGrad PCC_in": best and pcc(best, ref, "tcc_in")})
    return pd.DataFrame(out)


def render_case(name, entry, cases) -> str:
    described = cases.get(name.split("@")[0], entry["case"])["description"]
    parts = [described + ".", case_header(name, entry),
             table(methods_frame(entry)), status_notes(entry)]
    if reference(entry["results"]) is None:
        flops = equal_flops_frame(entry)
        if not flops.empty:
            parts.append(section("Equal FLOPs (exact CCA did not run, so TCC, not PCC)",
                                 table(flops), "Fit seconds only where both were timed in "
                                 "one session (the methods table's `run` column).", level=3))
    zoo = zoo_frame(entry)
    if not zoo.empty:
        parts.append(section("Equal wall time against cca-zoo", table(zoo),
                             level=3))
    return section(f"{name}", *parts)


# -- goals ----------------------------------------------------------------------------------
def _speed_rows(name, entry):
    """The ≥ 5× goal, one row per AppGrad run as it was run (a fixed iteration count, or
    early stopping on the fit's own rows), never stopped by exact CCA's answer."""
    results = entry["results"]
    ref = reference(results)
    goal = f"AppGrad ≥ {GOALS['exact_speedup']:g}× faster than exact CCA to PCC_out {TARGET}"
    if ref is None:
        status = results.get("exact", {}).get("status", "not run")
        return [{"goal": goal, "case": name, "run": "—", "measured":
                 f"exact CCA {status}: no PCC, no ratio", "verdict": "not measurable"}]
    out = []
    for method in AS_RUN:
        r = results.get(method)
        if not _ok(r):
            continue
        ratio, reached = ref["seconds"] / r["seconds"], pcc(r, ref) >= TARGET
        out.append({"goal": goal, "case": name, "run": f"{label(method)}, {_iterations(r)} it",
                    "measured": f"{ref['seconds']:.1f} s / {r['seconds']:.1f} s = {ratio:.1f}× "
                                f"({cpu_over_wall_of(ref, r)}), PCC_out {pcc(r, ref):.3f}",
                    "verdict": ("met" if ratio >= GOALS["exact_speedup"] else "missed")
                    if reached else f"PCC_out below {TARGET}"})
    return out


def _url_rows(name, entry):
    results, case = entry["results"], entry["case"]
    out = []
    if "exact" in results:
        r = results["exact"]
        out.append({"goal": "exact CCA refused up front at the URL shape", "case": name,
                    "run": "exact CCA", "measured": f"{r['status']} after {r['seconds']:.1f} s "
                                                    f"({cpu_over_wall_of(r)})",
                    "verdict": "met" if r["status"] == "refused" else "missed"})
    s = results.get("sappgrad", {})
    if _ok(s):
        done = s["trace"]["iteration"][-1] == case["sappgrad_iter"]
        peak = s["peak_rss"] / 1e9
        out.append({"goal": f"stochastic AppGrad completes its iterations within "
                            f"{GOALS['url_memory_gb']:g} GB", "case": name,
                    "run": f"{s['trace']['iteration'][-1]:,} iterations",
                    "measured": f"peak RSS {peak:.2f} GB",
                    "verdict": "met" if done and peak < GOALS["url_memory_gb"] else "missed"})
    for key, what in (("tcc_out", "held-out"), ("tcc_in", "in-sample")):
        for method, ours, row, r in equal_flops_verdicts(results, key):
            out.append({"goal": f"AppGrad's {what} TCC above the heuristics' at equal FLOPs",
                        "case": name, "run": f"{label(ours)} vs {label(method)}",
                        "measured": f"{row[key]:.3f} vs {r[key]:.3f}"
                                    + seconds_beside(results, ours, row, method, r),
                        "verdict": "met" if row[key] > r[key] else
                        f"missed by {r[key] - row[key]:.3f}"})
    return out


def _zoo_rows(name, entry):
    zoo = zoo_frame(entry)
    if zoo.empty:
        message = entry["results"].get("cca_zoo_ey", {}).get("message", "not run")
        return [{"goal": "AppGrad ≥ cca-zoo's PCC_out at equal wall time", "case": name,
                 "run": "—", "measured": message, "verdict": "not measured"}]
    out = []
    for method, part in zoo.groupby("cca-zoo", sort=False):
        last = part.iloc[-1]
        ours, theirs = last["AppGrad PCC_out within that time"], last["its PCC_out"]
        met = (part["AppGrad PCC_out within that time"] >= part["its PCC_out"]).sum()
        out.append({"goal": "AppGrad ≥ cca-zoo's PCC_out at equal wall time", "case": name,
                    "run": f"{method}, last budget ({last['its fit s']:.0f} s, "
                           f"CPU / wall {last['its CPU / wall']})",
                    "measured": f"{number(ours, '.3f')} vs {theirs:.3f}; at least as high at "
                                f"{met} of {len(part)} budgets",
                    "verdict": "met" if ours is not None and ours >= theirs else "missed"})
    return out


def goals_frame(stored) -> pd.DataFrame:
    out = []
    top = max(stored.get("per_iteration", {}).get("rows", []), key=lambda r: r["p"],
              default=None)
    if top:
        x = top["dense_seconds"] / top["lazy_seconds"]
        out.append({"goal": f"lazy stochastic step ≥ {GOALS['lazy_speedup']:g}× the dense one "
                            f"per iteration at the largest p", "case": "per_iteration",
                    "run": f"p = {top['p']:,}", "measured": f"{x:.0f}×",
                    "verdict": "met" if x >= GOALS["lazy_speedup"] else "missed"})
    for name in ("sparse8000", "sparse32000"):
        if name in stored:
            out += _speed_rows(name, stored[name])
    for key in url_keys(stored):
        out += _url_rows(key, stored[key])
    for name in ("sparse8000", "sparse8000_small", "sparse32000"):
        if name in stored:
            out += _zoo_rows(name, stored[name])
    return pd.DataFrame(out)


# -- per-iteration, URL and parser sections ---------------------------------------------------
def per_iteration_section(entry) -> str:
    meta = entry["meta"]
    frame = pd.DataFrame([{
        "p per view": r["p"], "non-zeros per row": r["nnz_per_row"],
        "lazy ms / iteration": 1e3 * r["lazy_seconds"],
        "dense ms / iteration": 1e3 * r["dense_seconds"],
        "dense / lazy": r["dense_seconds"] / r["lazy_seconds"],
        "CPU / wall, lazy and dense": ", ".join(
            cpu_over_wall({"cpu_seconds": r.get(f"{label}_cpu_seconds"),
                           "seconds": r[f"{label}_seconds"]}) for label in ("lazy", "dense")),
        "lazy FLOPs performed / it": r["lazy_flops"],
        "dense FLOPs performed / it": r["dense_flops"]} for r in entry["rows"]])
    rounds = meta.get("rounds", 1)
    each = ("each step's round of median wall time with that round's CPU time"
            if "lazy_round_cpu_seconds" in entry["rows"][0] else
            "the medians of wall and of CPU time, each over the rounds")
    how = (f"{rounds} rounds, the two alternating which went first; {each}"
           if rounds > 1 else "one round")
    return section("per_iteration: the lazy stochastic step against the dense one",
                   f"Same process, same data and random draws (`sparse_two_view`, n = "
                   f"{meta['n']:,}, k = {meta['k']}, b = {meta['batch_size']}, s = "
                   f"{meta['normalization_size']}), {meta['threads']} thread(s), {how}, run "
                   f"{meta['date']}, load average {meta['load_average']:.1f}.",
                   table(frame, floatfmt=".3g"))


def fractions(stored, prefix):
    """``prefix@f`` keys, by fraction."""
    keys = [key for key in stored if key.startswith(prefix + "@")]
    return sorted(keys, key=lambda key: float(key.split("@")[1]))


def url_keys(stored):
    return fractions(stored, "url") + (["url"] if "url" in stored else [])


def linear_fit(xs, ys, at):
    """Least-squares line through (xs, ys): slope, intercept, its value at ``at`` and its
    worst relative misfit at the points."""
    slope, intercept = np.polyfit(xs, ys, 1)
    misfit = float(np.max(np.abs(slope * np.asarray(xs) + intercept - ys) / np.asarray(ys)))
    return slope, intercept, slope * at + intercept, misfit


def url_extrapolation_frame(stored, n_full) -> pd.DataFrame:
    """Peak RSS against n over the URL fractions, extrapolated to ``n_full``, beside the
    full-size measurement."""
    keys, full = fractions(stored, "url"), stored.get("url", {}).get("results", {})
    out = []
    for method in dict.fromkeys(m for k in keys for m in stored[k]["results"]):
        points = [(stored[k]["case"]["n"], stored[k]["results"][method]["peak_rss"])
                  for k in keys if _ok(stored[k]["results"].get(method))]
        if len(points) < 2:
            continue
        slope, intercept, at, misfit = linear_fit(*zip(*points), n_full)
        measured = full.get(method, {})
        out.append({"method": label(method), "points": len(points),
                    "MiB per 100k rows": slope * 1e5 / MIB, "intercept GiB": intercept / GIB,
                    "worst misfit %": 100 * misfit, "extrapolated peak GiB": at / GIB,
                    "measured at full n, GiB": measured["peak_rss"] / GIB if _ok(measured)
                    else None})
    views = [(stored[k]["case"]["n"], stored[k]["case"]["data_bytes"]) for k in keys]
    if len(views) >= 2:
        slope, intercept, at, misfit = linear_fit(*zip(*views), n_full)
        out.append({"method": "the views (training and held-out)", "points": len(views),
                    "MiB per 100k rows": slope * 1e5 / MIB, "intercept GiB": intercept / GIB,
                    "worst misfit %": 100 * misfit, "extrapolated peak GiB": at / GIB,
                    "measured at full n, GiB": stored["url"]["case"]["data_bytes"] / GIB
                    if "url" in stored else None})
    return pd.DataFrame(out)


def nw_flops(n, nnz_per_row, url):
    """NW-CCA's FLOPs at n rows: the paper's dense convention, and an estimate of those
    performed (sparse products by their non-zeros, both views at X's non-zeros per row;
    QRs of the p × (k + 10) blocks)."""
    from lowdim.cca.flops import qr_flops, randomized_svd_flops, svd_flops

    width, p, k = url["k"] + 10, url["p1"] + url["p2"], url["k"]
    dense = (randomized_svd_flops(2.0 * n * p * width, 10, url["p1"], url["p2"], width)
             + 2.0 * n * k * p + 6.0 * n * k * k)
    nnz = 2.0 * n * nnz_per_row
    performed = (10 * 2.0 * nnz * width + 5 * qr_flops(url["p1"], width)
                 + 4 * qr_flops(url["p2"], width) + svd_flops(width, url["p2"])
                 + 2.0 * nnz * k + 6.0 * n * k * k)
    return dense, performed


def url_budgets_frame(stored, url) -> pd.DataFrame:
    """Per URL run: NW-CCA's FLOPs, the stochastic iterations they buy, the passes over the
    rows and how often each noise feature occurs in the training rows."""
    from lowdim.cca.flops import appgrad_stochastic_flops

    per_it = appgrad_stochastic_flops(url["p1"], url["p2"], url["k"], url["batch_size"],
                                      10 * url["k"])
    out = []
    for key in url_keys(stored):
        case = stored[key]["case"]
        dense, performed = nw_flops(case["n"], case["nnz_per_row_x"], url)
        out.append({"training rows n": case["n"], "NW-CCA FLOPs (dense convention)": dense,
                    "stochastic AppGrad iterations within them": dense / per_it,
                    "NW-CCA FLOPs performed (estimate)": performed,
                    f"passes over the rows in {url['sappgrad_iter']:,} iterations":
                        url["sappgrad_iter"] * url["batch_size"] / case["n"],
                    "occurrences of a noise feature of X": case["n"] * url["noise_nnz"]
                                                           / url["p1"],
                    "of Y": case["n"] * url["noise_nnz"] / url["p2"]})
    return pd.DataFrame(out)


def url_runs_frame(stored) -> pd.DataFrame:
    """Per URL run, each method's last iterate: in-sample and held-out TCC."""
    methods = ("sappgrad", "sappgrad_long", "appgrad", "nw_cca", "dw_cca", "pca_cca-m20")
    out = []
    for key in url_keys(stored):
        res = stored[key]["results"]
        row = {"training rows n": stored[key]["case"]["n"]}
        for m in methods:
            r = res.get(m, {})
            row[f"{label(m)} TCC_in / TCC_out"] = (
                f"{r['tcc_in']:.3f} / {r['tcc_out']:.3f}" if _ok(r) else r.get("status", "—"))
        out.append(row)
    return pd.DataFrame(out)


def _cpu_over_wall_each(run) -> list[str]:
    """CPU / wall of a ``url_step`` fit to each of its checkpoints (not recorded before
    ``cpu_seconds`` was stored)."""
    cpu = run.get("cpu_seconds", [None] * len(run["seconds"]))
    return [cpu_over_wall({"seconds": s, "cpu_seconds": c}) for s, c in zip(run["seconds"], cpu)]


def url_step_section(key, entry) -> str:
    case, meta, chosen, final = entry["case"], entry["meta"], entry["chosen"], entry["final"]
    runs = pd.DataFrame([{"step": r["step"], "× auto": r["multiple"], "λ": r["reg"],
                          **{f"validation TCC at {i:,}": v for i, v in zip(r["iteration"],
                                                                           r["tcc"])},
                          "step used": r["step_used"][0], "fit s": r["seconds"][-1],
                          "CPU / wall": _cpu_over_wall_each(r)[-1]}
                         for r in entry["runs"]])
    refit = pd.DataFrame({"iteration": final["iteration"], "held-out TCC": final["tcc"],
                          "fit s": final["seconds"],
                          "CPU / wall": _cpu_over_wall_each(final)})
    return section(
        f"{key}: stochastic AppGrad's step chosen on validation rows",
        f"n = {case['n']:,} training rows (fraction {entry['fraction']:g} of the URL case), "
        f"the last {entry['validation_rows']:,} of them validation rows; 'auto' step "
        f"{entry['auto_step']:.3g}. Chosen: step {chosen['step']:.3g} ({chosen['multiple']:g} "
        f"× auto), λ = {chosen['reg']:g}, refitted on all training rows and scored on the "
        f"{case['n_test']:,} held-out rows. Run {meta['date']}, load average "
        f"{meta['load_average']:.1f}.", table(runs, floatfmt=".3g"), table(refit, floatfmt=".4g"))


def _parser_header(entry) -> str:
    if "description" in entry:  # measured before the fields were stored one by one
        return entry["description"]
    return (f"{entry['days']} day files, {entry['n_rows']:,} rows × {entry['n_columns']:,} "
            f"columns ({entry['scale']:g} of the real data's "
            f"{'rows' if entry['fraction'] else 'size'}), archive "
            f"{entry['archive_bytes'] / GIB:.2f} GiB written in {entry['write_seconds']:.0f} s; "
            f"run {entry['date']}, load average {entry['load_average']:.1f}.")


def parser_section(key, entry) -> str:
    frame = pd.DataFrame([{"parser": r["parser"], "rows": r["rows"], "columns": r["columns"],
                           "non-zeros": r["nnz"], "seconds": r["seconds"],
                           "peak RSS GiB": r["peak_rss"] / GIB,
                           "output GiB": r["output_bytes"] / GIB,
                           "peak / output": r["peak_rss"] / r["output_bytes"]}
                          for r in entry["rows"]])
    return section(f"{key}: `url_reputation` parser memory on replica day files",
                   _parser_header(entry), table(frame, floatfmt=".3g"))


def parser_extrapolation_frame(stored, n_full) -> pd.DataFrame:
    keys, out = fractions(stored, "url_parser"), []
    for parser in ("streamed", "stacked"):
        points = [r for k in keys for r in stored[k]["rows"] if r["parser"] == parser]
        if len(points) < 2:
            continue
        slope, intercept, at, misfit = linear_fit([r["rows"] for r in points],
                                                  [r["peak_rss"] for r in points], n_full)
        *_, output, _ = linear_fit([r["rows"] for r in points],
                                   [r["output_bytes"] for r in points], n_full)
        full = [r for r in stored.get("url_parser", {}).get("rows", []) if r["parser"] == parser]
        out.append({"parser": parser, "points": len(points),
                    "MiB per 100k rows": slope * 1e5 / MIB, "intercept GiB": intercept / GIB,
                    "worst misfit %": 100 * misfit, "extrapolated peak GiB": at / GIB,
                    "extrapolated output GiB": output / GIB,
                    "measured peak GiB": full[0]["peak_rss"] / GIB if full else None})
    return pd.DataFrame(out)


# -- the whole report --------------------------------------------------------------------------
def _url_sections(stored, cases) -> list[str]:
    url = cases["url"]
    out = [render_case(key, stored[key], cases) for key in url_keys(stored)]
    if fractions(stored, "url"):
        out.append(section("url, extrapolated from the row fractions",
                           f"Peak RSS against the training rows n, at n = {url['n']:,}:",
                           table(url_extrapolation_frame(stored, url["n"]), floatfmt=".3g")))
    if url_keys(stored):
        out.append(section("url: FLOP budgets and noise-feature counts per row count",
                           table(url_budgets_frame(stored, url), floatfmt=".3g")))
        out.append(section("url: in-sample and held-out TCC of each method's last iterate",
                           table(url_runs_frame(stored))))
    out += [url_step_section(key, stored[key]) for key in fractions(stored, "url_step")]
    return out


def _parser_sections(stored, n_full) -> list[str]:
    keys = fractions(stored, "url_parser") + [k for k in ("url_parser_small", "url_parser")
                                               if k in stored]
    out = [parser_section(key, stored[key]) for key in keys]
    if len(fractions(stored, "url_parser")) >= 2:
        out.append(section("url_parser, extrapolated to the full size",
                           f"Peak RSS against the replica's rows, at {n_full:,} rows:",
                           table(parser_extrapolation_frame(stored, n_full), floatfmt=".3g")))
    return out


def render(stored, cases, full_replica_rows) -> list[str]:
    """The generated sections of ``cca_scale.md``, in order."""
    goals = goals_frame(stored)
    out = [section("Goals", table(goals) if not goals.empty else "No goal measured.")]
    others = [key for key in stored if "results" in stored[key] and key.split("@")[0] != "url"]
    order = {name: i for i, name in enumerate(cases)}
    others.sort(key=lambda key: (order.get(key.split("@")[0], len(order)), key))
    out += [render_case(key, stored[key], cases) for key in others]
    out += _url_sections(stored, cases)
    if "per_iteration" in stored:
        out.append(per_iteration_section(stored["per_iteration"]))
    out += _parser_sections(stored, full_replica_rows)
    missing = [name for name in list(cases) + ["per_iteration"] if name not in stored
               and not fractions(stored, name)]
    if missing:
        out.append(section("Not measured", ", ".join(f"`{m}`" for m in missing)
                           + " (`python benchmarks/cca_scale.py --case NAME`)."))
    return out
