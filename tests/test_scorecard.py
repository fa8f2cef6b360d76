"""Scorecard verdicts: tolerance boundaries on both sides, claims, and 'not run' reasons."""

import numpy as np
import pandas as pd
import pytest
import yaml

from lowdim.report import load_published, score_entry, scorecard
from lowdim.report.published import PublishedEntry
from lowdim.report.scorecard import within_tolerance


def _entry(published=90.0, tolerance=None, where=None, **kw):
    return PublishedEntry(
        paper="P", artifact="Figure 1", metric="pcc", setting="s", provenance="paper",
        published=published, tolerance=tolerance or {"abs": 2.0},
        reproduced={"file": "tidy.csv", "column": "value", "where": where or {"method": "a"}},
        **kw)


@pytest.fixture
def root(tmp_path):
    pd.DataFrame({"method": ["a", "a", "a", "b"], "seed": [0, 1, 2, 0],
                  "value": [0.91, 0.92, 0.93, 0.50]}).to_csv(tmp_path / "tidy.csv", index=False)
    return tmp_path


@pytest.mark.parametrize("value, expected", [(92.0, True), (91.999, True), (88.0, True),
                                             (92.001, False), (87.99, False)])
def test_absolute_tolerance_both_sides_of_the_boundary(value, expected):
    assert within_tolerance(value, 90.0, {"abs": 2.0}) is expected


@pytest.mark.parametrize("value, expected", [(105.0, True), (95.0, True), (105.01, False),
                                             (94.99, False)])
def test_relative_tolerance_both_sides_of_the_boundary(value, expected):
    assert within_tolerance(value, 100.0, {"rel": 0.05}) is expected


def test_looser_of_abs_and_rel_wins():
    assert within_tolerance(103.0, 100.0, {"abs": 1.0, "rel": 0.05})
    assert not within_tolerance(106.0, 100.0, {"abs": 1.0, "rel": 0.05})


def test_reproduced_row_has_mean_spread_and_difference(root):
    entry = _entry(published=90.0, tolerance={"abs": 2.5})
    entry = PublishedEntry(**{**entry.__dict__, "reproduced": {**entry.reproduced, "scale": 100}})
    row = score_entry(entry, root)
    assert row["verdict"] == "reproduced" and row["runs"] == 3
    np.testing.assert_allclose(row["reproduced"], 92.0)
    np.testing.assert_allclose(row["spread"], 1.0)
    np.testing.assert_allclose(row["difference"], 2.0)


def test_differs_just_outside_tolerance(root):
    entry = _entry(published=0.90, tolerance={"abs": 0.0199}, where={"method": "a"})
    assert score_entry(entry, root)["verdict"] == "differs"
    entry = _entry(published=0.90, tolerance={"abs": 0.02}, where={"method": "a"})
    assert score_entry(entry, root)["verdict"] == "reproduced"


def test_not_run_says_why(root):
    missing_file = _entry()
    missing_file = PublishedEntry(**{**missing_file.__dict__,
                                     "reproduced": {"file": "nope.csv", "column": "value"}})
    row = score_entry(missing_file, root)
    assert row["verdict"] == "not run" and "nope.csv" in row["reason"]
    row = score_entry(_entry(where={"method": "zzz"}), root)
    assert row["verdict"] == "not run" and "method 'zzz' was not run" in row["reason"]


def test_claims_compare_two_reproduced_values(root):
    claim = PublishedEntry(paper="P", artifact="Figure 1", metric="claim", setting="s",
                           provenance="paper text", expect="less",
                           reproduced={"file": "tidy.csv", "column": "value",
                                       "where": {"method": "b"}},
                           than={"file": "tidy.csv", "column": "value", "where": {"method": "a"}})
    assert score_entry(claim, root)["verdict"] == "reproduced"
    wrong = PublishedEntry(**{**claim.__dict__, "expect": "greater"})
    assert score_entry(wrong, root)["verdict"] == "differs"


def test_load_published_checks_entries(tmp_path):
    good = {"paper": "P", "tolerances": {"pcc": {"abs": 1.0, "unit": "%"}},
            "entries": [{"artifact": "Fig 1", "metric": "pcc", "setting": "s", "published": 90,
                         "provenance": "authors' code",
                         "reproduced": {"file": "t.csv", "column": "pcc"}}]}
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(good))
    (entry,) = load_published(path)
    assert entry.unit == "%" and entry.published == 90
    good["entries"][0]["metric"] = "accuracy"  # no tolerance for it
    path.write_text(yaml.safe_dump(good))
    with pytest.raises(ValueError, match="tolerance"):
        load_published(path)


def test_scorecard_table_has_one_row_per_entry(root):
    table = scorecard([_entry(), _entry(where={"method": "b"})], root)
    assert list(table["verdict"]) == ["differs", "differs"] and len(table) == 2


def test_nearest_and_median_select_the_run_closest_to_a_nominal_value(tmp_path):
    pd.DataFrame({"method": ["a"] * 5, "s/n": [0.05, 0.1003, 0.1003, 0.1003, 0.2],
                  "error": [9.0, 1.0, 2.0, 10.0, 9.0]}).to_csv(tmp_path / "e.csv", index=False)
    entry = PublishedEntry(paper="P", artifact="Fig", metric="err", setting="s", provenance="p",
                           published=2.0, tolerance={"abs": 0.01},
                           reproduced={"file": "e.csv", "column": "error", "where": {"method": "a"},
                                       "nearest": {"s/n": 0.1}, "aggregate": "median"})
    row = score_entry(entry, tmp_path)
    assert row["runs"] == 3 and row["verdict"] == "reproduced"
    np.testing.assert_allclose(row["reproduced"], 2.0)


def test_rehearsal_scores_a_setting_not_run_at_the_nearest_one(tmp_path):
    pd.DataFrame({"dataset": ["x", "x", "x", "y"], "n": [100, 300, 1000, 20000],
                  "value": [0.1, 0.3, 0.9, 0.5]}).to_csv(tmp_path / "tidy.csv", index=False)
    entry = _entry(published=1.0, tolerance={"abs": 0.2},
                   where={"dataset": "x", "n": 20000})
    # a real run: the published setting n = 20000 was not run on x, so "not run"
    assert score_entry(entry, tmp_path)["verdict"] == "not run"
    row = score_entry(entry, tmp_path, nearest_settings=True)
    # the nearest n run on x (1000, not y's 20000: categorical keys are matched first)
    assert row["reproduced"] == pytest.approx(0.9) and row["verdict"] == "reproduced"
    assert row["reason"] == ("rehearsal: scored at the nearest setting run: n 1000 "
                             "(published setting 20000)")
    # an unknown category is never replaced
    missing = _entry(where={"dataset": "z", "n": 100})
    assert score_entry(missing, tmp_path, nearest_settings=True)["verdict"] == "not run"
    # an exact match is used as is, with no note
    exact = score_entry(_entry(published=0.3, where={"dataset": "x", "n": 300}), tmp_path,
                        nearest_settings=True)
    assert exact["reproduced"] == pytest.approx(0.3) and exact["reason"] == ""
