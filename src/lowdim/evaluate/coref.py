"""Coreference metrics: MUC, B³, CEAF-e and their mean, the CoNLL F1.

Both clusterings are partitions of the same items (gold mentions), given as
one cluster label per item; singletons are clusters of size one. All three
metrics are computed from the contingency table ``n[i, j] = |K_i ∩ R_j|``
between key (gold) clusters ``K_i`` and response (predicted) clusters ``R_j``:

.. math::

    \\mathrm{MUC\\ recall} = \\frac{\\sum_i (|K_i| - |p(K_i)|)}{\\sum_i (|K_i| - 1)},
    \\qquad
    \\mathrm{B^3\\ recall} = \\frac{1}{N} \\sum_{i, j} \\frac{n_{ij}^2}{|K_i|},
    \\qquad
    \\mathrm{CEAF_e\\ recall} = \\frac{\\max_g \\sum_i \\phi_4(K_i, R_{g(i)})}{\\#K},

with ``p(K_i)`` the response clusters that meet ``K_i``, ``phi_4(K, R) =
2 |K ∩ R| / (|K| + |R|)`` and ``g`` a one-to-one alignment of key and response
clusters (the Hungarian method, :func:`scipy.optimize.linear_sum_assignment`).
Precision swaps the roles of key and response. A metric whose denominator is
zero (MUC on all-singleton clusterings) scores 0, as the reference scorer does.

References
----------
Vilain et al. 1995 (MUC); Bagga & Baldwin 1998 (B³); Luo 2005 (CEAF);
Pradhan et al. 2014 (the CoNLL reference implementation).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.metrics.cluster import contingency_matrix

from .._validation import ArgumentValueError

__all__ = ["conll_f1", "coreference_scores"]


def _f1(precision, recall) -> float:
    return 0.0 if precision + recall == 0 else 2.0 * precision * recall / (precision + recall)


def _table(key, response):
    key = np.asarray(key).ravel()
    response = np.asarray(response).ravel()
    if key.shape != response.shape:
        raise ArgumentValueError("`key` and `response` must label the same items, got "
                                 f"{key.size} and {response.size} labels", ("key", "response"))
    if key.size == 0:
        raise ArgumentValueError("`key` is empty: no items to score", "key")
    return contingency_matrix(key, response, sparse=True).tocsr().astype(np.float64)


def _muc_recall(table) -> float:
    sizes = np.asarray(table.sum(axis=1)).ravel()
    parts = np.diff(table.indptr)  # response clusters meeting each key cluster
    denominator = float(np.sum(sizes - 1))
    return 0.0 if denominator == 0 else float(np.sum(sizes - parts)) / denominator


def _muc(table):
    recall = _muc_recall(table)
    precision = _muc_recall(table.T.tocsr())
    return precision, recall, _f1(precision, recall)


def _sizes(table):
    """Key and response cluster sizes of a contingency table."""
    return np.asarray(table.sum(axis=1)).ravel(), np.asarray(table.sum(axis=0)).ravel()


def _b_cubed(table):
    key_sizes, response_sizes = _sizes(table)
    n = table.sum()
    squares = table.multiply(table)
    recall = float((squares.sum(axis=1).A1 / key_sizes).sum() / n)
    precision = float((squares.sum(axis=0).A1 / response_sizes).sum() / n)
    return precision, recall, _f1(precision, recall)


def _ceaf_e(table):
    key_sizes, response_sizes = _sizes(table)
    coo = table.tocoo()
    phi = np.zeros(table.shape)
    phi[coo.row, coo.col] = 2.0 * coo.data / (key_sizes[coo.row] + response_sizes[coo.col])
    rows, cols = linear_sum_assignment(phi, maximize=True)
    similarity = float(phi[rows, cols].sum())
    recall = similarity / table.shape[0]
    precision = similarity / table.shape[1]
    return precision, recall, _f1(precision, recall)


def conll_f1(key, response) -> float:
    """The CoNLL F1: mean of the MUC, B³ and CEAF-e F1 scores, in [0, 1].

    Parameters
    ----------
    key, response : array-like of shape (n_items,)
        Gold and predicted cluster label of each item.

    Returns
    -------
    f1 : float
        ``(MUC F1 + B³ F1 + CEAF-e F1) / 3``.

    Examples
    --------
    >>> from lowdim.evaluate.coref import conll_f1
    >>> key = [0, 0, 0, 1, 1]
    >>> response = [0, 0, 1, 1, 1]
    >>> round(conll_f1(key, response), 3)
    0.733
    >>> conll_f1(key, key)
    1.0
    """
    return coreference_scores(key, response)["conll_f1"]


def coreference_scores(key, response) -> dict:
    """Precision, recall and F1 of MUC, B³ and CEAF-e, and the CoNLL F1.

    Parameters
    ----------
    key, response : array-like of shape (n_items,)
        Gold and predicted cluster label of each item.

    Returns
    -------
    scores : dict
        Keys ``muc_p, muc_r, muc_f1, b3_p, b3_r, b3_f1, ceafe_p, ceafe_r,
        ceafe_f1, conll_f1``; values in [0, 1].

    Examples
    --------
    >>> from lowdim.evaluate.coref import coreference_scores
    >>> key = [0, 0, 0, 1, 1]
    >>> response = [0, 0, 1, 1, 1]
    >>> {name: round(value, 3) for name, value in coreference_scores(key, response).items()}
    {'muc_p': 0.667, 'muc_r': 0.667, 'muc_f1': 0.667, 'b3_p': 0.733, 'b3_r': 0.733, 'b3_f1': 0.733, 'ceafe_p': 0.8, 'ceafe_r': 0.8, 'ceafe_f1': 0.8, 'conll_f1': 0.733}
    """
    table = _table(key, response)  # built once for the three metrics
    scores = {}
    for name, (p, r, f) in (("muc", _muc(table)), ("b3", _b_cubed(table)),
                            ("ceafe", _ceaf_e(table))):
        scores.update({f"{name}_p": p, f"{name}_r": r, f"{name}_f1": f})
    scores["conll_f1"] = (scores["muc_f1"] + scores["b3_f1"] + scores["ceafe_f1"]) / 3.0
    return scores
