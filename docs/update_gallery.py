"""Regenerate the README gallery from a finished run.

    snakemake --cores 2 && python docs/update_gallery.py [--results results]

Copies the key figures to docs/gallery/ and rewrites the README block between
the gallery markers: the figures, the report screenshots that
`LOWDIM_UPDATE_GALLERY=1 pytest tests/test_report_browser.py` saves there, and the
'what reproduces' section
generated from results/tables/report/scorecard.csv.
"""

import argparse
from pathlib import Path

import pandas as pd
import yaml

from lowdim.report.gallery import copy_figures, gallery_section, replace_section, screenshots

ROOT = Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=ROOT / "results", type=Path)
    parser.add_argument("--readme", default=ROOT / "README.md", type=Path)
    args = parser.parse_args()
    docs = ROOT / "docs" / "gallery"
    figures = copy_figures(args.results, docs) + screenshots(docs)
    scorecard = args.results / "tables" / "report" / "scorecard.csv"
    card = pd.read_csv(scorecard) if scorecard.exists() else None
    profile = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["profile"]
    section = gallery_section(figures, card, profile)
    args.readme.write_text(replace_section(args.readme.read_text(), section))
    print(f"gallery: {len(figures)} figures, scorecard {'found' if card is not None else 'missing'}")


if __name__ == "__main__":
    main()
