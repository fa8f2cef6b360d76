"""The Vec2vec similarity graph: symmetric top-k cosine neighbours.

Definition 1 of the paper: nodes ``i`` and ``j`` are joined when ``j`` is one of
the ``topk`` most cosine-similar rows of ``i`` *or* ``i`` is one of ``j``'s (the
union of both directions); the edge weight is the cosine similarity.

Policy for rows that have no usable neighbour
---------------------------------------------
Random-walk transition probabilities must be positive, so an edge is kept only
when its cosine similarity is > 0. All-zero rows (cosine undefined) therefore
get no edge, and neither do rows whose ``topk`` best similarities are all <= 0
(e.g. a short text sharing no term with any other). Such *isolated* nodes get a
self-loop of weight 1 from :func:`add_self_loops_to_isolated`, so their walks
stay in place: their embedding is then shaped only by negative sampling and
carries no neighbourhood information. The paper assumes there are none;
Vec2Vec counts them in a warning and exposes them as ``isolated_``.

CSR convention
--------------
One convention is used by every kernel: ``indptr`` int64 (n + 1,), ``indices``
int32 (nnz,) sorted within rows, ``data`` float64 (nnz,) positive and finite.
:func:`as_csr_graph` is the single boundary that converts and checks it.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.neighbors import NearestNeighbors

from .._numba_cache import cache_jit_functions
from .._validation import ArgumentValueError, check_matrix, check_number, naming
from ._validation import merge_duplicate_entries

__all__ = ["CSRGraph", "as_csr_graph", "cosine_knn_graph", "add_self_loops_to_isolated",
           "topk_cosine_neighbors", "resolve_knn", "GRAPH_METRICS", "APPROXIMATE_FROM",
           "APPROXIMATE_SEARCH_NEIGHBORS", "APPROXIMATE_SEARCH_OPTIONS", "DENSE_COLUMN_SHARE"]

#: ``knn="auto"`` searches neighbours approximately (pynndescent) from this many
#: samples on, exactly below; ``benchmarks/vec2vec_vs_umap.md`` has the recall and
#: the times behind it.
APPROXIMATE_FROM = 5000

#: The approximate search asks pynndescent for this many neighbours (at least
#: ``topk + 1``) and keeps the ``topk`` best. Nearest-neighbour descent finds
#: close pairs through its candidate lists, whose size follows ``n_neighbors``:
#: asking for only ``topk + 1 = 6`` gave a recall of 0.40 against exact search
#: on 20,000 blobs, asking for 30 gives 0.97 (UMAP, for the same reason, asks
#: for 15 by default). ``benchmarks/vec2vec_vs_umap.md`` has the measurements.
APPROXIMATE_SEARCH_NEIGHBORS = 30

#: Further keyword arguments of ``pynndescent.NNDescent`` (its own defaults when
#: empty); the benchmark's ``search`` case measures alternatives.
APPROXIMATE_SEARCH_OPTIONS = {}

#: The neighbour searches ``knn`` may ask for: "auto" picks one of the others by n.
KNN_MODES = ("auto", "exact", "approximate")

#: Metrics of the neighbour search. "cosine" is the paper's (Definition 1);
#: "euclidean" joins the Euclidean nearest rows instead. Edges are weighted by
#: their cosine similarity either way.
GRAPH_METRICS = ("cosine", "euclidean")

#: Rows per chunk when the cosine similarities of Euclidean neighbours are computed.
_COSINE_CHUNK = 4096

#: The exact cosine search of sparse rows multiplies the columns stored in at least
#: this share of the rows as one dense block (BLAS), the others sparse. A column
#: stored in a share p of n rows costs p^2 n^2 scattered products in the sparse
#: kernel and n^2 streamed ones dense; at the 4.6 ns a product of sklearn's kernel
#: and the 0.06 ns of BLAS measured here, they break even near p = 0.11. Of the
#: shares 1/2 to 1/32, 1/8 was the fastest on TF-IDF of Zipf-distributed words
#: (5,000 and 10,000 rows, one thread: 3.7x and 4.3x sklearn's search). The block
#: holds at most 8 values per stored value of those columns.
DENSE_COLUMN_SHARE = 0.125

#: Bytes of cosine similarities the exact sparse search holds at a time.
_SIMILARITY_CHUNK_BYTES = 64 * 2**20


def resolve_knn(knn, n_samples):
    """The neighbour search ``knn`` ("auto", "exact" or "approximate") means for n samples.

    Parameters
    ----------
    knn : {"auto", "exact", "approximate"}
        The search asked for.
    n_samples : int
        Rows searched.

    Returns
    -------
    knn : {"exact", "approximate"}
        The search that runs.

    Examples
    --------
    >>> from lowdim.embedding.graph import resolve_knn
    >>> resolve_knn("auto", 1000), resolve_knn("auto", 100_000), resolve_knn("exact", 100_000)
    ('exact', 'approximate', 'exact')
    """
    if knn == "auto":
        return "approximate" if n_samples >= APPROXIMATE_FROM else "exact"
    if knn in KNN_MODES:
        return knn
    raise ArgumentValueError(f"`knn` must be one of {list(KNN_MODES)}, got {knn!r}", "knn")

logger = logging.getLogger("lowdim")


class CSRGraph(NamedTuple):
    """A weighted graph in the kernels' CSR convention (see module docstring).

    Parameters
    ----------
    indptr : ndarray of int64 of shape (n + 1,)
        Row ``u``'s edges are ``indptr[u]:indptr[u + 1]``.
    indices : ndarray of int32 of shape (nnz,)
        Their target nodes.
    data : ndarray of float64 of shape (nnz,)
        Their weights.

    Examples
    --------
    >>> from lowdim.embedding import as_csr_graph
    >>> graph = as_csr_graph(np.array([[0.0, 2.0], [1.0, 0.0]]))
    >>> graph.indptr, graph.indices, graph.data
    (array([0, 1, 2]), array([1, 0], dtype=int32), array([2., 1.]))
    """

    indptr: np.ndarray   # int64, (n + 1,)
    indices: np.ndarray  # int32, (nnz,)
    data: np.ndarray     # float64, (nnz,)

    @property
    def n_nodes(self) -> int:
        return self.indptr.size - 1


def as_csr_graph(adjacency, name="adjacency") -> CSRGraph:
    """Convert a square sparse or dense adjacency matrix to :class:`CSRGraph`.

    Parameters
    ----------
    adjacency : sparse matrix or ndarray of shape (n, n)
        Non-negative edge weights; zeros are not edges.
    name : str, default="adjacency"
        The argument's name in the caller, for the error messages.

    Returns
    -------
    graph : CSRGraph
        With int64 ``indptr``, int32 ``indices`` and float64 ``data``.

    Raises
    ------
    ValueError
        If the matrix is not square, has a negative or non-finite weight, or
        a row without any edge (a walk could not leave that node).

    Examples
    --------
    >>> from lowdim.embedding import as_csr_graph
    >>> graph = as_csr_graph(np.array([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
    >>> graph.indptr.tolist(), graph.indices.tolist(), graph.data.tolist()
    ([0, 2, 3, 4], [1, 2, 0, 1], [0.5, 0.5, 1.0, 1.0])
    >>> as_csr_graph(np.array([[0.0, 1.0], [0.0, 0.0]]))
    Traceback (most recent call last):
        ...
    lowdim._validation.ArgumentValueError: `adjacency` has 1 node(s) without an edge (first: 1); give them a self-loop first
    """
    with naming(name):
        csr = sp.csr_matrix(adjacency, dtype=np.float64)
    csr.eliminate_zeros()
    csr.sum_duplicates()
    csr.sort_indices()
    n, m = csr.shape
    if n != m:
        raise ArgumentValueError(f"`{name}` must be square, got shape {csr.shape}", name)
    if n >= np.iinfo(np.int32).max:
        raise ArgumentValueError(f"`{name}` has {n} nodes; int32 node ids allow at most 2**31 "
                                 "- 2", name)
    if csr.nnz and not np.all(np.isfinite(csr.data)):
        k = int(np.flatnonzero(~np.isfinite(csr.data))[0])
        row = int(np.searchsorted(csr.indptr, k, side="right")) - 1
        raise ArgumentValueError(f"`{name}` contains non-finite weights, first {name}[{row}, "
                                 f"{csr.indices[k]}] = {csr.data[k]}", name)
    if csr.nnz and csr.data.min() < 0:
        raise ArgumentValueError(f"`{name}` weights must be >= 0, got {csr.data.min()}", name)
    empty = np.flatnonzero(np.diff(csr.indptr) == 0)
    if empty.size:
        raise ArgumentValueError(f"`{name}` has {empty.size} node(s) without an edge (first: "
                                 f"{empty[0]}); give them a self-loop first", name)
    return CSRGraph(csr.indptr.astype(np.int64), csr.indices.astype(np.int32),
                    np.ascontiguousarray(csr.data, dtype=np.float64))


def topk_cosine_neighbors(X, topk, knn="auto", n_jobs=None, random_state=None,
                          metric="cosine"):
    """The ``topk`` most cosine-similar other rows of every row of ``X`` (or its ``topk``
    nearest by ``metric``), with their cosine similarities.

    Parameters
    ----------
    X : ndarray or CSR matrix of shape (n_samples, n_features)
        Sparse input stays sparse; a cell stored more than once counts as the sum
        of its pieces (on a copy: ``X`` is not changed).
    topk : int
        Neighbours per row, ``1 <= topk < n_samples``.
    knn : {"auto", "exact", "approximate"}, default="auto"
        "exact": brute-force search with scikit-learn, in memory-bounded
        chunks; on sparse rows with ``metric="cosine"`` the columns stored in
        at least :data:`DENSE_COLUMN_SHARE` of the rows are multiplied as one
        dense block, the rest sparse (several times faster on TF-IDF, whose
        frequent terms dominate the sparse product's work). It finds the same
        similarities as scikit-learn's search of sparse or dense rows, and the
        same neighbours except where rows tie at the ``topk``-th similarity:
        it then keeps the lowest row numbers, scikit-learn any of them.
        "approximate": nearest-neighbour descent (pynndescent),
        asked for :data:`APPROXIMATE_SEARCH_NEIGHBORS` neighbours.
        "auto": approximate from :data:`APPROXIMATE_FROM` samples on.
    n_jobs : int or None
        Threads for the neighbour search. A seeded approximate search runs on
        one thread: pynndescent's parallel descent finds a graph that depends
        on the thread count (as umap-learn, a seed makes it single-threaded).
    random_state : int or None
        Seed of pynndescent (ignored by "exact"). With a seed the result is the
        same at any ``n_jobs``.
    metric : {"cosine", "euclidean"}, default="cosine"
        What "nearest" means (:data:`GRAPH_METRICS`); the similarities
        returned are cosine similarities either way.

    Returns
    -------
    indices : ndarray of int64 of shape (n_samples, topk)
    similarities : ndarray of float64 of shape (n_samples, topk)
        Cosine similarities, 0 for pairs involving an all-zero row.

    Examples
    --------
    >>> from lowdim.embedding.graph import topk_cosine_neighbors
    >>> X = np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0], [0.1, 1.0]])
    >>> indices, similarities = topk_cosine_neighbors(X, topk=2)
    >>> indices.tolist(), similarities.round(3).tolist()
    ([[1, 3], [0, 3], [3, 1], [2, 1]], [[0.995, 0.1], [0.995, 0.198], [0.995, 0.1], [0.995, 0.198]])
    >>> X = np.array([[1.0, 0.0], [9.0, 0.0], [1.0, 1.0]])  # 0 and 1: same direction, far
    >>> indices, similarities = topk_cosine_neighbors(X, topk=1, metric="euclidean")
    >>> indices.ravel().tolist(), similarities.round(3).ravel().tolist()
    ([2, 0, 0], [0.707, 1.0, 0.707])
    """
    knn = resolve_knn(knn, X.shape[0])
    if metric not in GRAPH_METRICS:
        raise ArgumentValueError(f"`metric` must be one of {list(GRAPH_METRICS)}, got "
                                 f"{metric!r}", "metric")
    X = merge_duplicate_entries(X)  # else row norms of sparse X miss repeated cells
    if knn == "exact" and metric == "cosine" and sp.issparse(X):
        return _exact_sparse_cosine(X, topk, n_jobs)
    if knn == "exact":
        nn = NearestNeighbors(n_neighbors=topk, metric=metric, algorithm="brute", n_jobs=n_jobs)
        # kneighbors() without X excludes each point from its own neighbours.
        dist, ind = nn.fit(X).kneighbors()
    else:
        ind, dist = _approximate_neighbors(X, topk, n_jobs, random_state, metric)
    ind = ind.astype(np.int64)
    if metric == "cosine":
        return ind, 1.0 - dist.astype(np.float64)
    return ind, _pair_cosines(X, ind)


def _exact_sparse_cosine(X, topk, n_jobs=None):
    """Exact ``topk`` most cosine-similar other rows of sparse ``X``: (indices, similarities).

    It stands in for scikit-learn's brute-force search, replacing its sparse-times-sparse
    kernel on the frequent columns (:data:`DENSE_COLUMN_SHARE`): row chunks of
    ``unit @ unit.T``, each the sum of a dense product over the frequent columns and a
    sparse one over the rest. ``n_jobs`` caps the BLAS threads of the dense product
    (None: BLAS's own).

    What is the same as scikit-learn's search (and so as the search of the dense form
    of ``X``): each row's ``topk`` similarities, up to rounding, and its set of
    neighbours when no other row ties with the ``topk``-th of them. Where several rows
    tie at that place, this search keeps the lowest row numbers (:func:`_top_columns`)
    and scikit-learn keeps whichever its partial sort leaves, so the sets can differ
    there (a tie within rounding can too). Definition 1 of the paper does not say
    which tied row is a neighbour.
    """
    from joblib import effective_n_jobs
    from threadpoolctl import threadpool_limits

    limits = None if n_jobs is None else effective_n_jobs(n_jobs)
    with threadpool_limits(limits=limits, user_api="blas"):
        return _sparse_cosine_chunks(X, topk)


def _sparse_cosine_chunks(X, topk):
    """:func:`_exact_sparse_cosine`'s work, under its thread limit."""
    from sklearn.preprocessing import normalize
    from sklearn.utils.extmath import safe_sparse_dot

    unit = normalize(sp.csr_matrix(X, dtype=np.float64))  # all-zero rows stay zero
    n = unit.shape[0]
    # only the stored columns, renumbered: nothing here grows with n_features
    _, column, counts = np.unique(unit.indices, return_inverse=True, return_counts=True)
    unit = sp.csr_matrix((unit.data, column, unit.indptr), shape=(n, counts.size))
    frequent = np.flatnonzero(counts >= DENSE_COLUMN_SHARE * n)
    block = unit[:, frequent].toarray()
    rest = unit.copy()
    rest.data[np.isin(rest.indices, frequent)] = 0.0
    rest.eliminate_zeros()
    rest_t = rest.T.tocsr()
    indices = np.empty((n, topk), dtype=np.int64)
    similarities = np.empty((n, topk), dtype=np.float64)
    step = max(1, _SIMILARITY_CHUNK_BYTES // (8 * n))
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        sim = block[lo:hi] @ block.T
        if rest.nnz:
            sim += safe_sparse_dot(rest[lo:hi], rest_t, dense_output=True)
        sim[np.arange(hi - lo), np.arange(lo, hi)] = -np.inf  # not its own neighbour
        indices[lo:hi], best = _top_columns(sim, topk)
        similarities[lo:hi] = np.clip(best, -1.0, 1.0)
    return indices, similarities


def _top_columns(sim, topk):
    """(columns, values) of the ``topk`` largest entries of each row of ``sim``, largest
    first; of equal entries, the lower column is kept and comes first, so that the choice
    does not depend on the order in which a product was summed."""
    best = np.argpartition(-sim, topk - 1, axis=1)[:, :topk]
    kept = np.take_along_axis(sim, best, axis=1)
    kth = kept.min(axis=1)[:, None]
    left_out = (sim == kth).sum(axis=1) > (kept == kth).sum(axis=1)  # a tie at the edge
    for row in np.flatnonzero(left_out):
        above = np.flatnonzero(sim[row] > kth[row])
        best[row] = np.concatenate([above, np.flatnonzero(sim[row] == kth[row])])[:topk]
        kept[row] = sim[row, best[row]]
    order = np.lexsort((best, -kept), axis=1)
    return np.take_along_axis(best, order, axis=1), np.take_along_axis(kept, order, axis=1)


def _pair_cosines(X, ind):
    """Cosine similarity of each row of ``X`` with the rows ``ind[i]``, in chunks of rows."""
    from sklearn.preprocessing import normalize

    unit = normalize(X)
    out = np.empty(ind.shape, dtype=np.float64)
    for lo in range(0, X.shape[0], _COSINE_CHUNK):
        rows = unit[lo:lo + _COSINE_CHUNK]
        for k in range(ind.shape[1]):
            product = rows.multiply(unit[ind[lo:lo + _COSINE_CHUNK, k]]) if sp.issparse(rows) \
                else rows * unit[ind[lo:lo + _COSINE_CHUNK, k]]
            out[lo:lo + _COSINE_CHUNK, k] = np.asarray(product.sum(axis=1)).ravel()
    return out


def _approximate_neighbors(X, topk, n_jobs, random_state, metric):
    from pynndescent import NNDescent

    cache_jit_functions("pynndescent")
    n = X.shape[0]
    k = min(max(topk + 1, APPROXIMATE_SEARCH_NEIGHBORS), n)
    # pynndescent's parallel descent splits its updates by thread: seeded, it would find a
    # graph that changes with n_jobs (20,000 images: 2.9 s on one thread, 1.6 on two)
    threads = 1 if random_state is not None else n_jobs
    index = NNDescent(X, metric=metric, n_neighbors=k, random_state=random_state,
                      n_jobs=threads, compressed=True, **APPROXIMATE_SEARCH_OPTIONS)
    ind, dist = index.neighbor_graph
    # Drop each row's own index; rows where the search missed it drop the last column.
    is_self = ind == np.arange(n)[:, None]
    keep = ~is_self
    keep[~is_self.any(axis=1), -1] = False
    # Rows are sorted by distance, so the first topk kept are the best found.
    return ind[keep].reshape(n, k - 1)[:, :topk], dist[keep].reshape(n, k - 1)[:, :topk]


def cosine_knn_graph(X, topk, knn="auto", n_jobs=None, random_state=None, metric="cosine"):
    """Symmetric top-k cosine graph (union of both directions), weight = cosine.

    Edges with cosine <= 0 are dropped (see the module's policy), so rows with
    no positive similarity among their ``topk`` best are isolated.

    Parameters
    ----------
    X : ndarray or CSR matrix of shape (n_samples, n_features)
        The rows, the graph's nodes; sparse rows stay sparse.
    topk, knn, n_jobs, random_state, metric
        As in :func:`topk_cosine_neighbors`: with ``metric="euclidean"`` the
        ``topk`` Euclidean nearest rows, still weighted by cosine similarity.

    Returns
    -------
    adjacency : scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        Symmetric, float64, zero diagonal.

    Examples
    --------
    >>> from lowdim.embedding import cosine_knn_graph
    >>> X = np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0], [0.1, 1.0]])
    >>> cosine_knn_graph(X, topk=1).toarray().round(3)
    array([[0.   , 0.995, 0.   , 0.   ],
           [0.995, 0.   , 0.   , 0.   ],
           [0.   , 0.   , 0.   , 0.995],
           [0.   , 0.   , 0.995, 0.   ]])
    """
    X = check_matrix(X, "X")  # finite rows, before topk and the search are checked
    n = X.shape[0]
    topk = check_number(topk, "topk", integer=True, minimum=1, maximum=n - 1)
    ind, sim = topk_cosine_neighbors(X, topk, knn=knn, n_jobs=n_jobs, random_state=random_state,
                                     metric=metric)
    rows = np.repeat(np.arange(n, dtype=np.int64), ind.shape[1])
    keep = (sim.ravel() > 0) & (ind.ravel() != rows)
    directed = sp.csr_matrix((sim.ravel()[keep], (rows[keep], ind.ravel()[keep])), shape=(n, n))
    # Union of both directions; cosine is symmetric so max() only absorbs rounding.
    return directed.maximum(directed.T).tocsr()


def add_self_loops_to_isolated(adjacency):
    """Give every node without an edge a self-loop of weight 1.

    Parameters
    ----------
    adjacency : scipy.sparse matrix of shape (n, n)
        The graph.

    Returns
    -------
    adjacency : csr_matrix
        A copy with the self-loops added.
    isolated : ndarray of bool of shape (n,)
        Which nodes had no edge.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from lowdim.embedding import add_self_loops_to_isolated
    >>> adjacency, isolated = add_self_loops_to_isolated(sp.csr_matrix(np.array(
    ...     [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])))
    >>> adjacency.toarray(), isolated
    (array([[0., 1., 0.],
           [1., 0., 0.],
           [0., 0., 1.]]), array([False, False,  True]))
    """
    adjacency = sp.csr_matrix(adjacency, copy=True)
    adjacency.eliminate_zeros()
    isolated = np.diff(adjacency.indptr) == 0
    if isolated.any():
        loops = sp.diags(isolated.astype(np.float64), format="csr")
        adjacency = (adjacency + loops).tocsr()
    return adjacency, isolated
