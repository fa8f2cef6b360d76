"""Two design choices of the SMS-Nyström task pipelines, timed against the obvious peer.

Run from the repository root::

    PYTHONPATH=src python benchmarks/sms_tasks.py [--repeats 3]

Prints, and writes to ``benchmarks/sms_tasks.md``, ratios measured in one process on the same
data:

1. Threshold tuning for coreference clustering: one scipy average-linkage tree per topic cut
   at every candidate threshold (``lowdim.tasks.coreference``) against refitting scikit-learn's
   ``AgglomerativeClustering(distance_threshold=t)`` for every threshold; the two must give
   the same partitions.
2. C selection of the linear SVM: our stratified k-fold loop over liblinear fits
   (``lowdim.evaluate.svm.TunedSVM``) against ``GridSearchCV`` over the same folds and grid;
   the two must choose the same C with the same cross-validated accuracy.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import AgglomerativeClustering
from sklearn.metrics import adjusted_rand_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import LinearSVC
from sklearn.utils import check_random_state

from _report import read_json, section, table, write_json, write_report
from lowdim.evaluate.svm import TunedSVM
from lowdim.tasks.coreference import average_linkage, cluster_topics

TITLE = "SMS-Nyström task pipelines against the obvious peer (`benchmarks/sms_tasks.py`)"

THRESHOLDS = np.round(np.arange(0.05, 0.951, 0.05), 2)
C_GRID = (0.1, 1.0, 10.0, 100.0)


def topic_matrix(n=300, n_clusters=30, seed=0):
    """A similarity matrix in [0, 1] with planted clusters, like a coreference topic."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, n_clusters, size=n)
    centres = rng.normal(size=(n_clusters, 16))
    X = centres[labels] + rng.normal(scale=0.6, size=(n, 16))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return (X @ X.T + 1) / 2


def best_of(repeats, func):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - t0)
    return min(times), out


def clustering_row(repeats):
    K = topic_matrix()
    D = 1 - K
    np.fill_diagonal(D, 0)

    def ours():
        tree = average_linkage(K) + (K.shape[0],)
        return [cluster_topics([tree], t)[0] for t in THRESHOLDS]

    def peer():
        return [AgglomerativeClustering(n_clusters=None, metric="precomputed", linkage="average",
                                        distance_threshold=t).fit(D).labels_ for t in THRESHOLDS]

    t_ours, a = best_of(repeats, ours)
    t_peer, b = best_of(repeats, peer)
    agree = min(adjusted_rand_score(x, y) for x, y in zip(a, b))
    return (f"average linkage, {len(THRESHOLDS)} thresholds, n = {K.shape[0]}: one tree + cuts "
            f"vs sklearn refits", t_ours, t_peer,
            f"smallest ARI between the two partitions: {agree:.4f}")


def svm_row(repeats):
    rng = check_random_state(0)
    X = np.vstack([rng.normal(-0.4, 1, size=(150, 64)), rng.normal(0.4, 1, size=(150, 64))])
    y = np.repeat([0, 1], 150)

    def ours():
        svm = TunedSVM(C_grid=C_GRID, n_folds=5, random_state=0).fit(X, y)
        return svm.C_, svm.cv_accuracy_

    # The same folds and liblinear seed as TunedSVM draws from random_state=0.
    seed = int(check_random_state(0).randint(2**31 - 1))

    def peer():
        search = GridSearchCV(LinearSVC(dual=False, max_iter=20000, random_state=seed),
                              {"C": list(C_GRID)}, scoring="accuracy",
                              cv=StratifiedKFold(5, shuffle=True, random_state=seed)).fit(X, y)
        return search.best_params_["C"], search.best_score_

    t_ours, a = best_of(repeats, ours)
    t_peer, b = best_of(repeats, peer)
    return (f"linear SVM, {len(C_GRID)} C x 5 folds, {X.shape[0]} x {X.shape[1]}: TunedSVM vs "
            f"GridSearchCV", t_ours, t_peer,
            f"chosen C {a[0]:g} vs {b[0]:g}, CV accuracy {a[1]:.4f} vs {b[1]:.4f}")


def render(stored) -> list[str]:
    """The tables of ``sms_tasks.md`` from the stored measurements."""
    meta = stored["meta"]
    frame = pd.DataFrame([{"comparison": r["comparison"], "ours (s)": r["ours_s"],
                           "peer (s)": r["peer_s"], "ratio (peer / ours)": r["peer_s"] / r["ours_s"],
                           "same result": r["check"]} for r in stored["rows"]])
    return [section("Measured", f"Best of {meta['repeats']} runs, {meta['date']}, "
                    f"{meta['machine']}, {meta['cores']} cores, load average "
                    f"{meta['load_average']:.1f} at the end.",
                    table(frame, formats={"(s)": ".3f", "ratio": ".1f"}))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=Path(__file__).with_name("sms_tasks.md"), type=Path,
                        help="Markdown file (default benchmarks/sms_tasks.md)")
    parser.add_argument("--results", type=Path, default=None,
                        help="measurements (default: --out with .json)")
    parser.add_argument("--render", action="store_true", help="only rewrite --out's tables")
    args = parser.parse_args()
    results = args.results or args.out.with_suffix(".json")
    if not args.render:
        rows = [clustering_row(args.repeats), svm_row(args.repeats)]
        write_json(results, {"rows": [{"comparison": name, "ours_s": a, "peer_s": b,
                                       "check": note} for name, a, b, note in rows],
                             "meta": {"repeats": args.repeats,
                                      "date": time.strftime("%Y-%m-%d %H:%M"),
                                      "machine": platform.machine(), "cores": os.cpu_count(),
                                      "load_average": os.getloadavg()[0]}})
    print(write_report(args.out, TITLE, render(read_json(results))))


if __name__ == "__main__":
    main()
