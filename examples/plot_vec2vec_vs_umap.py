"""
Vec2vec against UMAP on digits
==============================

Vec2vec joins each image to its most cosine-similar images, walks that graph at random
and learns vectors with skip-gram; UMAP optimises the layout of a fuzzy neighbour graph.
Both embed scikit-learn's 1,797 8×8 digits into 10 dimensions (the number of classes, as
in the default profile), and the kNN accuracy of each embedding (4-fold cross-validation,
k chosen inside each fold, the Vec2vec paper's Figure 4 protocol) says how well it keeps
the classes apart.
"""

import time

import matplotlib.pyplot as plt
from sklearn.datasets import load_digits
from sklearn.decomposition import PCA

from lowdim.embedding import UMAPEmbedding, Vec2Vec
from lowdim.evaluate.classification import knn_cv_accuracy

X, y = load_digits(return_X_y=True)

# %%
# Vec2vec with the co-occurrence solver, which optimises the same skip-gram objective from
# the walks' co-occurrence counts (with one thread and a seed, reproducible bit for bit).
# UMAP's time includes numba's compilation of its functions the first time they run in a
# process (see `benchmarks/vec2vec_vs_umap.md` for timings with compilation excluded).
embedders = {
    "Vec2vec": Vec2Vec(n_components=10, topk=10, solver="cooccurrence", random_state=0,
                       n_jobs=1),
    "UMAP": UMAPEmbedding(n_components=10, n_neighbors=10, random_state=0),
}
embeddings = {}
for name, embedder in embedders.items():
    start = time.perf_counter()
    embeddings[name] = embedder.fit_transform(X)
    seconds = time.perf_counter() - start
    score = knn_cv_accuracy(embeddings[name], y, random_state=0)
    print(f"{name:8s} kNN accuracy {score.mean:.3f} ± {score.two_std:.3f} (2 sd over folds), "
          f"fit {seconds:.1f} s")

# %%
# The first two principal components of each 10-dimensional embedding, coloured by digit.
fig, axes = plt.subplots(1, 2, figsize=(8, 4))
for ax, (name, Z) in zip(axes, embeddings.items()):
    P = PCA(n_components=2).fit_transform(Z)
    points = ax.scatter(P[:, 0], P[:, 1], c=y, cmap="tab10", s=4)
    ax.set_title(f"{name} (d = 10), first two PCs")
    ax.set_xticks([])
    ax.set_yticks([])
fig.colorbar(points, ax=axes, label="digit")
