"""The methods of ``cca_scale.py``, each run in a fresh process on the case's saved views.

A worker loads the views, resets its peak resident memory (Linux ``clear_refs``), runs one
method and reports its trace, FLOPs and peak RSS as JSON. Traces give, per checkpoint, the
fit's wall time without evaluation, FLOPs and in- and out-of-sample TCC (uncentred, as the
project's CCA; cca-zoo centres its views, so its TCC is also given centred).

Every timed fit gives its wall ``seconds`` and its ``cpu_seconds``: the worker's process CPU
time (every thread of it) over the same interval, so CPU / wall tells how many threads the fit
really kept busy (above 1 with one BLAS thread: something else ran threads; below 1: the fit
waited for a core the machine's load held).
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import scipy.sparse as sp

from lowdim.cca import DWCCA, NWCCA, PCACCA, AppGradCCA, ExactCCA, RandomizedCCA
from lowdim.cca.appgrad import checkpoint_iterations
from lowdim.cca.exact import exact_cca_from_grams
from lowdim.cca.metrics import canonical_correlations
from lowdim.memory import current_rss, peak_rss, reset_peak_rss

from cca_scale_report import PCA_RUN

__all__ = ["run_method", "load_views", "save_views"]


def save_views(directory, views):
    """Write (X, Y, X_test, Y_test) as .npy arrays (CSR as its three arrays)."""
    for name, A in zip(("X", "Y", "Xt", "Yt"), views):
        if sp.issparse(A):
            for part in ("data", "indices", "indptr"):
                np.save(directory / f"{name}.{part}.npy", getattr(A, part))
            np.save(directory / f"{name}.shape.npy", np.asarray(A.shape))
        else:
            np.save(directory / f"{name}.npy", A)


def load_views(directory):
    views = []
    for name in ("X", "Y", "Xt", "Yt"):
        if (directory / f"{name}.npy").exists():
            views.append(np.load(directory / f"{name}.npy"))
        else:
            parts = [np.load(directory / f"{name}.{p}.npy") for p in ("data", "indices", "indptr")]
            shape = tuple(np.load(directory / f"{name}.shape.npy"))
            views.append(sp.csr_matrix(tuple(parts), shape=shape))
    return views


def _tcc(A, B, Wx, Wy, centred=False):
    Zx, Zy = np.asarray(A @ Wx), np.asarray(B @ Wy)
    if centred:
        Zx, Zy = Zx - Zx.mean(0), Zy - Zy.mean(0)
    return float(np.sum(canonical_correlations(Zx, Zy)))


def _scores(views, Wx, Wy, centred=False):
    X, Y, Xt, Yt = views
    return {"tcc_in": _tcc(X, Y, Wx, Wy, centred), "tcc_out": _tcc(Xt, Yt, Wx, Wy, centred)}


def _clock():
    """(wall, CPU) seconds now; the CPU time is this worker process's, every thread."""
    return time.perf_counter(), time.process_time()


def _since(start):
    """(wall, CPU) seconds since ``start``, a :func:`_clock` reading."""
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def _exact(views, case):
    X, Y, Xt, Yt = views
    start = _clock()
    try:
        est = ExactCCA(case["k"], reg=case["reg"]).fit(X, Y)
    except MemoryError as exc:
        seconds, cpu = _since(start)
        return {"status": "refused", "message": str(exc), "seconds": seconds,
                "cpu_seconds": cpu}
    seconds, cpu = _since(start)
    out = {"status": "ok", "seconds": seconds, "cpu_seconds": cpu, "flops": est.flops_,
           **_scores(views, est.x_weights_, est.y_weights_)}
    if case.get("zoo"):  # the centred problem cca-zoo solves, as its PCC denominator
        out.update({f"centred_{k}": v for k, v in
                    _scores(views, *_centred_exact(X, Y, case), centred=True).items()})
    return out


def _centred_exact(X, Y, case):
    n = X.shape[0]
    mx, my = np.asarray(X.mean(axis=0)).ravel(), np.asarray(Y.mean(axis=0)).ravel()
    dense = (lambda M: M.toarray() if sp.issparse(M) else np.asarray(M))
    Sx = dense(X.T @ X) / n - np.outer(mx, mx)
    Sy = dense(Y.T @ Y) / n - np.outer(my, my)
    Sxy = dense(X.T @ Y) / n - np.outer(mx, my)
    Wx, Wy, _, _ = exact_cca_from_grams(Sx, Sy, Sxy, case["k"], case["reg"])
    return Wx, Wy


#: The stopping rule of the ``*_stop`` methods, fixed before they were run: AppGradCCA's
#: early stopping on a tenth of the training rows, checked at 20 evenly spaced iterations up
#: to the case's iteration count, stopping once two checks in a row gain less than 0.1 %.
STOP_RULE = dict(early_stopping=True, validation_fraction=0.1, n_iter_no_change=2, tol=1e-3)
STOP_CHECKS = 20


def _appgrad(views, case, stochastic, long=False, stop=False):
    """Batch or stochastic AppGrad; ``long``: stochastic, continued to ``sappgrad_long_iter``;
    ``stop``: stopped by :data:`STOP_RULE` (the held-out rows are not used to stop).

    The long run is the same trajectory as the stochastic one (same seed, minibatches and
    step), with a checkpoint at the case's own iteration count too.
    """
    X, Y, Xt, Yt = views
    max_iter = case["sappgrad_long_iter" if long else
                    "sappgrad_iter" if stochastic else "appgrad_iter"]
    count = case.get("n_checkpoints_long" if long else "n_checkpoints", 40)
    its = checkpoint_iterations(max_iter, count, extra=[case["sappgrad_iter"]] if long else ())
    kw = dict(batch_size=case["batch_size"], step_size=case["sappgrad_step"]) if stochastic \
        else dict(step_size="auto")
    if stop:
        its = list(range(max_iter // STOP_CHECKS, max_iter + 1, max_iter // STOP_CHECKS))
        kw.update(STOP_RULE)
    start = _clock()
    with warnings.catch_warnings(record=True):  # a run that reaches max_iter warns
        warnings.simplefilter("always")
        est = AppGradCCA(case["k"], reg=case["reg"], max_iter=max_iter,
                         **({} if stop else {"tol": 0}), checkpoints=its, trace_tcc=True,
                         random_state=0, **kw).fit(X, Y, heldout=(Xt, Yt))
    total, total_cpu = _since(start)
    trace = est.trace_.rename(columns={"tcc_train": "tcc_in", "tcc_heldout": "tcc_out"})
    columns = ["iteration", "seconds", "cpu_seconds", "flops", "flops_performed", "tcc_in",
               "tcc_out"]
    last = trace.iloc[-1]
    out = {"status": "ok", "seconds": float(last["seconds"]),
           "cpu_seconds": float(last["cpu_seconds"]),
           "seconds_with_evaluation": total, "cpu_seconds_with_evaluation": total_cpu,
           "flops": float(last["flops"]), "flops_performed": float(last["flops_performed"]),
           "tcc_in": float(last["tcc_in"]), "tcc_out": float(last["tcc_out"]),
           "solver": est.solver_, "step_size": list(est.step_size_), "n_iter": est.n_iter_,
           "trace": trace[columns].to_dict("list")}
    if stop:
        out.update(stopped=bool(est.converged_), rule={**STOP_RULE, "checks": its[:3]},
                   validation_tcc=est.validation_scores_.tolist())
    return out


def zoo_shrinkage(reg, n):
    """cca-zoo's ``shrinkage`` s that solves the ridge-λ problem of exact CCA and AppGrad.

    cca-zoo constrains ``wᵀ((1 - s)Σ' + sI)w`` with ``Σ' = n/(n - 1) Σ`` (its moments divide
    by n - 1, ours by n), which is a constant times ``wᵀ(Σ + λI)w`` for
    ``λ = s (n - 1) / ((1 - s) n)``; the constant does not change the canonical directions.
    """
    ratio = reg * n / (n - 1.0)  # s / (1 - s)
    return ratio / (1.0 + ratio)


def _dense_bytes(views):
    return sum(8 * A.shape[0] * A.shape[1] for A in views)


def _cca_zoo(views, case, stochastic):
    """cca-zoo on densified views, refitted with doubling iteration budgets (its trace)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        from cca_zoo.linear import CCAEY
        from cca_zoo.stochastic import StochasticCCAEY
    except ImportError:
        return {"status": "not run", "message": "cca-zoo is not installed "
                "(pip install -e '.[bench]')"}
    try:
        zoo = f"cca-zoo {version('cca-zoo')}"
    except PackageNotFoundError:  # importable from a checkout
        zoo = "cca-zoo"
    need = _dense_bytes(views)
    if need > case["zoo_dense_limit"]:
        return {"status": "not run", "message": f"{zoo} rejects scipy.sparse and centres "
                f"the views: the dense copies need {need / 2**30:.1f} GiB, above the "
                f"{case['zoo_dense_limit'] / 2**30:.0f} GiB this benchmark allows"}

    # only the training views densified: the scores take the sparse held-out views as they are
    dense = [A.toarray() if sp.issparse(A) else A for A in views[:2]] + list(views[2:])
    k, rows, spent, budget = case["k"], [], 0.0, 1 if stochastic else 5
    shrinkage = zoo_shrinkage(case["reg"], dense[0].shape[0])
    while spent < case["zoo_cap"]:
        model = (StochasticCCAEY(k, batch_size=case["zoo_batch"], max_iter=budget,
                                 shrinkage=shrinkage, random_state=0) if stochastic
                 else CCAEY(k, max_iter=budget, shrinkage=shrinkage, random_state=0))
        start = _clock()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # it warns that a short budget did not converge
            model.fit(dense[:2])
        seconds, cpu = _since(start)
        spent += seconds
        Wx, Wy = model.weights_
        rows.append({"iteration": budget, "seconds": seconds, "cpu_seconds": cpu,
                     **_scores(dense, Wx, Wy), **{f"centred_{key}": v for key, v in
                                                 _scores(dense, Wx, Wy, centred=True).items()}})
        if model.n_iter_ < budget:
            break  # converged: a larger budget would repeat this fit
        budget *= 2
    trace = {key: [r[key] for r in rows] for key in rows[0]}
    return {"status": "ok", "seconds": rows[-1]["seconds"], "cpu_seconds": rows[-1]["cpu_seconds"],
            "total_seconds": spent, "total_cpu_seconds": sum(trace["cpu_seconds"]),
            "shrinkage": shrinkage,
            "tcc_in": rows[-1]["tcc_in"], "tcc_out": rows[-1]["tcc_out"],
            "centred_tcc_in": rows[-1]["centred_tcc_in"],
            "centred_tcc_out": rows[-1]["centred_tcc_out"], "trace": trace}


def _one_shot(views, case, Estimator, **kw):
    X, Y, Xt, Yt = views
    start = _clock()
    est = Estimator(case["k"], reg=case["reg"], random_state=0, **kw).fit(X, Y)
    seconds, cpu = _since(start)
    return {"status": "ok", "seconds": seconds, "cpu_seconds": cpu, "flops": est.flops_,
            **_scores(views, est.x_weights_, est.y_weights_)}


def run_method(views, case, method):
    """Run ``method`` on ``views``; the result dict gains ``peak_rss`` and ``rss_before``."""
    reset_peak_rss()
    before = current_rss()
    if method == "exact":
        out = _exact(views, case)
    elif method in ("appgrad", "sappgrad"):
        out = _appgrad(views, case, stochastic=method == "sappgrad")
    elif method in ("appgrad_stop", "sappgrad_stop"):
        out = _appgrad(views, case, stochastic=method == "sappgrad_stop", stop=True)
    elif method == "sappgrad_long":
        out = _appgrad(views, case, stochastic=True, long=True)
    elif method in ("cca_zoo_ey", "cca_zoo_sgd"):
        out = _cca_zoo(views, case, stochastic=method == "cca_zoo_sgd")
    elif method == "randomized":
        out = _one_shot(views, case, RandomizedCCA, oversample=case["oversample"])
    elif method == "nw_cca":
        out = _one_shot(views, case, NWCCA)
    elif method == "dw_cca":
        out = _one_shot(views, case, DWCCA)
    elif PCA_RUN.fullmatch(method):
        out = _one_shot(views, case, PCACCA, n_pca_components=int(PCA_RUN.fullmatch(method)[1]))
    else:
        raise ValueError(f"unknown method {method!r}")
    out.update(peak_rss=peak_rss(), rss_before=before)
    return out
