"""Weighted first-order random walks (Definition 2 and Equation 4 of the paper).

From node ``v`` the walk moves to neighbour ``u`` with probability
``w(v, u) / sum_u' w(v, u')``. Walks are produced by the compiled kernel in
:mod:`lowdim.embedding._kernels`, in parallel over blocks of start nodes.
"""

from __future__ import annotations

import contextlib

import numba
import numpy as np
from sklearn.utils import check_random_state

from .._validation import check_number
from ..seeding import spawn_seeds
from ._kernels import random_walks_kernel, row_cumsum
from .graph import CSRGraph, as_csr_graph

__all__ = ["random_walks", "numba_threads", "effective_n_jobs"]

#: Walks per task. Fixed (not derived from the thread count) so that the walks
#: depend only on the seed.
BLOCK_SIZE = 2048


def effective_n_jobs(n_jobs) -> int:
    """Threads for ``n_jobs`` (scikit-learn meaning: None -> 1, -1 -> all).

    Parameters
    ----------
    n_jobs : int or None
        Threads asked for.

    Returns
    -------
    n_threads : int
        At least 1, at most numba's thread count.

    Examples
    --------
    >>> from lowdim.embedding.walks import effective_n_jobs
    >>> effective_n_jobs(None), effective_n_jobs(1), effective_n_jobs(-1) >= 1
    (1, 1, True)
    """
    available = numba.config.NUMBA_NUM_THREADS
    if n_jobs is None:
        return 1
    if n_jobs < 0:
        return max(1, available + 1 + n_jobs)
    return max(1, min(int(n_jobs), available))


@contextlib.contextmanager
def numba_threads(n_threads: int):
    """Run numba parallel regions with ``n_threads`` threads (at most numba's), then restore.

    Parameters
    ----------
    n_threads : int
        Threads of the parallel regions inside the block.

    Yields
    ------
    None
        The body of the ``with`` block runs with that many threads.

    Examples
    --------
    >>> import numba
    >>> from lowdim.embedding.walks import numba_threads
    >>> before = numba.get_num_threads()
    >>> with numba_threads(1):
    ...     print(numba.get_num_threads())
    1
    >>> numba.get_num_threads() == before
    True
    """
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(n_threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def random_walks(graph, walks_per_node=10, walk_length=20, random_state=None, n_jobs=None,
                 block_size=BLOCK_SIZE):
    """Simulate ``walks_per_node`` weighted random walks from every node.

    The walks are ordered in rounds: round ``r`` starts one walk from every
    node, in an order shuffled afresh each round (as DeepWalk does, so the
    skip-gram's learning-rate schedule does not favour low node ids).

    Parameters
    ----------
    graph : CSRGraph, sparse matrix or ndarray of shape (n, n)
        Non-negative weights, at least one edge per node.
    walks_per_node : int, default=10
        Walks started from every node, >= 1.
    walk_length : int, default=20
        Nodes per walk, the start included, >= 1.
    random_state : int, RandomState, Generator or None
        Source of the round orders and of one seed per block of walks.
    n_jobs : int or None
        Threads (None -> 1, -1 -> all). The walks do not depend on it.
    block_size : int, default=2048
        Walks per task.

    Returns
    -------
    walks : ndarray of int32 of shape (n * walks_per_node, walk_length)

    Raises
    ------
    TypeError
        If ``walks_per_node``, ``walk_length`` or ``block_size`` is not an integer
        (a bool or a float such as 3.0 is refused, not rounded).
    ValueError
        If one of them is < 1, or ``graph`` is not a valid adjacency matrix
        (:func:`~lowdim.embedding.graph.as_csr_graph`).

    Examples
    --------
    >>> from lowdim.embedding import random_walks
    >>> ring = np.roll(np.eye(5), 1, axis=1) + np.roll(np.eye(5), -1, axis=1)
    >>> walks = random_walks(ring, walks_per_node=2, walk_length=4, random_state=0)
    >>> walks.shape
    (10, 4)
    >>> bool(np.isin(np.diff(walks, axis=1) % 5, [1, 4]).all())  # each step to a ring neighbour
    True
    """
    if not isinstance(graph, CSRGraph):
        graph = as_csr_graph(graph)
    # counts: a float would be cut short by the kernel, a bool read as 0 or 1
    walks_per_node = check_number(walks_per_node, "walks_per_node", integer=True, minimum=1)
    walk_length = check_number(walk_length, "walk_length", integer=True, minimum=1)
    block_size = check_number(block_size, "block_size", integer=True, minimum=1)
    rng = check_random_state(random_state) if not isinstance(random_state, np.random.Generator) \
        else random_state
    n = graph.n_nodes
    starts = np.concatenate([_permutation(rng, n) for _ in range(walks_per_node)])
    n_blocks = -(-starts.size // block_size)
    seeds = spawn_seeds(rng, n_blocks).astype(np.uint64)
    cumw = row_cumsum(graph.indptr, graph.data)
    with numba_threads(effective_n_jobs(n_jobs)):
        return random_walks_kernel(graph.indptr, graph.indices, cumw, starts, walk_length,
                                   block_size, seeds)


def _permutation(rng, n):
    return rng.permutation(n).astype(np.int64)
