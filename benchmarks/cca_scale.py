"""CCA at scale: exact CCA, AppGrad, cca-zoo, randomized CCA and the heuristics, from p = 392 to URL.

    python benchmarks/cca_scale.py --list
    python benchmarks/cca_scale.py --case sparse8000          # one case, every method
    python benchmarks/cca_scale.py --case per_iteration       # lazy vs dense stochastic steps
    python benchmarks/cca_scale.py --case url                 # needs >= 20 GiB free
    python benchmarks/cca_scale.py --case url --methods sappgrad_long  # to the heuristics' FLOPs
    python benchmarks/cca_scale.py --case url --fraction 0.125  # 1/8 of its rows
    python benchmarks/cca_scale.py --case sparse8000 --quick  # n / 20, a smoke run

Each case generates its views once, saves them, and runs every method in a fresh process on
them (``cca_scale_methods.py``), so peak memory is per method: the Linux peak RSS (VmHWM),
reset after the views are loaded; "beyond data" subtracts the RSS at that point. Times are
the fits' wall times without evaluation, one run each, ``--threads`` BLAS threads, with the
worker's CPU time over the same interval (``cpu_seconds``: CPU / wall is the threads the fit
really kept busy). Results are kept per case in ``cca_scale.json``; ``cca_scale.md`` is
rewritten from all of them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]  # this checkout's lowdim

from _report import read_json, write_json, write_report  # noqa: E402
from cca_scale_report import render  # noqa: E402
from lowdim.memory import available_memory  # noqa: E402
from url_replica import ROWS as REPLICA_ROWS  # noqa: E402

TITLE = "CCA at scale (`benchmarks/cca_scale.py`)"

GIB = 2 ** 30
HEURISTICS = ["randomized", "nw_cca", "dw_cca"]
APPGRAD = ["appgrad", "sappgrad", "appgrad_stop", "sappgrad_stop"]
ALL = ["exact"] + APPGRAD + ["cca_zoo_ey", "cca_zoo_sgd"] + HEURISTICS

CASES = {
    "mnist392": dict(
        kind="dense", description="MNIST-shaped planted Gaussian views",
        n=60000, n_test=10000, p1=392, p2=392, condition=100.0, n_planted=40, k=20, reg=0.005,
        batch_size=50, sappgrad_iter=5000, sappgrad_step=0.02, appgrad_iter=300,
        oversample=100, pca_m=[20, 100], zoo=True, zoo_batch=128, zoo_cap=150),
    "dense2000": dict(
        kind="dense", description="planted Gaussian views, wider",
        n=40000, n_test=10000, p1=2000, p2=2000, condition=100.0, n_planted=40, k=20,
        reg=0.005, batch_size=50, sappgrad_iter=5000, sappgrad_step=0.02, appgrad_iter=300,
        oversample=100, pca_m=[20, 100], zoo=True, zoo_batch=128, zoo_cap=60),
    "sparse8000": dict(
        kind="sparse", description="`sparse_two_view`, binary columns",
        n=160000, n_test=20000, p1=8000, p2=8000, n_factors=400, noise_nnz=5, k=20, reg=1e-3,
        batch_size=50, sappgrad_iter=20000, sappgrad_step="auto", appgrad_iter=100,
        oversample=100, pca_m=[20, 100], zoo=True, zoo_batch=128, zoo_cap=900),
    "sparse8000_small": dict(
        kind="sparse", description="the same model at n below p, small enough for cca-zoo's "
        "dense copies and its peak memory; exact CCA overfits (held-out TCC far below "
        "in-sample)", n=12000, n_test=3000, p1=8000,
        p2=8000, n_factors=400, noise_nnz=5, k=20, reg=1e-3, batch_size=50,
        sappgrad_iter=20000, sappgrad_step="auto", appgrad_iter=500, oversample=100,
        pca_m=[20, 100], zoo=True, zoo_batch=128, zoo_cap=300, speed_goal=False),
    "sparse32000": dict(
        kind="sparse", description="`sparse_two_view`, binary columns, four times wider",
        n=640000, n_test=80000, p1=32000, p2=32000, n_factors=1600, noise_nnz=5, k=20,
        reg=1e-3, batch_size=50, sappgrad_iter=20000, sappgrad_step="auto", appgrad_iter=40,
        oversample=100, pca_m=[20, 100], zoo=True, zoo_batch=128, zoo_cap=900),
    "url": dict(
        kind="sparse", description="URL Reputation's shape: `sparse_two_view` with host and "
        "lexical binary columns split as in the paper", n=2400000, n_test=100000, p1=1200000, p2=2000000, n_factors=2000,
        noise_nnz=53, k=20, reg=1e-4, batch_size=50, sappgrad_iter=4000, sappgrad_step="auto",
        appgrad_iter=10, oversample=100, pca_m=[20, 100], zoo=True, zoo_batch=128, zoo_cap=900,
        min_free_gib=20, n_checkpoints=12,  # an evaluation of p = 3.2M weights is costly
        # NW-CCA's FLOPs at full size (4.92e15, paper formulas) over stochastic AppGrad's
        # 5.12e10 per iteration: the iterations that spend the heuristics' budget
        sappgrad_long_iter=96000, n_checkpoints_long=8),
}

#: a few seconds of every method, for the test suite (not part of the report)
SMOKE = dict(kind="sparse", description="smoke test", n=3000, n_test=1000, p1=300, p2=300,
             n_factors=30, noise_nnz=5, k=3, reg=1e-3, batch_size=50, sappgrad_iter=300,
             sappgrad_step="auto", appgrad_iter=50, oversample=10, pca_m=[10], zoo=True,
             zoo_batch=128, zoo_cap=5)


def methods_of(case):
    long = ["sappgrad_long"] if "sappgrad_long_iter" in case else []
    at = ALL.index("sappgrad") + 1
    return ALL[:at] + long + ALL[at:] + [f"pca_cca-m{m}" for m in case["pca_m"]]


def make_views(case):
    """(X, Y, X_test, Y_test): test rows from the same model as the training rows."""
    from lowdim.data.sources.synthetic import planted_two_view, sparse_two_view

    n, m = case["n"], case["n_test"]
    if case["kind"] == "dense":
        rho = np.linspace(0.95, 0.05, case["n_planted"])
        X, Y, _ = planted_two_view(n + m, case["p1"], case["p2"], rho,
                                   condition=case["condition"], random_state=0)
        return X[:n], Y[:n], X[n:], Y[n:]
    kw = dict(n_factors=case["n_factors"], noise_nnz=case["noise_nnz"], random_state=0)
    X, Y, _ = sparse_two_view(n, case["p1"], case["p2"], **kw)
    Xt, Yt, _ = sparse_two_view(m, case["p1"], case["p2"], start=n, **kw)
    return X, Y, Xt, Yt


def _describe(case, views):
    import scipy.sparse as sp

    X = views[0]
    nnz = X.nnz / X.shape[0] if sp.issparse(X) else X.shape[1]
    return {"nnz_per_row_x": float(nnz), "data_bytes": int(sum(
        (A.data.nbytes + A.indices.nbytes + A.indptr.nbytes) if sp.issparse(A) else A.nbytes
        for A in views))}


def run_worker(directory: Path, method: str):
    from threadpoolctl import threadpool_limits

    from cca_scale_methods import load_views, run_method

    case = json.loads((directory / "case.json").read_text())
    views = load_views(directory)
    with threadpool_limits(case["threads"]):
        try:
            out = run_method(views, case, method)
        except Exception as exc:  # reported in the table, the other methods still run
            out = {"status": "error", "message": f"{type(exc).__name__}: {exc}"}
    (directory / f"{method}.json").write_text(json.dumps(out))


def _spawn(directory, method, timeout):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "src"),
                                                        os.environ.get("PYTHONPATH", "")])}
    start = time.perf_counter()
    try:
        subprocess.run([sys.executable, str(Path(__file__)), "--worker", str(directory), method],
                       env=env, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "message": f"stopped after {timeout:.0f} s"}
    result = directory / f"{method}.json"
    if not result.exists():
        return {"status": "error", "message": "the worker died (killed for memory?) after "
                                              f"{time.perf_counter() - start:.0f} s"}
    return json.loads(result.read_text())


def run_case(name, args):
    from cca_scale_methods import save_views

    case = {**(SMOKE if name == "smoke" else CASES[name]), "name": name, "threads": args.threads,
            "zoo_dense_limit": int(args.zoo_dense_gib * GIB)}
    if args.quick:
        case.update(n=case["n"] // 20, n_test=case["n_test"] // 20, zoo_cap=60,
                    sappgrad_iter=min(case["sappgrad_iter"], 2000))
    if args.fraction:  # rows only: p, k, the iterations and the model stay the paper's
        case.update(n=round(case["n"] * args.fraction), fraction=args.fraction,
                    n_test=round(case["n_test"] * args.fraction), min_free_gib=0)
    if args.min_free_gib is not None:
        case["min_free_gib"] = args.min_free_gib
    free = available_memory() / GIB
    if free < case.get("min_free_gib", 0) and not args.quick:
        sys.exit(f"case {name!r} needs {case['min_free_gib']} GiB free, {free:.1f} available; "
                 f"rerun when `free -g` shows it (or lower --min-free-gib for fewer methods)")
    methods = args.methods or methods_of(case)
    with tempfile.TemporaryDirectory(prefix=f"cca_scale_{name}_") as tmp:
        directory = Path(tmp)
        tick = time.perf_counter()
        views = make_views(case)
        case.update(_describe(case, views), generate_seconds=time.perf_counter() - tick)
        save_views(directory, views)
        del views
        (directory / "case.json").write_text(json.dumps(case))
        runs = {method: [] for method in methods}
        for repeat in range(args.repeats):  # methods alternate, so the load hits all alike
            for method in methods:
                print(f"[{name}] {method} ({repeat + 1}/{args.repeats}) ...", flush=True)
                runs[method].append(_spawn(directory, method, args.timeout))
                print(f"[{name}] {method}: {_progress(runs[method][-1])}", flush=True)
    meta = {"date": time.strftime("%Y-%m-%d %H:%M"), "free_gib_at_start": round(free, 1),
            "load_average": os.getloadavg()[0], "quick": args.quick, "repeats": args.repeats}
    return {"case": case, "results": {m: _median_run(r) for m, r in runs.items()}, "meta": meta}


def _progress(run):
    """A worker's result in one line: status, fit seconds and CPU / wall, or why it did not
    run (a method refused or not installed has no seconds)."""
    seconds, cpu = run.get("seconds"), run.get("cpu_seconds")
    if seconds is None:
        return f"{run.get('status')}: {run.get('message', run.get('reason', 'no time'))}"
    ratio = f" (CPU / wall {cpu / seconds:.2f})" if cpu is not None and seconds > 0 else ""
    return f"{run.get('status')} {seconds:.1f} s{ratio}"


def _median_run(runs):
    """The run of median fit time (the first run if any failed), with every run's wall time
    and, when all were recorded, CPU time."""
    ok = [r for r in runs if r.get("status") == "ok"]
    if len(ok) < len(runs) or len(runs) == 1:
        return runs[0]
    chosen = sorted(ok, key=lambda r: r["seconds"])[(len(ok) - 1) // 2]
    cpu = [r.get("cpu_seconds") for r in runs]
    return {**chosen, "repeat_seconds": [r["seconds"] for r in runs],
            **({"repeat_cpu_seconds": cpu} if None not in cpu else {})}


def _step_seconds(Solver, X, Y, its):
    """Wall and CPU seconds per step of ``its`` steps of a fresh ``Solver`` (seed 0, after
    one untimed step that compiles its kernels), and its FLOPs performed per step."""
    rng = np.random.default_rng(0)
    solver = Solver(X, Y, 5, 0.005, 0.05, 0.05, batch_size=100, normalization_size=50)
    solver.start(rng)
    solver.step(rng)
    flops, tick, cpu = solver.flops_done, time.perf_counter(), time.process_time()
    for _ in range(its):
        solver.step(rng)
    return ((time.perf_counter() - tick) / its, (time.process_time() - cpu) / its,
            (solver.flops_done - flops) / its)


def per_iteration(args):
    """Seconds per stochastic iteration, lazy against dense, in one process, at growing p:
    ``--repeats`` rounds, the two alternating which goes first; each row keeps the round of
    median wall time (the lower of the middle two for an even count) with its CPU time, so
    that their ratio is one round's."""
    from threadpoolctl import threadpool_limits

    from lowdim.cca._stochastic_solvers import DenseStochasticSolver, StochasticSolver
    from lowdim.cca._validation import check_views
    from lowdim.data.sources.synthetic import sparse_two_view

    rows = []
    sizes = (20_000, 200_000) if args.quick else (20_000, 200_000, 2_000_000)
    solvers = (("lazy", StochasticSolver, 300), ("dense", DenseStochasticSolver, 30))
    with threadpool_limits(args.threads):
        for p in sizes:
            X, Y = check_views(*sparse_two_view(20000, p, p, noise_nnz=75, random_state=0)[:2])
            row = {"p": p, "nnz_per_row": X.nnz / X.shape[0]}
            rounds = {label: [] for label, _, _ in solvers}
            for r in range(args.repeats):
                for label, Solver, its in (solvers if r % 2 == 0 else solvers[::-1]):
                    rounds[label].append(_step_seconds(Solver, X, Y, its))
            for label, measured in rounds.items():
                wall, cpu, flops = (np.array(column) for column in zip(*measured))
                median = int(np.argsort(wall)[(len(wall) - 1) // 2])
                row.update({f"{label}_seconds": float(wall[median]),
                            f"{label}_cpu_seconds": float(cpu[median]),
                            f"{label}_round_seconds": wall.tolist(),
                            f"{label}_round_cpu_seconds": cpu.tolist(),
                            f"{label}_flops": float(flops[0])})
            rows.append(row)
            print(row, flush=True)
    return {"rows": rows, "meta": {"date": time.strftime("%Y-%m-%d %H:%M"),
                                   "load_average": os.getloadavg()[0], "threads": args.threads,
                                   "k": 5, "batch_size": 100, "normalization_size": 50,
                                   "n": 20000, "rounds": args.repeats}}


#: stochastic steps tried by ``url_step``, as multiples of the 'auto' step 0.5 / (λ_max + λ)
STEP_MULTIPLES = (0.5, 1.0, 2.0)
#: ridges tried by ``url_step`` at the selected step
STEP_REGS = (1e-3,)
#: ``url_step`` scores its candidates after this fraction of the case's iterations
SELECT_FRACTION = 0.25


def _stochastic_fit(X, Y, case, step, reg, heldout, its):
    from lowdim.cca import AppGradCCA

    est = AppGradCCA(case["k"], reg=reg, max_iter=its[-1], tol=0,
                     batch_size=case["batch_size"], step_size=step, checkpoints=its,
                     trace_tcc=True, random_state=0).fit(X, Y, heldout=heldout)
    trace = est.trace_
    return {"step": step, "reg": reg, "step_used": list(est.step_size_),
            "iteration": trace["iteration"].tolist(), "seconds": trace["seconds"].tolist(),
            "cpu_seconds": trace["cpu_seconds"].tolist(), "tcc": trace["tcc_heldout"].tolist()}


def step_selection(args):
    """The paper's step selection ("a small part of the training set is held out and
    cross-validation is used to choose the step size") for stochastic AppGrad at the URL
    shape, on ``--fraction`` of its rows; the evaluation rows are not used to choose.

    The last 10 % of the training rows are the validation rows; each candidate step (and
    then ridge) is fitted on the other 90 % and scored by its validation TCC after a quarter
    of the case's iterations (:data:`SELECT_FRACTION`: the whole selection costs about one
    full run); the chosen pair is refitted on all training rows for all the iterations and
    scored on the held-out rows, which the ``url@FRACTION`` case's methods are scored on too.
    """
    from threadpoolctl import threadpool_limits

    from lowdim.cca._stochastic_solvers import minibatch_lambda_max

    case = {**CASES["url"], "name": "url_step"}
    case.update(n=round(case["n"] * args.fraction), n_test=round(case["n_test"] * args.fraction))
    X, Y, Xt, Yt = make_views(case)
    cut = int(0.9 * case["n"])
    fit_rows, val = (X[:cut], Y[:cut]), (X[cut:], Y[cut:])
    its = [10, 100, round(case["sappgrad_iter"] * SELECT_FRACTION)]
    rng = np.random.default_rng(0)
    auto = float(np.mean([0.5 / (minibatch_lambda_max(A, rng, case["batch_size"]) + case["reg"])
                          for A in fit_rows]))
    runs = []
    with threadpool_limits(args.threads):
        # compiles (or loads) the stochastic solver's kernels, which the first candidate's
        # seconds would otherwise carry (2.7 of its 7.3 s, 2026-12-07)
        _stochastic_fit(X[:2000], Y[:2000], case, auto, case["reg"], val, [10])
        for c in STEP_MULTIPLES:
            runs.append({"multiple": c, **_stochastic_fit(*fit_rows, case, c * auto,
                                                          case["reg"], val, its)})
            print(runs[-1], flush=True)
        best = max(runs, key=lambda r: r["tcc"][-1])
        for reg in STEP_REGS:
            runs.append({"multiple": best["multiple"],
                         **_stochastic_fit(*fit_rows, case, best["step"], reg, val, its)})
            print(runs[-1], flush=True)
        chosen = max(runs, key=lambda r: r["tcc"][-1])
        final = _stochastic_fit(X, Y, case, chosen["step"], chosen["reg"], (Xt, Yt),
                                its + [case["sappgrad_iter"]])
    return {"case": {k: case[k] for k in ("n", "n_test", "p1", "p2", "k", "reg", "batch_size",
                                          "sappgrad_iter")},
            "fraction": args.fraction, "validation_rows": case["n"] - cut, "auto_step": auto,
            "runs": runs, "chosen": {"step": chosen["step"], "reg": chosen["reg"],
                                     "multiple": chosen["multiple"]}, "final": final,
            "meta": {"date": time.strftime("%Y-%m-%d %H:%M"),
                     "load_average": os.getloadavg()[0]}}


def _store(stored, key, entry, methods):
    """Keep ``entry``; with ``--methods``, the other methods' results of the same case too,
    each stamped with the date of the run it came from."""
    for result in entry["results"].values():
        result.setdefault("run_date", entry["meta"]["date"])
    old = stored.get(key)
    if methods and old and all(old["case"].get(f) == entry["case"].get(f)
                               for f in ("n", "n_test", "p1", "p2", "noise_nnz", "reg", "k")):
        for result in old["results"].values():
            result.setdefault("run_date", old["meta"]["date"])
        entry["results"] = {**old["results"], **entry["results"]}
    stored[key] = entry


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="case name (repeatable)")
    parser.add_argument("--methods", nargs="+", help="only these methods")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--render", action="store_true", help="only rewrite --out's tables "
                        "from --results (its hand-written interpretation is kept)")
    parser.add_argument("--quick", action="store_true", help="n / 20: a smoke run")
    parser.add_argument("--fraction", type=float, help="run the case on this fraction of its "
                        "rows (training and held-out), stored as CASE@FRACTION: the URL case "
                        "at a size that fits a shared machine")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=1, help="run the methods this many "
                        "times, alternating; each keeps its run of median fit time")
    parser.add_argument("--timeout", type=float, default=4 * 3600, help="seconds per method")
    parser.add_argument("--min-free-gib", type=float, help="free memory a case asks for at "
                        "its start (default: the case's; each method's peak is in the report)")
    parser.add_argument("--zoo-dense-gib", type=float, default=4.0,
                        help="largest dense copy of the views cca-zoo may get")
    parser.add_argument("--results", type=Path, default=HERE / "cca_scale.json")
    parser.add_argument("--out", type=Path, default=HERE / "cca_scale.md")
    parser.add_argument("--worker", nargs=2, metavar=("DIR", "METHOD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return run_worker(Path(args.worker[0]), args.worker[1])
    extra = ["per_iteration", "url_parser", "url_parser_small", "url_step"]
    if args.render:
        write_report(args.out, TITLE, render(read_json(args.results), CASES, REPLICA_ROWS))
        return None
    if args.list or not args.case:
        print("cases:", ", ".join(list(CASES) + extra))
        return None
    stored = read_json(args.results) if args.results.exists() else {}
    for name in args.case:
        if name == "per_iteration":
            stored[name] = per_iteration(args)
        elif name == "url_step":
            if not args.fraction:
                sys.exit("--case url_step needs --fraction (the URL rows it runs on)")
            stored[f"url_step@{args.fraction:g}"] = step_selection(args)
        elif name.startswith("url_parser"):
            from url_replica import parser_memory

            if args.fraction:
                stored[f"url_parser@{args.fraction:g}"] = parser_memory(
                    full=False, fraction=args.fraction)
            else:
                stored[name] = parser_memory(full=name == "url_parser", quick=args.quick,
                                             min_free_gib=args.min_free_gib)
        elif (name in CASES or name == "smoke") and args.fraction:
            if not 0 < args.fraction <= 1:
                sys.exit(f"--fraction must be in (0, 1], got {args.fraction}")
            _store(stored, f"{name}@{args.fraction:g}", run_case(name, args), args.methods)
        elif name in CASES or name == "smoke":
            _store(stored, name, run_case(name, args), args.methods)
        else:
            sys.exit(f"unknown case {name!r}; --list shows them")
        write_json(args.results, stored)
    write_report(args.out, TITLE, render(stored, CASES, REPLICA_ROWS))
    print(f"wrote {args.out}")
    return None


if __name__ == "__main__":
    main()
