"""The documentation's gallery and scorecard section (docs/gallery.md, docs/scorecard.md): figures
copied, sections generated, markers respected."""

import re
import sys
from pathlib import Path

import pandas as pd

from lowdim.report import load_published
from lowdim.report.decision import CLAIM_RULE
from lowdim.report.scorecard import VERDICTS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))  # the docs tooling (not the library)

from tooling import scorecard_section as readme  # noqa: E402
from tooling.blocks import replace_section  # noqa: E402
from tooling.gallery import (END, SCREENSHOTS, START, copy_figures, gallery_section,  # noqa: E402
                             screenshots)


def _card(papers):
    return pd.DataFrame({"paper": papers, "verdict": "not run"})


def test_scorecard_section_counts_entries_and_names_files_and_every_verdict():
    text = readme.scorecard_section(_card(["AppGrad CCA"] * 2 + ["SMS-Nyström"] * 3))
    assert text.startswith(readme.START) and text.endswith(readme.END)
    flat = " ".join(text.split())
    assert "against the 5 published numbers" in flat
    assert "(3 for SMS-Nyström, 2 for AppGrad CCA)" in flat  # the report's order
    assert "`scorecard_sms_nystrom.md`, `scorecard_appgrad_cca.md`" in flat
    assert all(f"- *{verdict}*: " in text for verdict in VERDICTS)
    assert " ".join(CLAIM_RULE.split()) in flat  # how a claim is decided
    assert "✅" not in text  # no run's verdicts or counts of them
    assert not re.search(r"\d+ (reproduced|differs|not run|within noise)", text)


def test_docs_scorecard_section_is_the_generated_one():
    """Nothing in it is hand-kept: it is what `python docs/update_gallery.py` writes for any
    run (one scorecard row per published entry); test_workflow checks it on the tiny run."""
    entries = [e for path in sorted((ROOT / "config" / "published").glob("*.yaml"))
               for e in load_published(path)]
    text = (ROOT / "docs" / "scorecard.md").read_text()
    section = readme.scorecard_section(_card([e.paper for e in entries]))
    assert section in text, "docs/scorecard.md is stale: run docs/update_gallery.py"


def test_replace_section_keeps_text_outside_the_markers():
    text = f"intro\n{START}\nold\n{END}\noutro\n"
    new = replace_section(text, f"{START}\nnew\n{END}", START, END)
    assert new == f"intro\n{START}\nnew\n{END}\noutro\n"
    assert replace_section("no markers\n", "X", START, END).endswith("no markers\n\nX\n")
    both = replace_section(new, f"{readme.START}\ncard\n{readme.END}", readme.START, readme.END)
    assert both == f"{new.rstrip()}\n\n{readme.START}\ncard\n{readme.END}\n"


def test_copy_figures_skips_missing_and_section_links_them(tmp_path):
    figure = tmp_path / "results" / "figures" / "cca" / "figure2_tcc.png"
    figure.parent.mkdir(parents=True)
    figure.write_bytes(b"\x89PNG")
    shown = copy_figures(tmp_path / "results", tmp_path / "docs")
    assert [name for name, _ in shown] == ["cca_figure2_tcc.png"]
    assert (tmp_path / "docs" / "cca_figure2_tcc.png").read_bytes() == b"\x89PNG"
    section = gallery_section(shown, "offline")
    assert section.startswith(START) and section.endswith(END)
    assert "(docs/gallery/cca_figure2_tcc.png)" in section


def test_report_screenshots_are_shown_when_the_browser_test_saved_them(tmp_path):
    assert screenshots(tmp_path) == []
    name, caption = SCREENSHOTS[0]
    (tmp_path / name).write_bytes(b"\x89PNG")
    assert screenshots(tmp_path) == [(name, caption)]
    assert f"(docs/gallery/{name})" in gallery_section(screenshots(tmp_path), "offline")
