"""The README gallery: key figures of a run, and the report's screenshots."""

from __future__ import annotations

import shutil
from pathlib import Path

from .blocks import replace_section

__all__ = ["END", "GALLERY", "SCREENSHOTS", "START", "copy_figures", "gallery_section",
           "replace_section", "screenshots"]

#: (file under results/figures, caption) of the figures shown in the README.
GALLERY = (
    ("similarity/figure1_error_vs_sample_fraction.png",
     "SMS-Nyström paper, Figure 1: relative error against sample fraction. Classic Nyström blows up "
     "on the indefinite MLP similarity of digits; SMS-Nyström does not."),
    ("similarity/figure2_spectra.png",
     "SMS-Nyström paper, Figure 2: spectra and the smallest eigenvalue of random principal submatrices."),
    ("embedding/figure4_knn_accuracy.png",
     "Vec2vec paper, Figure 4: kNN accuracy (mean ± 2 sd over 4 folds) of Vec2vec and the baselines. "
     "The paper profile marks each bar with the published accuracy (hollow diamonds); the offline "
     "datasets are stand-ins, so none is drawn here."),
    ("embedding/figure3_timing.png",
     "Vec2vec paper, Figure 3: wall time against number of points and input dimensionality."),
    ("cca/figure1_pcc.png",
     "AppGrad paper, Figure 1: proportion of correlations captured against log(FLOP). The paper "
     "profile adds the published MNIST values at the FLOPs of their iterations (none offline)."),
    ("cca/figure2_tcc.png",
     "AppGrad paper, Figure 2: total correlation captured by stochastic AppGrad and the heuristics "
     "on sparse high-dimensional data."),
    ("cca/kernel_cca_tcc.png",
     "Kernel CCA (SMS-Nyström features + AppGrad): held-out TCC against landmarks and "
     "similarity evaluations, against linear CCA and exact kernel CCA."),
)

#: (file in docs/gallery, caption) of the report's screenshots, which
#: tests/test_report_browser.py takes of the tiny test run's report in headless Chromium.
SCREENSHOTS = (
    ("report_front_page.png",
     "The HTML report's front page (the tiny test run, headless Chromium at 1,400 px): what ran, "
     "the scorecard totals, and links to the Overview's tables, beside the rule graph."),
    ("report_figure_page.png",
     "A figure in the HTML report: Vec2vec Figure 4 in its category (the tiny test run)."),
)

#: The lines around the README's gallery.
START, END = "<!-- gallery:start -->", "<!-- gallery:end -->"


def copy_figures(results_dir, docs_dir) -> list[tuple[str, str]]:
    """Copy the gallery PNGs from a run into ``docs_dir``; return (relative path, caption) pairs.

    Figures the run did not produce are skipped.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from tooling.gallery import GALLERY, copy_figures
    >>> results = Path(tempfile.mkdtemp())
    >>> figure = results / "figures" / GALLERY[0][0]
    >>> figure.parent.mkdir(parents=True)
    >>> _ = figure.write_bytes(b"a PNG")
    >>> copied = copy_figures(results, results / "gallery")
    >>> [path for path, caption in copied]
    ['similarity_figure1_error_vs_sample_fraction.png']
    """
    docs_dir = Path(docs_dir)
    docs_dir.mkdir(parents=True, exist_ok=True)
    shown = []
    for source, caption in GALLERY:
        path = Path(results_dir) / "figures" / source
        if path.exists():
            target = docs_dir / source.replace("/", "_")
            shutil.copyfile(path, target)
            shown.append((target.name, caption))
    return shown


def screenshots(docs_dir) -> list[tuple[str, str]]:
    """(file name, caption) of the report screenshots present in ``docs_dir``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from tooling.gallery import SCREENSHOTS, screenshots
    >>> docs = Path(tempfile.mkdtemp())
    >>> _ = (docs / SCREENSHOTS[0][0]).write_bytes(b"a PNG")
    >>> [name for name, caption in screenshots(docs)]
    ['report_front_page.png']
    """
    return [(name, caption) for name, caption in SCREENSHOTS if (Path(docs_dir) / name).exists()]


def gallery_section(figures, profile: str, docs_prefix="docs/gallery") -> str:
    """The README block between the gallery markers.

    Examples
    --------
    >>> from tooling.gallery import gallery_section
    >>> print(gallery_section([("similarity_figure1.png", "Figure 1.")], "offline"))
    <!-- gallery:start -->
    <BLANKLINE>
    Figures from the default `offline` run (regenerate with `python docs/update_gallery.py` after `snakemake --cores 2`).
    <BLANKLINE>
    ![Figure 1.](docs/gallery/similarity_figure1.png)
    <BLANKLINE>
    *Figure 1.*
    <BLANKLINE>
    <!-- gallery:end -->
    """
    lines = [START, "", f"Figures from the default `{profile}` run (regenerate with "
             "`python docs/update_gallery.py` after `snakemake --cores 2`).", ""]
    for name, caption in figures:
        lines += [f"![{caption}]({docs_prefix}/{name})", "", f"*{caption}*", ""]
    lines.append(END)
    return "\n".join(lines)
