"""Every public estimator and approximation function refuses bad input by name.

One table, :data:`CASES`: for each callable, every argument under test with a
good value and the bad values hypothesis draws for it (wrong types, NaN and
inf, empty, wrong shapes, out of range). Each test calls the callable with one
argument bad and the others good, and asserts a ValueError or TypeError whose
message names that argument and that is about it (``lowdim._validation.arguments_of``,
which a workflow job maps to a config key). A new estimator is one more ``case(...)``
line; a new parameter of an existing one is one more keyword in its line.
"""

from __future__ import annotations

import inspect
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from lowdim._validation import arguments_of
from lowdim.approx import (lambda_min, nystrom, optimal, pinv,
                           pinv_symmetric, relative_frobenius_error, shifted_nystrom_exact,
                           sicur, sms_nystrom, stacur)
from lowdim.approx._linalg import EIGEN_SOLVERS as eigen_solver_choices
from lowdim.approx.cur import STACUR_ROWS
from lowdim.approx.features import eigen_feature_map, feature_map, sicur_feature_map
from lowdim.approx.wme import random_documents, wme_features
from lowdim.cca import (DWCCA, NWCCA, PCACCA, AppGradCCA, ExactCCA, KernelCCA, RandomizedCCA,
                        canonical_correlations, exact_kernel_cca)
from lowdim.cca._linalg import NORMALIZATIONS
from lowdim.cca.appgrad import STOCHASTIC_SOLVERS
from lowdim.cca.kernel import APPROXIMATIONS, SOLVERS
from lowdim.cca.methods import EXACT_METHODS
from lowdim.similarity.kernel import GAMMA_KERNELS, KERNELS
from lowdim.embedding import (ClassicalMDS, IsomapEmbedding, LaplacianEigenmaps, LLEEmbedding,
                              MDSEmbedding, PCAEmbedding, UMAPEmbedding, Vec2Vec, classical_mds,
                              cosine_knn_graph)
from lowdim.embedding.cooccurrence import cooccurrence_sgns, window_cooccurrences
from lowdim.embedding.graph import GRAPH_METRICS, KNN_MODES
from lowdim.embedding.spectral import spectral_start
from lowdim.embedding.vec2vec import INITS as VEC2VEC_INITS
from lowdim.embedding.vec2vec import SOLVERS as VEC2VEC_SOLVERS
from lowdim.evaluate.svm import TunedSVM
from lowdim.similarity import DenseOracle, KernelOracle, PairwiseMLP, median_gamma

RNG = np.random.default_rng(0)
N = 30                                   # samples of the embedding and classifier data
X_EMB = RNG.normal(size=(N, 5))
LABELS = np.arange(N) % 2
A = RNG.normal(size=(20, 4))
K = A @ A.T - 0.5 * np.eye(20)           # a symmetric indefinite 20 x 20 similarity matrix
APPROX = nystrom(K, 5, random_state=0)
X_CCA = RNG.normal(size=(40, 5))
Y_CCA = np.hstack([X_CCA[:, :2] + 0.3 * RNG.normal(size=(40, 2)), RNG.normal(size=(40, 2))])
S_WME = RNG.uniform(0.1, 1.0, size=(N, 8))
GRAM = X_EMB @ X_EMB.T
SQUARED_DISTANCES = ((X_EMB[:, None] - X_EMB[None]) ** 2).sum(-1)
WALKS = np.tile(np.arange(10), 6).reshape(12, 5)   # 12 walks of length 5 visiting nodes 0..9
GRAPH = np.roll(np.eye(12), 1, axis=1) + np.roll(np.eye(12), -1, axis=1)  # a ring of 12 nodes


# -- bad values, by kind of argument ------------------------------------------------------
def _not_numbers(none_ok):
    values = [st.text(max_size=4), st.booleans(), st.lists(st.integers(), min_size=1, max_size=2),
              st.just(object()), st.just(np.array([1.0, 2.0]))]
    return values if none_ok else values + [st.none()]


def count(good, minimum=1, below=None, none_ok=False):
    """An integer ``>= minimum`` (and ``< below``): floats, strings, bools, too small, too big."""
    bad = [st.integers(max_value=minimum - 1), st.floats(), *_not_numbers(none_ok)]
    if below is not None:
        bad.append(st.integers(min_value=below, max_value=below + 10**6))
    return good, st.one_of(bad)


def real(good, minimum=None, maximum=None, bounds_ok=True, none_ok=False):
    """A finite number within the bounds (themselves allowed when ``bounds_ok``): NaN, inf,
    strings, bools, out of range."""
    bad = [st.sampled_from([np.nan, np.inf, -np.inf]), *_not_numbers(none_ok)]
    if minimum is not None:
        bad.append(st.floats(max_value=minimum, exclude_max=bounds_ok, allow_nan=False,
                             allow_infinity=False))
    if maximum is not None:
        bad.append(st.floats(min_value=maximum, exclude_min=bounds_ok, allow_nan=False,
                             allow_infinity=False))
    return good, st.one_of(bad)


def choice(good, options):
    """One of ``options``: any other text, numbers, None."""
    return good, st.one_of(st.text(max_size=8).filter(lambda t: t not in options),
                           st.integers(), st.floats(), st.none())


def _with_entry(M, i, j, value):
    M = np.array(M, dtype=float)
    M[i % M.shape[0], j % M.shape[1]] = value
    return M


def matrix(good, square=False, two_d_only=True):
    """A finite 2-D matrix: NaN/inf entries, empty, 1-D or 3-D, text, None, not square."""
    bad = [st.tuples(st.integers(0, 99), st.integers(0, 99),
                     st.sampled_from([np.nan, np.inf, -np.inf]))
           .map(lambda t: _with_entry(good, *t)),
           st.just(sp.csr_matrix(_with_entry(good, 0, 0, np.nan))),
           st.just(np.empty((0, good.shape[1]))), st.just(good[None]),
           st.just(np.full(good.shape, "a")), st.text(max_size=4), st.none(),
           st.just(good[:-1]) if square else st.nothing()]
    if two_d_only:
        bad.append(st.just(good[0]))
    if square:
        bad.append(st.just(good[:, :-1]))
    return good, st.one_of(bad)


def second_view(good):
    """The second view ``Y``: also fewer rows than ``X``."""
    _, bad = matrix(good, two_d_only=False)
    return good, st.one_of(bad, st.just(good[:-1]), st.just(good[0]))


def labels(good):
    """Class labels: wrong length, None."""
    return good, st.one_of(st.just(good[:-1]), st.none())


def approximation(good):
    """A LowRankApprox: arrays, text, None instead."""
    return good, st.one_of(st.just(K), st.none(), st.text(max_size=3), st.integers())


def sequence_of_positive_numbers(good):
    """A grid of positive numbers: empty, non-positive, text."""
    return good, st.one_of(st.just([]), st.lists(st.floats(max_value=0), min_size=1, max_size=3),
                           st.just(["a"]), st.text(min_size=1, max_size=3),
                           st.just([np.nan]))


def walks(good):
    """Walks: float ids, negative ids, ids beyond n_nodes, 1-D, too short, text, None, sparse."""
    return good, st.one_of(st.just(good.astype(float)), st.just(good - 1), st.just(good + 1),
                           st.just(good[0]), st.just(good[:, :1]), st.text(max_size=3),
                           st.none(), st.just(sp.csr_matrix(good)))


def start_vectors(n, d):
    """``init`` of ``cooccurrence_sgns``: None or an (n, d) array; wrong shapes, NaN, text."""
    return None, st.one_of(st.just(np.zeros((n, d + 1))), st.just(np.zeros((n - 1, d))),
                           st.just(np.full((n, d), np.nan)), st.just(np.zeros(n * d)),
                           st.text(min_size=1, max_size=3))


def threads(good=None):
    """``n_jobs``: 0, fractional, text, bool."""
    return good, st.one_of(st.just(0), st.floats(), st.text(max_size=3), st.booleans())


def iterations(good):
    """AppGrad ``checkpoints``: text, non-positive or fractional iteration numbers."""
    return good, st.one_of(st.text(min_size=1, max_size=3), st.integers(max_value=0),
                           st.lists(st.integers(max_value=0), min_size=1, max_size=3),
                           st.just([1.5]), st.booleans(), st.floats())


def step(good):
    """``step_size``: 'auto' or a positive number."""
    return good, st.one_of(real(good, minimum=0.0, bounds_ok=False)[1], st.text(max_size=4).filter(
        lambda t: t != "auto"))


# -- how each callable is called ------------------------------------------------------------
def fit(cls, data=("X",)):
    """``cls(**params).fit(*data)``, with the data arguments named in ``data``."""
    def call(**kwargs):
        arrays = [kwargs.pop(name) for name in data]
        return cls(**kwargs).fit(*arrays)
    call.__name__ = cls.__name__
    call.required = data  # what a call cannot do without; every parameter has a default
    return call


def case(name, call, heavy=False, **arguments):
    """One callable: each keyword is an argument, ``(good value, strategy of bad values)``."""
    return {"name": name, "call": call, "heavy": heavy, "arguments": arguments}


_EMBED = dict(X=matrix(X_EMB), n_components=count(2, below=N))
_CCA = dict(X=matrix(X_CCA), Y=second_view(Y_CCA), n_components=count(2, below=5),
            reg=real(0.005, minimum=0.0))
_HEURISTIC = dict(_CCA, oversample=count(5, minimum=0), n_iter=count(2, minimum=0))
_APPGRAD = dict(_CCA, step_size=step("auto"), max_iter=count(5), tol=real(1e-6, minimum=0.0),
                precompute=choice("auto", ("auto", True, False)), checkpoints=iterations(None),
                normalization=choice("paper", NORMALIZATIONS))
_ORACLE = dict(oracle=matrix(K, square=True), s=count(5, below=20),
               rtol=real(None, minimum=0.0, none_ok=True))
# Nyström's s >= n uses every item, with a warning (KernelCCA's n_landmarks alike): not bad
_NYSTROM = dict(_ORACLE, s=count(5))

#: The table: every public estimator and approximation function, argument by argument.
CASES = [
    case("nystrom", nystrom, **_NYSTROM),
    case("sms_nystrom", sms_nystrom, **_NYSTROM, multiplier=real(2, minimum=1),
         alpha=real(1.5, minimum=0),
         eigen_solver=choice("auto", eigen_solver_choices)),
    case("shifted_nystrom_exact", shifted_nystrom_exact, **_NYSTROM,
         lambda_min_K=real(None, none_ok=True)),
    case("sicur", sicur, **{**_ORACLE, "s": count(5, minimum=2, below=20)}),
    case("stacur", stacur, **_ORACLE, rows=choice("same", STACUR_ROWS)),
    case("optimal", optimal, oracle=_ORACLE["oracle"], s=_ORACLE["s"]),
    case("relative_frobenius_error", relative_frobenius_error, approx=approximation(APPROX),
         oracle=(K, st.one_of(matrix(K, square=True)[1], st.just(np.eye(21)))),
         block_rows=count(8)),
    case("feature_map", feature_map, approx=approximation(APPROX),
         rtol=_ORACLE["rtol"]),
    case("sicur_feature_map", sicur_feature_map,
         **{**_ORACLE, "s": count(5, minimum=2, below=20)}),
    case("eigen_feature_map", eigen_feature_map, K=matrix(K, square=True),
         rank=count(3, below=21)),
    case("lambda_min", lambda_min, W=matrix(K, square=True),
         solver=choice("dense", eigen_solver_choices)),
    case("pinv", pinv, A=matrix(A), rtol=_ORACLE["rtol"]),
    case("pinv_symmetric", pinv_symmetric, W=matrix(K, square=True), rtol=_ORACLE["rtol"]),
    case("wme_features", wme_features, S=matrix(S_WME), gamma=real(0.5, minimum=0.0, bounds_ok=False),
         n_components=count(4, below=9, none_ok=True)),
    case("random_documents", random_documents, n_docs=count(3), d_max=count(2), dim=count(4),
         low=real(-1.0), high=real(1.0)),
    case("KernelOracle", KernelOracle, X=matrix(X_EMB), kernel=choice("rbf", KERNELS),
         gamma=real(0.5, minimum=0.0, bounds_ok=False)),
    case("median_gamma", median_gamma, X=matrix(X_EMB), kernel=choice("rbf", GAMMA_KERNELS),
         n_samples=count(200, minimum=2)),
    case("DenseOracle", DenseOracle, K=matrix(K, square=True), chunk_size=count(64),
         n_jobs=(1, st.one_of(st.integers(max_value=-2), st.just(0), st.floats(),
                              st.text(max_size=3), st.booleans()))),
    case("Vec2Vec", fit(Vec2Vec), **_EMBED, topk=count(3, below=N),
         walks_per_node=count(2), walk_length=count(5, minimum=2), window=count(3),
         epochs=count(1), negative=count(2), sample=real(1e-3, minimum=0.0),
         knn=choice("exact", KNN_MODES), metric=choice("cosine", GRAPH_METRICS),
         solver=choice("gensim", VEC2VEC_SOLVERS),
         alpha=real(None, minimum=0.0, bounds_ok=False, none_ok=True), n_jobs=threads()),
    case("Vec2Vec co-occurrence", fit(Vec2Vec), **_EMBED, solver=("cooccurrence", st.nothing()),
         topk=count(3, below=N), window=count(3), negative=count(2),
         sample=real(1e-3, minimum=0.0),
         updates_per_node=real(20, minimum=0.0, bounds_ok=False),
         alpha=real(0.1, minimum=0.0, bounds_ok=False, none_ok=True),
         init=choice("spectral", VEC2VEC_INITS), n_jobs=threads()),
    case("cooccurrence_sgns", cooccurrence_sgns, walks=walks(WALKS),
         n_nodes=count(10, below=11), n_components=count(2), window=count(2),
         negative=count(2), sample=real(1e-3, minimum=0.0),
         updates_per_node=real(5, minimum=0.0, bounds_ok=False),
         alpha=real(0.1, minimum=0.0, bounds_ok=False), min_alpha=real(1e-4, minimum=0.0),
         seed=(0, st.nothing()), init=start_vectors(10, 2), n_jobs=count(1)),
    case("spectral_start", spectral_start, graph=matrix(GRAPH, square=True),
         n_components=count(2, below=None), scale=real(0.5, minimum=0.0, bounds_ok=False)),
    case("window_cooccurrences", window_cooccurrences, walks=walks(WALKS),
         n_nodes=count(10, minimum=10), window=count(2), n_jobs=count(1)),
    case("cosine_knn_graph", cosine_knn_graph, X=matrix(X_EMB), topk=count(3, below=N),
         knn=choice("exact", KNN_MODES)),
    case("classical_mds", classical_mds, squared_distances=matrix(SQUARED_DISTANCES, square=True),
         n_components=count(2, below=N + 1)),
    case("MDSEmbedding", fit(MDSEmbedding), **_EMBED, n_init=count(1), max_iter=count(10),
         n_jobs=threads()),
    case("PCAEmbedding", fit(PCAEmbedding), X=_EMBED["X"], n_components=count(2, below=6)),
    case("ClassicalMDS", fit(ClassicalMDS), **_EMBED),
    case("IsomapEmbedding", fit(IsomapEmbedding), **_EMBED, n_neighbors=count(5, below=N)),
    case("LLEEmbedding", fit(LLEEmbedding), X=_EMBED["X"], n_components=count(2, below=6),
         n_neighbors=count(6, below=N)),
    case("LaplacianEigenmaps", fit(LaplacianEigenmaps), X=_EMBED["X"],
         n_components=count(2, below=N - 1), n_neighbors=count(5, below=N, none_ok=True)),
    case("UMAPEmbedding", fit(UMAPEmbedding), heavy=True, **_EMBED,
         n_neighbors=count(5, below=N), min_dist=real(0.1, minimum=0.0)),
    case("ExactCCA", fit(ExactCCA, ("X", "Y")), **_CCA,
         method=choice("auto", EXACT_METHODS)),
    case("AppGradCCA", fit(AppGradCCA, ("X", "Y")), **_APPGRAD,
         normalization_size=(None, st.one_of(st.integers(), st.text(max_size=3)))),
    case("AppGradCCA stochastic", fit(AppGradCCA, ("X", "Y")), **_APPGRAD,
         batch_size=count(10, below=41),
         normalization_size=count(20, minimum=2, below=41, none_ok=True),
         stochastic_solver=choice("lazy", tuple(STOCHASTIC_SOLVERS))),
    case("AppGradCCA early stopping", fit(AppGradCCA, ("X", "Y")), **_APPGRAD,
         early_stopping=choice(True, (True, False)),
         validation_fraction=real(0.25, minimum=0.0, maximum=1.0, bounds_ok=False),
         n_iter_no_change=count(2)),
    # its features have n_landmarks (10) columns, not p: n_components up to 10 can be valid
    case("KernelCCA", fit(KernelCCA, ("X", "Y")), **{**_CCA, "n_components": count(2, below=11)},
         kernel=choice("rbf", tuple(KERNELS)), n_landmarks=count(10),  # s >= n uses every row (documented)
         approximation=choice("nystrom", APPROXIMATIONS), solver=choice("exact", SOLVERS),
         max_iter=count(5)),
    case("exact_kernel_cca", exact_kernel_cca, Kx=matrix(GRAM, square=True),
         Ky=matrix(GRAM, square=True), n_components=count(2), reg=real(0.1, minimum=0.0,
                                                                        bounds_ok=False)),
    case("canonical_correlations", canonical_correlations, A=matrix(X_CCA),
         B=second_view(Y_CCA)),
    case("NWCCA", fit(NWCCA, ("X", "Y")), **_HEURISTIC),
    case("DWCCA", fit(DWCCA, ("X", "Y")), **_HEURISTIC),
    case("PCACCA", fit(PCACCA, ("X", "Y")), **_HEURISTIC, n_pca_components=count(3, minimum=2)),
    case("RandomizedCCA", fit(RandomizedCCA, ("X", "Y")), **_CCA,
         oversample=count(5, minimum=0), n_passes=count(1)),
    case("TunedSVM", fit(TunedSVM, ("X", "y")), X=matrix(X_EMB), y=labels(LABELS),
         kernel=choice("linear", ("linear", "precomputed")), C_grid=sequence_of_positive_numbers(
             (1.0,)), n_folds=count(2, minimum=2), max_iter=count(100)),
    case("TunedSVM precomputed", fit(TunedSVM, ("X", "y")), X=matrix(GRAM, square=True),
         y=labels(LABELS), kernel=("precomputed", st.nothing())),
    case("PairwiseMLP", fit(PairwiseMLP, ("X", "y")), X=matrix(X_EMB), y=labels(LABELS),
         activation=choice("relu", ("relu", "tanh", "logistic")), n_pairs=count(40, minimum=2),
         positive_fraction=real(0.5, minimum=0.0, maximum=1.0, bounds_ok=False),
         alpha=real(1e-4, minimum=0.0), max_iter=count(5)),
]

ROWS = [(c, argument) for c in CASES for argument in c["arguments"]
        if not c["arguments"][argument][1].is_empty]


def _good(c) -> dict:
    return {name: good for name, (good, _) in c["arguments"].items()}


def _names(message: str, argument: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(argument)}(?![\w])", message) is not None


@pytest.mark.parametrize("c", [c for c in CASES if not c["heavy"]], ids=lambda c: c["name"])
def test_good_values_are_accepted(c):
    # Without this, a "good" value that is really bad would make every row of its
    # callable pass for the wrong reason.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c["call"](**_good(c))


@pytest.mark.parametrize("c, argument", ROWS, ids=[f"{c['name']}-{a}" for c, a in ROWS])
@given(data=st.data())
def test_bad_value_is_refused_by_name(c, argument, data):
    bad = data.draw(c["arguments"][argument][1], label=argument)
    kwargs = {**_good(c), argument: bad}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError)) as info:
            c["call"](**kwargs)
    assert _names(str(info.value), argument), \
        f"{c['name']}({argument}={bad!r}) raised {info.value!r}, which does not name {argument!r}"
    # ... and says so in `argument`, which a workflow job maps to its config key
    assert argument in arguments_of(info.value), \
        f"{c['name']}({argument}={bad!r}) raised {info.value!r} about {arguments_of(info.value)}"


def _required(c) -> tuple:
    """The arguments a call cannot go without (the rest keep their defaults)."""
    if hasattr(c["call"], "required"):
        return c["call"].required
    parameters = inspect.signature(c["call"]).parameters.values()
    return tuple(p.name for p in parameters if p.default is inspect.Parameter.empty
                 and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


NAN_ROWS = [(c, argument) for c in CASES if not c["heavy"] for argument in _required(c)
            if isinstance(c["arguments"][argument][0], np.ndarray)
            and c["arguments"][argument][0].ndim == 2
            and c["arguments"][argument][0].dtype.kind == "f"]  # walks are ids: no NaN there


@pytest.mark.parametrize("c, argument", NAN_ROWS, ids=[f"{c['name']}-{a}" for c, a in NAN_ROWS])
def test_nan_in_the_data_is_reported_before_any_defaulted_parameter(c, argument):
    """Only what the call requires, every other argument at its default, and a NaN in the
    data: the error is about the data, not about a default that needs the data first
    (``KernelOracle(X, "rbf")`` without ``gamma`` reported the missing gamma)."""
    kwargs = {name: _good(c)[name] for name in _required(c)}
    kwargs[argument] = _with_entry(kwargs[argument], 1, 0, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError) as info:
            c["call"](**kwargs)
    assert arguments_of(info.value) == (argument,) or argument in arguments_of(info.value), \
        f"{c['name']}: NaN in {argument!r} reported as {info.value!r}"
    assert "nan" in str(info.value).lower(), info.value


def test_kernel_oracle_reports_nan_before_the_missing_gamma():
    bad = _with_entry(X_EMB, 2, 3, np.nan)
    with pytest.raises(ValueError, match=r"`X` contains non-finite values, first X\[2, 3\] = nan"):
        KernelOracle(bad, "rbf")
    with pytest.raises(ValueError, match="`gamma` must be a positive number for the 'rbf' kernel"):
        KernelOracle(X_EMB, "rbf")  # the data is fine: now the missing gamma is the error


# -- the inputs users tried (issue 13) --------------------------------------------------------
def test_a_sparse_similarity_matrix_is_approximated_as_its_dense_form():
    sparse = sp.csr_matrix(np.where(np.abs(K) > 0.5, K, 0.0))
    dense = sparse.toarray()
    for method in (nystrom, sms_nystrom, sicur, stacur, shifted_nystrom_exact, optimal):
        approx_sparse = method(sparse, 6, random_state=3)
        approx_dense = method(dense, 6, random_state=3)
        np.testing.assert_allclose(approx_sparse.to_dense(), approx_dense.to_dense(),
                                   atol=1e-10)
        assert relative_frobenius_error(approx_sparse, sparse) == pytest.approx(
            relative_frobenius_error(approx_dense, dense), rel=1e-10)
    oracle = DenseOracle(sparse)
    assert sp.issparse(oracle.K) and oracle.symmetric


@pytest.mark.parametrize("call, message", [
    (lambda: sms_nystrom(K, 5, multiplier="2"), r"`multiplier` must be a number >= 1, got '2'"),
    (lambda: nystrom(K, 5, rtol="x"), r"`rtol` must be a number >= 0.0 or None, got 'x'"),
    (lambda: nystrom(K, 5, rtol=-1), r"`rtol` must be a number >= 0.0, got -1"),
    (lambda: AppGradCCA(2, checkpoints="x").fit(X_CCA, Y_CCA),
     r"`checkpoints` must be positive iteration numbers .*got 'x'"),
    (lambda: AppGradCCA(2, normalization_size=30).fit(X_CCA, Y_CCA),
     r"`normalization_size` = 30 is used by stochastic AppGrad only; set `batch_size`"),
    (lambda: relative_frobenius_error(K, APPROX), r"`approx` must be a LowRankApprox"),
    (lambda: TunedSVM(kernel="precomputed").fit(GRAM[:, :10], LABELS),
     r"`X` must be the square Gram matrix .* got shape \(30, 10\)"),
    (lambda: Vec2Vec(n_components=True).fit(X_EMB), r"`n_components` must be an int, got the "
                                                     r"bool True"),
    (lambda: LaplacianEigenmaps(2).fit(X_EMB[:3]),
     r"`n_components` must be <= n_samples - 2 = 1 for Laplacian Eigenmaps, got 2"),
    (lambda: LLEEmbedding(6, n_neighbors=4).fit(X_EMB), r"`n_components` must be <= "
                                                         r"n_features = 5 for LLE"),
], ids=["multiplier-str", "rtol-str", "rtol-negative", "checkpoints-str",
        "normalization_size-alone", "error-arguments-swapped", "svm-precomputed-not-square",
        "vec2vec-bool-n_components", "le-3-samples", "lle-n_components-above-features"])
def test_reported_inputs_get_a_clear_error(call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError), match=message):
            call()
