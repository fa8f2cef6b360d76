"""The experiment layer of the CCA workflow, the word/context dataset and the figures."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from lowdim.cca.experiments import (TCC_COLUMNS, Views, add_pcc, checkpoint_iterations,
                                    dataset_stats, replicate_seeds, run_appgrad, run_exact,
                                    run_heuristic, run_replicates, table_datasets, tcc_points,
                                    training_views)
from lowdim.data import Dataset, get_spec
from lowdim.data.sources.word_context import ptb_style_tokens
from fixtures.cca_data import planted_views


def test_ptb_style_tokens():
    assert ptb_style_tokens("It cost $3.5 million. Prices rose! Don't  panic?") == [
        "it", "cost", "N", "million", "<eos>", "prices", "rose", "<eos>", "don't", "panic",
        "<eos>"]
    assert ptb_style_tokens("Un café crème, s'il vous plaît.") == [
        "un", "café", "crème", "s'il", "vous", "plaît", "<eos>"]


@pytest.fixture(scope="module")
def word_context():
    return get_spec("word_context").prepare(corpora=["lee.cor"], vocab_size=50, window=2)


def test_word_context_views_are_one_hot_words_against_positional_contexts(word_context):
    X, Y = word_context.X, word_context.Y
    assert sp.issparse(X) and sp.issparse(Y)
    assert X.shape == (word_context.n, 50) and Y.shape == (word_context.n, 4 * 50)
    np.testing.assert_array_equal(X.getnnz(axis=1), 1)  # one word per row
    assert Y.getnnz(axis=1).max() <= 4  # at most one word per offset block
    train, test = word_context.train_idx[0], word_context.test_idx[0]
    assert np.intersect1d(train, test).size == 0 and train.size + test.size == word_context.n
    # training documents come first, so held-out rows are a suffix
    assert train.max() < test.min()


def test_word_context_is_deterministic_and_seeded():
    a = get_spec("word_context").prepare(corpora=["lee.cor"], vocab_size=30, seed=1)
    b = get_spec("word_context").prepare(corpora=["lee.cor"], vocab_size=30, seed=1)
    c = get_spec("word_context").prepare(corpora=["lee.cor"], vocab_size=30, seed=2)
    assert (a.X != b.X).nnz == 0 and np.array_equal(a.test_idx, b.test_idx)
    assert a.test_idx.shape != c.test_idx.shape or not np.array_equal(a.test_idx, c.test_idx)


def _two_view(n=600, split=False, sparse=False):
    X, Y = planted_views(n, 8, 6, [0.9, 0.7], random_state=0)
    X, Y = 7.0 * X, Y
    if sparse:
        X, Y = sp.csr_matrix(np.where(np.abs(X) > 5, X, 0)), sp.csr_matrix(Y)
    kw = {}
    if split:
        kw = dict(train_idx=np.arange(0, n - 100)[None], test_idx=np.arange(n - 100, n)[None])
    return Dataset(name="toy", kind="two_view", X=X, Y=Y, **kw)


def test_training_views_use_the_dataset_split_or_a_seeded_one():
    views = training_views(_two_view(split=True), heldout_fraction=0.5)
    assert views.X.shape[0] == 500 and views.X_test.shape[0] == 100
    a = training_views(_two_view(), heldout_fraction=0.25, seed=3)
    b = training_views(_two_view(), heldout_fraction=0.25, seed=3)
    assert a.X.shape[0] == 450 and a.X_test.shape[0] == 150
    np.testing.assert_array_equal(a.X_test, b.X_test)
    assert training_views(_two_view(), heldout_fraction=0).X_test is None


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_max_abs_rescaling_uses_training_rows_and_keeps_sparsity(sparse):
    views = training_views(_two_view(split=True, sparse=sparse), rescale="max_abs")
    data = views.X.data if sparse else views.X
    assert sp.issparse(views.X) == sparse
    np.testing.assert_allclose(np.abs(data).max(), 1.0)
    stats = dataset_stats("toy", views)
    assert stats["n_train"] == 500 and stats["p1"] == 8 and (stats["sparsity_x"] > 0) == sparse


def test_checkpoint_iterations():
    its = checkpoint_iterations(4000, 5, extra=[100, 300, 5000])
    # log-spaced 1, 8, 63, 503, 4000 plus the extra iterations inside the range, in order
    assert its == [1, 8, 63, 100, 300, 503, 4000]


def test_runs_produce_consistent_tidy_rows():
    views = training_views(_two_view(n=3000), heldout_fraction=0.2, seed=0)
    exact = run_exact(views, n_components=2, reg=0.0)
    trace = run_appgrad(views, method="appgrad", n_components=2, reg=0.0, step_size="auto",
                        max_iter=300, checkpoints=[1, 10, 300])
    assert list(trace["iteration"]) == [1, 10, 300]
    pcc = add_pcc(trace.assign(dataset="toy"), pd.DataFrame([{"dataset": "toy", **exact}]))
    np.testing.assert_allclose(pcc["pcc_in"].iloc[-1], 1.0, atol=1e-4)
    np.testing.assert_allclose(pcc["log_flops"], np.log(trace["flops"]))
    stochastic = run_appgrad(views, method="sappgrad", n_components=2, reg=0.0,
                             step_size="auto", max_iter=50, checkpoints=[50], batch_size=20)
    assert stochastic["solver"].iloc[0] == "stochastic" and stochastic["tcc_out"].notna().all()
    rows = []
    for method in ("nw_cca", "dw_cca", "pca_cca"):
        row = run_heuristic(views, method=method, n_components=2, reg=0.0, n_pca_components=4)
        assert 0 < row["tcc_in"] <= exact["tcc_in"] + 1e-9 and row["flops"] > 0
        rows.append(pd.DataFrame([{"dataset": "toy", **row}]))
    points = tcc_points([stochastic.assign(dataset="toy")], rows)
    assert list(points.columns) == TCC_COLUMNS and len(points) == len(stochastic) + 3
    assert points["setting"].tolist() == [""] * len(stochastic) + ["", "", "m=4"]
    assert points["iteration"].iloc[-3:].isna().all()  # a heuristic is one point
    np.testing.assert_allclose(points["log_flops"], np.log(points["flops"]))


def test_unknown_methods_are_rejected():
    views = Views(np.eye(3), np.eye(3))
    with pytest.raises(ValueError, match=r"`method` must be one of \['appgrad', 'sappgrad'\]"):
        run_appgrad(views, method="sgd", n_components=1, reg=0, step_size="auto", max_iter=1,
                    checkpoints=[1])
    with pytest.raises(ValueError, match="`method` must be one of"):
        run_heuristic(views, method="cca", n_components=1, reg=0)


def test_figures_have_one_panel_per_dataset():
    from lowdim.plots.cca import figure_pcc, figure_tcc_flops

    trace = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "method": ["appgrad", "sappgrad"] * 2,
                          "log_flops": [1.0, 2.0, 1.0, 2.0], "pcc_in": [0.5, 0.9, 0.4, 0.8],
                          "pcc_out": [0.4, 0.8, np.nan, np.nan]})
    fig = figure_pcc(trace, datasets=["a", "b"])
    assert len(fig.axes) == 2 and len(fig.axes[0].lines) == 4 and len(fig.axes[1].lines) == 2
    points = pd.DataFrame({"dataset": "d", "method": ["sappgrad", "sappgrad", "nw_cca"],
                           "setting": ["", "", ""], "log_flops": [1.0, 2.0, 3.0],
                           "tcc_in": [1.0, 2.0, 1.5]})
    fig = figure_tcc_flops(points, "d")
    assert len(fig.axes[0].lines) == 2
    table = table_datasets(pd.DataFrame([{"dataset": "d", "n_train": 5, "n_test": 1, "p1": 2,
                                          "p2": 3, "sparsity_x": 0.5, "sparsity_y": 0.25,
                                          "storage": "dense"}]))
    assert list(table.columns)[:5] == ["dataset", "n (training)", "n (held out)", "p1", "p2"]


def test_replicates_are_seeded_runs_whose_first_is_the_single_run():
    """cca.n_seeds: replicate 0 is the job's own seeded run (n_seeds = 1 is unchanged), the
    others differ from it, and the same seeds give the same numbers."""
    X, Y = planted_views(600, 12, 10, [0.9, 0.7, 0.5], random_state=1)
    views = Views(X[:500], Y[:500], X[500:], Y[500:])
    kw = dict(method="sappgrad", n_components=3, reg=0.005, step_size="auto", max_iter=60,
              checkpoints=[10, 60], batch_size=20)
    single = run_appgrad(views, seed=11, **kw)
    runs = run_replicates(run_appgrad, views, seed=11, n_seeds=3, **kw)
    assert runs["seed"].tolist() == [0, 0, 1, 1, 2, 2]
    assert runs["random_state"].drop_duplicates().tolist() == replicate_seeds(11, 3)
    clocks = ["seconds", "cpu_seconds"]
    first = runs[runs["seed"] == 0].drop(columns=["seed", "random_state", *clocks])
    pd.testing.assert_frame_equal(first.reset_index(drop=True), single.drop(columns=clocks))
    last = runs[runs["iteration"] == 10]["tcc_in"].to_numpy()
    assert len(np.unique(last)) == 3  # each replicate its own start and minibatches
    again = run_replicates(run_appgrad, views, seed=11, n_seeds=3, **kw)
    np.testing.assert_array_equal(again["tcc_in"], runs["tcc_in"])
    with pytest.raises(ValueError, match="n_seeds"):
        replicate_seeds(11, 0)


def test_heuristic_replicates_land_in_tcc_points_with_their_seed():
    X, Y = planted_views(400, 12, 10, [0.9, 0.7, 0.5], random_state=2)
    rows = run_replicates(run_heuristic, Views(X, Y), seed=5, n_seeds=2, method="pca_cca",
                          n_components=3, reg=0.005, n_pca_components=6).assign(dataset="d")
    points = tcc_points([], [rows])
    assert points["seed"].tolist() == [0, 1] and list(points.columns) == TCC_COLUMNS


def test_canonical_correlations_of_well_conditioned_projections_skip_the_qr(monkeypatch):
    """AppGrad's traces evaluate TCC at every checkpoint; their projections are well
    conditioned, so the correlations come from k×k Gram matrices (no n×k QR), equal to the
    QR's to 1e-12; collinear or badly scaled projections still take the pivoted QR."""
    from lowdim.cca import metrics

    rng = np.random.default_rng(0)
    A = rng.standard_normal((5000, 6))
    B = A @ rng.standard_normal((6, 4)) + rng.standard_normal((5000, 4))
    reference = metrics.canonical_correlations(A, np.c_[B, B[:, :1]])  # collinear: QR
    calls = []
    monkeypatch.setattr(metrics, "_orthonormal_basis",
                        lambda M: calls.append(M.shape) or np.linalg.qr(M)[0])
    fast = metrics.canonical_correlations(A, B)
    assert calls == []
    np.testing.assert_allclose(fast, reference[:4], rtol=1e-12)
    ill = np.c_[A[:, :5], A[:, 0] + 1e-5 * A[:, 5]]  # condition about 1e5
    metrics.canonical_correlations(ill, B)
    assert calls == [(5000, 6), (5000, 4)]
