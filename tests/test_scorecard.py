"""Scorecard verdicts: tolerance boundaries on both sides, claims, 'not run' reasons, and
verdicts that mean what they say (replicas, statistics not computed, settings substituted)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from lowdim.report import load_published, score_entry, scorecard
from lowdim.report.published import PublishedEntry
from lowdim.report.scorecard import within_tolerance

PUBLISHED = Path(__file__).resolve().parents[1] / "config" / "published"


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
    assert row["reason"] == ("ours 0.9 vs published 1, within ±0.2; scored at n = 1000, "
                             "nearest run to the published 20000; value of 1 run of tidy.csv: "
                             "dataset = x, n = 1000")
    # an unknown category is never replaced
    missing = _entry(where={"dataset": "z", "n": 100})
    assert score_entry(missing, tmp_path, nearest_settings=True)["verdict"] == "not run"
    # an exact match is used as is: the reason says what matched, and no substitution
    exact = score_entry(_entry(published=0.3, where={"dataset": "x", "n": 300}), tmp_path,
                        nearest_settings=True)
    assert exact["reproduced"] == pytest.approx(0.3)
    assert exact["reason"] == ("ours 0.3 vs published 0.3, within ±2; value of 1 run of "
                               "tidy.csv: dataset = x, n = 300")


# -- verdicts that mean what they say -----------------------------------------------------
def test_every_scored_row_says_what_it_matched(root):
    table = scorecard([_entry(), _entry(where={"method": "b"}), _entry(where={"method": "q"})],
                      root, profile="offline")
    assert table["profile"].eq("offline").all()
    scored = table[table["verdict"] != "not run"]
    assert len(scored) == 2
    assert scored["reason"].str.contains("of tidy.csv: method = ").all()
    assert table.loc[0, "reason"].endswith("mean of 3 runs of tidy.csv: method = a")


def test_on_replicas_no_entry_reads_reproduced_or_differs(root):
    entries = [_entry(published=0.92, tolerance={"abs": 0.1}),  # would be reproduced
               _entry(published=0.10, tolerance={"abs": 0.1}),  # would differ
               _entry(where={"method": "nothing"})]             # not run
    card = scorecard(entries, root, replica=True, profile="rehearsal")
    assert card["verdict"].tolist() == ["ran on replica", "ran on replica", "not run"]
    np.testing.assert_allclose(card["reproduced"][:2], 0.92)  # the number is kept
    assert card.loc[0, "reason"].startswith("on replica data, not the paper's")
    assert "ours 0.92 vs published 0.92, within ±0.1" in card.loc[0, "reason"]
    assert "outside ±0.1" in card.loc[1, "reason"]


def test_a_statistic_that_was_not_computed_reads_not_computed(tmp_path):
    """A t-test over one dataset has NaN H (lowdim.evaluate.stats): it must neither match a
    published H = 0 ("not significant") nor count as not run."""
    from lowdim.evaluate.stats import ttests_against

    scores = pd.DataFrame({"vec2vec": [0.9], "umap": [0.8]}, index=["digits"])
    ttests_against(scores).assign(task="classification").to_csv(tmp_path / "ttests.csv",
                                                                  index=False)
    entry = PublishedEntry(paper="P", artifact="t-tests", metric="ttest_H", setting="s",
                           provenance="paper", published=0, tolerance={"abs": 0},
                           reproduced={"file": "ttests.csv", "column": "H",
                                       "where": {"task": "classification", "method": "umap"}})
    for replica in (False, True):
        row = score_entry(entry, tmp_path, replica=replica)
        assert row["verdict"] == "not computed" and np.isnan(row["reproduced"])
        assert row["reason"] == ("H is NaN in 1 matching row(s) of ttests.csv: not computed: "
                                 "1 pair(s); a paired t-test needs at least 2")


def test_nan_rows_beside_numbers_are_counted_and_named(tmp_path):
    pd.DataFrame({"method": ["a"] * 3, "value": [0.5, np.nan, 0.7]}).to_csv(
        tmp_path / "tidy.csv", index=False)
    row = score_entry(_entry(published=0.6, tolerance={"abs": 0.1}), tmp_path)
    assert row["runs"] == 2 and row["verdict"] == "reproduced"
    assert row["reason"].endswith("mean of 2 runs of tidy.csv: method = a (1 NaN row left out)")


def _errors(tmp_path, fractions):
    rows = [{"matrix": "m", "method": "stacur", "s/n": f, "seed": seed, "error": 1 / f + seed}
            for f in fractions for seed in (0, 1)]
    pd.DataFrame(rows).to_csv(tmp_path / "errors.csv", index=False)


def _stacur_claim():
    """The StaCUR claims: error at s/n = 0.4 below that at s/n = 0.05."""
    source = {"file": "errors.csv", "column": "error", "where": {"matrix": "m", "method": "stacur"},
              "aggregate": "median"}
    return PublishedEntry(paper="P", artifact="Figure 1", metric="claim", setting="s",
                          provenance="p", expect="less",
                          reproduced={**source, "nearest": {"s/n": 0.4}},
                          than={**source, "nearest": {"s/n": 0.05}})


def test_a_setting_scored_in_place_of_the_published_one_is_named(tmp_path):
    _errors(tmp_path, [0.1, 0.2, 0.4])  # the rehearsal's fractions: no 0.05
    row = score_entry(_stacur_claim(), tmp_path)
    assert row["verdict"] == "reproduced"
    assert "scored at s/n = 0.1, nearest run to the published 0.05" in row["reason"]
    assert "s/n = 0.4, nearest" not in row["reason"]  # 0.4 was run: nothing to name
    assert "reference: median of 2 runs of errors.csv: matrix = m, method = stacur, s/n = 0.1" \
        in row["reason"]
    _errors(tmp_path, [0.0502, 0.1, 0.4])  # round(0.05 n) / n is the published setting
    assert "scored at" not in score_entry(_stacur_claim(), tmp_path)["reason"]


def test_figure3_claims_say_the_n_and_d_scored(tmp_path):
    """The published Figure 3 entries read n and D from their own columns, so a rehearsal's
    reason names both as scored."""
    timing = pd.DataFrame({"axis": "n_features", "method": ["vec2vec", "umap"] * 2,
                           "n_samples": 200, "n_features": [1000, 1000, 2000, 2000],
                           "fit_seconds": [1.0, 2.0, 1.5, 3.0]})
    (tmp_path / "results/embedding/tidy").mkdir(parents=True)
    timing.to_csv(tmp_path / "results/embedding/tidy/timing.csv", index=False)
    entries = {e.artifact: e for e in load_published(PUBLISHED / "vec2vec.yaml")
               if e.artifact.startswith("Figure 3(b)")}
    row = score_entry(entries["Figure 3(b)"], tmp_path, nearest_settings=True)
    assert row["verdict"] == "reproduced"
    assert ("scored at n_features = 2000, nearest run to the published 100000; n_samples = 200, "
            "nearest run to the published 2000") in row["reason"]
    offline = score_entry(entries["Figure 3(b) (offline analogue, sparse blobs)"], tmp_path)
    assert "scored at" not in offline["reason"]  # the largest D run is the entry's setting
    assert ("ours: value of 1 run of timing.csv: axis = n_features, method = vec2vec, "
            "n_features = 2000") in offline["reason"]


def test_write_scorecards_gives_a_profile_column_and_names_the_data(root, tmp_path):
    from lowdim.report.render import describe_data, write_scorecards

    card = scorecard([_entry()], root, profile="offline")
    paths = {"p": tmp_path / "p.csv"}
    data = describe_data({"digits": {}, "planted_cca": {}})
    write_scorecards(card, {"P": "p"}, paths, {"p": tmp_path / "p.md"}, "offline", data)
    assert pd.read_csv(paths["p"])["profile"].tolist() == ["offline"]
    caption = (tmp_path / "p.md").read_text()
    assert ("Scorecard, P (profile offline; data: offline stand-ins for the papers' datasets, "
            "shipped with the dependencies or synthetic (digits, planted_cca)): 1 differs.") \
        in caption


@pytest.mark.parametrize("datasets, replica, expected", [
    ({"digits": {}}, False, "offline stand-ins for the papers' datasets, shipped with the "
                            "dependencies or synthetic (digits)"),
    ({"mnist": {}, "digits": {}}, False, "real: the papers' datasets, downloaded (mnist); "
                                         "offline stand-ins"),
    ({"mnist": {}}, True, "replicas of the papers' datasets, not the real data (mnist)"),
    ({"mine": {"file": "mine.csv"}}, False, "your own data (mine)"),
], ids=["offline", "paper", "rehearsal", "own"])
def test_describe_data_names_real_stand_in_and_replica_data(datasets, replica, expected):
    from lowdim.report.render import describe_data

    assert describe_data(datasets, replica).startswith(expected)
