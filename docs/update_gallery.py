"""Regenerate the documentation's gallery and scorecard section from a finished run.

    snakemake --cores 2 && python docs/update_gallery.py [--results results]

Copies the key figures to docs/gallery/ and rewrites the block of docs/gallery.md between
the gallery markers: the figures and the report screenshots that
`LOWDIM_UPDATE_GALLERY=1 pytest tests/test_report_browser.py` saves there. Rewrites
the scorecard section of docs/scorecard.md (between its own markers) from
results/tables/report/scorecard.csv; it holds no measured number
(``tooling.scorecard_section``), and tests/test_workflow.py checks it against the tiny run.
"""

import argparse
import sys
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "docs"), str(ROOT / "src")]  # the docs tooling, this checkout's lowdim

from tooling import scorecard_section as readme  # noqa: E402
from tooling.blocks import replace_section  # noqa: E402
from tooling.gallery import END, START, copy_figures, gallery_section, screenshots  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=ROOT / "results", type=Path)
    args = parser.parse_args()
    docs = ROOT / "docs" / "gallery"
    figures = copy_figures(args.results, docs) + screenshots(docs)
    profile = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["profile"]
    page = ROOT / "docs" / "gallery.md"  # its images are at gallery/ beside it
    page.write_text(replace_section(page.read_text(),
                                    gallery_section(figures, profile, docs_prefix="gallery"),
                                    START, END))
    scorecard = args.results / "tables" / "report" / "scorecard.csv"
    if scorecard.exists():
        page = ROOT / "docs" / "scorecard.md"
        page.write_text(replace_section(page.read_text(),
                                        readme.scorecard_section(pd.read_csv(scorecard)),
                                        readme.START, readme.END))
    print(f"gallery: {len(figures)} figures, scorecard {'found' if scorecard.exists() else 'missing'}")


if __name__ == "__main__":
    main()
