"""The Vec2vec experiment steps: features, sweeps, best-setting selection, t-tests, timing data."""

import time

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from lowdim.data import get_spec
from lowdim.data.prepared import Dataset
from lowdim.embedding.experiments import (embed_sweep, load_sweep, save_sweep, score_sweep,
                                          select_best, sensitivity_sweep, significance_tests,
                                          sweep_settings)
from lowdim.embedding.features import embedding_features, tfidf_features
from lowdim.embedding import Vec2Vec
from lowdim.embedding.timing import timing_data, timing_sweep, timing_table, timing_values
from lowdim.evaluate.classification import knn_cv_accuracy

from fixtures.workflow import tiny_config


def test_tfidf_of_texts_is_stemmed_l2_normalised_and_sparse():
    data = Dataset(name="t", kind="text", y=np.array([0, 1, 0]),
                   texts=np.array(["Cats running fast", "the dog runs", "a cat ran"]))
    X, vocab = tfidf_features(data, stem=True)
    assert sp.issparse(X) and X.shape == (3, len(vocab))
    assert "cat" in vocab and "run" in vocab and "the" not in vocab  # stemmed, stop word gone
    np.testing.assert_allclose(sp.linalg.norm(X, axis=1), 1.0)
    unstemmed = tfidf_features(data, stem=False)[1]
    assert "cats" in unstemmed and "running" in unstemmed


def test_tfidf_falls_back_to_the_bag_of_words():
    bow = sp.csr_matrix(np.array([[1, 0, 2], [0, 1, 1]], dtype=float))
    data = Dataset(name="t", kind="text", bow=bow, vocab=np.array(["a", "b", "c"]),
                   y=np.array([0, 1]))
    X, vocab = tfidf_features(data, min_df=1)
    assert X.shape == (2, 3) and list(vocab) == ["a", "b", "c"]
    X, vocab = tfidf_features(data, min_df=2)
    assert list(vocab) == ["c"]


def test_embedding_features_subsamples_and_keeps_labels_aligned():
    digits = get_spec("digits").prepare()
    features = embedding_features(digits, max_samples=100, seed=3)
    assert features.kind == "dense" and features.X.shape == (100, 64)
    rows = [np.flatnonzero((digits.X == x).all(axis=1))[0] for x in features.X[:10]]
    np.testing.assert_array_equal(digits.y[rows], features.y[:10])
    text = embedding_features(get_spec("pang_lee").prepare())
    assert text.kind == "sparse" and text.meta["features"] == "tf-idf" and text.n == 200
    with pytest.raises(ValueError, match="no labels"):
        embedding_features(get_spec("lee").prepare())


def test_sweep_settings_follow_the_method():
    assert sweep_settings("pca", [2, 4], 100) == [{}]
    assert sweep_settings("mds", [2, 4], 100) == [{}]
    assert sweep_settings("vec2vec", [2, 4], 100) == [{"topk": 2}, {"topk": 4}]
    assert sweep_settings("vec2vec_cooccurrence", [2], 100) == [{"topk": 2}]
    assert sweep_settings("umap", [2, 4, 200], 100) == [{"n_neighbors": 2}, {"n_neighbors": 4}]


def test_embed_sweep_records_failed_settings_and_roundtrips(tmp_path):
    X = np.random.default_rng(0).random((30, 5))
    sweep = embed_sweep(X, "le", n_components=2, settings=[{"n_neighbors": 5},
                                                          {"n_neighbors": 40}], random_state=0)
    assert sweep["settings"] == ["n_neighbors=5", "n_neighbors=40"]
    assert np.all(np.isfinite(sweep["embeddings"][0])) and np.isnan(sweep["embeddings"][1]).all()
    assert sweep["errors"][0] == "" and "n_neighbors" in sweep["errors"][1]
    save_sweep(tmp_path / "s.npz", sweep, dataset="d", method="le", y=np.zeros(30))
    loaded = load_sweep(tmp_path / "s.npz")
    np.testing.assert_array_equal(loaded["embeddings"], sweep["embeddings"])
    assert loaded["settings"] == sweep["settings"] and loaded["info"]["method"] == "le"
    scores = score_sweep(loaded["embeddings"], loaded["settings"], np.arange(30) % 2,
                         gammas=[0.1], random_state=0)
    assert set(scores["setting"]) == {"n_neighbors=5"}  # the failed fit has no rows


def test_score_sweep_chooses_the_setting_inside_the_folds():
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(3), 40)
    noise = rng.normal(size=(120, 3))
    informative = noise + 4.0 * np.eye(3)[y]
    scores = score_sweep(np.stack([noise, informative]), ["topk=2", "topk=8"], y, gammas=[0.1],
                         random_state=0)
    chosen = scores[scores["metric"] == "accuracy_selected"]
    assert list(chosen["setting"]) == ["topk=8"] * 4 and (chosen["value"] > 0.9).all()
    # Per setting, the same numbers as the plain nested CV of that embedding alone.
    for label, Z in (("topk=2", noise), ("topk=8", informative)):
        alone = knn_cv_accuracy(Z, y, random_state=0)
        rows = scores[(scores["metric"] == "accuracy") & (scores["setting"] == label)]
        np.testing.assert_array_equal(rows["value"], alone.fold_accuracy)
        np.testing.assert_array_equal(rows["best_k"], alone.best_k)
    assert scores.loc[scores["setting"] == "topk=2", "value"].max() < 0.6  # noise: chance


def test_the_chosen_setting_is_not_the_best_on_the_test_folds():
    # Two equally useless embeddings: choosing by the outer folds would report the
    # max of the two (optimistic); choosing inside reports a chosen one's own accuracy.
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    embeddings = rng.normal(size=(6, 200, 2))
    scores = score_sweep(embeddings, [f"k={i}" for i in range(6)], y, gammas=[0.1],
                         random_state=0)
    per = scores[scores["metric"] == "accuracy"].pivot(index="fold", columns="setting",
                                                     values="value")
    chosen = scores[scores["metric"] == "accuracy_selected"].set_index("fold")
    for fold, row in chosen.iterrows():
        assert row["value"] == per.loc[fold, row["setting"]]
    assert chosen["value"].mean() < per.max(axis=1).mean()


def _scores():
    rows = []
    for dataset, shift in (("a", 0.0), ("b", 0.1), ("c", 0.2)):
        for method, level in (("vec2vec", 0.8), ("pca", 0.7)):
            for setting, bump in (("default", 0.0), ("k=5", 0.05)):
                for fold in range(4):
                    rows.append({"dataset": dataset, "method": method, "setting": setting,
                                 "metric": "accuracy", "fold": fold, "gamma": np.nan,
                                 "value": level + bump + shift + 0.01 * fold, "best_k": 1})
                    if setting == "k=5":  # chosen inside every fold
                        rows.append({**rows[-1], "metric": "accuracy_selected"})
                for gamma, ari in ((0.1, level - 0.3 + bump), (1.0, level - 0.5)):
                    rows.append({"dataset": dataset, "method": method, "setting": setting,
                                 "metric": "ari", "fold": np.nan, "gamma": gamma,
                                 "value": ari + shift, "best_k": np.nan})
    return pd.DataFrame(rows)


def test_select_best_keeps_the_settings_chosen_inside_the_folds():
    classification, clustering = select_best(_scores())
    assert set(classification["setting"]) == {"k=5"}
    assert len(classification) == 3 * 2 * 4
    best = clustering.set_index(["dataset", "method"])
    assert best.loc[("a", "pca"), "gamma"] == 0.1 and best.loc[("a", "pca"), "setting"] == "k=5"
    np.testing.assert_allclose(best.loc[("c", "vec2vec"), "ari"], 0.8 - 0.3 + 0.05 + 0.2)


def test_significance_tests_pair_datasets():
    classification, clustering = select_best(_scores())
    tests = significance_tests(classification, clustering, alpha=0.1)
    assert set(tests["task"]) == {"classification", "clustering"}
    assert set(tests["method"]) == {"pca"} and (tests["n_pairs"] == 3).all()
    np.testing.assert_allclose(tests["mean_difference"], 0.1)
    assert tests["p"].isna().all()  # constant differences: the t statistic is undefined


@pytest.mark.parametrize("solver", ["gensim", "cooccurrence"])
def test_sensitivity_sweep_varies_one_parameter(solver):
    data = get_spec("gaussian_blobs").prepare(n_samples=150, n_features=8, n_classes=3,
                                              cluster_std=1.0)
    params = {"epochs": 3, "walks_per_node": 5, "solver": solver}
    scores = sensitivity_sweep(data.X, data.y, parameter="n_components", values=[3, 6],
                               n_components=5, params=params, random_state=0)
    assert list(scores["value"].unique()) == [3, 6] and len(scores) == 8
    # Separable blobs: Vec2vec keeps the classes apart (chance is 1/3; a method that
    # ignored the neighbourhood graph, e.g. random vectors, scores about that).
    assert scores["accuracy"].min() >= 0.9
    # Each value is Vec2vec run with exactly that parameter, scored by the paper's kNN.
    for d in (3, 6):
        Z = Vec2Vec(n_components=d, random_state=0, **params).fit_transform(data.X)
        np.testing.assert_array_equal(scores.loc[scores["value"] == d, "accuracy"],
                                      knn_cv_accuracy(Z, data.y, random_state=0).fold_accuracy)


def test_timing_data_and_table(tmp_path):
    dense = timing_data("n_samples", 120, fixed=16, seed=0)
    assert dense.X.shape == (120, 16) and not sp.issparse(dense.X)
    wide = timing_data("n_features", 5000, fixed=50, seed=0)
    assert sp.issparse(wide.X) and wide.X.shape == (50, 5000)
    assert wide.X.getnnz(axis=1).max() <= 64 * 4
    with pytest.raises(ValueError, match="axis"):
        timing_data("n_classes", 3, fixed=10)
    bench = tmp_path / "b.tsv"
    bench.write_text("s\th:m:s\tmax_rss\n12.5\t0:00:12\t300.1\n")
    run = {"axis": "n_features", "value": 5000, "method": "vec2vec", "n_samples": 50,
           "n_features": 5000, "nnz": 10, "fit_seconds": 2.0, "compile_seconds": 1.0,
           "n_jobs": 1}
    table = timing_table([[run, {**run, "value": 9000}]], [bench])
    assert list(table["value"]) == [5000, 9000] and (table["job_seconds"] == 12.5).all()
    assert table.loc[0, "fixed"] == "n = 50"
    assert table.loc[0, "max_rss_mb"] == pytest.approx(300.1)


def test_timing_sweep_warms_up_then_times_each_value_repeatedly():
    start = time.perf_counter()
    runs = timing_sweep("n_samples", [60, 90], "le", fixed=8, n_components=2, n_neighbors=5,
                        seed=0, warmup_samples=40, repeats=3)
    elapsed = time.perf_counter() - start
    assert [(r["value"], r["repeat"]) for r in runs] == [(v, i) for v in (60, 90) for i in range(3)]
    assert [r["n_samples"] for r in runs] == [60] * 3 + [90] * 3
    assert all(r["fit_seconds"] > 0 and r["cpu_seconds"] > 0 for r in runs)
    # the compilation is part of the warm-up, which the call spent besides the timed fits
    assert len({r["compile_seconds"] for r in runs}) == 1
    assert elapsed >= sum(r["fit_seconds"] for r in runs) + runs[0]["compile_seconds"]
    assert timing_values("n_samples", [100, 1000, 3000], 64, max_samples=1000) == [100, 1000]
    assert timing_values("n_features", [100, 1000], 2000, max_samples=1000) == []
    assert timing_values("n_features", [100, 1000], 500, max_samples=None) == [100, 1000]


class _Clock:
    """A stand-in for the `time` module whose clocks move only when a fake fit runs: the wall
    clock by the fit's duration, the CPU clock by half of it (a fit that kept one of two
    threads busy, or shared its core)."""

    def __init__(self, durations):
        self.now, self.cpu, self._durations = 0.0, 0.0, iter(durations)

    def perf_counter(self):
        return self.now

    def process_time(self):
        return self.cpu

    def fit(self, X, **kw):
        seconds = next(self._durations)
        self.now += seconds
        self.cpu += seconds / 2


@pytest.mark.parametrize("warmups, compile_seconds", [((5.0, 1.5), 3.5), ((1.0, 1.2), 0.0)],
                         ids=["cold-fit-compiles", "warm-fit-slower-by-noise"])
def test_compile_seconds_is_the_first_warmup_fit_minus_the_second(monkeypatch, warmups,
                                                                  compile_seconds):
    import lowdim.embedding.experiments as experiments
    import lowdim.embedding.timing as timing

    clock = _Clock([*warmups, 2.0, 3.0])  # two warm-up fits, then one per timed value
    monkeypatch.setattr(timing, "time", clock)
    monkeypatch.setattr(experiments, "fit_embedding", clock.fit)
    runs = timing_sweep("n_samples", [60, 90], "le", fixed=8, n_components=2, n_neighbors=5,
                        seed=0, warmup_samples=40, repeats=1)
    assert [r["fit_seconds"] for r in runs] == [2.0, 3.0]
    assert [r["cpu_seconds"] for r in runs] == [1.0, 1.5]
    assert [r["cpu_over_wall"] for r in runs] == [0.5, 0.5]
    assert [r["compile_seconds"] for r in runs] == [compile_seconds] * 2


@pytest.mark.parametrize("n_jobs, fit_seed", [(1, 7), (None, 7), (2, None)])
def test_timed_fits_are_seeded_on_one_thread_and_free_running_on_more(monkeypatch, n_jobs,
                                                                      fit_seed):
    # Like for like: on several threads UMAP runs parallel only unseeded, so every method's
    # fits there run unseeded; the data stay seeded either way.
    import lowdim.embedding.experiments as experiments

    calls = []
    monkeypatch.setattr(experiments, "fit_embedding",
                        lambda X, **kw: calls.append((X.sum(), kw["random_state"])))
    runs = timing_sweep("n_samples", [60], "le", fixed=8, n_components=2, n_neighbors=5,
                        seed=7, n_jobs=n_jobs, warmup_samples=40, repeats=3)
    assert {seed for _, seed in calls} == {fit_seed} and len(calls) == 2 + 3
    assert [r["seeded"] for r in runs] == [fit_seed is not None] * 3
    assert {r["seed"] for r in runs} == {7}
    again = []
    monkeypatch.setattr(experiments, "fit_embedding", lambda X, **kw: again.append(X.sum()))
    timing_sweep("n_samples", [60], "le", fixed=8, n_components=2, n_neighbors=5, seed=7,
                 n_jobs=n_jobs, warmup_samples=40, repeats=3)
    assert again == [total for total, _ in calls]  # the same data, seeded


def test_a_batched_method_is_fitted_as_in_a_job_of_its_own(tmp_path):
    # embedding.batch_methods fits several methods in one process: each gets its own embed
    # job's settings and writes the file that job would have written.
    from lowdim.embedding.experiments import embed_and_save, load_sweep
    from lowdim.settings import job_settings

    config = tiny_config((("embedding", "batch_methods"), ["pca", "mds", "le"]))
    data = get_spec("digits").prepare(n_rows=120)
    batch = job_settings(config, "embedding", "embed_batch", dataset="digits").values()
    assert list(batch["fits"]) == ["pca", "mds", "le"]  # embedding.methods' order
    for method in batch["fits"]:
        alone = job_settings(config, "embedding", "embed", dataset="digits", method=method)
        assert batch["fits"][method] == alone.values()
        assert batch["fit_keys"][method] == alone.config_keys()
        embed_and_save(data, method, alone.values(), alone.config_keys(),
                       tmp_path / f"alone_{method}.npz")
    for method in batch["fits"]:  # one after the other in one process, as the batch job
        embed_and_save(data, method, batch["fits"][method], batch["fit_keys"][method],
                       tmp_path / f"batch_{method}.npz")
    for method in batch["fits"]:
        alone, batched = (load_sweep(tmp_path / f"{kind}_{method}.npz")
                          for kind in ("alone", "batch"))
        np.testing.assert_array_equal(batched["embeddings"], alone["embeddings"])
        assert batched["settings"] == alone["settings"] and batched["info"] == alone["info"]


def test_sparse_blobs_preserve_the_latent_geometry():
    from lowdim.data.sources.synthetic_embedding import gaussian_blobs, sparse_blobs

    X, y = sparse_blobs(60, 200000, 8, 3, 1.0, 4, random_state=0)
    rng = np.random.RandomState(0)
    latent_seed, _ = rng.randint(0, 2**31 - 1, size=2)
    Z, y_latent = gaussian_blobs(60, 8, 3, 1.0, random_state=latent_seed)
    np.testing.assert_array_equal(y, y_latent)
    np.testing.assert_allclose((X @ X.T).toarray(), Z @ Z.T, rtol=1e-2, atol=1e-6 * (Z**2).sum())
