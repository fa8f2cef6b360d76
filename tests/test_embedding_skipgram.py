"""Skip-gram on walks through gensim's corpus_file mode: the corpus file, its removal, results."""

import os

import numpy as np
import pytest
from gensim.models.word2vec import LineSentence

from lowdim.embedding import skipgram_embedding
from lowdim.embedding.skipgram import walk_corpus_file, write_walk_corpus


def _two_component_walks(n_per_part=15, n_walks=300, length=12, seed=0):
    """Walks that stay inside {0..n-1} or inside {n..2n-1}: two separate communities."""
    rng = np.random.default_rng(seed)
    part = rng.integers(0, 2, size=n_walks)
    walks = rng.integers(0, n_per_part, size=(n_walks, length)) + n_per_part * part[:, None]
    walks[:2 * n_per_part, 0] = np.arange(2 * n_per_part)  # every node visited
    walks[:2 * n_per_part, 1:] = (walks[:2 * n_per_part, 1:] % n_per_part
                                  + n_per_part * (np.arange(2 * n_per_part) >= n_per_part)[:, None])
    return walks.astype(np.int32)


def test_corpus_file_reads_back_as_the_walks(tmp_path):
    walks = np.array([[0, 12, 3], [105, 0, 7]], dtype=np.int32)
    path = tmp_path / "walks.txt"
    write_walk_corpus(walks, path)
    assert path.read_text(encoding="ascii") == "0 12 3\n105 0 7\n"
    read = [[int(t) for t in sentence] for sentence in LineSentence(str(path))]
    np.testing.assert_array_equal(np.array(read), walks)


def test_corpus_file_is_removed_after_use_and_after_an_error(tmp_path):
    walks = np.arange(12).reshape(3, 4)
    with walk_corpus_file(walks, dir=tmp_path) as path:
        assert os.path.isfile(path) and os.path.dirname(path) == str(tmp_path)
    assert not os.path.exists(path)
    with pytest.raises(RuntimeError, match="boom"), walk_corpus_file(walks, dir=tmp_path) as path:
        raise RuntimeError("boom")
    assert not os.path.exists(path) and not any(tmp_path.iterdir())


def test_skipgram_leaves_no_file_and_is_reproducible_with_one_worker(tmp_path):
    walks = _two_component_walks()
    kwargs = dict(window=5, epochs=3, seed=7, workers=1, tmp_dir=tmp_path)
    a = skipgram_embedding(walks, 30, 4, **kwargs)
    b = skipgram_embedding(walks, 30, 4, **kwargs)
    assert not any(tmp_path.iterdir())
    assert a.shape == (30, 4) and a.dtype == np.float64
    np.testing.assert_array_equal(a, b)
    c = skipgram_embedding(walks, 30, 4, **{**kwargs, "seed": 8})
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("workers", [1, 2], ids=["one_worker", "two_workers"])
def test_nodes_that_share_walks_get_similar_vectors(workers):
    # gensim orders its vocabulary by frequency, not by id: the communities show up by
    # row only if row i is node i's vector.
    walks = _two_component_walks(n_walks=2000)
    Z = skipgram_embedding(walks, 30, 8, window=5, epochs=5, seed=0, workers=workers)
    U = Z / np.linalg.norm(Z, axis=1, keepdims=True)
    cos = U @ U.T
    same = np.equal.outer(np.arange(30) >= 15, np.arange(30) >= 15)
    off_diagonal = ~np.eye(30, dtype=bool)
    within, across = cos[same & off_diagonal].mean(), cos[~same].mean()
    assert within > across + 0.5, (within, across)


def test_unvisited_node_is_rejected():
    with pytest.raises(ValueError, match="must visit every node"):
        skipgram_embedding(np.array([[0, 1, 0]]), 3, 2)
