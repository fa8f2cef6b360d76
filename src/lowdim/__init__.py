"""lowdim: low-dimensional structure in large data.

Reference implementations of three papers, usable on their own from Python:

- ``lowdim.similarity`` and ``lowdim.approx``: similarity oracles and
  SMS-Nystrom / Nystrom / CUR approximation of indefinite similarity matrices.
- ``lowdim.embedding``: Vec2vec dimensionality reduction and its baselines.
- ``lowdim.cca``: AppGrad and stochastic AppGrad CCA, exact and heuristic CCA.
- ``lowdim.data``: dataset registry, verified downloads and prepared datasets.

The Snakemake workflow in ``workflow/`` drives these; the library never imports
Snakemake.
"""

from importlib.metadata import PackageNotFoundError, version

#: The installed version of lowdim ("0.0.0+unknown" in a source tree that is not installed).
__version__: str
try:
    __version__ = version("lowdim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
