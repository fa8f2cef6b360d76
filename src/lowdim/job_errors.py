"""In a workflow job: a library error about an argument becomes one line naming its config key.

What only the prepared data can tell (a neighbour count above the rows of a
dataset, a singular Gram matrix) is checked by the library when the job runs,
and its errors name the library's argument (```n_components` must be < ...``).
The user needs the config key that set it. Each job's ``params`` carry its
settings (:mod:`lowdim.settings`): the value of each library argument and the
config key it came from. A library error about an argument says which in its
``arguments`` (:class:`lowdim._validation.ArgumentValueError`,
:class:`~lowdim._validation.ArgumentTypeError`), and :func:`config_errors`
looks that name up; the message itself is never parsed.
"""

from __future__ import annotations

import contextlib
import logging

from ._validation import arguments_of

__all__ = ["config_error_line", "config_errors", "problem"]

logger = logging.getLogger("lowdim")


def problem(key: str, value, allowed: str) -> str:
    """One line: ``config: <key>: got <value>; <allowed>``.

    Examples
    --------
    >>> from lowdim.job_errors import problem
    >>> problem("cca.n_components", 50, "at most min(p1, p2) = 32 for dataset digits_halves")
    'config: cca.n_components: got 50; at most min(p1, p2) = 32 for dataset digits_halves'
    """
    return f"config: {key}: got {value!r}; {allowed}"


@contextlib.contextmanager
def config_errors(settings: dict, keys: dict, where: str = "", keyless: bool = True):
    """Turn a ValueError or TypeError raised inside into one line naming a config key.

    Parameters
    ----------
    settings : dict of str -> object
        Library argument -> the value the job passes (its ``params.settings``).
    keys : dict of str -> str
        Library argument -> the config key that set it (its ``params.config_keys``).
    where : str
        What the job was doing, e.g. ``"lle on dataset digits"``.
    keyless : bool, default=True
        Also turn an error that names no argument of ``keys`` into a line (listing every
        key of the job); False lets it pass unchanged, for a job whose other errors are
        about its input files, not its settings (a corrupt download).

    Yields
    ------
    None
        The body of the ``with`` block runs inside.

    Raises
    ------
    SystemExit
        With :func:`config_error_line`, also logged, so the job fails with one line.

    Examples
    --------
    >>> from lowdim.job_errors import config_errors
    >>> try:
    ...     with config_errors({"n_components": 500}, {"n_components": "embedding.n_components"},
    ...                        where="pca on dataset digits"):
    ...         raise ValueError("`n_components` must be <= 64, got 500")
    ... except SystemExit as exit:
    ...     print(exit.code)
    config: `n_components` must be <= 64, got 500 (pca on dataset digits); with embedding.n_components = 500
    """
    try:
        yield
    except (ValueError, TypeError) as exc:
        if not keyless and not any(_key_of(a, settings, keys) for a in arguments_of(exc)):
            raise
        line = config_error_line(exc, settings, keys, where)
        logger.error("%s", line)
        raise SystemExit(line) from exc


def config_error_line(error: Exception, settings: dict, keys: dict, where: str = "") -> str:
    """``config: <key>: got <value>; <the library's message> (<where>)`` for the first
    argument of ``error`` that has a key, else the message and every key of the job.

    Examples
    --------
    >>> from lowdim.job_errors import config_error_line
    >>> error = ValueError("`n_components` must be <= 64, got 500")
    >>> config_error_line(error, {"n_components": 500}, {"n_components": "embedding.n_components"},
    ...                   where="pca on dataset digits")
    'config: `n_components` must be <= 64, got 500 (pca on dataset digits); with embedding.n_components = 500'
    """
    message = str(error).splitlines()[0] if str(error) else type(error).__name__
    context = f" ({where})" if where else ""
    for argument in arguments_of(error):
        found = _key_of(argument, settings, keys)
        if found:
            return problem(*found, f"{message}{context}")
    listed = ", ".join(f"{key} = {settings[argument]!r}" for argument, key in keys.items()
                       if argument in settings)
    return f"config: {message}{context}; with {listed}"


def _key_of(argument, settings, keys):
    """``(key, value)`` of ``argument``: a setting of its own, or an entry of a dict-valued
    one (an estimator parameter in ``params``, keyed below the dict's section)."""
    if argument in keys:
        return keys[argument], settings.get(argument)
    for name, value in settings.items():
        if isinstance(value, dict) and argument in value and name in keys:
            return f"{keys[name]}.{argument}", value[argument]
    return None
