"""The embedding methods by name, without importing their estimators.

Configs, result files, the workflow's wildcards and :data:`lowdim.embedding.METHODS`
(name -> estimator) all use these names; the workflow reads them while it builds
the DAG, so this module imports nothing.
"""

__all__ = ["METHOD_NAMES", "NEIGHBOR_PARAMETER", "methods_sweeping"]

#: method -> the neighbourhood-size parameter the paper sweeps (None: no sweep), in the
#: order of the paper's figures.
NEIGHBOR_PARAMETER = {"vec2vec": "topk", "vec2vec_cooccurrence": "topk", "pca": None,
                      "mds": None, "cmds": None, "isomap": "n_neighbors",
                      "lle": "n_neighbors", "le": "n_neighbors", "umap": "n_neighbors"}

#: Every embedding method's name.
METHOD_NAMES = tuple(NEIGHBOR_PARAMETER)


def methods_sweeping(*parameters: str) -> tuple:
    """The methods whose swept neighbourhood size is one of ``parameters`` (``"topk"``,
    ``"n_neighbors"``).

    Parameters
    ----------
    *parameters : str
        Names of neighbourhood parameters.

    Returns
    -------
    methods : tuple of str
        In the order of :data:`NEIGHBOR_PARAMETER`.

    Examples
    --------
    >>> from lowdim.embedding.methods import methods_sweeping
    >>> methods_sweeping("topk")
    ('vec2vec', 'vec2vec_cooccurrence')
    >>> methods_sweeping("n_neighbors")
    ('isomap', 'lle', 'le', 'umap')
    """
    return tuple(m for m, p in NEIGHBOR_PARAMETER.items() if p in parameters)
