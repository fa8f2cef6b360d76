r"""Kernel CCA on Nyström or SMS-Nyström features, solved by AppGrad or exactly.

The two papers combined: each view's similarity matrix is approximated from
``n s`` evaluations (:mod:`lowdim.approx`), its items get the features
``z(x) = K(x, S_1) W`` with ``W W^T = (K[S_1, S_1] - \sigma I)^+`` (the
SMS-Nyström paper's feature map, :func:`lowdim.approx.features.feature_map`),
and linear CCA runs on the centred features (:class:`~lowdim.cca.AppGradCCA`
or :class:`~lowdim.cca.ExactCCA`). With features ``Z`` (``Z Z^T = \tilde K``),
ridge ``\lambda`` and ``w = Z_c^T \alpha``, the problem solved is the
regularised kernel CCA of ``\tilde K_c = H \tilde K H``:

.. math::

    \max_{\alpha, \beta}\ \alpha^\top \tilde K_{x,c} \tilde K_{y,c} \beta / n
    \quad \text{s.t.} \quad
    \alpha^\top (\tilde K_{x,c}^2 / n + \lambda \tilde K_{x,c}) \alpha = 1
    \ \text{(and the same for } \beta),

which is exact regularised kernel CCA when ``s = n`` and ``K`` is PSD
(:func:`exact_kernel_cca` solves it from the two ``n x n`` matrices).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
from sklearn.preprocessing import KernelCenterer

from .._validation import ArgumentValueError, check_matrix
from ..approx import nystrom, sms_nystrom
from ..approx._linalg import landmark_count
from ..approx.features import feature_map
from ..seeding import spawn_seeds
from ..similarity import SimilarityOracle
from ._base import BaseCCA, flip_signs, second_view
from ._validation import check_positive, check_view, check_views
from .appgrad import AppGradCCA
from .exact import ExactCCA

__all__ = ["KernelCCA", "exact_kernel_cca", "make_oracle"]

APPROXIMATIONS = ("nystrom", "sms_nystrom")
SOLVERS = ("appgrad", "exact")


def _stack_rows(A, B):
    """Rows of ``A`` then ``B``; CSR when either is sparse."""
    if sp.issparse(A) or sp.issparse(B):
        return sp.vstack([sp.csr_matrix(A), sp.csr_matrix(B)], format="csr")
    return np.vstack([A, B])


def make_oracle(kernel, rows, *, gamma=None, degree=3, coef0=1.0, n_jobs=1, name="kernel"):
    """A symmetric similarity oracle over ``rows``: a named kernel or an oracle factory's.

    Parameters
    ----------
    kernel : str or callable
        A :class:`~lowdim.similarity.KernelOracle` kernel name, or a factory
        ``kernel(rows) -> SimilarityOracle``.
    rows : ndarray or sparse matrix of shape (m, p)
        The items of the oracle, one per row.
    gamma, degree, coef0, n_jobs
        Of a named kernel (see :class:`~lowdim.similarity.KernelOracle`).
    name : str
        How errors refer to ``kernel``.

    Returns
    -------
    SimilarityOracle
        Over the ``m`` rows.

    Examples
    --------
    >>> from lowdim.cca.kernel import make_oracle
    >>> oracle = make_oracle("rbf", np.eye(3), gamma=0.5)
    >>> oracle([0, 1], [1, 2]).round(3), oracle.evaluations
    (array([[0.368, 0.368],
           [1.   , 0.368]]), 4)
    """
    from ..similarity.kernel import KernelOracle

    if not callable(kernel):
        return KernelOracle(rows, kernel, gamma=gamma, degree=degree, coef0=coef0, n_jobs=n_jobs)
    oracle = kernel(rows)
    if not isinstance(oracle, SimilarityOracle):
        raise ArgumentValueError(f"`{name}` is a callable, so it must return a SimilarityOracle; "
                                 f"it returned {type(oracle).__name__}", name)
    if oracle.n != rows.shape[0]:
        raise ArgumentValueError(f"`{name}` returned an oracle over {oracle.n} items for "
                                 f"{rows.shape[0]} rows", name)
    if not oracle.symmetric:
        raise ArgumentValueError(f"`{name}` returned a non-symmetric oracle; Nyström features "
                                 "need a symmetric similarity (symmetrise it, e.g. (K + K.T) / 2)",
                                 name)
    return oracle


class KernelCCA(BaseCCA):
    r"""Kernel CCA from ``O(n s)`` similarity evaluations: (SMS-)Nyström features + AppGrad.

    For each view, ``n_landmarks`` training rows ``S_1`` are drawn (the same
    rows in both views, since rows are paired) and every row gets the
    features ``z(x) = K(x, S_1) W``, with ``W W^T`` the pseudo-inverse of the
    landmark core ``K[S_1, S_1] - \sigma I`` restricted to its positive
    eigenvalues: ``\sigma = 0`` for ``approximation="nystrom"``,
    ``\sigma = alpha \min(0, \lambda_{\min}(K[S_2, S_2]))`` for
    ``"sms_nystrom"``. Features are centred by their training mean and linear
    CCA with ridge ``reg`` runs on them (see the module docstring for the
    problem in kernel form). A new row costs ``n_landmarks`` similarity
    evaluations per view; ``fit_transform`` reuses the training features.
    ``score`` (the mean canonical correlation of new rows' scores) and
    ``score_components`` (one correlation per component) are those of the
    other CCA estimators.

    Parameters
    ----------
    n_components : int, default=2
        Canonical pairs k; at most the rank of either view's features.
    kernel : str, callable or pair of them, default="rbf"
        Similarity of each view: one value for both views or ``(x, y)``.
        A string names a :class:`~lowdim.similarity.KernelOracle` kernel
        (``"rbf"``, ``"laplacian"``, ``"linear"``, ``"poly"``, ``"sigmoid"``,
        ``"cosine"``; scikit-learn's formulas; sparse input allowed). A
        callable is an oracle factory: ``kernel(rows)`` returns a symmetric
        :class:`~lowdim.similarity.SimilarityOracle` over the given rows,
        e.g. ``functools.partial(PairwiseMLPOracle, model=fitted_mlp)`` for the
        indefinite pairwise-MLP similarity; it is called on the training rows
        in ``fit`` and on ``[landmarks; new rows]`` in ``transform``.
    gamma : float, None or pair, default=None
        Width of ``rbf``, ``laplacian``, ``poly`` and ``sigmoid``; None picks it
        per view by :func:`~lowdim.similarity.median_gamma` on a seeded
        subsample of 200 training rows (``rbf``: ``1 / d^2`` with ``d`` the
        median pairwise distance). Ignored by the other kernels; must be None
        for a callable.
    degree : int, default=3
        Degree of ``poly``.
    coef0 : float, default=1.0
        Constant of ``poly`` and ``sigmoid``.
    n_landmarks : int, default=200
        Landmark rows s. ``s >= n_samples`` uses every training row, with a
        ``UserWarning``, as :func:`~lowdim.approx.nystrom` and
        :func:`~lowdim.approx.sms_nystrom` do: the full ``n x n`` matrix, i.e.
        exact kernel CCA for a PSD kernel.
    approximation : {"nystrom", "sms_nystrom"}, default="nystrom"
        Classic Nyström, or SMS-Nyström for indefinite similarities.
    multiplier : float, default=2
        SMS-Nyström: ``|S_2| = multiplier * s``, capped at ``n_samples``.
    alpha : float, default=1.5
        SMS-Nyström: safety factor of the shift.
    solver : {"appgrad", "exact"}, default="appgrad"
        CCA on the features: batch AppGrad (stochastic with ``batch_size``) or
        exact CCA (whitening + SVD of the ``s x s`` moments).
    reg : float, default=1e-3
        Ridge λ on each view's feature covariance, ``Z_c^T Z_c / n + λ I``.
    center : bool, default=True
        Centre the features by their training mean (centred kernel CCA). False
        keeps the uncentred moments of :mod:`lowdim.cca`.
    max_iter, tol, step_size, batch_size
        AppGrad's, see :class:`~lowdim.cca.AppGradCCA`; ignored by ``"exact"``.
    n_jobs : int, default=1
        Cores of a string kernel's oracle.
    random_state : int, RandomState instance or None, default=None
        Seeds the landmarks, the median heuristic and AppGrad.

    Attributes
    ----------
    landmark_indices_ : ndarray of int of shape (s,)
        Training rows used as landmarks (``S_1``), the same for both views.
    x_landmarks_, y_landmarks_ : ndarray or sparse of shape (s, p1), (s, p2)
        Their rows, kept for ``transform``.
    x_map_, y_map_ : ndarray of shape (s, r_x), (s, r_y)
        ``W``: features are ``K(x, S_1) @ W``.
    x_mean_, y_mean_ : ndarray of shape (r_x,), (r_y,)
        Training means of the features (zeros when ``center=False``).
    x_weights_, y_weights_ : ndarray of shape (r_x, k), (r_y, k)
        Canonical weights on the centred features.
    canonical_correlations_ : ndarray of shape (k,)
        Regularised canonical correlations on the training rows.
    gamma_ : tuple of (float or None)
        Width used per view.
    shift_ : tuple of float
        Core shift σ per view (0 for Nyström).
    feature_rank_ : tuple of int
        r_x, r_y: positive eigenvalues of each core kept.
    evaluations_ : tuple of int
        Similarity evaluations of ``fit`` per view: the approximation's
        distinct entries plus, with ``gamma=None``, the median heuristic's
        ``m (m - 1) / 2`` distances.
    cca_ : AppGradCCA or ExactCCA
        The fitted linear CCA on the features.
    n_iter_ : int
        AppGrad iterations run (1 for the exact solver: one direct solve).
    n_features_in_ : int
        Columns of ``X`` seen by ``fit``.
    feature_names_in_ : ndarray of str of shape (p1,)
        Column names of ``X`` seen by ``fit``, when it was a DataFrame with string column
        names (``Y``'s are not kept, as in scikit-learn's CCA).
    n_features_y_ : int
        Columns of ``Y`` seen by ``fit``.

    Notes
    -----
    Each view gets Nyström features of its similarity: with landmarks
    :math:`S_1` and :math:`WW^\top = (K_{S_1 S_1} - \sigma I)^{+}` (positive part),

    .. math::

        z(x) = K(x, S_1)\, W, \qquad Z Z^\top = \tilde K
        = K_{:, S_1} (K_{S_1 S_1} - \sigma I)^{+} K_{S_1, :},

    and linear CCA with ridge λ runs on the centred features :math:`Z_c`. With
    :math:`w = Z_c^\top \alpha` that is regularised kernel CCA of
    :math:`\tilde K_c = H\tilde K H`:

    .. math::

        \max_{\alpha, \beta}\ \frac{1}{n}\alpha^\top \tilde K_{x,c} \tilde K_{y,c} \beta
        \quad \text{s.t.} \quad
        \alpha^\top \Bigl(\frac{\tilde K_{x,c}^2}{n} + \lambda \tilde K_{x,c}\Bigr)\alpha
        = \beta^\top \Bigl(\frac{\tilde K_{y,c}^2}{n} + \lambda \tilde K_{y,c}\Bigr)\beta = 1,

    exact regularised kernel CCA (:func:`exact_kernel_cca`) when every row is a
    landmark and :math:`K` is PSD. Fitting costs about :math:`2ns` similarity
    evaluations per view instead of :math:`n^2`, and :math:`O(ns^2)` time.

    Examples
    --------
    >>> from lowdim.cca import KernelCCA
    >>> t = rng.uniform(0, 2 * np.pi, 600)
    >>> X = np.c_[np.cos(t), np.sin(t)] + 0.05 * rng.standard_normal((600, 2))
    >>> Y = np.c_[np.cos(2 * t), np.sin(2 * t)] + 0.05 * rng.standard_normal((600, 2))
    >>> kcca = KernelCCA(n_components=2, n_landmarks=50, random_state=0).fit(X[:500], Y[:500])
    >>> bool(kcca.score_components(X[500:], Y[500:])[0] > 0.9)
    True
    """

    def __init__(self, n_components=2, *, kernel="rbf", gamma=None, degree=3, coef0=1.0,
                 n_landmarks=200, approximation="nystrom", multiplier=2, alpha=1.5,
                 solver="appgrad", reg=1e-3, center=True, max_iter=1000, tol=1e-6,
                 step_size="auto", batch_size=None, n_jobs=1, random_state=None):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.n_landmarks = n_landmarks
        self.approximation = approximation
        self.multiplier = multiplier
        self.alpha = alpha
        self.solver = solver
        self.reg = reg
        self.center = center
        self.max_iter = max_iter
        self.tol = tol
        self.step_size = step_size
        self.batch_size = batch_size
        self.n_jobs = n_jobs
        self.random_state = random_state

    # -- parameters ---------------------------------------------------------------------
    def _per_view(self, value, name):
        """``(x, y)`` values of a parameter given once or as a pair."""
        if isinstance(value, (tuple, list)):
            if len(value) != 2:
                raise ArgumentValueError(f"`{name}` must be one value or a pair (x, y), got "
                                         f"{len(value)} values", name)
            return tuple(value)
        return (value, value)

    def _check_params(self):
        from ..similarity.kernel import KERNELS

        for kernel, gamma in zip(self._per_view(self.kernel, "kernel"),
                                 self._per_view(self.gamma, "gamma")):
            if not callable(kernel) and kernel not in KERNELS:
                raise ArgumentValueError(f"`kernel` must be one of {list(KERNELS)} or an oracle "
                                         f"factory (a callable), got {kernel!r}", "kernel")
            if callable(kernel) and gamma is not None:
                raise ArgumentValueError("`gamma` must be None for a callable kernel (the "
                                         f"factory sets its own similarity), got {gamma!r}",
                                         "gamma")
            if gamma is not None:
                check_positive(gamma, "gamma")
        check_positive(self.n_landmarks, "n_landmarks", integer=True)
        if self.approximation not in APPROXIMATIONS:
            raise ArgumentValueError(f"`approximation` must be one of {list(APPROXIMATIONS)}, "
                                     f"got {self.approximation!r}", "approximation")
        if self.solver not in SOLVERS:
            raise ArgumentValueError(f"`solver` must be one of {list(SOLVERS)}, got "
                                     f"{self.solver!r}", "solver")
        check_positive(self.reg, "reg", allow_zero=True)
        if check_positive(self.multiplier, "multiplier") < 1:
            raise ArgumentValueError("`multiplier` must be a number >= 1, got "
                                     f"{self.multiplier!r}", "multiplier")
        check_positive(self.alpha, "alpha", allow_zero=True)
        if not isinstance(self.center, (bool, np.bool_)):
            raise ArgumentValueError(f"`center` must be True or False, got {self.center!r}",
                                     "center")
        # checked whatever the solver, so a bad value never waits for a change of solver
        check_positive(self.max_iter, "max_iter", integer=True)
        check_positive(self.tol, "tol", allow_zero=True)

    # -- oracles ------------------------------------------------------------------------
    def _oracle(self, view, rows, gamma):
        """The similarity oracle of ``view`` (0 = x, 1 = y) over ``rows``."""
        return make_oracle(self._per_view(self.kernel, "kernel")[view], rows, gamma=gamma,
                           degree=self.degree, coef0=self.coef0, n_jobs=self.n_jobs,
                           name=f"kernel of view {'XY'[view]}")

    def _gamma(self, view, A, seed):
        """Width of ``view`` and the distances its heuristic evaluated."""
        from ..similarity.kernel import GAMMA_KERNELS, median_gamma

        kernel = self._per_view(self.kernel, "kernel")[view]
        gamma = self._per_view(self.gamma, "gamma")[view]
        if callable(kernel) or kernel not in GAMMA_KERNELS:
            return None, 0
        if gamma is not None:
            return float(gamma), 0
        return median_gamma(A, kernel, random_state=seed)

    # -- features -----------------------------------------------------------------------
    def _approximate(self, oracle, s, seed):
        """Nyström or SMS-Nyström of the training oracle with ``s <= n`` landmarks (``s = n``:
        every row, the whole matrix; SMS-Nyström caps ``|S_2|`` at ``n`` itself)."""
        if self.approximation == "nystrom":
            oracle.cache = False  # one block call: nothing is asked for twice
            return nystrom(oracle, s, seed)
        return sms_nystrom(oracle, s, seed, multiplier=self.multiplier, alpha=self.alpha)

    def _fit_view(self, view, A, s, seeds):
        """Landmarks, feature map and training features of one view."""
        gamma, heuristic = self._gamma(view, A, seeds[0])
        oracle = self._oracle(view, A, gamma)
        approx = self._approximate(oracle, s, seeds[1])
        fmap = feature_map(approx)
        Z = approx.left @ fmap.weights
        return {"gamma": gamma, "landmarks": fmap.columns, "map": fmap.weights, "Z": Z,
                "shift": float(approx.info.get("shift", 0.0)),
                "evaluations": int(approx.evaluations) + heuristic}

    # -- fitting ------------------------------------------------------------------------
    def fit(self, X, Y=None, y=None):
        """Fit the landmarks, the feature maps and the canonical weights.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view: the items of the first similarity. A DataFrame's column names
            are recorded in ``feature_names_in_``.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows.
        y : array-like or scipy.sparse matrix of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling (``Y`` is used when both are given).

        Returns
        -------
        self : KernelCCA
            The fitted estimator.
        """
        self._fit(X, second_view(Y, y))
        return self

    def fit_transform(self, X, Y=None, y=None):
        """Fit, then return ``(x_scores, y_scores)`` of the training rows.

        Reuses the training features of ``fit``: no similarity is evaluated
        again (``fit(X, Y).transform(X, Y)`` would cost ``n_landmarks`` more
        per row and view).

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, p1)
            First view.
        Y : array-like or scipy.sparse matrix of shape (n_samples, p2)
            Second view, the same rows.
        y : array-like or scipy.sparse matrix of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling.

        Returns
        -------
        x_scores, y_scores : ndarray of shape (n_samples, n_components)
            Canonical scores of the training rows.
        """
        Zx, Zy = self._fit(X, second_view(Y, y))
        return Zx @ self.x_weights_, Zy @ self.y_weights_

    def _fit(self, X, Y):
        """Fit; return the centred training features of both views."""
        X_in = X
        X, Y = check_views(X, Y)
        self._check_params()
        k = check_positive(self.n_components, "n_components", integer=True)
        seeds = spawn_seeds(self.random_state, 4)  # gamma of x, gamma of y, landmarks, CCA
        # n_landmarks >= n: every row, with a warning, as the Nyström functions do
        s = landmark_count(self.n_landmarks, X.shape[0], "n_landmarks", stacklevel=4)
        # the same landmark seed in both views: the same rows S1 (the views are paired)
        views = [self._fit_view(v, A, s, (seeds[v], seeds[2])) for v, A in enumerate((X, Y))]
        for name, fitted in zip("XY", views):
            if k > fitted["Z"].shape[1]:
                raise ArgumentValueError(f"`n_components` = {k} exceeds the rank of the {name} "
                                         f"features (r = {fitted['Z'].shape[1]} positive "
                                         "eigenvalues of the landmark core; raise `n_landmarks` "
                                         "or lower `n_components`)", "n_components")
        means = [f["Z"].mean(axis=0) if self.center else np.zeros(f["Z"].shape[1]) for f in views]
        Zx, Zy = views[0]["Z"] - means[0], views[1]["Z"] - means[1]
        cca = self._make_cca(k, seeds[3]).fit(Zx, Zy)
        self._record_views(X_in, Y)  # X as given: a DataFrame's column names
        self.cca_ = cca
        self._set_fitted(X, Y, views, means)
        return Zx, Zy

    def _make_cca(self, k, seed):
        if self.solver == "exact":
            return ExactCCA(k, reg=self.reg)
        return AppGradCCA(k, reg=self.reg, step_size=self.step_size, max_iter=self.max_iter,
                          tol=self.tol, batch_size=self.batch_size, random_state=int(seed))

    def _set_fitted(self, X, Y, views, means):
        fx, fy = views
        self.landmark_indices_ = fx["landmarks"]
        self.x_landmarks_, self.y_landmarks_ = X[fx["landmarks"]], Y[fy["landmarks"]]
        self.x_map_, self.y_map_ = fx["map"], fy["map"]
        self.x_mean_, self.y_mean_ = means
        self.x_weights_, self.y_weights_ = self.cca_.x_weights_, self.cca_.y_weights_
        self.canonical_correlations_ = self.cca_.canonical_correlations_
        self.gamma_ = (fx["gamma"], fy["gamma"])
        self.shift_ = (fx["shift"], fy["shift"])
        self.feature_rank_ = (fx["Z"].shape[1], fy["Z"].shape[1])
        self.evaluations_ = (fx["evaluations"], fy["evaluations"])
        self.n_iter_ = int(getattr(self.cca_, "n_iter_", 1))

    # -- projecting ---------------------------------------------------------------------
    def _features(self, view, A):
        """Centred features of new rows: ``n_landmarks`` evaluations per row."""
        landmarks = self.x_landmarks_ if view == 0 else self.y_landmarks_
        oracle = self._oracle(view, _stack_rows(landmarks, A), self.gamma_[view])
        s = landmarks.shape[0]
        similarities = oracle(np.arange(s, s + A.shape[0]), np.arange(s))
        W, mean = (self.x_map_, self.x_mean_) if view == 0 else (self.y_map_, self.y_mean_)
        return similarities @ W - mean

    def transform(self, X, Y=None, y=None):
        """Canonical scores of new rows (``n_landmarks`` similarity evaluations each, per view).

        Parameters
        ----------
        X : array-like or sparse of shape (n_samples, p1)
            New rows of the first view (a DataFrame's columns by name, in ``fit``'s order).
        Y : array-like or sparse of shape (n_samples, p2), optional
            New rows of the second view; scored too when given.
        y : array-like or sparse of shape (n_samples, p2), optional
            An alias of ``Y`` for scikit-learn's tooling (``Y`` is used when both are given).

        Returns
        -------
        x_scores : ndarray of shape (n_samples, n_components)
            With ``Y``, the tuple ``(x_scores, y_scores)``. With
            ``set_output(transform="pandas")``, ``x_scores`` is a DataFrame with the
            columns ``get_feature_names_out()`` (``y_scores`` stays an array).
        """
        return self._project(X, second_view(Y, y))

    def _project(self, X, Y=None):
        """``transform`` without ``set_output``'s container: arrays."""
        x_scores = self._features(0, self._check_x(X)) @ self.x_weights_
        if Y is None:
            return x_scores
        Y = check_view(Y, "Y", self.n_features_y_)
        return x_scores, self._features(1, Y) @ self.y_weights_


def _regularised_root(Kc, reg):
    """Eigenpairs of ``Kc`` (positive part) and ``R = (Kc (Kc + n λ I)^{-1})^{1/2}``."""
    n = Kc.shape[0]
    w, U = la.eigh(Kc, overwrite_a=False, check_finite=False)
    keep = w > n * np.finfo(float).eps * max(w[-1], 0.0)
    w, U = w[keep], U[:, keep]
    R = (U * np.sqrt(w / (w + n * reg))) @ U.T
    return w, U, R


def exact_kernel_cca(Kx, Ky, n_components, *, reg, center=True):
    r"""Exact regularised kernel CCA from the two ``n x n`` training kernel matrices.

    Solves the problem of :mod:`lowdim.cca.kernel` on ``K_c = H K H`` (or
    ``K`` with ``center=False``): with ``K_c = U \Lambda U^T`` (positive
    part) and ``R = U (\Lambda / (\Lambda + n \lambda))^{1/2} U^T``, the
    regularised canonical correlations are the singular values of
    ``R_x R_y = A D B^T``, and the dual weights are
    ``\alpha = U (\Lambda^2 / n + \lambda \Lambda)^{-1/2} U^T A`` (the same for
    ``\beta``). ``O(n^3)`` time and ``O(n^2)`` memory: the reference that
    :class:`KernelCCA` avoids.

    Parameters
    ----------
    Kx, Ky : ndarray of shape (n, n)
        Symmetric PSD kernel matrices of the training rows (their negative
        eigenvalues, if any, are dropped).
    n_components : int
        Canonical pairs k.
    reg : float
        Ridge λ, as :class:`KernelCCA`'s ``reg``; must be positive.
    center : bool, default=True
        Centre the kernels in feature space, ``H K H`` (centred kernel CCA).

    Returns
    -------
    rho : ndarray of shape (k,)
        Regularised canonical correlations.
    alpha, beta : ndarray of shape (n, k)
        Dual weights: the scores of a row ``x`` are ``k_c(x)^T alpha`` with
        ``k_c(x)`` its kernel row to the training rows, centred like ``K``
        (:class:`sklearn.preprocessing.KernelCenterer` fitted on ``K``).

    Examples
    --------
    >>> from sklearn.metrics.pairwise import rbf_kernel
    >>> from lowdim.cca import exact_kernel_cca
    >>> t = rng.uniform(0, 2 * np.pi, 300)
    >>> X = np.c_[np.cos(t), np.sin(t)] + 0.05 * rng.standard_normal((300, 2))
    >>> Y = np.c_[np.cos(2 * t), np.sin(2 * t)] + 0.05 * rng.standard_normal((300, 2))
    >>> rho, alpha, beta = exact_kernel_cca(rbf_kernel(X), rbf_kernel(Y), 2, reg=1e-3)
    >>> rho.round(2), alpha.shape
    (array([0.98, 0.98]), (300, 2))
    """
    # the matrices first (NaN, shape), then the parameters
    Kx = check_matrix(Kx, "Kx", square=True, accept_sparse=False)
    Ky = check_matrix(Ky, "Ky", square=True, accept_sparse=False)
    reg = check_positive(reg, "reg")
    k = check_positive(n_components, "n_components", integer=True)
    duals = []
    for name, K in (("Kx", Kx), ("Ky", Ky)):
        if K.shape[0] != Kx.shape[0]:
            raise ArgumentValueError(f"`{name}` must be a square matrix of the n = "
                                     f"{Kx.shape[0]} training rows, got shape {K.shape}", name)
        Kc = KernelCenterer().fit_transform(K) if center else K
        duals.append(_regularised_root((Kc + Kc.T) / 2.0, reg))
    n = np.shape(Kx)[0]
    A, rho, Bt = la.svd(duals[0][2] @ duals[1][2], check_finite=False)
    weights = []
    for (w, U, _), V in ((duals[0], A[:, :k]), (duals[1], Bt[:k].T)):
        weights.append((U / np.sqrt(w * w / n + reg * w)) @ (U.T @ V))
    alpha, beta = flip_signs(*weights)
    return rho[:k], alpha, beta
