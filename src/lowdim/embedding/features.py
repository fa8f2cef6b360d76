"""Input features for the Vec2vec experiments: raw dense rows, or TF-IDF of a text dataset.

The paper represents every image as its pixel vector and every text by TF-IDF
weights after "stemming, removing stop words, lemmatization, and lowercasing".
Any prepared dataset of kind ``dense``, ``sparse`` or ``text`` (with labels)
becomes a feature matrix here, so a new text dataset needs only a config entry.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import ArgumentValueError
from ..data.parsing import subsample
from ..data.prepared import Dataset
from ..data.text import tokenize

__all__ = ["tfidf_features", "embedding_features", "features_summary"]


def _analyzer(stem):
    """Text -> tokens of :func:`tokenize`, Porter-stemmed when ``stem``."""
    if not stem:
        return tokenize
    from gensim.parsing.porter import PorterStemmer

    stemmer = PorterStemmer()
    return lambda text: [stemmer.stem(t) for t in tokenize(text)]


def tfidf_features(dataset: Dataset, *, stem=True, min_df=1, sublinear_tf=False):
    """TF-IDF matrix of a text dataset, rows L2-normalised.

    Documents are tokenised by :func:`lowdim.data.text.tokenize` (lower case,
    English stop words removed) and, with ``stem``, Porter-stemmed (gensim's
    stemmer; the paper's lemmatisation needs a tagger we do not ship). Without
    raw texts, the dataset's bag of words is weighted instead.

    Parameters
    ----------
    dataset : Dataset
        Kind "text", with ``texts`` or ``bow``.
    stem : bool, default=True
        Porter-stem the tokens.
    min_df : int, default=1
        Drop terms in fewer documents.
    sublinear_tf : bool, default=False
        Use 1 + log(tf) instead of tf.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_documents, n_terms), float64
    vocabulary : ndarray of str of shape (n_terms,)

    Examples
    --------
    >>> from lowdim.data import Dataset
    >>> from lowdim.embedding.features import tfidf_features
    >>> texts = np.array(["The cats sat.", "A cat sits on the mat.", "Dogs bark."])
    >>> X, vocabulary = tfidf_features(Dataset(name="toy", kind="text", texts=texts))
    >>> X.shape, vocabulary.tolist()
    ((3, 6), ['bark', 'cat', 'dog', 'mat', 'sat', 'sit'])
    """
    # Here, not at the top: dense datasets and Table 2's summary need no scikit-learn.
    from sklearn.feature_extraction.text import TfidfTransformer, TfidfVectorizer

    if dataset.texts is not None:
        vectorizer = TfidfVectorizer(analyzer=_analyzer(stem),
                                     min_df=int(min_df), sublinear_tf=bool(sublinear_tf),
                                     dtype=np.float64)
        X = vectorizer.fit_transform(list(dataset.texts))
        return sp.csr_matrix(X), vectorizer.get_feature_names_out().astype(str)
    if dataset.bow is None:
        raise ArgumentValueError(f"dataset {dataset.name!r}: a text dataset needs `texts` or "
                                 f"`bow`", "dataset")
    bow = sp.csr_matrix(dataset.bow, dtype=np.float64)
    keep = np.flatnonzero(np.asarray((bow > 0).sum(axis=0)).ravel() >= int(min_df))
    X = TfidfTransformer(sublinear_tf=bool(sublinear_tf)).fit_transform(bow[:, keep])
    vocab = dataset.vocab[keep] if dataset.vocab is not None else keep.astype(str)
    return sp.csr_matrix(X), np.asarray(vocab, dtype=str)


def embedding_features(dataset: Dataset, *, max_samples=0, seed=0, stem=True, min_df=1,
                       sublinear_tf=False) -> Dataset:
    """Labelled feature matrix for the embedding experiments.

    Parameters
    ----------
    dataset : Dataset
        Kind "dense" or "sparse" (``X``), or "text" (TF-IDF is computed), with
        labels ``y``.
    max_samples : int, default=0
        Keep this many random rows (0 keeps all); the paper uses 5,000 images.
        Rows are drawn before TF-IDF, so IDF weights use the kept documents.
    seed : int
        Seed of the row sample.
    stem, min_df, sublinear_tf
        TF-IDF options (text datasets only), see :func:`tfidf_features`.

    Returns
    -------
    Dataset
        Kind "dense" (float64 ``X``) or "sparse" (CSR ``X``), with ``y`` and
        ``label_names``; ``meta`` records the source kind, features and rows kept.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.embedding.features import embedding_features
    >>> features = embedding_features(get_spec("pang_lee").prepare(), max_samples=100, seed=0)
    >>> features.kind, features.X.shape[0], features.y.shape
    ('sparse', 100, (100,))
    """
    if dataset.y is None:
        raise ArgumentValueError(f"dataset {dataset.name!r} has no labels `y`; the embedding "
                                 "experiments score embeddings against class labels", "dataset")
    rows = subsample(dataset.n, int(max_samples), seed)
    meta = {"source_kind": dataset.kind, "rows_kept": int(rows.size),
            "rows_available": int(dataset.n), "source": dataset.meta.get("source", ""),
            "licence": dataset.meta.get("licence", "")}
    if dataset.kind == "text":
        subset = Dataset(name=dataset.name, kind="text", y=dataset.y[rows],
                         texts=None if dataset.texts is None else dataset.texts[rows],
                         bow=None if dataset.bow is None else sp.csr_matrix(dataset.bow)[rows],
                         vocab=dataset.vocab)
        X, vocab = tfidf_features(subset, stem=stem, min_df=min_df, sublinear_tf=sublinear_tf)
        meta.update(features="tf-idf", stem=bool(stem), min_df=int(min_df),
                    sublinear_tf=bool(sublinear_tf))
    elif dataset.kind in ("dense", "sparse"):
        X = dataset.X[rows]
        X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, np.float64)
        meta.update(features="raw")
    else:
        raise ArgumentValueError(f"dataset {dataset.name!r} is of kind {dataset.kind!r}; the "
                                 "embedding experiments take kinds 'dense', 'sparse' or 'text'",
                                 "dataset")
    kind = "sparse" if sp.issparse(X) else "dense"
    return Dataset(name=dataset.name, kind=kind, X=X, y=np.asarray(dataset.y)[rows],
                   label_names=dataset.label_names, meta=meta)


def features_summary(dataset: Dataset) -> dict:
    """One row of Table 2 for a feature dataset from :func:`embedding_features`.

    Parameters
    ----------
    dataset : Dataset
        A feature dataset.

    Returns
    -------
    row : dict
        ``dataset``, ``n`` and ``n_features``.

    Examples
    --------
    >>> from lowdim.data import get_spec
    >>> from lowdim.embedding.features import embedding_features, features_summary
    >>> summary = features_summary(embedding_features(get_spec("digits").prepare(n_rows=100)))
    >>> {key: summary[key] for key in ("dataset", "n", "n_features")}
    {'dataset': 'digits', 'n': 100, 'n_features': 64}
    """
    X = dataset.X
    nnz = X.nnz if sp.issparse(X) else int(np.count_nonzero(X))
    return {"dataset": dataset.name, "source_kind": dataset.meta.get("source_kind", dataset.kind),
            "n": int(X.shape[0]), "n_features": int(X.shape[1]),
            "n_classes": int(np.unique(dataset.y).size),
            "features": dataset.meta.get("features", "raw"),
            "sparsity": 1.0 - nnz / max(1, X.shape[0] * X.shape[1]),
            "rows_available": dataset.meta.get("rows_available", X.shape[0]),
            "source": dataset.meta.get("source", "")}
