"""Word Mover's Embedding (WME, Wu et al. 2018): random features from WMD to random documents.

WME draws ``R`` random documents ``omega_r``, each of ``D ~ U{1, ..., D_max}``
random words whose vectors are uniform in the bounding box of the corpus'
word vectors and scaled to unit length (as in the authors' code), and embeds a
document ``x`` as

.. math::

    \\phi(x) = \\frac{1}{\\sqrt{R}} \\left(\\exp(-\\gamma\\,
               \\mathrm{WMD}(x, \\omega_r))\\right)_{r=1}^{R},

so ``phi(x) . phi(y)`` is a Monte-Carlo estimate of a positive-definite kernel.
The ``n R`` distances are computed once with ``gamma = 1`` and stored as
``S = exp(-WMD)``; the features for any ``gamma`` and any ``R' <= R`` (a
prefix of the random documents) are then ``S[:, :R']**gamma / sqrt(R')``.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

from .._validation import ArgumentValueError, check_matrix, check_number
from ..similarity import WMDOracle
from ..similarity.wmd import document_bags

__all__ = ["document_bags", "random_documents", "wme_features", "wme_similarities"]


def random_documents(n_docs, d_max, dim, low, high, unit_norm=True, random_state=None):
    """Random documents of WME: ``D ~ U{1..d_max}`` words uniform in ``[low, high]^dim``.

    Parameters
    ----------
    n_docs : int
        ``R``, the number of random documents.
    d_max : int
        Most words in one random document (``D_max``).
    dim : int
        Dimension of the word vectors.
    low, high : float
        Bounds of each coordinate (the authors use the smallest and largest
        entry of the corpus' word vectors).
    unit_norm : bool, default=True
        Scale each random word vector to unit length (the authors' code).
    random_state : int, RandomState or None
        Seeds the lengths and the word vectors.

    Returns
    -------
    documents : list of ndarray of shape (D_r, dim)

    Examples
    --------
    >>> from lowdim.approx.wme import random_documents
    >>> docs = random_documents(3, d_max=4, dim=2, low=-1.0, high=1.0, random_state=0)
    >>> [d.shape for d in docs]
    [(1, 2), (4, 2), (2, 2)]
    >>> np.round(np.linalg.norm(docs[0], axis=1), 6)
    array([1.])
    """
    for name, value in (("n_docs", n_docs), ("d_max", d_max), ("dim", dim)):
        check_number(value, name, integer=True)
        if value < 1:
            raise ArgumentValueError(f"`{name}` must be a positive integer, got {value!r}", name)
    low, high = check_number(low, "low"), check_number(high, "high")
    if not low < high:
        raise ArgumentValueError(f"`low` < `high` must be finite, got {low!r} and {high!r}",
                                 ("low", "high"))
    rng = check_random_state(random_state)
    sizes = rng.randint(1, d_max + 1, size=n_docs)
    documents = []
    for size in sizes:
        words = rng.uniform(low, high, size=(size, dim))
        if unit_norm:
            words /= np.maximum(np.linalg.norm(words, axis=1, keepdims=True), 1e-300)
        documents.append(words)
    return documents


def wme_similarities(docs, table, random_docs, n_jobs=1):
    """``S[i, r] = exp(-WMD(docs[i], random_docs[r]))``, every random word weighing the same.

    Parameters
    ----------
    docs : list of (ndarray of int, ndarray of float)
        Rows of ``table`` and their counts per document (:func:`document_bags`).
    table : ndarray of shape (m, dim)
        Word vectors, one per row, indexed by the documents' bags.
    random_docs : list of ndarray of shape (D_r, dim)
        From :func:`random_documents`.
    n_jobs : int, default=1
        Worker processes for the transport problems.

    Returns
    -------
    S : ndarray of shape (n, R)
    evaluations : int
        Distances computed, ``n * R``.

    Examples
    --------
    >>> from lowdim.approx.wme import random_documents, wme_similarities
    >>> table = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    >>> docs = [(np.array([0, 1]), np.array([1.0, 1.0])), (np.array([2]), np.array([3.0]))]
    >>> random_docs = random_documents(4, d_max=3, dim=2, low=-1.0, high=1.0, random_state=0)
    >>> S, evaluations = wme_similarities(docs, table, random_docs)
    >>> S.shape, evaluations, bool(((S > 0) & (S <= 1)).all())
    ((2, 4), 8, True)
    """
    table = np.asarray(table, dtype=np.float64)
    if not random_docs:
        raise ArgumentValueError("`random_docs` is empty", "random_docs")
    dims = {w.shape[1] for w in random_docs}
    if dims != {table.shape[1]}:
        raise ArgumentValueError(f"random words have dimension {sorted(dims)} but `table` has "
                                 f"{table.shape[1]}", ("random_docs", "table"))
    start = table.shape[0]
    extra, pseudo = [], []
    for words in random_docs:
        pseudo.append((np.arange(start, start + len(words)), np.ones(len(words))))
        extra.append(words)
        start += len(words)
    oracle = WMDOracle(list(docs) + pseudo, np.vstack([table] + extra), gamma=1.0,
                       n_jobs=n_jobs, cache=False)
    n = len(docs)
    S = oracle(np.arange(n), n + np.arange(len(random_docs)))
    return S, int(oracle.evaluations)


def wme_features(S, gamma, n_components=None):
    """WME features ``S[:, :R]**gamma / sqrt(R)`` for kernel width ``gamma``.

    Parameters
    ----------
    S : ndarray of shape (n, R_max)
        ``exp(-WMD)`` to the random documents (:func:`wme_similarities`).
    gamma : float
        Width of ``exp(-gamma * WMD)``, in inverse word-vector distance units; > 0.
    n_components : int, optional
        ``R <= R_max``: use the first ``R`` random documents; default all.

    Returns
    -------
    Z : ndarray of shape (n, R)

    Examples
    --------
    >>> from lowdim.approx.wme import wme_features
    >>> S = np.array([[1.0, 0.25], [0.5, 0.5]])
    >>> wme_features(S, gamma=0.5)
    array([[0.70710678, 0.35355339],
           [0.5       , 0.5       ]])
    >>> wme_features(S, gamma=1.0, n_components=1)
    array([[1. ],
           [0.5]])
    """
    S = check_matrix(S, "S", accept_sparse=False)
    R = S.shape[1] if n_components is None else check_number(n_components, "n_components",
                                                             integer=True)
    if not 1 <= R <= S.shape[1]:
        raise ArgumentValueError(f"`n_components` must be an integer in [1, {S.shape[1]}], got "
                                 f"{R!r}", "n_components")
    check_number(gamma, "gamma", minimum=0, strict_minimum=True)
    return S[:, :R] ** gamma / np.sqrt(R)
