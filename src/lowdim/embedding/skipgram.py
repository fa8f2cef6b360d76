"""Skip-gram with negative sampling on random walks (gensim ``Word2Vec``, ``sg=1``).

The walks are handed to gensim as a ``corpus_file``: written once to a
temporary text file in LineSentence format (one walk per line, node ``i`` as
the token ``"i"``) that is removed afterwards. In that mode gensim reads and
trains in compiled code without the GIL, so

- no Python list of lists of the walks is built (for n = 20,000 nodes that is
  4 million Python ints), and no Python iterator runs each epoch;
- ``workers`` threads each train on their own slice of the file and scale with
  the cores, where the ``sentences`` mode feeds every worker from one Python
  producer thread.

The vocabulary is built once from the node ids and their walk counts
(``build_vocab_from_freq``), never by scanning the corpus.

With ``workers=1`` and a fixed seed the result is reproducible bit for bit.
With ``workers > 1`` the threads update the vectors asynchronously (Hogwild),
and each decays its learning rate over its own share of the file, so within an
epoch the rate falls from the epoch's start value by ``1 / workers`` of the
usual amount before the next epoch starts from the scheduled value.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile

import numpy as np

from .._validation import ArgumentValueError
from ..progress import Progress

__all__ = ["skipgram_embedding", "write_walk_corpus", "walk_corpus_file"]

logger = logging.getLogger("lowdim")

#: Walks formatted per write, to bound the memory of the text being built.
_WRITE_BLOCK = 65536


def _node_tokens(n_nodes):
    """Token of each node id: its decimal string (object array of shape (n_nodes,))."""
    return np.array([str(i) for i in range(n_nodes)], dtype=object)


def write_walk_corpus(walks, path, n_nodes=None):
    """Write ``walks`` to ``path`` as a LineSentence corpus of node-id tokens.

    Parameters
    ----------
    walks : ndarray of int of shape (n_walks, walk_length)
        Node ids in ``range(n_nodes)``.
    path : str or Path
        File to (over)write; ASCII text, one walk per line, tokens separated
        by single spaces, node ``i`` written as ``str(i)``.
    n_nodes : int, optional
        Number of nodes (default: ``walks.max() + 1``).

    Examples
    --------
    >>> from lowdim.embedding.skipgram import write_walk_corpus
    >>> write_walk_corpus(np.array([[0, 1, 2], [2, 1, 0]]), tmp / "walks.txt")
    >>> print((tmp / "walks.txt").read_text())
    0 1 2
    2 1 0
    """
    walks = np.asarray(walks)
    n_nodes = int(walks.max()) + 1 if n_nodes is None else int(n_nodes)
    tokens = _node_tokens(n_nodes)
    with open(path, "w", encoding="ascii", newline="\n") as fh:
        for lo in range(0, walks.shape[0], _WRITE_BLOCK):
            rows = tokens[walks[lo:lo + _WRITE_BLOCK]].tolist()
            fh.write("\n".join(" ".join(row) for row in rows))
            fh.write("\n")


@contextlib.contextmanager
def walk_corpus_file(walks, n_nodes=None, dir=None):
    """Context manager: a temporary :func:`write_walk_corpus` file, removed on exit.

    Parameters
    ----------
    walks : ndarray of int of shape (n_walks, walk_length)
        The walks, one sentence each.
    n_nodes : int, optional
        Nodes, to check the ids against.
    dir : str or Path, optional
        Directory of the file (default: :func:`tempfile.gettempdir`, i.e. ``TMPDIR``).

    Yields
    ------
    path : str

    Examples
    --------
    >>> from lowdim.embedding.skipgram import walk_corpus_file
    >>> with walk_corpus_file(np.array([[0, 1], [1, 0]])) as path:
    ...     print(Path(path).read_text())
    0 1
    1 0
    >>> Path(path).exists()
    False
    """
    fd, path = tempfile.mkstemp(prefix="lowdim-walks-", suffix=".txt", dir=dir)
    os.close(fd)
    try:
        write_walk_corpus(walks, path, n_nodes=n_nodes)
        yield path
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


class _EpochProgress:
    """gensim callback that reports epochs to a :class:`~lowdim.progress.Progress`."""

    def __init__(self, progress):
        self.progress = progress

    def on_epoch_begin(self, model):
        pass

    def on_epoch_end(self, model):
        self.progress.update(1)

    def on_train_begin(self, model):
        pass

    def on_train_end(self, model):
        pass


def skipgram_embedding(walks, n_nodes, n_components, *, window=10, epochs=10, negative=5,
                       sample=1e-3, alpha=0.025, seed=0, workers=1, tmp_dir=None):
    """Skip-gram with negative sampling (gensim) on walks of integer node ids.

    Maximises :math:`\\sum_i \\sum_{j \\in NC(i)} \\log \\sigma(z_i^T \\theta_j)
    + \\sum_{k=1}^{K} \\mathbb{E}_{j' \\sim P_n} \\log \\sigma(-z_i^T \\theta_{j'})`
    by SGD, with the unigram^(3/4) noise distribution :math:`P_n`.

    Parameters
    ----------
    walks : ndarray of int of shape (n_walks, walk_length)
        Every node in ``range(n_nodes)`` must occur at least once.
    n_nodes : int
        Nodes, the ids ``0 .. n_nodes - 1``.
    n_components : int
        Dimension d of the vectors.
    window, epochs, negative, sample : int, int, int, float
        As in :class:`~lowdim.embedding.Vec2Vec`.
    alpha : float, default=0.025
        Initial learning rate (gensim's default), decayed linearly to 1e-4.
    seed : int
        gensim seed (initial vectors, negative draws, window shrinking).
    workers : int
        gensim worker threads; 1 makes the result reproducible bit for bit.
    tmp_dir : str or Path, optional
        Where the temporary corpus file goes (about 6 bytes per walk step for
        n < 100,000); default ``TMPDIR``.

    Returns
    -------
    embedding : ndarray of float64 of shape (n_nodes, n_components)
        Row ``i`` is the input vector of node ``i``.

    Examples
    --------
    >>> from lowdim.embedding import skipgram_embedding
    >>> walks = np.array([[0, 1, 0, 1, 2, 3, 2, 3]] * 50)
    >>> Z = skipgram_embedding(walks, 4, 2, window=1, epochs=5, sample=0, seed=0)
    >>> Z.shape, Z.dtype
    ((4, 2), dtype('float64'))
    """
    from gensim.models import Word2Vec

    walks = np.asarray(walks)
    counts = np.bincount(walks.ravel(), minlength=n_nodes)
    if counts.size != n_nodes or np.any(counts == 0):
        raise ArgumentValueError("`walks` must visit every node of range(n_nodes) at least once",
                                 ("walks", "n_nodes"))
    tokens = _node_tokens(n_nodes)
    model = Word2Vec(vector_size=int(n_components), window=int(window), min_count=1, sg=1, hs=0,
                     negative=int(negative), sample=float(sample), alpha=float(alpha),
                     min_alpha=1e-4, seed=int(seed) % 2**31,
                     workers=int(workers), epochs=int(epochs))
    model.build_vocab_from_freq(dict(zip(tokens.tolist(), counts.tolist())),
                                corpus_count=int(walks.shape[0]))
    with walk_corpus_file(walks, n_nodes, dir=tmp_dir) as path, \
            Progress("Vec2vec skip-gram", total=int(epochs), unit="epochs") as progress:
        model.train(corpus_file=path, total_words=int(walks.size),
                    total_examples=int(walks.shape[0]), epochs=int(epochs),
                    callbacks=[_EpochProgress(progress)])
    order = np.fromiter((model.wv.key_to_index[t] for t in tokens), dtype=np.int64,
                        count=n_nodes)
    return model.wv.vectors[order].astype(np.float64)
