"""``transform`` of the embedding baselines whose library maps new rows (PCA, Isomap, LLE,
UMAP): the same coordinates as the wrapped library's own ``transform`` of an estimator fitted
alike; the fit-only methods have none and say why."""

import inspect

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_digits
from sklearn.decomposition import PCA
from sklearn.manifold import Isomap, LocallyLinearEmbedding

from lowdim.embedding import (ClassicalMDS, IsomapEmbedding, LaplacianEigenmaps, LLEEmbedding,
                              MDSEmbedding, PCAEmbedding, UMAPEmbedding, Vec2Vec)

X_ALL = load_digits().data[:400] / 16.0
X_TRAIN, X_NEW = X_ALL[:300], X_ALL[300:]


def _library_umap(**params):
    from umap import UMAP

    return UMAP(n_jobs=1, **params)


# (our estimator, a maker of the library's estimator with the same parameters): made in the
# test, because importing umap at collection compiles pynndescent (about 18 CPU s on an empty
# numba cache) before the session's background runs start
PAIRS = {
    "pca": (PCAEmbedding(5, random_state=0), lambda: PCA(5, random_state=0)),
    "isomap": (IsomapEmbedding(5, n_neighbors=15),
               lambda: Isomap(n_neighbors=15, n_components=5)),
    "lle": (LLEEmbedding(5, n_neighbors=12, random_state=0),
            lambda: LocallyLinearEmbedding(n_neighbors=12, n_components=5, random_state=0)),
    "umap": (UMAPEmbedding(2, n_neighbors=10, random_state=0),
             lambda: _library_umap(n_components=2, n_neighbors=10, min_dist=0.1,
                                   random_state=0)),
}


@pytest.mark.parametrize("method", sorted(PAIRS))
def test_transform_is_the_wrapped_librarys_transform(method):
    ours, make = PAIRS[method]
    theirs = make()
    ours.fit(X_TRAIN)
    theirs.fit(X_TRAIN)
    np.testing.assert_allclose(ours.embedding_, theirs.embedding_ if method == "umap"
                               else theirs.transform(X_TRAIN) if method == "pca"
                               else theirs.embedding_, atol=1e-8)
    new = ours.transform(X_NEW)
    assert new.shape == (100, ours.n_components) and new.dtype == np.float64
    np.testing.assert_allclose(new, theirs.transform(X_NEW), atol=1e-8)


def test_transform_checks_its_input_by_name():
    est = PCAEmbedding(2).fit(X_TRAIN)
    with pytest.raises(ValueError, match="X has 10 features, but PCAEmbedding is expecting 64"):
        est.transform(X_NEW[:, :10])
    bad = X_NEW.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="X"):
        est.transform(bad)
    assert est.transform(X_NEW[:1]).shape == (1, 2)  # one new row is enough


def test_pca_transform_of_sparse_rows_is_that_of_the_dense_rows():
    est = PCAEmbedding(4, random_state=0).fit(sp.csr_matrix(X_TRAIN))
    np.testing.assert_allclose(est.transform(sp.csr_matrix(X_NEW)), est.transform(X_NEW),
                               atol=1e-10)


def test_lle_on_wide_sparse_rows_transforms_like_lle_on_the_dense_rows():
    """Fitted on sparse rows wider than they are many (the isometric map), LLE embeds new
    rows in the span of the training rows as scikit-learn's LLE on the dense rows does."""
    rng = np.random.default_rng(0)
    basis = sp.random(30, 2000, density=0.05, random_state=1, format="csr")
    train = sp.csr_matrix(rng.random((120, 30)) @ basis)      # 120 rows, 2,000 columns
    new = sp.csr_matrix(rng.random((10, 30)) @ basis)         # in the same span
    ours = LLEEmbedding(3, n_neighbors=10, random_state=0).fit(train)
    assert ours.isometry_ is not None  # the wide sparse path ran
    theirs = LocallyLinearEmbedding(n_neighbors=10, n_components=3, random_state=0)
    theirs.fit(train.toarray())
    # eigenvectors of the same matrix, computed from rounding-different inputs: align signs
    signs = np.sign(np.sum(ours.embedding_ * theirs.embedding_, axis=0))
    np.testing.assert_allclose(ours.embedding_, theirs.embedding_ * signs, atol=1e-6)
    np.testing.assert_allclose(ours.transform(new), theirs.transform(new.toarray()) * signs,
                               atol=1e-6)
    np.testing.assert_allclose(ours.transform(new.toarray()), ours.transform(new), atol=1e-10)


@pytest.mark.parametrize("cls", [Vec2Vec, MDSEmbedding, ClassicalMDS, LaplacianEigenmaps],
                         ids=lambda cls: cls.__name__)
def test_fit_only_methods_have_no_transform_and_say_why(cls):
    assert not hasattr(cls, "transform")
    doc = inspect.getdoc(cls)
    assert "Fit-only: there is no ``transform``." in doc
    why = doc.split("Fit-only: there is no ``transform``.", 1)[1].split("\n\n", 1)[0]
    assert len(why.split()) > 15, why  # a reason, not just the statement
