"""The README and the user guide: their Python code blocks run as written, the README stays
short and links only to files that exist."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = sorted((ROOT / "docs" / "user_guide").glob("*.md"))


def python_blocks(path):
    """The fenced ```python blocks of a Markdown file, in order."""
    return re.findall(r"^```python\n(.*?)^```$", path.read_text(), flags=re.S | re.M)


@pytest.mark.parametrize("path", [README, *GUIDE], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_python_code_blocks_run_verbatim(path, tmp_path, monkeypatch):
    """Every block of a page runs, in order, in one namespace and a fresh directory, as a
    reader pasting them would run them."""
    blocks = python_blocks(path)
    if path == README:
        assert len(blocks) >= 3, "one library example per paper"
    namespace = {"__name__": "__readme__"}
    monkeypatch.chdir(tmp_path)
    for number, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"{path.name}, block {number}", "exec"), namespace)
        except Exception as exc:  # the block as a reader would see it fail
            pytest.fail(f"{path.name}, Python block {number} failed: {exc!r}\n{block}")


def test_every_user_guide_page_about_a_method_shows_code_and_a_figure():
    for path in GUIDE:
        if path.name == "index.md":
            continue
        text = path.read_text()
        assert python_blocks(path), f"{path.name}: no code example"
        figures = re.findall(r"```\{figure\} \.\./(gallery/\S+\.png)", text)
        assert figures, f"{path.name}: no figure"
        assert all((ROOT / "docs" / f).is_file() for f in figures), figures


def test_readme_is_short_and_its_links_resolve():
    text = README.read_text()
    assert len(text.splitlines()) <= 120
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    # docs/speed.md is written by the speed benchmarks' report (issue 33)
    missing = [t for t in targets if not t.startswith("http") and not (ROOT / t).exists()
               and t != "docs/speed.md"]
    assert not missing, f"README links to files that do not exist: {missing}"
    for name in ("LICENSE", "CITATION.cff", "CHANGELOG.md"):
        assert (ROOT / name).is_file(), name
