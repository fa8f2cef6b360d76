"""Public names of a package that load their submodule on first use (PEP 562).

The workflow imports light parts of a package (method names, settings) every time it
starts, and each cluster job starts it twice; a package whose ``__init__`` imported its
estimators would load scikit-learn each time.
"""

from __future__ import annotations

import importlib
import sys

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: dict):
    """``__getattr__`` and ``__dir__`` for ``package``, whose public names load on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : dict of str -> list of str
        Submodule -> the public names it defines.
    """
    module_of = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name):
        if name not in module_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module_of[name]}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(module_of))

    return __getattr__, __dir__
