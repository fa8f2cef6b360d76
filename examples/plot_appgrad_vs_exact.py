"""
AppGrad against exact CCA
=========================

The left and right halves of scikit-learn's digits are two views of the same images.
Exact CCA whitens both views; AppGrad reaches the same canonical subspace with gradient
steps and a k × k normalisation, never forming a whitening matrix. Stochastic AppGrad uses
minibatches of 50 rows. The proportion of correlation captured (PCC) is AppGrad's total
correlation over exact CCA's, on the training rows and on held-out rows.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits

from lowdim.cca import AppGradCCA, ExactCCA, pcc, tcc

images = load_digits().images / 16.0
X, Y = images[:, :, :4].reshape(-1, 32), images[:, :, 4:].reshape(-1, 32)
train, test = np.arange(1400), np.arange(1400, len(X))
k = 8

exact = ExactCCA(n_components=k, reg=0.005).fit(X[train], Y[train])
print("exact CCA, first correlations:", np.round(exact.canonical_correlations_[:4], 3))

# %%
# Batch AppGrad (every row in every step) and stochastic AppGrad, each recording the
# in-sample TCC at checkpoints on a log scale of iterations (``trace_tcc=True``).

runs = {
    "batch AppGrad": AppGradCCA(n_components=k, reg=0.005, max_iter=300, tol=0,
                                checkpoints=12, trace_tcc=True, random_state=0),
    "stochastic AppGrad": AppGradCCA(n_components=k, reg=0.005, max_iter=3000, batch_size=50,
                                     checkpoints=12, trace_tcc=True, random_state=0),
}
for name, model in runs.items():
    model.fit(X[train], Y[train])
    for rows, where in ((train, "in-sample"), (test, "held-out")):
        value = pcc(X[rows], Y[rows], model.x_weights_, model.y_weights_,
                    exact.x_weights_, exact.y_weights_)
        print(f"{name:18s} {where:9s} PCC {100 * value:.1f} % after {model.n_iter_} iterations")

# %%
# PCC against the FLOPs spent (the paper's counts, :mod:`lowdim.cca.flops`), as in the
# paper's Figure 1: stochastic AppGrad gets close to exact CCA with fewer operations.

# The trace's TCC is that of the projected training views, as :func:`lowdim.cca.tcc`
# computes it for exact CCA's weights: their ratio is the in-sample PCC printed above.
exact_tcc = tcc(X[train], Y[train], exact.x_weights_, exact.y_weights_)
fig, ax = plt.subplots(figsize=(5, 3.5))
for name, model in runs.items():
    trace = model.trace_
    ax.plot(np.log(trace["flops"]), 100 * trace["tcc_train"] / exact_tcc, "o-", label=name)
ax.set_xlabel("log(FLOP)")
ax.set_ylabel("in-sample PCC (%)")
ax.set_title(f"digits halves, k = {k}")
ax.legend()
fig.tight_layout()
