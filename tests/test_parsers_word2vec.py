"""word2vec GoogleNews parser on a file in word2vec's real binary format (gzipped)."""

import numpy as np

from fixtures import formats
from lowdim.data import get_spec, load_dataset, save_dataset


def test_word2vec_binary_with_limit(tmp_path):
    files, truth = formats.write_word2vec(tmp_path, np.random.default_rng(6))
    ds = load_dataset(save_dataset(get_spec("word2vec_googlenews").prepare(files),
                                   tmp_path / "w.npz"))
    assert ds.vocab.tolist() == truth["words"]
    np.testing.assert_array_equal(ds.word_vectors, truth["vectors"])
    first = get_spec("word2vec_googlenews").prepare(files, limit=3)
    assert first.vocab.tolist() == truth["words"][:3]
