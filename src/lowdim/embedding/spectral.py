"""Spectral start of Vec2vec's co-occurrence solver: the leading eigenvectors of its graph.

UMAP starts its layout from the spectral embedding of its neighbour graph; this module gives
Vec2vec the same start. For the walk graph with weights ``A`` and degrees ``D``, the top
eigenvectors of the normalised adjacency ``D^-1/2 A D^-1/2`` (the bottom ones of the
normalised Laplacian) vary slowly along the edges, so nodes that the walks join start close.
The first one, ``D^1/2 1``, carries no information and is dropped.

Each connected component is embedded on its own (its eigenvectors with eigenvalue 1 would
otherwise only say which component a node is in): components of more than ``d + 1`` nodes
get their ``d`` leading non-trivial eigenvectors, smaller ones (and any whose eigensolver
does not converge) gensim's random start. The result is deterministic at any thread count:
the eigensolver starts from a seeded vector and runs with one BLAS thread.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import ArpackNoConvergence, eigsh
from threadpoolctl import threadpool_limits

from .._validation import ArgumentValueError, check_number
from .graph import as_csr_graph

__all__ = ["spectral_start", "SpectralStartWarning", "DENSE_UP_TO", "SPECTRAL_SCALE"]

#: Components up to this many nodes are solved densely (LAPACK), larger ones with ARPACK.
DENSE_UP_TO = 500

#: Largest absolute coordinate of the start, times ``d`` (gensim's random start,
#: uniform on [-0.5, 0.5) / d, has 0.5). At 250 updates per node 2 beat 0.5
#: (10,000 GloVe words: neighbour preservation 0.222 against 0.180; 20,000
#: MNIST-shaped images: kNN 0.927 against 0.922); from 500 on the scale made no
#: difference beyond the seeds' (development runs, one seed).
SPECTRAL_SCALE = 2.0

#: ARPACK's relative tolerance on the eigenvalues (UMAP's for its spectral layout).
TOLERANCE = 1e-4


class SpectralStartWarning(UserWarning):
    """ARPACK did not converge on a component: its nodes start from random vectors.

    Examples
    --------
    >>> from lowdim.embedding.spectral import SpectralStartWarning
    >>> issubclass(SpectralStartWarning, UserWarning)  # filter it, or make it an error
    True
    """


def spectral_start(graph, n_components, random_state=0, scale=SPECTRAL_SCALE):
    """Start vectors for Vec2vec: the graph's spectral embedding, per connected component.

    Parameters
    ----------
    graph : sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative weights; every node with at least one edge
        (a self-loop counts).
    n_components : int
        Dimension ``d`` of the vectors.
    random_state : int, numpy.random.Generator or None
        Seeds ARPACK's start vectors and the random start of the components
        that do not get a spectral one.
    scale : float, default=SPECTRAL_SCALE
        Each component's vectors are scaled to a largest absolute coordinate
        of ``scale / n_components``.

    Returns
    -------
    start : ndarray of float32 of shape (n_nodes, n_components)
    spectral : ndarray of bool of shape (n_nodes,)
        Which nodes got a spectral start (the others: gensim's uniform
        on [-0.5, 0.5) / d).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from lowdim.embedding.spectral import spectral_start
    >>> ring = sp.csr_matrix(np.roll(np.eye(12), 1, axis=1) + np.roll(np.eye(12), -1, axis=1))
    >>> start, spectral = spectral_start(ring, 2, random_state=0)
    >>> start.shape, bool(spectral.all())
    ((12, 2), True)
    >>> radius = np.linalg.norm(start, axis=1)  # a ring's leading pair: a circle
    >>> bool(np.ptp(radius) < 1e-5 * radius.max())
    True
    """
    n_components = check_number(n_components, "n_components", integer=True, minimum=1)
    scale = check_number(scale, "scale", minimum=0.0, strict_minimum=True)
    graph = _check_graph(graph)
    n = graph.shape[0]
    rng = np.random.default_rng(random_state)
    start = ((rng.random((n, n_components), dtype=np.float32) - np.float32(0.5))
             / np.float32(n_components))
    spectral = np.zeros(n, dtype=bool)
    n_parts, labels = connected_components(graph, directed=False)
    order = np.argsort(labels, kind="stable")  # each component's nodes, contiguous
    ends = np.cumsum(np.bincount(labels, minlength=n_parts))
    begins = ends - np.bincount(labels, minlength=n_parts)
    seeds = rng.integers(0, 2**32, size=n_parts)
    with threadpool_limits(limits=1, user_api="blas"):
        for c in range(n_parts):
            nodes = order[begins[c]:ends[c]]
            if nodes.size <= n_components + 1:
                continue
            vectors = _component_vectors(graph[nodes][:, nodes], n_components, seeds[c])
            if vectors is not None:
                start[nodes] = vectors * (scale / n_components / np.abs(vectors).max())
                spectral[nodes] = True
    return start, spectral


def _check_graph(graph):
    """``graph`` as CSR float64, checked: square, finite, >= 0, an edge per node, symmetric."""
    checked = as_csr_graph(graph, name="graph")
    graph = sp.csr_matrix((checked.data, checked.indices, checked.indptr),
                          shape=(checked.n_nodes, checked.n_nodes))
    asymmetry = abs(graph - graph.T).max() if graph.nnz else 0.0
    if asymmetry > 1e-12 * graph.data.max():
        raise ArgumentValueError(f"`graph` must be symmetric, got weights that differ from "
                                 f"their transpose's by up to {asymmetry:.3g}", "graph")
    return graph


def _component_vectors(adjacency, n_components, seed):
    """The ``n_components`` leading non-trivial eigenvectors of a connected graph's
    ``D^-1/2 A D^-1/2``, signs fixed (largest entry positive); None if ARPACK fails."""
    degree = np.asarray(adjacency.sum(axis=1)).ravel()
    scaling = sp.diags(1.0 / np.sqrt(degree))
    normalised = scaling @ adjacency @ scaling
    k = n_components + 1
    m = adjacency.shape[0]
    if m <= DENSE_UP_TO:
        _, vectors = scipy.linalg.eigh(normalised.toarray(), subset_by_index=[m - k, m - 1])
    else:
        v0 = np.random.default_rng(seed).uniform(-1.0, 1.0, m)
        try:
            values, vectors = eigsh(normalised, k, which="LA", tol=TOLERANCE, v0=v0,
                                    maxiter=5 * m)
        except ArpackNoConvergence:
            warnings.warn(f"spectral start: ARPACK did not converge on a connected component "
                          f"of {m} nodes in {5 * m} iterations; its nodes start from random "
                          "vectors", SpectralStartWarning, stacklevel=3)
            return None
        vectors = vectors[:, np.argsort(values)]
    vectors = vectors[:, ::-1][:, 1:]  # leading first, the trivial one dropped
    signs = np.sign(vectors[np.abs(vectors).argmax(axis=0), np.arange(n_components)])
    return (vectors * signs).astype(np.float32)
