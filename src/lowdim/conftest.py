"""The names every docstring example of ``src/lowdim`` may use without setting them up.

pytest runs the ``Examples`` sections as doctests (``--doctest-modules``); this file gives
each of them the names of :data:`EXAMPLE_NAMES`, so that an example shows the call it
documents rather than the same imports, scratch directory and toy data as its neighbours.
The API reference's index page lists the same names (``docs/_ext/lowdim_api.py`` reads
:data:`EXAMPLE_NAMES`), so a reader copying an example knows what to define first.

An example gets only the names its source uses, each built for it: a new ``tmp`` and
``rng``, and copies of the data sets (each computed once per session), so no example
depends on what another wrote or drew, and an example that uses none of them costs nothing.

It is a conftest of the package itself (``lowdim.conftest``), not a second top-level
``conftest`` beside ``tests/conftest.py``: pytest imports top-level conftests by the one
module name ``conftest``, and ``--doctest-modules`` then mistakes one for the other. No
module of lowdim imports it (it needs pytest); the API reference leaves it out.
"""

from __future__ import annotations

import copy
import functools
import re
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
    "reg_sweep": "the tidy table of a sweep of ``cca.reg`` over 0.001 and 0.01 (``sweep_tidy``'s "
                 "columns): in-sample PCC 0.97 and 0.99 for ``appgrad``, 0.95 and 0.96 for "
                 "``sappgrad`` on ``digits_halves``, one seeded run per value",
    "kernel_cca_tidy": "the tidy rows of ``kernel_cca_experiment`` on 300 rows of "
                       "``nonlinear_two_view``: RBF kernels, Nyström features at 20 and 60 "
                       "landmarks (2 draws each), linear and exact kernel CCA, k = 2",
    "digit_topics": "the topics of ``topic_matrices``' example: 600 digits, a pairwise MLP "
                    "trained on 300, one tune and two test topics of 50 items with their "
                    "``K`` and ``gold``",
    "knn_entry": "a ``PublishedEntry``: Vec2vec's MNIST kNN accuracy, 0.9462, tolerance 0.02, "
                 "reproduced by the ``vec2vec`` rows of ``results/knn.csv``",
    "knn_root": "a directory holding that ``results/knn.csv``: accuracies 0.95 and 0.97 for "
                "``vec2vec``, 0.93 for ``pca``",
    "hello_remote": "a ``RemoteFile``, ``hello.txt``, whose one address is a local "
                    "``file://`` URL of a file holding ``hello``, with its SHA-256 and size",
    "corpus_zip": "the path of a zip archive, ``corpus.zip`` (outside ``tmp``), with members "
                  "``corpus/a.txt`` (``alpha``) and ``corpus/b.txt`` (``beta``)",
    "config": "the default profile, ``config/config.yaml``, validated (defaults filled in): "
              "``lowdim.config.checkout_config()[0]``",
    "cca_reg_sweep": "the ``Sweep`` that ``expand_sweeps``' example makes: ``cca.reg`` over "
                     "0.001 and 0.01 in the default profile, each run's config validated",
}


def _two_views():
    # The planted-correlation toy of the CCA examples: canonical correlations about 0.89
    # and 0.87 between the first two columns of each view, noise elsewhere.
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((500, 2))
    X = np.hstack([Z, rng.standard_normal((500, 3))])
    Y = np.hstack([Z + 0.5 * rng.standard_normal((500, 2)), rng.standard_normal((500, 2))])
    return X, Y


def _digits():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return X[:300], y[:300]


def _reg_sweep():
    import pandas as pd

    return pd.DataFrame({"sweep": "cca_reg", "key": "cca.reg", "order": [0, 1, 0, 1],
                         "value": ["0.001", "0.01"] * 2, "numeric_value": [0.001, 0.01] * 2,
                         "dataset": "digits_halves",
                         "method": ["appgrad"] * 2 + ["sappgrad"] * 2, "metric": "pcc_in",
                         "score": [0.97, 0.99, 0.95, 0.96], "spread": float("nan"), "runs": 1,
                         "summary": "the mean of 1 seeded run per value "
                                    "(cca.n_seeds; ± 2 sd with several)"})


def _kernel_cca_tidy():
    from lowdim.cca.kernel_experiments import kernel_cca_experiment
    from lowdim.data import get_spec

    setting = {"name": "demo", "similarity": "rbf", "gamma": None,
               "approximations": ["nystrom"], "landmarks": [20, 60], "n_seeds": 2,
               "n_components": 2, "reg": 1e-3, "solver": "exact", "max_iter": 100,
               "tol": 1e-6, "rescale": "none", "n_rows": 0, "heldout_fraction": 0.2,
               "exact_max_n": 300, "mlp": {}}
    return kernel_cca_experiment(get_spec("nonlinear_two_view").prepare(n=300), setting)


def _digit_topics():
    from lowdim.data import get_spec
    from lowdim.similarity.matrices import item_embeddings
    from lowdim.tasks.coreference import make_topics, topic_matrices

    digits = get_spec("digits").prepare(n_rows=600)
    X, usable = item_embeddings(digits)
    train, topics = make_topics(digits, usable, train_items=300, topic_size=50,
                                tune_topics=1, test_topics=2, seed=0)
    return topic_matrices(X, digits.y, train, topics,
                          mlp={"hidden_layer_sizes": (16,), "n_pairs": 3000}, seed=0)[0]


def _config():
    from lowdim.config import checkout_config

    return checkout_config()[0]


def _cca_reg_sweep():
    from lowdim.config import checkout_config, validate_config
    from lowdim.settings import check_config
    from lowdim.sweeps import expand_sweeps

    config, schema = checkout_config()
    config["sweeps"] = [{"key": "cca.reg", "values": [0.001, 0.01]}]

    def validate(config):
        return check_config(validate_config(config, schema))

    return expand_sweeps(validate(config), validate)[0]


def _knn_scorecard(root):
    import pandas as pd

    from lowdim.report import PublishedEntry

    (root / "results").mkdir()
    pd.DataFrame({"method": ["vec2vec", "vec2vec", "pca"], "accuracy": [0.95, 0.97, 0.93]}
                 ).to_csv(root / "results" / "knn.csv", index=False)
    return PublishedEntry(
        paper="Vec2vec", artifact="Figure 4", metric="accuracy", setting="MNIST",
        provenance="the authors' plotting script", published=0.9462, sections=("embedding",),
        reproduced={"file": "results/knn.csv", "column": "accuracy",
                    "where": {"method": "vec2vec"}}, tolerance={"abs": 0.02})


def _hello_remote(root):
    from lowdim.data import RemoteFile, sha256_file

    source = root / "served.txt"
    source.write_text("hello")
    digest, size = sha256_file(source)
    return RemoteFile("hello.txt", urls=(source.as_uri(),), sha256=digest, size=size)


def _corpus_zip(root):
    from lowdim.data.replicas import zip_bytes

    path = root / "corpus.zip"
    path.write_bytes(zip_bytes({"corpus/a.txt": b"alpha", "corpus/b.txt": b"beta"}))
    return path


@pytest.fixture(scope="session")
def _shared_files(tmp_path_factory):
    """Files the examples only read, written once, outside every example's ``tmp``."""
    root = tmp_path_factory.mktemp("examples")
    return {"knn_entry": _knn_scorecard(root), "knn_root": root,
            "corpus_zip": _corpus_zip(root), "hello_remote": _hello_remote(root)}


def _modules(name):
    import matplotlib.pyplot as plt
    import pandas as pd

    return {"np": np, "pd": pd, "plt": plt, "Path": Path}[name]


#: Name -> how an example gets it: ``request -> value``.
_BUILDERS = {
    **{name: (lambda request, name=name: _modules(name)) for name in ("np", "pd", "plt", "Path")},
    "tmp": lambda request: request.getfixturevalue("tmp_path"),
    "rng": lambda request: np.random.default_rng(0),
    **{name: (lambda request, name=name: request.getfixturevalue("_shared_files")[name])
       for name in ("knn_entry", "knn_root", "corpus_zip", "hello_remote")},
}
# Computed once a session; each example gets a deep copy (it may write into the arrays).
for _name, _make in {"digits": _digits, "two_views": _two_views, "reg_sweep": _reg_sweep,
                     "kernel_cca_tidy": _kernel_cca_tidy, "digit_topics": _digit_topics,
                     "config": _config, "cca_reg_sweep": _cca_reg_sweep}.items():
    _BUILDERS[_name] = (lambda make: lambda request: copy.deepcopy(make()))(functools.cache(_make))


@pytest.fixture(autouse=True)
def _example_names(request, doctest_namespace):
    """Give this doctest (every item under ``src/`` is one) the example names it uses."""
    source = "\n".join(example.source for example in request.node.dtest.examples)
    for name in EXAMPLE_NAMES:
        doctest_namespace.pop(name, None)
        if re.search(rf"\b{name}\b", source):
            doctest_namespace[name] = _BUILDERS[name](request)
