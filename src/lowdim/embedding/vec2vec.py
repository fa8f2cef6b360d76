"""Vec2vec: top-k cosine graph -> weighted random walks -> skip-gram embedding.

Wang et al., "A Local Similarity-Preserving Framework for Nonlinear
Dimensionality Reduction with Neural Networks" (Vec2vec).
"""

from __future__ import annotations

import logging
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from .._validation import ArgumentValueError, check_number
from ..seeding import spawn_seeds
from ._base import EmbeddingEstimator
from ._validation import (check_choice, check_embedding_input, check_float, check_int,
                          check_n_components, check_n_neighbors)
from .cooccurrence import UPDATES_PER_NODE, cooccurrence_sgns
from .graph import GRAPH_METRICS, KNN_MODES, add_self_loops_to_isolated, cosine_knn_graph
from .skipgram import skipgram_embedding
from .spectral import spectral_start
from .walks import effective_n_jobs, random_walks

__all__ = ["Vec2Vec", "IsolatedSamplesWarning", "SOLVERS", "INITS"]

#: Skip-gram solvers: gensim on the walks (the paper's), or SGNS on their counted
#: co-occurrences (:mod:`lowdim.embedding.cooccurrence`).
SOLVERS = ("gensim", "cooccurrence")

#: Starts of the co-occurrence solver's input vectors: the graph's spectral embedding
#: (:func:`~lowdim.embedding.spectral.spectral_start`), or gensim's random vectors.
INITS = ("spectral", "random")

#: Initial learning rate of each solver when ``alpha=None``: gensim's default, and
#: the co-occurrence solver's measured one (``benchmarks/vec2vec_vs_umap.md``).
DEFAULT_ALPHA = {"gensim": 0.025, "cooccurrence": 0.1}

logger = logging.getLogger("lowdim")


class IsolatedSamplesWarning(UserWarning):
    """Some samples have no neighbour with positive cosine similarity.

    Examples
    --------
    >>> import warnings
    >>> from lowdim.embedding import IsolatedSamplesWarning, Vec2Vec
    >>> X = np.vstack([rng.random((30, 4)), np.zeros((1, 4))])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     model = Vec2Vec(n_components=2, solver="cooccurrence", random_state=0,
    ...                     n_jobs=1).fit(X)
    >>> any(issubclass(w.category, IsolatedSamplesWarning) for w in caught)
    True
    >>> np.flatnonzero(model.isolated_)
    array([30])
    """


class Vec2Vec(EmbeddingEstimator):
    """Vec2vec dimensionality reduction.

    Builds the symmetric top-k cosine similarity graph of the rows of ``X``
    (union of both directions, weight = cosine similarity), simulates
    weighted first-order random walks on it, and learns one vector per row
    with skip-gram and negative sampling (gensim ``Word2Vec``, ``sg=1``) on
    the walks read as sentences of integer tokens. Rows that co-occur within
    ``window`` steps of a walk get similar vectors.

    ``solver="cooccurrence"`` optimises the same skip-gram objective another
    way: it runs SGNS updates on (node, context) pairs drawn from the walks in
    proportion to their window co-occurrence counts
    (:func:`~lowdim.embedding.cooccurrence.cooccurrence_sgns`), starting from
    the graph's spectral embedding (``init``), an order of magnitude faster
    than gensim at the authors' settings, and the same at any number of
    threads.

    The defaults are the authors' (paper and public code): ``topk=5``,
    10 walks of length 20 per node, window 10, 10 epochs, 5 negative samples,
    downsampling threshold 1e-3.

    Fit-only: there is no ``transform``. Each vector is learned from the
    walks through its own node, so a new row has no vector until it is a node
    of the graph; it would change its neighbours' edges and walks too. The
    paper defines no out-of-sample map, and none is invented here: refit on
    all the rows (``fit_transform``).

    Parameters
    ----------
    n_components : int, default=2
        Dimension ``d`` of the embedding.
    topk : int, default=5
        Neighbours per row in the similarity graph (before symmetrisation).
    walks_per_node : int, default=10
        Random walks started from every node.
    walk_length : int, default=20
        Nodes per walk, the start included; at least 2.
    window : int, default=10
        Skip-gram context window, in walk steps.
    epochs : int, default=10
        Passes of skip-gram over the walks.
    negative : int, default=5
        Negative samples per (node, context) pair.
    sample : float, default=1e-3
        Downsampling threshold for frequent nodes (gensim ``sample``).
    knn : {"auto", "exact", "approximate"}, default="auto"
        "exact": brute-force cosine neighbours (memory-bounded chunks).
        "approximate": nearest-neighbour descent (pynndescent), asked for
        :data:`~lowdim.embedding.graph.APPROXIMATE_SEARCH_NEIGHBORS` neighbours
        of which the ``topk`` best are kept.
        "auto": exact below :data:`~lowdim.embedding.graph.APPROXIMATE_FROM`
        samples, approximate from there on.
    metric : {"cosine", "euclidean"}, default="cosine"
        Which rows are the ``topk`` neighbours: the most cosine-similar (the
        paper's Definition 1), or the Euclidean nearest, an option that departs
        from the paper. Edges are weighted by cosine similarity either way.
        ``benchmarks/vec2vec_vs_umap.md`` (case ``metric``) compares them.
    solver : {"gensim", "cooccurrence"}, default="gensim"
        "gensim": gensim's skip-gram on the walks, ``epochs`` passes (the paper's
        algorithm). "cooccurrence": SGNS on the counted window co-occurrences
        of the walks, ``updates_per_node`` updates per node (``epochs`` unused).
    updates_per_node : float, default=1000
        SGD updates per node of the co-occurrence solver (each one pair and
        ``negative`` noise nodes); ``benchmarks/vec2vec_vs_umap.md`` (cases
        ``updates`` and ``gap``) has the accuracy against it on real data: from
        the spectral start, images, blobs and digits change by at most 0.4
        points of kNN accuracy beyond 1,000, while GloVe words' neighbour
        preservation gains 3 points per doubling.
    alpha : float or None, default=None
        Initial learning rate, decayed linearly to 1e-4. None: 0.025 for
        gensim (its default), 0.1 for the co-occurrence solver.
    init : {"spectral", "random"}, default="spectral"
        Start of the co-occurrence solver's vectors: "spectral", the leading
        eigenvectors of the graph's normalised adjacency, per connected
        component (:func:`~lowdim.embedding.spectral.spectral_start`; UMAP
        starts its layout so); "random", gensim's uniform vectors. gensim's
        solver always starts from its own random vectors (the paper's
        algorithm).
    random_state : int, RandomState instance or None, default=None
        Seeds the neighbour search, the walks and the skip-gram.
    n_jobs : int or None, default=None
        Threads for the neighbour search, the walks and the skip-gram solver
        (None -> 1, -1 -> all). With a fixed ``random_state`` the
        co-occurrence solver's embedding is the same bit for bit at any
        ``n_jobs``; gensim's is so only with one thread (its asynchronous
        updates make it vary slightly with more; the walks never do). A seed
        keeps the approximate neighbour search (``knn``) on one thread, whose
        graph would otherwise change with the thread count; without a seed it
        runs on ``n_jobs`` threads.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The learned vectors (float64).
    graph_ : scipy.sparse.csr_matrix of shape (n_samples, n_samples)
        The similarity graph walked on, self-loops of isolated nodes included.
    isolated_ : ndarray of bool of shape (n_samples,)
        Samples with no neighbour of positive cosine similarity (e.g. all-zero
        rows). They get a self-loop; their vectors carry no neighbourhood
        information. Counted in an :class:`IsolatedSamplesWarning`.
    timings_ : dict
        Wall seconds of the stages "graph", "walks" and "skipgram" (gensim), or
        "graph", "walks", "spectral" (with ``init="spectral"``), "tables" and
        "sgd" (co-occurrence).
    n_features_in_ : int
        Columns of ``X`` seen by ``fit``.

    Notes
    -----
    The graph joins each row to its ``topk`` most cosine-similar rows, in both
    directions, with weight :math:`w_{ij} = \\cos(x_i, x_j) > 0`; a walk moves from
    node :math:`i` to :math:`j` with probability :math:`w_{ij} / \\sum_l w_{il}`. With
    :math:`z_i` the vector of node :math:`i` (``embedding_``), :math:`\\theta_j` its
    context vector, :math:`\\mathcal{C}(i)` the nodes within ``window`` steps of
    :math:`i` on the walks and :math:`P_n` the noise distribution (walk counts to
    the power 3/4), skip-gram with negative sampling maximises

    .. math::

        \\sum_{i} \\sum_{j \\in \\mathcal{C}(i)} \\Bigl[\\log \\sigma(z_i^\\top \\theta_j)
        + \\sum_{k=1}^{K} \\mathbb{E}_{j' \\sim P_n} \\log \\sigma(-z_i^\\top \\theta_{j'})\\Bigr],

    :math:`K` = ``negative``, by SGD: rows that co-occur on walks, i.e. rows close
    in the cosine graph, get vectors with large inner products. Building the
    graph costs :math:`O(n^2 D)` exactly (or about :math:`O(n \\log n \\, D)` with
    ``knn="approximate"``); the walks and the skip-gram are linear in :math:`n`.

    References
    ----------
    Wang, X., Li, X., Zhu, J. et al. A Local Similarity-Preserving Framework for
    Nonlinear Dimensionality Reduction with Neural Networks. Database Systems for
    Advanced Applications (DASFAA 2021), Springer, pp. 376-391.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, y = make_blobs(200, n_features=20, centers=4, random_state=0)
    >>> Z = Vec2Vec(n_components=4, epochs=2, random_state=0).fit_transform(X)
    >>> Z.shape
    (200, 4)
    """

    def __init__(self, n_components=2, *, topk=5, walks_per_node=10, walk_length=20, window=10,
                 epochs=10, negative=5, sample=1e-3, knn="auto", metric="cosine",
                 solver="gensim", updates_per_node=UPDATES_PER_NODE, alpha=None,
                 init="spectral", random_state=None, n_jobs=None):
        self.n_components = n_components
        self.topk = topk
        self.walks_per_node = walks_per_node
        self.walk_length = walk_length
        self.window = window
        self.epochs = epochs
        self.negative = negative
        self.sample = sample
        self.knn = knn
        self.metric = metric
        self.solver = solver
        self.updates_per_node = updates_per_node
        self.alpha = alpha
        self.init = init
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _check_params(self, n_samples):
        check_n_components(self.n_components, n_samples)
        check_n_neighbors(self.topk, n_samples, name="topk")
        check_int(self.walks_per_node, "walks_per_node", min_val=1)
        check_int(self.walk_length, "walk_length", min_val=2)
        check_int(self.window, "window", min_val=1)
        check_int(self.epochs, "epochs", min_val=1)
        check_int(self.negative, "negative", min_val=1)
        check_float(self.sample, "sample", min_val=0.0)
        check_choice(self.knn, "knn", KNN_MODES)
        check_choice(self.metric, "metric", GRAPH_METRICS)
        check_choice(self.solver, "solver", SOLVERS)
        check_choice(self.init, "init", INITS)
        check_number(self.updates_per_node, "updates_per_node", minimum=0.0,
                     strict_minimum=True)
        check_number(self.alpha, "alpha", minimum=0.0, strict_minimum=True, none_ok=True)
        if self.n_jobs is not None:
            check_int(self.n_jobs, "n_jobs")
            if self.n_jobs == 0:
                raise ArgumentValueError("`n_jobs` must be a positive int, -1 or None, got 0",
                                         "n_jobs")

    def fit(self, X, y=None):
        """Learn the embedding of the rows of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Sparse input (e.g. TF-IDF) stays sparse; the exact search multiplies
            only its frequent columns as a dense block
            (:data:`~lowdim.embedding.graph.DENSE_COLUMN_SHARE`).
        y : None
            Ignored.

        Returns
        -------
        self : Vec2Vec
        """
        X = check_embedding_input(self, X)
        n = X.shape[0]
        self._check_params(n)
        rng = check_random_state(self.random_state)
        knn_seed, walk_seed, skipgram_seed, start_seed = (int(s) for s in spawn_seeds(rng, 4))
        threads = effective_n_jobs(self.n_jobs)
        self.timings_ = {}

        start = time.perf_counter()
        # unseeded, the search gets no seed either: a seed would keep it on one thread
        graph = cosine_knn_graph(X, self.topk, knn=self.knn, n_jobs=threads,
                                 random_state=None if self.random_state is None else knn_seed,
                                 metric=self.metric)
        self.graph_, self.isolated_ = add_self_loops_to_isolated(graph)
        self._warn_isolated(X)
        self.timings_["graph"] = time.perf_counter() - start

        start = time.perf_counter()
        walks = random_walks(self.graph_, self.walks_per_node, self.walk_length,
                             random_state=walk_seed, n_jobs=threads)
        self.timings_["walks"] = time.perf_counter() - start

        self.embedding_ = self._skipgram(walks, n, skipgram_seed, start_seed, threads)
        logger.info("Vec2vec n=%d: %s", n,
                    ", ".join(f"{k} {v:.2f} s" for k, v in self.timings_.items()))
        return self

    def _skipgram(self, walks, n, seed, start_seed, threads):
        """Node vectors from the walks with the chosen solver; records its timings."""
        alpha = DEFAULT_ALPHA[self.solver] if self.alpha is None else float(self.alpha)
        if self.solver == "cooccurrence":
            start = None
            if self.init == "spectral":
                clock = time.perf_counter()
                start, _ = spectral_start(self.graph_, self.n_components, start_seed)
                self.timings_["spectral"] = time.perf_counter() - clock
            return cooccurrence_sgns(walks, n, self.n_components, window=self.window,
                                     negative=self.negative, sample=self.sample,
                                     updates_per_node=self.updates_per_node, alpha=alpha,
                                     seed=seed, init=start, n_jobs=threads,
                                     timings=self.timings_)
        start = time.perf_counter()
        embedding = skipgram_embedding(walks, n, self.n_components, window=self.window,
                                       epochs=self.epochs, negative=self.negative,
                                       sample=self.sample, alpha=alpha, seed=seed,
                                       workers=threads)
        self.timings_["skipgram"] = time.perf_counter() - start
        return embedding

    def _warn_isolated(self, X):
        n_isolated = int(self.isolated_.sum())
        if not n_isolated:
            return
        if sp.issparse(X):
            zero_rows = np.asarray(abs(X).sum(axis=1)).ravel() == 0
        else:
            zero_rows = ~np.any(X, axis=1)
        n_zero = int(zero_rows.sum())
        warnings.warn(
            f"{n_isolated} of {X.shape[0]} samples have no neighbour with positive cosine "
            f"similarity among their topk={self.topk} ({n_zero} are all-zero rows); they get a "
            "self-loop and their vectors carry no neighbourhood information (see `isolated_`)",
            IsolatedSamplesWarning, stacklevel=3)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
