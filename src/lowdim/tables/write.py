"""Write one table in every format the report and papers use."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import ArgumentValueError
from ..io import atomic_path

__all__ = ["write_table", "format_mean_std"]

_FORMATS = ("md", "csv", "tex")


def write_table(df: pd.DataFrame, path, formats=_FORMATS, caption: str | None = None) -> list[Path]:
    """Write ``df`` as Markdown, CSV and/or LaTeX, atomically.

    Parameters
    ----------
    df : pandas.DataFrame
        The table as it should read; column names carry units, e.g. ``"time (s)"``.
    path : str or Path
        Stem or a path whose suffix is replaced by each format's.
    formats : sequence of {"md", "csv", "tex"}
    caption : str, optional
        Put above the Markdown table and into the LaTeX caption.

    Returns
    -------
    paths : list of Path

    Examples
    --------
    >>> from lowdim.tables import write_table
    >>> paths = write_table(pd.DataFrame({"method": ["pca"], "accuracy": [0.95]}),
    ...                     tmp / "table.md")
    >>> [p.name for p in paths]
    ['table.md', 'table.csv', 'table.tex']
    >>> print(paths[0].read_text())
    | method   |   accuracy |
    |:---------|-----------:|
    | pca      |       0.95 |
    """
    path = Path(path)
    stem = path.with_suffix("") if path.suffix.lstrip(".") in _FORMATS else path
    written = []
    for fmt in formats:
        if fmt not in _FORMATS:
            raise ArgumentValueError(f"`formats` entries must be one of {_FORMATS}, got {fmt!r}",
                                     "formats")
        target = stem.with_suffix("." + fmt)
        with atomic_path(target) as tmp:
            if fmt == "csv":
                df.to_csv(tmp, index=False)
            elif fmt == "md":
                shown = df.astype(object).where(df.notna(), None)
                text = shown.to_markdown(index=False, missingval="–")
                tmp.write_text((f"{caption}\n\n" if caption else "") + text + "\n")
            else:
                # numbers as the Markdown shows them (not to_latex's six decimals), a dash
                # for a missing cell, and a caption LaTeX reads as text ("%" starts a comment)
                tmp.write_text(latex_symbols(df.to_latex(
                    index=False, escape=True, na_rep="--", float_format=lambda v: f"{v:g}",
                    caption=None if caption is None else latex_text(caption))))
        written.append(target)
    return written


#: LaTeX's special characters and how to write each as text.
_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}"}


#: Characters of our labels that LaTeX's default UTF-8 input does not define (pdflatex stops
#: at them: "Unicode character ≤ (U+2264) not set up for use with LaTeX"), as math.
_SYMBOLS = {"≤": r"$\le$", "≥": r"$\ge$", "≈": r"$\approx$", "≠": r"$\neq$", "−": r"$-$",
            "‖": r"$\|$", "·": r"$\cdot$", "±": r"$\pm$", "×": r"$\times$", "→": r"$\to$",
            "√": r"$\surd$", "∞": r"$\infty$", "²": r"$^2$", "³": r"$^3$", "ᵀ": r"$^\top$",
            **{chr(0x3B1 + i): f"$\\{name}$" for i, name in enumerate(
                "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
                "omicron pi rho varsigma sigma tau upsilon phi chi psi omega".split())
               if name != "omicron"},
            "Γ": r"$\Gamma$", "Δ": r"$\Delta$", "Θ": r"$\Theta$", "Λ": r"$\Lambda$",
            "Σ": r"$\Sigma$", "Φ": r"$\Phi$", "Ψ": r"$\Psi$", "Ω": r"$\Omega$"}


def latex_symbols(text: str) -> str:
    r"""``text`` (LaTeX) with the symbols LaTeX's UTF-8 input lacks written as math: Greek
    letters, relations and operators, and a letter under a combining tilde (K̃).

    Examples
    --------
    >>> from lowdim.tables.write import latex_symbols
    >>> print(latex_symbols("‖K − K̃‖ ≤ 0.1, λ = 1e-3, 92 ± 1"))
    $\|$K $-$ $\tilde{\mathrm{K}}$$\|$ $\le$ 0.1, $\lambda$ = 1e-3, 92 $\pm$ 1
    """
    text = re.sub("(.)\u0303", lambda m: f"$\\tilde{{\\mathrm{{{m.group(1)}}}}}$", text)
    return "".join(_SYMBOLS.get(char, char) for char in text)


def latex_text(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped, to be read as plain text.

    Examples
    --------
    >>> from lowdim.tables.write import latex_text
    >>> print(latex_text("CoNLL F1 (%) & B^3 of doc_1"))
    CoNLL F1 (\%) \& B\textasciicircum{}3 of doc\_1
    """
    return "".join(_LATEX.get(char, char) for char in text)


def format_mean_std(values, digits: int = 2, scale: float = 1.0) -> str:
    """Format ``mean ± std`` of ``values`` (NaNs ignored); ``"–"`` when empty.

    Examples
    --------
    >>> from lowdim.tables import format_mean_std
    >>> format_mean_std([0.91, 0.93, float("nan")], digits=2, scale=100)
    '92.00 ± 1.41'
    >>> format_mean_std([])
    '–'
    """
    arr = np.asarray(values, dtype=float) * scale
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        return "–"
    if arr.size == 1:
        return f"{arr[0]:.{digits}f}"
    return f"{arr.mean():.{digits}f} ± {arr.std(ddof=1):.{digits}f}"
