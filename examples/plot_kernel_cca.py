"""
Kernel CCA on a nonlinear two-view set
======================================

Two views of one angle ``t``: a point on a circle, ``(cos t, sin t)``, and a point on
the circle traced twice as fast, ``(cos 2t, sin 2t)``, each with noise. No linear
function of one view correlates with a linear function of the other, so linear CCA finds
almost nothing; kernel CCA with an RBF kernel finds the relation. ``KernelCCA`` maps each
view to Nyström features of ``n_landmarks`` rows (about ``2 n s`` kernel evaluations, not
``n²``) and solves linear CCA on them with AppGrad.
"""

import matplotlib.pyplot as plt
import numpy as np

from lowdim.cca import ExactCCA, KernelCCA

rng = np.random.default_rng(0)
t = rng.uniform(0, 2 * np.pi, 1000)
X = np.c_[np.cos(t), np.sin(t)] + 0.05 * rng.standard_normal((1000, 2))
Y = np.c_[np.cos(2 * t), np.sin(2 * t)] + 0.05 * rng.standard_normal((1000, 2))
train, test = slice(0, 800), slice(800, None)

linear = ExactCCA(n_components=2, reg=0.001).fit(X[train] - X[train].mean(0),
                                                 Y[train] - Y[train].mean(0))
print("linear CCA, held-out correlations:",
      np.round(linear.score_components(X[test] - X[train].mean(0), Y[test] - Y[train].mean(0)), 3))

kcca = KernelCCA(n_components=2, n_landmarks=60, random_state=0).fit(X[train], Y[train])
print("kernel CCA, held-out correlations:", np.round(kcca.score_components(X[test], Y[test]), 3))
print("kernel evaluations to fit, per view:", kcca.evaluations_, "against", 800 * 801 // 2,
      "for each full matrix")

# %%
# The first canonical variates of the held-out rows: kernel CCA's two views line up.

U, V = kcca.transform(X[test], Y[test])
fig, axes = plt.subplots(1, 2, figsize=(8, 3.5))
axes[0].scatter(X[test][:, 0], X[test][:, 1], c=t[test], cmap="twilight", s=6)
axes[0].set_title("view X (colour: the angle t)")
axes[0].set_aspect("equal")
axes[1].scatter(U[:, 0], V[:, 0], c=t[test], cmap="twilight", s=6)
axes[1].set_xlabel("first canonical variate of X")
axes[1].set_ylabel("first canonical variate of Y")
axes[1].set_title("kernel CCA, held-out rows")
fig.tight_layout()
