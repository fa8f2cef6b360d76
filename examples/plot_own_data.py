"""
Your own data through the library
=================================

The workflow's own-data declaration (``datasets: {mine: {file: mine.csv, label: label}}``)
is a library call too: :func:`lowdim.data.dataset_spec` reads the file, guesses its format
and kind, checks it, and returns a spec whose ``prepare`` gives a
:class:`lowdim.data.Dataset`. Here the iris measurements, written as a CSV file with a
``label`` column, are embedded by Vec2vec and PCA and scored by kNN accuracy.
"""

import tempfile
from pathlib import Path

from sklearn.datasets import load_iris

from lowdim.data import dataset_spec
from lowdim.embedding import PCAEmbedding, Vec2Vec
from lowdim.evaluate.classification import knn_cv_accuracy

folder = Path(tempfile.mkdtemp())
frame = load_iris(as_frame=True).frame.rename(columns={"target": "label"})
frame.to_csv(folder / "mine.csv", index=False)

options = {"file": str(folder / "mine.csv"), "label": "label"}
spec = dataset_spec("mine", options)
data = spec.prepare(**options)
print(f"{data.name}: kind {data.kind}, X {data.X.shape}, classes {list(data.label_names)}")

# %%
# Any estimator of the library takes ``data.X``; the labels ``data.y`` score the result.
for embedder in (Vec2Vec(n_components=2, topk=10, solver="cooccurrence", random_state=0,
                         n_jobs=1), PCAEmbedding(n_components=2, random_state=0)):
    Z = embedder.fit_transform(data.X)
    score = knn_cv_accuracy(Z, data.y, random_state=0)
    print(f"{type(embedder).__name__:13s} kNN accuracy {score.mean:.3f} ± {score.two_std:.3f}")
