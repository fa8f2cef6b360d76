"""The names every docstring example of ``src/lowdim`` may use without setting them up.

pytest runs the ``Examples`` sections as doctests (``--doctest-modules``); this file gives
each of them, fresh, the names of :data:`EXAMPLE_NAMES`, so that an example shows the call
it documents rather than the same imports, scratch directory and toy data as its
neighbours. The API reference's index page lists the same names (``docs/_ext/lowdim_api.py``
reads :data:`EXAMPLE_NAMES`), so a reader copying an example knows what to define first.

It lives in ``src/`` beside the package, not inside it: pytest reads it for every doctest
under ``src/lowdim``, and ``pip install`` never ships it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

#: Name -> what it is, in the words of the API reference's index page.
EXAMPLE_NAMES = {
    "np": "``import numpy as np``",
    "pd": "``import pandas as pd``",
    "plt": "``import matplotlib.pyplot as plt``",
    "Path": "``from pathlib import Path``",
    "tmp": "a new empty directory (a ``Path``) for the files an example writes",
    "rng": "``np.random.default_rng(0)``",
    "digits": "``(X, y)``: the first 300 images of scikit-learn's ``load_digits`` "
              "(300 x 64, pixels 0-16) and their labels",
    "two_views": "``(X, Y)``: 500 x 5 and 500 x 4 views sharing two latent directions, "
                 "``Z = rng.standard_normal((500, 2))``, ``X = [Z, noise]``, "
                 "``Y = [Z + 0.5 * noise, noise]`` (``rng`` seeded 0)",
    "knn_entry": "a ``PublishedEntry``: Vec2vec's MNIST kNN accuracy, 0.9462, tolerance 0.02, "
                 "reproduced by the ``vec2vec`` rows of ``results/knn.csv``",
    "knn_root": "a directory holding that ``results/knn.csv``: accuracies 0.95 and 0.97 for "
                "``vec2vec``, 0.93 for ``pca``",
    "corpus_zip": "the path of a zip archive, ``corpus.zip`` (outside ``tmp``), with members "
                  "``corpus/a.txt`` (``alpha``) and ``corpus/b.txt`` (``beta``)",
}


def _two_views():
    # The planted-correlation toy of the CCA examples: canonical correlations about 0.89
    # and 0.87 between the first two columns of each view, noise elsewhere.
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((500, 2))
    X = np.hstack([Z, rng.standard_normal((500, 3))])
    Y = np.hstack([Z + 0.5 * rng.standard_normal((500, 2)), rng.standard_normal((500, 2))])
    return X, Y


@functools.cache
def _digits_read():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return X[:300], y[:300]


def _digits():
    # Read once per session, copied for each example: an example may write into its arrays.
    return tuple(array.copy() for array in _digits_read())


@pytest.fixture(scope="session")
def _corpus_zip(tmp_path_factory):
    """Written once: the examples only read it."""
    from lowdim.data.replicas import zip_bytes

    path = tmp_path_factory.mktemp("examples") / "corpus.zip"
    path.write_bytes(zip_bytes({"corpus/a.txt": b"alpha", "corpus/b.txt": b"beta"}))
    return path


@pytest.fixture(scope="session")
def _knn_scorecard(tmp_path_factory):
    """(entry, root) of a one-entry scorecard, written once: the examples only read it."""
    import pandas as pd

    from lowdim.report import PublishedEntry

    root = tmp_path_factory.mktemp("scorecard")
    (root / "results").mkdir()
    pd.DataFrame({"method": ["vec2vec", "vec2vec", "pca"], "accuracy": [0.95, 0.97, 0.93]}
                 ).to_csv(root / "results" / "knn.csv", index=False)
    entry = PublishedEntry(
        paper="Vec2vec", artifact="Figure 4", metric="accuracy", setting="MNIST",
        provenance="the authors' plotting script", published=0.9462,
        reproduced={"file": "results/knn.csv", "column": "accuracy",
                    "where": {"method": "vec2vec"}}, tolerance={"abs": 0.02})
    return entry, root


@pytest.fixture(autouse=True)
def _example_names(doctest_namespace, tmp_path, _corpus_zip, _knn_scorecard):
    """Fill the doctest namespace with :data:`EXAMPLE_NAMES`, new for each example.

    Every item under ``src/`` is a doctest. Each gets its own ``tmp`` and fresh data, so no
    example depends on what another wrote or drew.
    """
    import matplotlib.pyplot as plt
    import pandas as pd

    doctest_namespace.update(
        np=np, pd=pd, plt=plt, Path=Path, tmp=tmp_path, rng=np.random.default_rng(0),
        digits=_digits(), two_views=_two_views(), corpus_zip=_corpus_zip, knn_entry=_knn_scorecard[0],
        knn_root=_knn_scorecard[1])
