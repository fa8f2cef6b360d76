"""Numba's on-disk cache for the JIT functions of umap-learn and pynndescent.

umap-learn declares about 250 of its numba functions without ``cache=True``, so every new
process that fits UMAP compiles them again: 15-25 s of CPU in each workflow job that runs
UMAP, whatever the size of its data. :func:`cache_jit_functions` switches numba's on-disk
cache on for the module-level numba functions of packages already imported, as
``cache=True`` in their decorators would have: the first process compiles and saves the
machine code, later ones load it. Numba keeps the cache in ``NUMBA_CACHE_DIR`` when set
(the workflow sets it, ``workflow/rules/common.smk``), else in ``__pycache__`` beside the
package's source; it recompiles when a source file changes.

A function's cache is keyed by its Python function, so numba would give one file to every
dispatcher of that function. umap-learn makes two of its layout epoch, one with
``parallel=False`` (seeded fits) and one with ``parallel=True`` (unseeded ones): whichever
compiled first would be loaded by the other, and an unseeded UMAP then ran its layout on one
thread. The cache here keys each compilation by the dispatcher's options too.

Left to compile in every process:

- compilations for arguments that are themselves numba functions (pynndescent passes its
  distance function so): numba keys them by the function object, which differs from one
  process to the next, so they would never be found and would pile up in the cache;
- functions compiled while their package is imported (declared with explicit types), and
  functions made at call time rather than defined in a module.
"""

from __future__ import annotations

import sys

__all__ = ["cache_jit_functions"]

_SEEN: set[str] = set()  # modules already gone through


def _has_function_argument(types, signature) -> bool:
    from numba.core import sigutils

    def is_function(numba_type):
        if isinstance(numba_type, types.BaseTuple):
            return any(map(is_function, numba_type.types))
        return isinstance(numba_type, (types.Dispatcher, types.FunctionType))

    return any(map(is_function, sigutils.normalize_signature(signature)[0]))


def _static_arguments_cache(dispatcher):
    """A numba ``FunctionCache`` of ``dispatcher`` that skips signatures with function
    arguments and keys each compilation by the dispatcher's options (``parallel``,
    ``fastmath``...) besides numba's own key."""
    from numba.core import types
    from numba.core.caching import FunctionCache

    options = tuple(sorted((name, repr(value))
                           for name, value in dispatcher.targetoptions.items()))

    class StaticArgumentsCache(FunctionCache):
        def _index_key(self, sig, codegen):
            return (*super()._index_key(sig, codegen), options)

        def load_overload(self, sig, target_context):
            if _has_function_argument(types, sig):
                return None
            return super().load_overload(sig, target_context)

        def save_overload(self, sig, data):
            if not _has_function_argument(types, sig):
                super().save_overload(sig, data)

    return StaticArgumentsCache(dispatcher.py_func)


def cache_jit_functions(*packages: str) -> int:
    """Turn on numba's on-disk cache for the JIT functions of the imported ``packages``.

    Parameters
    ----------
    *packages : str
        Top-level package names, e.g. ``"umap", "pynndescent"``. Modules of theirs not
        yet imported are left alone (call again after importing them).

    Returns
    -------
    count : int
        Number of functions whose cache this call switched on (0 when called again).
    """
    from numba.core.caching import NullCache
    from numba.core.dispatcher import Dispatcher

    count = 0
    for name, module in list(sys.modules.items()):
        if module is None or name in _SEEN or name.partition(".")[0] not in packages:
            continue
        _SEEN.add(name)
        for value in list(vars(module).values()):
            # Only functions without a cache: those declared with cache=True keep theirs.
            if isinstance(value, Dispatcher) and isinstance(value._cache, NullCache):
                value._cache = _static_arguments_cache(value)
                count += 1
    return count
