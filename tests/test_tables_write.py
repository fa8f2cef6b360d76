"""`write_table`: the LaTeX copy reads as the Markdown one and compiles (no raw % or _)."""

import re

import numpy as np
import pandas as pd

from lowdim.tables import write_table


def test_latex_table_escapes_its_caption_and_shows_cells_as_the_markdown_does(tmp_path):
    df = pd.DataFrame({"method": ["sms_nystrom", "nystrom"], "CoNLL F1 (%)": [92.9, np.nan],
                       "fraction": [0.1, 0.98765432]})
    md, csv, tex = write_table(df, tmp_path / "t", caption="CoNLL F1 (%) & B^3, doc_1 ~ 2")
    latex = tex.read_text()
    # "%" would comment out the rest of the caption line, its closing brace included
    assert re.search(r"(?<!\\)[%_]", latex) is None, latex
    assert r"\caption{CoNLL F1 (\%) \& B\textasciicircum{}3, doc\_1 \textasciitilde{} 2}" in latex
    assert "NaN" not in latex and "nan" not in latex
    assert r"sms\_nystrom & 92.9 & 0.1 \\" in latex  # not 92.900000 and 0.100000
    assert r"nystrom & -- & 0.987654 \\" in latex
    assert re.search(r"\| nystrom +\| +– +\|", md.read_text())  # the Markdown's dash
    assert pd.read_csv(csv)["CoNLL F1 (%)"].isna().tolist() == [False, True]


def test_latex_tables_hold_no_symbol_latex_cannot_read(tmp_path):
    """pdflatex's UTF-8 input stops at ≤, λ, ≈ or a combining tilde ("Unicode character ...
    not set up for use with LaTeX"); the default run's tables held ≤, λ, ≈, ρ and K̃. Written
    as math; accented Latin letters, which it reads, are kept."""
    import unicodedata

    frame = pd.DataFrame({"method": ["SMS-Nyström", "ρ-CCA"], "‖K − K̃‖ / ‖K‖": [0.1, 0.2],
                          "λ ≤ 1e-3": ["92 ± 1", "≈ 90"]})
    (tex,) = write_table(frame, tmp_path / "t", formats=("tex",), caption="λ = 0.1 × K̃, k → ∞")
    text = tex.read_text()
    strange = {c for c in text if ord(c) > 127 and not unicodedata.name(c).startswith("LATIN")}
    assert not strange
    assert r"$\tilde{\mathrm{K}}$" in text and r"$\lambda$ $\le$ 1e-3" in text
    assert "Nyström" in text and r"$\rho$-CCA" in text
