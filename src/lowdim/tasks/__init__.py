"""Downstream tasks of the SMS-Nyström paper, built on the approximation methods.

- :mod:`~lowdim.tasks.wmd_classification`: document classification with a
  linear SVM on features of an approximated WMD kernel (the paper's main table).
- :mod:`~lowdim.tasks.glue`: GLUE sentence-pair predictions read off an
  approximated cross-encoder similarity matrix.
- :mod:`~lowdim.tasks.coreference`: average-linkage clustering of mentions on
  an approximated pairwise-MLP similarity, scored with the CoNLL F1.

Each module exposes plain functions that take arrays and return tidy
:class:`pandas.DataFrame` rows; the workflow scripts only load and save.
"""
