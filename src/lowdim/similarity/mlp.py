"""A learned pairwise similarity: an MLP on ``[a, b, a * b]`` (Cattan et al. 2020).

The SMS-Nyström paper's coreference application scores a pair of mention
embeddings ``(a, b)`` with a multi-layer perceptron on the concatenation of
``a``, ``b`` and their elementwise product, trained to say whether the two
mentions corefer. We train the same model with scikit-learn on pairs of items
that share a label (positives) or do not (negatives). Because ``[a, b, a*b]``
is not symmetric in ``(a, b)``, the induced matrix is neither symmetric nor
PSD; :class:`PairwiseMLPOracle` serves its symmetric part ``(K + K.T) / 2``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.neural_network import MLPClassifier
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted, check_X_y

from .._validation import (ArgumentValueError, check_choice, check_label_count, check_number,
                           naming)
from ._oracle import SimilarityOracle

__all__ = ["PairwiseMLP", "PairwiseMLPOracle", "SCORES", "pair_features", "sample_label_pairs"]

#: What the oracle serves: the same-label probability, or its logit.
SCORES = ("probability", "logit")

_ACTIVATIONS = {
    "relu": lambda z: np.maximum(z, 0.0),
    "tanh": np.tanh,
    "logistic": lambda z: 0.5 * (1.0 + np.tanh(0.5 * z)),
    "identity": lambda z: z,
}


def pair_features(A, B):
    """Return ``[A, B, A * B]`` row by row.

    Parameters
    ----------
    A, B : array-like of shape (m, d)
        Paired item embeddings.

    Returns
    -------
    features : ndarray of shape (m, 3 * d)
        The pair features the MLP reads.

    Examples
    --------
    >>> from lowdim.similarity import pair_features
    >>> pair_features(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]]))
    array([[1., 2., 3., 4., 3., 8.]])
    """
    return np.hstack([A, B, A * B])


def sample_label_pairs(y, n_pairs, positive_fraction=0.5, random_state=None):
    """Draw index pairs ``(i, j)``, ``i != j``, a given share of them with ``y[i] == y[j]``.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels (classes, or gold cluster ids for mentions).
    n_pairs : int
        Pairs to draw.
    positive_fraction : float, default=0.5
        Share of same-label pairs; the rest have different labels.
    random_state : int, RandomState or None
        Seeds the draw.

    Returns
    -------
    i, j : ndarray of int64 of shape (n_pairs,)
    same : ndarray of bool of shape (n_pairs,)

    Examples
    --------
    >>> from lowdim.similarity import sample_label_pairs
    >>> y = np.array([0, 0, 1, 1, 2, 2])
    >>> i, j, same = sample_label_pairs(y, 6, positive_fraction=0.5, random_state=0)
    >>> same.tolist()
    [True, True, True, False, False, False]
    >>> bool(np.all((y[i] == y[j]) == same)), bool(np.all(i != j))
    (True, True)
    """
    y = np.asarray(y)
    rng = check_random_state(random_state)
    labels, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    n_pos = int(round(n_pairs * positive_fraction))
    eligible = np.flatnonzero(counts[inverse] >= 2)
    if n_pos and eligible.size == 0:
        raise ArgumentValueError("`y` has no label shared by two items: no same-label pairs to "
                                 "train on", "y")
    if n_pairs - n_pos and labels.size < 2:
        raise ArgumentValueError("`y` has a single label: no different-label pairs to train on",
                                 "y")
    members = [np.flatnonzero(inverse == c) for c in range(labels.size)]
    i_pos = rng.choice(eligible, size=n_pos)
    j_pos = np.empty(n_pos, dtype=np.int64)
    for t, a in enumerate(i_pos):
        group = members[inverse[a]]
        j_pos[t] = group[(np.searchsorted(group, a) + 1 + rng.randint(group.size - 1)) % group.size]
    n_neg = n_pairs - n_pos
    i_neg = rng.randint(y.size, size=n_neg)
    j_neg = rng.randint(y.size, size=n_neg)
    clash = inverse[i_neg] == inverse[j_neg]
    while clash.any():  # redraw partners until the labels differ
        j_neg[clash] = rng.randint(y.size, size=int(clash.sum()))
        clash = inverse[i_neg] == inverse[j_neg]
    i = np.concatenate([i_pos, i_neg]).astype(np.int64)
    j = np.concatenate([j_pos, j_neg]).astype(np.int64)
    return i, j, inverse[i] == inverse[j]


class PairwiseMLP(BaseEstimator):
    """Learn ``P(same label | a, b)`` with an MLP on ``[a, b, a * b]``.

    Parameters
    ----------
    hidden_layer_sizes : tuple of int, default=(64,)
        Units of each hidden layer.
    activation : {"relu", "tanh", "logistic"}, default="relu"
        Activation of the hidden layers.
    alpha : float, default=1e-4
        L2 penalty.
    n_pairs : int, default=20000
        Training pairs drawn from the labelled items.
    positive_fraction : float, default=0.5
        Share of same-label pairs among them.
    max_iter : int, default=200
        Epochs of the MLP's optimiser.
    random_state : int, RandomState or None, default=None
        Seeds the pairs and the MLP's initialisation.

    Attributes
    ----------
    mlp_ : sklearn.neural_network.MLPClassifier
    n_features_in_ : int
        Dimension ``d`` of one item embedding.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from lowdim.similarity import PairwiseMLP
    >>> X, y = make_blobs(300, n_features=4, centers=3, random_state=0)
    >>> model = PairwiseMLP(hidden_layer_sizes=(16,), n_pairs=3000, random_state=0).fit(X, y)
    >>> p = model.predict_proba_pairs(X[:4], X[4:8])
    >>> np.round(p, 1), (y[:4] == y[4:8]).astype(int)
    (array([0., 1., 0., 0.]), array([0, 1, 0, 0]))
    """

    def __init__(self, hidden_layer_sizes=(64,), activation="relu", alpha=1e-4, n_pairs=20000,
                 positive_fraction=0.5, max_iter=200, random_state=None):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.alpha = alpha
        self.n_pairs = n_pairs
        self.positive_fraction = positive_fraction
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        """Train on ``n_pairs`` pairs of rows of ``X`` labelled by whether ``y`` agrees.

        Parameters
        ----------
        X : array-like of shape (n, d)
            Item embeddings.
        y : array-like of shape (n,)
            Labels: a pair is positive when its two labels agree.

        Returns
        -------
        self : PairwiseMLP
            The fitted estimator.
        """
        if y is None:
            raise ArgumentValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None: "
                "`y` holds one class label per row of `X`", "y")
        if hasattr(X, "shape") and len(X.shape) == 2:
            check_label_count(y, X.shape[0])
        with naming("X"):
            X, y = check_X_y(X, y, dtype=np.float64)
        if X.shape[0] < 2:
            raise ArgumentValueError(f"`X` has n_samples = {X.shape[0]}; pairs need at least two "
                                     "items", "X")
        if self.activation not in ("relu", "tanh", "logistic"):
            raise ArgumentValueError("`activation` must be 'relu', 'tanh' or 'logistic', got "
                                     f"{self.activation!r}", "activation")
        check_number(self.n_pairs, "n_pairs", integer=True, minimum=2)
        if not 0.0 < check_number(self.positive_fraction, "positive_fraction") < 1.0:
            raise ArgumentValueError("`positive_fraction` must be in (0, 1), got "
                                     f"{self.positive_fraction!r}", "positive_fraction")
        check_number(self.alpha, "alpha", minimum=0.0)
        check_number(self.max_iter, "max_iter", integer=True, minimum=1)
        rng = check_random_state(self.random_state)
        i, j, same = sample_label_pairs(y, self.n_pairs, self.positive_fraction, rng)
        self.mlp_ = MLPClassifier(hidden_layer_sizes=self.hidden_layer_sizes,
                                  activation=self.activation, alpha=self.alpha,
                                  max_iter=self.max_iter, early_stopping=True,
                                  random_state=rng.randint(2**31 - 1))
        self.mlp_.fit(pair_features(X[i], X[j]), same.astype(np.int64))
        self.n_features_in_ = X.shape[1]
        return self

    def decision_pairs(self, A, B):
        """Logit of ``P(same | a, b)`` for rows ``a`` of ``A`` and ``b`` of ``B``.

        Parameters
        ----------
        A, B : array-like of shape (m, d)
            Paired item embeddings, row by row.

        Returns
        -------
        logits : ndarray of shape (m,)
            The MLP's logit of "same label" for each pair.
        """
        check_is_fitted(self, "mlp_")
        A = check_array(A, dtype=np.float64)
        B = check_array(B, dtype=np.float64)
        if A.shape != B.shape or A.shape[1] != self.n_features_in_:
            raise ArgumentValueError("`A` and `B` must both have shape (m, "
                                     f"{self.n_features_in_}), got {A.shape} and {B.shape}",
                                     ("A", "B"))
        h = pair_features(A, B)
        act = _ACTIVATIONS[self.mlp_.activation]
        for W, b in zip(self.mlp_.coefs_[:-1], self.mlp_.intercepts_[:-1]):
            h = act(h @ W + b)
        return (h @ self.mlp_.coefs_[-1] + self.mlp_.intercepts_[-1]).ravel()

    def predict_proba_pairs(self, A, B):
        """``P(same | a, b)`` for rows of ``A`` and ``B``.

        Parameters
        ----------
        A, B : array-like of shape (m, d)
            Paired item embeddings, row by row.

        Returns
        -------
        probabilities : ndarray of shape (m,)
            The MLP's probability of "same label" for each pair.
        """
        return _ACTIVATIONS["logistic"](self.decision_pairs(A, B))


def _mlp_pairs(model, X, score, i, j):
    f = model.decision_pairs if score == "logit" else model.predict_proba_pairs
    return 0.5 * (f(X[i], X[j]) + f(X[j], X[i]))


class PairwiseMLPOracle(SimilarityOracle):
    """Similarity of items under a trained :class:`PairwiseMLP`, symmetrised.

    ``K[i, j] = (f(x_i, x_j) + f(x_j, x_i)) / 2`` where ``f`` is the MLP's
    probability (or logit) that the two items share a label. The network
    itself is asymmetric; the oracle serves the symmetric part
    ``(K + K.T) / 2`` of its matrix, which is what the approximation methods
    (and the SMS-Nyström paper) work with. One counted evaluation therefore
    costs two forward passes.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Embeddings of the items whose similarity matrix is wanted.
    model : PairwiseMLP
        Fitted on labelled items (typically a disjoint training set).
    score : {"probability", "logit"}, default="probability"
    n_jobs, cache, chunk_size
        See :class:`~lowdim.similarity.SimilarityOracle` (threads: the
        forward pass runs in BLAS, which releases the GIL).

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from lowdim.similarity import PairwiseMLP, PairwiseMLPOracle
    >>> X, y = make_blobs(300, n_features=4, centers=3, random_state=0)
    >>> model = PairwiseMLP(hidden_layer_sizes=(16,), n_pairs=3000, random_state=0).fit(X, y)
    >>> oracle = PairwiseMLPOracle(X[:50], model)
    >>> K = oracle(np.arange(50), np.arange(50))
    >>> np.allclose(K, K.T), oracle.evaluations == 50 * 51 // 2
    (True, True)
    >>> bool(np.linalg.eigvalsh(K)[0] < 0)  # a learned similarity is rarely PSD
    True
    """

    def __init__(self, X, model, score="probability", n_jobs=1, cache=True, chunk_size=8192):
        super().__init__(n_jobs=n_jobs, cache=cache, chunk_size=chunk_size)
        check_is_fitted(model, "mlp_")
        check_choice(score, "score", SCORES)
        X = check_array(X, dtype=np.float64)
        if X.shape[1] != model.n_features_in_:
            raise ArgumentValueError(f"`X` has {X.shape[1]} features but `model` was fitted on "
                                     f"{model.n_features_in_}", "X")
        self.X, self.model, self.score = X, model, score
        self._n = X.shape[0]

    def _pair_task(self):
        return _mlp_pairs, (self.model, self.X, self.score)
