"""Every measured number the README and the docs quote is a generated block: regenerated here
from the stored benchmark output and compared with the file (docs/update_numbers.py)."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))  # the docs tooling (not the library)

from tooling.blocks import blocks_in, markers, replace_block  # noqa: E402
from tooling.numbers import BLOCKS, at_least, generate, times  # noqa: E402

CASES = [(file, name) for file, blocks in BLOCKS.items() for name in blocks]


@pytest.mark.parametrize("file, name", CASES, ids=[f"{f}:{n}" for f, n in CASES])
def test_every_number_block_is_what_the_stored_measurements_give(file, name):
    text = (ROOT / file).read_text(encoding="utf-8")
    start, end = markers(name)
    assert text.count(start) == 1 and text.count(end) == 1, f"{file} lacks block {name}"
    assert replace_block(text, name, generate(name)) == text, \
        f"{file}: block {name} is stale; run python docs/update_numbers.py"


@pytest.mark.parametrize("file", sorted(BLOCKS))
def test_a_file_holds_only_blocks_the_generator_writes(file):
    text = (ROOT / file).read_text(encoding="utf-8")
    # gallery and scorecard: docs/update_gallery.py; intro: what docs/index.md includes
    known = set(BLOCKS[file]) | {"gallery", "scorecard", "intro"}
    assert set(blocks_in(text)) <= known


def test_no_run_time_is_typed_by_hand():
    """Run sizes and times come from benchmarks/workflow_overhead/; outside the blocks no
    "about 14 minutes" or "16 minutes instead of 25" is left."""
    for file in BLOCKS:
        text = (ROOT / file).read_text(encoding="utf-8")
        for name in blocks_in(text):
            text = replace_block(text, name, "")
        typed = re.search(r"about \d+ minutes|\d+ minutes (?:on|instead)|\d+ jobs\b|"
                          r"\d+(?:\.\d+)?× (?:faster|less|fewer)", text)
        assert not typed, f"{file}: {typed.group(0)!r} is typed by hand"


def test_ratios_are_rounded_honestly():
    assert times(60 / 16.61) == "3.61×"        # never "more than 4" for 3.6
    assert at_least(60 / 16.61) == "3.6"       # a lower bound rounds down
    assert at_least(0.0999) == "0.099" and times(1234.5) == "1,234×"


def test_a_record_without_its_conditions_is_left_out():
    """A D = 100,000 row of vec2vec_vs_umap.json that does not state today's updates per node is
    named as left out, and no ratio of it is quoted."""
    import json

    sparse = json.loads((ROOT / "benchmarks" / "vec2vec_vs_umap.json").read_text())["sparse"]
    table = generate("speed-table")
    from lowdim.embedding.cooccurrence import UPDATES_PER_NODE

    if sparse["context"].get("updates_per_node") == UPDATES_PER_NODE:
        assert f"D = {sparse['D']:,}, the same sparse matrix" in table
    else:
        assert "Left out" in table and f"D = {sparse['D']:,}, the same" not in table


def test_the_same_metric_row_quotes_each_case_in_the_order_it_names():
    """The speed table's row of case ``same_metric``: per peer and metric, each data set's
    difference and verdict, in the order of the data sets the row names."""
    import json

    from tooling.numbers import _benchmark

    stored = json.loads((ROOT / "benchmarks" / "vec2vec_vs_umap.json").read_text())
    row = next(line for line in generate("speed-table").splitlines()
               if "same neighbour metric" in line)
    named = re.search(r"seeded \(([^)]*)\)", row).group(1).split(" / ")
    report = _benchmark("vec2vec_report")
    for peer, name in (("umap", "UMAP"), ("pacmap", "PaCMAP")):
        for metric in ("cosine", "euclidean"):
            points, verdicts = re.search(rf"{name}, {metric}: ([^;]*) points \[([^]]*)\]",
                                         row).groups()
            expected = []
            for data_n in named:
                data, n = data_n.split(" ")
                versus = report.same_metric_versus(
                    stored[f"same_metric/{data}/{n.replace(',', '')}"]).set_index(
                    ["peer", "metric"]).loc[(peer, metric)]
                expected.append((round(versus["Vec2vec − peer (points)"], 1) + 0.0,
                                 versus["tested"].replace("Vec2vec ", "")))
            assert [float(p) for p in points.split(" / ")] == [p for p, _ in expected]
            assert verdicts.split(" / ") == [v for _, v in expected]
