"""README gallery: figures copied, reproduction section generated, markers respected."""

import pandas as pd

from lowdim.report.gallery import (END, SCREENSHOTS, START, copy_figures, gallery_section,
                                   reproduction_section, replace_section, screenshots)


def _card():
    return pd.DataFrame({
        "paper": ["A", "A", "A", "B", "B"],
        "artifact": ["Fig 1", "Fig 1", "Tab 2", "Fig 3", "Fig 4"],
        "metric": ["acc", "claim", "acc", "acc", "wall_time"],
        "setting": ["s1", "s2", "s3", "s4", "s5"],
        "published": [0.9, "less than reference", 0.8, 0.7, "less than reference"],
        "reproduced": [0.91, 1.0, None, 0.5, 9.0],
        "verdict": ["reproduced", "differs", "not run", "differs", "reproduced"],
        "reason": ["", "ours 1 vs reference 0.5", "dataset 'x' was not run", "",
                   "ours 9 vs reference 30"]})


def test_reproduction_section_counts_and_lists_checked_entries():
    text = reproduction_section(_card(), "offline")
    assert "**A**: 1 reproduced, 1 differ, 1 not run" in text
    assert "✅ Fig 1 — s1 (published 0.9, ours 0.91)" in text
    assert "❌ Fig 1 — s2 (ours 1 vs reference 0.5)" in text
    assert "✅ Fig 4 — s5 (ours 9 vs reference 30)" in text  # a claim on a measured metric
    assert "Tab 2" not in text  # not-run entries are counted, not listed


def test_replace_section_keeps_text_outside_the_markers():
    readme = f"intro\n{START}\nold\n{END}\noutro\n"
    new = replace_section(readme, f"{START}\nnew\n{END}")
    assert new == f"intro\n{START}\nnew\n{END}\noutro\n"
    assert replace_section("no markers\n", "X").endswith("no markers\n\nX\n")


def test_copy_figures_skips_missing_and_section_links_them(tmp_path):
    figure = tmp_path / "results" / "figures" / "cca" / "figure2_tcc.png"
    figure.parent.mkdir(parents=True)
    figure.write_bytes(b"\x89PNG")
    shown = copy_figures(tmp_path / "results", tmp_path / "docs")
    assert [name for name, _ in shown] == ["cca_figure2_tcc.png"]
    assert (tmp_path / "docs" / "cca_figure2_tcc.png").read_bytes() == b"\x89PNG"
    section = gallery_section(shown, None, "offline")
    assert section.startswith(START) and section.endswith(END)
    assert "(docs/gallery/cca_figure2_tcc.png)" in section


def test_report_screenshots_are_shown_when_the_browser_test_saved_them(tmp_path):
    assert screenshots(tmp_path) == []
    name, caption = SCREENSHOTS[0]
    (tmp_path / name).write_bytes(b"\x89PNG")
    assert screenshots(tmp_path) == [(name, caption)]
    assert f"(docs/gallery/{name})" in gallery_section(screenshots(tmp_path), None, "offline")
