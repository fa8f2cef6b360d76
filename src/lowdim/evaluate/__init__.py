"""Downstream evaluation of embeddings and approximations.

- :mod:`.classification`: nested-CV kNN accuracy (Vec2vec Figure 4).
- :mod:`.clustering`: RBF spectral clustering ARI over a gamma sweep (Vec2vec Table 3).
- :mod:`.stats`: paired t-tests between methods across datasets (Vec2vec).
- :mod:`.svm`: support vector classifier with C chosen by cross-validation (SMS-Nyström).
- :mod:`.coref`: coreference metrics MUC, B³, CEAF-e and CoNLL F1 (SMS-Nyström).
"""
