"""Argument checks shared across lowdim, with one message style.

Every message names the argument, what it must be and what was given:
``"`rtol` must be a number >= 0, got -1"``. A value of the wrong type raises
:class:`TypeError`, a value of the right type outside its range
:class:`ValueError`: :class:`ArgumentTypeError` and :class:`ArgumentValueError`,
which also carry the argument's name as ``argument``, so that a caller can say
where the value came from (a workflow job names the config key that set it:
:mod:`lowdim.job_errors`) without reading the message. ``bool`` is never
accepted as a number (``True`` is an ``int`` to Python, but
``n_components=True`` is a mistake, not a 1).

Subpackages keep their domain checks next to their code
(:mod:`lowdim.cca._validation`, :mod:`lowdim.embedding._validation`) and use
these for plain numbers, choices and matrices.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import re

import numpy as np
import scipy.sparse as sp

__all__ = ["ArgumentTypeError", "ArgumentValueError", "arguments_of", "check_number",
           "check_choice", "check_label_count", "check_matrix", "naming"]


class _AboutArgument:
    """An error about the argument named ``argument``, or about how the arguments of a tuple
    of names relate (``("Y", "X")``: `Y` must have the rows of `X`); ``arguments`` holds
    them all, ``argument`` the first."""

    def __init__(self, message, argument):
        super().__init__(message)
        self.arguments = (argument,) if isinstance(argument, str) else tuple(argument)
        self.argument = self.arguments[0]

    def __reduce__(self):  # the default would call cls(message) and lose the names
        return type(self), (str(self), self.arguments)


class ArgumentValueError(_AboutArgument, ValueError):
    """A :class:`ValueError` about an argument (``argument``) of the call that raised it."""


class ArgumentTypeError(_AboutArgument, TypeError):
    """A :class:`TypeError` about an argument (``argument``) of the call that raised it."""


def arguments_of(error: BaseException) -> tuple:
    """The names of the arguments ``error`` is about (none for an error of another kind)."""
    return getattr(error, "arguments", ())


def _bounds_text(minimum, maximum, strict_minimum, strict_maximum) -> str:
    low = None if minimum is None else f"{'>' if strict_minimum else '>='} {minimum}"
    high = None if maximum is None else f"{'<' if strict_maximum else '<='} {maximum}"
    if low and high:
        return f" {low} and {high}"
    return f" {low or high}" if (low or high) else ""


def check_number(value, name, *, integer=False, minimum=None, maximum=None,
                 strict_minimum=False, strict_maximum=False, none_ok=False):
    """``value`` as an ``int`` (``integer``) or finite ``float``, within the bounds given.

    Parameters
    ----------
    value : object
    name : str
        The argument's name, used in the message.
    integer : bool, default=False
        Require an integral number (``int`` or a NumPy integer).
    minimum, maximum : number, optional
        Bounds, inclusive unless ``strict_minimum`` / ``strict_maximum``.
    none_ok : bool, default=False
        Accept ``None`` (returned as is).

    Returns
    -------
    int, float or None

    Raises
    ------
    TypeError
        ``value`` is not a number (a string, a bool, an array, ...).
    ValueError
        ``value`` is NaN, infinite or out of bounds.
    """
    if value is None and none_ok:
        return None
    kind = numbers.Integral if integer else numbers.Real
    noun = "an integer" if integer else "a number"
    bounds = _bounds_text(minimum, maximum, strict_minimum, strict_maximum)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, kind):
        also = " or None" if none_ok else ""
        raise ArgumentTypeError(f"`{name}` must be {noun}{bounds}{also}, got {value!r} "
                                f"({type(value).__name__})", name)
    if not integer and not math.isfinite(value):
        raise ArgumentValueError(f"`{name}` must be a finite number{bounds}, got {value!r}", name)
    too_low = minimum is not None and (value <= minimum if strict_minimum else value < minimum)
    too_high = maximum is not None and (value >= maximum if strict_maximum else value > maximum)
    if too_low or too_high:
        raise ArgumentValueError(f"`{name}` must be {noun}{bounds}, got {value!r}", name)
    return int(value) if integer else float(value)


def check_choice(value, name, choices):
    """``value`` if it is one of ``choices``, else a ValueError listing them."""
    try:
        ok = value in choices
    except TypeError:  # unhashable value tested against a set
        ok = False
    if not ok:
        raise ArgumentValueError(f"`{name}` must be one of {list(choices)}, got {value!r}", name)
    return value


def check_label_count(y, n_rows, name="y", rows_of="X"):
    """Refuse labels ``y`` whose length is not the number of rows of ``rows_of``."""
    shape = np.shape(y) if y is not None else None
    if shape is not None and len(shape) >= 1 and shape[0] != n_rows:
        raise ArgumentValueError(f"`{name}` has {shape[0]} labels but `{rows_of}` has {n_rows} "
                                 "rows", (name, rows_of))
    return y


def check_matrix(A, name, *, square=False, accept_sparse=True, min_rows=1):
    """A 2-D finite float64 matrix: an ndarray, or CSR when ``A`` is sparse.

    Parameters
    ----------
    A : array-like or scipy.sparse matrix of shape (n_rows, n_cols)
    name : str
    square : bool, default=False
        Require ``n_rows == n_cols``.
    accept_sparse : bool, default=True
        Return sparse input as CSR (never densified); else refuse it.
    min_rows : int, default=1

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix of shape (n_rows, n_cols), float64

    Raises
    ------
    TypeError
        ``A`` is not a matrix of real numbers: strings, or complex values, dense or sparse
        (never cut to their real part).
    ValueError
        ``A`` is not 2-D, is too small, is not square when ``square``, or is not finite.
    """
    if A is None or isinstance(A, (str, bytes, dict)):
        raise ArgumentTypeError(f"`{name}` must be a 2-D array of numbers, got {type(A).__name__}",
                                name)
    if sp.issparse(A):
        if not accept_sparse:
            raise ArgumentTypeError(f"`{name}` must be a dense array, got a sparse "
                                    f"{type(A).__name__}; convert it with .toarray()", name)
        if not np.issubdtype(A.dtype, np.number) or np.issubdtype(A.dtype, np.complexfloating):
            raise _not_real(A.dtype, name)
        A = sp.csr_matrix(A, dtype=np.float64)
        values = A.data
    else:
        A = _dense_float64(A, name)
        values = A
    if A.ndim != 2:
        raise ArgumentValueError(f"`{name}` must be a 2-D array, got shape {A.shape}", name)
    if A.shape[0] < min_rows or A.shape[1] == 0:
        raise ArgumentValueError(f"`{name}` is empty or too small: got shape {A.shape}, need at "
                                 f"least {min_rows} row(s) and 1 column", name)
    if square and A.shape[0] != A.shape[1]:
        raise ArgumentValueError(f"`{name}` must be a square matrix, got shape {A.shape}", name)
    if not np.all(np.isfinite(values)):
        raise ArgumentValueError(f"`{name}` contains non-finite values, first "
                                 f"{_first_bad(A, name)}", name)
    return A


def _not_real(dtype, name) -> ArgumentTypeError:
    """The error for a matrix ``name`` whose ``dtype`` is not real numbers (complex, ...)."""
    return ArgumentTypeError(f"`{name}` must hold real numbers, got dtype {dtype}", name)


def _dense_float64(A, name) -> np.ndarray:
    """``A`` as a float64 ndarray; complex input is refused like sparse complex input, since
    the cast alone would keep only its real part (with nothing but a ComplexWarning)."""
    try:
        complex_input = np.iscomplexobj(A)  # reads lists too, through np.asarray
        A = A if complex_input else np.asarray(A, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ArgumentTypeError(f"`{name}` must be a 2-D array of real numbers ({exc})",
                                name) from None
    if complex_input:
        raise _not_real(np.asarray(A).dtype, name)
    return A


def _first_bad(A, name) -> str:
    """``"name[i, j] = nan"`` for the first non-finite entry of ``A``."""
    if sp.issparse(A):
        t = int(np.flatnonzero(~np.isfinite(A.data))[0])
        i = int(np.searchsorted(A.indptr, t, side="right") - 1)
        return f"{name}[{i}, {A.indices[t]}] = {A.data[t]}"
    i, j = np.argwhere(~np.isfinite(A))[0]
    return f"{name}[{i}, {j}] = {A[i, j]}"


@contextlib.contextmanager
def naming(name):
    """Make a ValueError or TypeError raised inside an error about the argument ``name``.

    For checks done by other libraries (scikit-learn's ``check_array`` says
    "Found array with 0 sample(s)" without saying which array): the error becomes an
    :class:`ArgumentValueError` or :class:`ArgumentTypeError` about ``name``, its
    message prefixed with the name unless it already mentions it. An error already
    about an argument passes unchanged.
    """
    try:
        yield
    except (ValueError, TypeError) as exc:
        if arguments_of(exc):
            raise
        message = str(exc)
        if not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", message):
            message = f"`{name}`: {message}"
        kind = ArgumentTypeError if isinstance(exc, TypeError) else ArgumentValueError
        raise kind(message, name) from exc
