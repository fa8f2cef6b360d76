"""Embedded and synthetic datasets, and the prepared format."""

import numpy as np
import pytest
import scipy.sparse as sp

from lowdim.data import Dataset, get_spec, load_dataset, save_dataset, summarize
from lowdim.data.pipeline import prepare_dataset, write_prepared
from lowdim.data.sources.synthetic import nonlinear_two_view, planted_two_view, sparse_two_view
from lowdim.data.text import tokenize
from lowdim.data.views import split_image_halves


def test_digits_is_the_full_sklearn_set():
    data = get_spec("digits").prepare()
    assert data.X.shape == (1797, 64) and data.y.shape == (1797,)
    assert set(np.unique(data.y)) == set(range(10))


def test_digits_subsample_is_seeded_and_sized():
    a = get_spec("digits").prepare(n_rows=300, seed=1)
    b = get_spec("digits").prepare(n_rows=300, seed=1)
    c = get_spec("digits").prepare(n_rows=300, seed=2)
    assert a.X.shape == (300, 64)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)


@pytest.mark.parametrize("split", ["left_right", "top_bottom"])
def test_image_halves_reassemble_the_image(split):
    X = np.arange(2 * 16, dtype=float).reshape(2, 16)  # two 4x4 images
    first, second = split_image_halves(X, (4, 4), split)
    axis = 2 if split == "left_right" else 1
    whole = np.concatenate([first.reshape(2, *((4, 2) if axis == 2 else (2, 4))),
                            second.reshape(2, *((4, 2) if axis == 2 else (2, 4)))], axis=axis)
    np.testing.assert_array_equal(whole.reshape(2, 16), X)


def test_left_right_halves_of_digits_are_columns():
    data = get_spec("digits_halves").prepare(split="left_right")
    image = get_spec("digits").prepare().X[0].reshape(8, 8)
    np.testing.assert_array_equal(data.X[0].reshape(8, 4), image[:, :4])
    np.testing.assert_array_equal(data.Y[0].reshape(8, 4), image[:, 4:])


def test_split_rejects_wrong_shape_and_unknown_split():
    with pytest.raises(ValueError, match="image_shape"):
        split_image_halves(np.zeros((2, 10)), (4, 4))
    with pytest.raises(ValueError, match="split"):
        split_image_halves(np.zeros((2, 16)), (4, 4), "diagonal")


def test_pang_lee_has_balanced_labels_and_bag_of_words():
    data = get_spec("pang_lee").prepare()
    assert data.n == 200 and list(data.label_names) == ["neg", "pos"]
    assert np.bincount(data.y).tolist() == [100, 100]
    assert data.bow.shape == (200, len(data.vocab))
    assert "the" not in set(data.vocab)  # stop words removed
    first_words = {data.vocab[j] for j in data.bow[0].indices}
    assert {"simplistic", "silly", "tedious"} <= first_words


def test_pang_lee_keeps_accented_words_whole():
    # The file is Windows-1252: "clich\xe9s" is one word, not "clich" and "s".
    data = get_spec("pang_lee").prepare()
    vocab = set(data.vocab.tolist())
    assert {"clichés", "amélie's", "ladrón", "orquídeas"} <= vocab
    assert not {"clich", "am", "lie's", "ladr"} & vocab
    assert not any("\x97" in text for text in data.texts)  # cp1252's dash, not a C1 control
    assert any("\u2014" in text for text in data.texts)


def test_gensim_corpora_are_read_in_their_own_encoding():
    from lowdim.data.sources.embedded import _read_gensim_text

    utf8 = _read_gensim_text("head500.noblanks.cor")  # UTF-8: no Latin-1 mojibake
    assert not any("Ã" in line or "â€" in line for line in utf8)
    assert any("é" in line for line in utf8)
    assert any("£" in line for line in _read_gensim_text("lee.cor"))  # Windows-1252


def test_tokenize_keeps_letters_of_any_script():
    assert tokenize("Clichés, naïve café-au-lait; Ελληνικά 東京!", stop_words=()) == [
        "clichés", "naïve", "café-au-lait", "ελληνικά", "東京"]
    # a combining accent is composed first; the underscore still separates
    assert tokenize("cafe\u0301 snake_case", stop_words=()) == ["café", "snake", "case"]


def test_lee_corpus_has_300_documents():
    data = get_spec("lee").prepare()
    assert data.n == 300 and data.y is None and data.bow.nnz > 10000


def test_planted_correlations_are_recovered_by_exact_cca():
    rho = np.array([0.9, 0.7, 0.5])
    X, Y, truth = planted_two_view(20000, 8, 6, rho, condition=50.0, random_state=0)
    qx, _ = np.linalg.qr(X - X.mean(0))
    qy, _ = np.linalg.qr(Y - Y.mean(0))
    sample = np.linalg.svd(qx.T @ qy, compute_uv=False)
    np.testing.assert_allclose(sample[:3], rho, atol=0.02)
    assert sample[3:].max() < 0.05
    np.testing.assert_array_equal(truth, rho)


def test_planted_views_have_the_requested_conditioning():
    X, _, _ = planted_two_view(40000, 10, 10, [0.5], condition=100.0, random_state=1)
    eig = np.linalg.eigvalsh(np.cov(X.T))
    assert 70 < eig.max() / eig.min() < 140


def test_planted_rejects_impossible_correlations():
    with pytest.raises(ValueError, match="correlations"):
        planted_two_view(10, 3, 3, [0.5, 0.4, 0.3, 0.2])
    with pytest.raises(ValueError, match="correlations"):
        planted_two_view(10, 3, 3, [1.0])


def test_nonlinear_two_view_has_no_linear_but_a_perfect_nonlinear_relation():
    X, Y, t = nonlinear_two_view(20000, frequency=3, noise=0.0, n_nuisance=2, random_state=0)
    assert X.shape == Y.shape == (20000, 4)
    cross = np.corrcoef(X.T, Y.T)[:4, 4:]
    assert np.abs(cross).max() < 0.03  # no linear correlation between any two features
    angle = np.arctan2(X[:, 1], X[:, 0])  # without noise X's first two features give t
    np.testing.assert_allclose(np.cos(3 * angle), Y[:, 0], atol=1e-9)
    np.testing.assert_allclose(np.mod(angle, 2 * np.pi), t, atol=1e-9)


def test_nonlinear_two_view_rejects_a_linear_frequency():
    with pytest.raises(ValueError, match="`frequency` must be an integer >= 2"):
        nonlinear_two_view(10, frequency=1)
    data = get_spec("nonlinear_two_view").prepare(n=50, seed=3)
    assert data.kind == "two_view" and data.X.shape == (50, 6) and data.extra["t"].shape == (50,)


def test_sparse_two_view_is_binary_sparse_and_shares_factors():
    X, Y, y = sparse_two_view(4000, 5000, 4000, n_factors=10, max_agreement=0.9,
                              min_agreement=0.9, max_template=4, noise_nnz=3, random_state=0)
    assert sp.isspmatrix_csr(X) and X.shape == (4000, 5000) and Y.shape == (4000, 4000)
    assert set(np.unique(X.data)) == {1.0}
    assert X.getnnz(axis=1).max() <= 4 + 3
    # Rows of the same factor share many more features than rows of different factors.
    same = (X[y == 0] @ X[y == 0].T).mean()
    other = (X[y == 0] @ X[y == 1].T).mean()
    assert same > 5 * other


def _top_correlation(X, Y):
    """Largest canonical correlation, exactly (small dense problem)."""
    X, Y = X.toarray(), Y.toarray()
    X, Y = X[:, X.std(0) > 0], Y[:, Y.std(0) > 0]
    qx, _ = np.linalg.qr(X - X.mean(0))
    qy, _ = np.linalg.qr(Y - Y.mean(0))
    return np.linalg.svd(qx.T @ qy, compute_uv=False)[0]


def test_sparse_two_view_agreement_sets_cross_view_correlation():
    kwargs = dict(n_factors=5, max_template=1, noise_nnz=0, random_state=0)
    strong = _top_correlation(*sparse_two_view(6000, 50, 50, max_agreement=0.95,
                                               min_agreement=0.95, **kwargs)[:2])
    weak = _top_correlation(*sparse_two_view(6000, 50, 50, max_agreement=0.3,
                                             min_agreement=0.3, **kwargs)[:2])
    assert strong > 0.85 and weak < 0.6


def test_sparse_two_view_gives_large_templates_the_low_agreement():
    X, Y, y = sparse_two_view(20000, 400, 400, n_factors=20, max_agreement=0.9,
                              min_agreement=0.1, max_template=6, noise_nnz=0, random_state=1)
    nnz = X.getnnz(axis=1)
    # Factor 0 has one-feature templates and agrees 90% of the time; factor 19 the opposite.
    first, last = np.flatnonzero(y == 0), np.flatnonzero(y == 19)
    assert np.mean(nnz[first] == 1) > 0.85 and np.mean(nnz[last] == 6) < 0.3
    with pytest.raises(ValueError, match="too small"):
        sparse_two_view(10, 30, 30, n_factors=20, max_template=6)


def test_sparse_two_view_rows_are_a_stream_any_range_of_which_can_be_drawn_alone():
    from lowdim.data.sources.synthetic import CHUNK_ROWS

    kw = dict(n_factors=30, noise_nnz=3, random_state=4)
    whole = sparse_two_view(CHUNK_ROWS + 5000, 900, 700, **kw)
    cut = CHUNK_ROWS - 1000  # the pieces straddle a block boundary
    head = sparse_two_view(cut, 900, 700, **kw)
    tail = sparse_two_view(6000, 900, 700, start=cut, **kw)
    for a, b, c in zip(whole[:2], head[:2], tail[:2]):
        assert (a != sp.vstack([b, c])).nnz == 0 and a.has_sorted_indices
    np.testing.assert_array_equal(whole[2], np.concatenate([head[2], tail[2]]))


def test_sparse_two_view_memory_is_its_output():
    import tracemalloc

    tracemalloc.start()
    X, Y, y = sparse_two_view(400_000, 100_000, 100_000, noise_nnz=10, random_state=0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    output = sum(A.data.nbytes + A.indices.nbytes + A.indptr.nbytes for A in (X, Y)) + y.nbytes
    assert peak < 1.3 * output  # building all rows at once (COO, then CSR) took 2.3 times


def test_sparse_two_view_blocks_stack_to_the_matrix_in_one_block_of_memory():
    import tracemalloc

    from lowdim.data.sources.synthetic import CHUNK_ROWS, sparse_two_view_blocks

    kw = dict(n_factors=30, noise_nnz=3, random_state=4)
    start, n = CHUNK_ROWS - 700, CHUNK_ROWS + 1500
    blocks = list(sparse_two_view_blocks(n, 900, 700, start=start, **kw))
    assert [b[0].shape[0] for b in blocks] == [700, CHUNK_ROWS, 800]
    whole = sparse_two_view(n, 900, 700, start=start, **kw)
    for v in range(2):
        assert (sp.vstack([b[v] for b in blocks]) != whole[v]).nnz == 0
    np.testing.assert_array_equal(np.concatenate([b[2] for b in blocks]), whole[2])
    with pytest.raises(ValueError, match="too small"):  # checked on the call, not on iteration
        sparse_two_view_blocks(10, 30, 30, n_factors=20, max_template=6)
    # 16 blocks (1M rows): consumed one at a time, the memory of a block or so, not of 16
    tracemalloc.start()
    rows = 0
    for X, Y, y in sparse_two_view_blocks(16 * CHUNK_ROWS, 10 ** 6, 10 ** 6, n_factors=100,
                                          noise_nnz=15, random_state=0):
        rows += y.size
        block = sum(A.data.nbytes + A.indices.nbytes + A.indptr.nbytes for A in (X, Y))
        del X, Y, y
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert rows == 16 * CHUNK_ROWS and peak < 6 * block  # the whole stream is 16 blocks


def test_prepared_roundtrip_keeps_every_field(tmp_path):
    X = sp.random(20, 30, density=0.1, format="csr", random_state=0)
    data = Dataset(name="toy", kind="text", bow=X, vocab=np.array([f"w{i}" for i in range(30)]),
                   texts=np.array(["é naïve text"] + ["x" * i for i in range(19)]),
                   y=np.arange(20) % 2, train_idx=np.array([[0, 1, 2]]),
                   test_idx=np.array([[3, 4]]), extra={"score": np.linspace(0, 1, 20)},
                   meta={"source": "unit test"})
    path = save_dataset(data, tmp_path / "toy.npz")
    back = load_dataset(path)
    assert sp.isspmatrix_csr(back.bow) and (back.bow != X).nnz == 0
    np.testing.assert_array_equal(back.texts, data.texts)
    np.testing.assert_array_equal(back.vocab, data.vocab)
    np.testing.assert_array_equal(back.train_idx, data.train_idx)
    np.testing.assert_allclose(back.extra["score"], data.extra["score"])
    assert back.meta["source"] == "unit test" and back.kind == "text" and back.n == 20


def test_prepared_file_loads_without_pickle(tmp_path):
    path = save_dataset(get_spec("pang_lee").prepare(), tmp_path / "p.npz")
    with np.load(path, allow_pickle=False) as store:
        for key in store.files:
            assert store[key].dtype != object


def test_invalid_dataset_is_not_written(tmp_path):
    bad = Dataset(name="bad", kind="dense", X=np.array([[1.0, np.nan]]), y=np.array([0]))
    with pytest.raises(ValueError, match="NaN"):
        save_dataset(bad, tmp_path / "bad.npz")
    mismatched = Dataset(name="bad", kind="dense", X=np.zeros((3, 2)), y=np.zeros(2))
    with pytest.raises(ValueError, match="rows"):
        save_dataset(mismatched, tmp_path / "bad.npz")
    assert list(tmp_path.iterdir()) == []


def test_pipeline_writes_dataset_and_summary(tmp_path):
    data = prepare_dataset("digits", {"n_rows": 100})
    row = write_prepared(data, tmp_path / "d.npz", tmp_path / "d.summary.csv")
    assert row["n"] == 100 and row["classes"] == 10 and row["kind"] == "dense"
    assert (tmp_path / "d.summary.csv").read_text().count("\n") == 2
    assert summarize(load_dataset(tmp_path / "d.npz"))["dimensions"] == "X: 64"
