"""Tolerances in ``config/published/*.yaml`` are finite numbers >= 0: a tolerance of
``.inf`` would make any number "reproduced" (or any setting the published one), and a text
would crash the scorecard after loading."""

import pytest
import yaml

from lowdim.report import load_published

ENTRY = {"artifact": "Figure 4", "metric": "accuracy", "setting": "MNIST",
         "provenance": "the authors' plotting script", "published": 0.9462,
         "reproduced": {"file": "classification.csv", "column": "accuracy",
                        "where": {"method": "vec2vec"}}}

BAD = {"infinite": float("inf"), "minus infinite": float("-inf"), "negative": -0.02,
       "nan": float("nan"), "text": "0.02", "bool": True, "none": None}


def _load(tmp_path, tolerances, **entry):
    path = tmp_path / "vec2vec.yaml"
    doc = {"paper": "Vec2vec", "tolerances": tolerances, "entries": [{**ENTRY, **entry}]}
    path.write_text(yaml.safe_dump(doc))
    return load_published(path)


@pytest.mark.parametrize("key", ["abs", "rel"])
@pytest.mark.parametrize("value", BAD.values(), ids=BAD.keys())
def test_a_metric_tolerance_that_is_not_a_finite_number_at_least_0_is_refused(
        tmp_path, key, value):
    with pytest.raises(ValueError, match=(rf"vec2vec.yaml: entries\[0\]: metric 'accuracy' "
                                          rf"tolerance `{key}` must be a finite number >= 0, "
                                          rf"got {value!r}")):
        _load(tmp_path, {"accuracy": {key: value}})


def test_a_metric_tolerance_that_is_not_a_mapping_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"metric 'accuracy' tolerance: a mapping .* got 0.02"):
        _load(tmp_path, {"accuracy": 0.02})


def test_a_bad_tolerance_of_a_claims_metric_is_refused_too(tmp_path):
    claim = {"expect": "greater", "paired_by": "seed", "published": None,
             "than": {"file": "classification.csv", "column": "accuracy"}}
    with pytest.raises(ValueError, match=r"tolerance `abs` must be a finite number >= 0"):
        _load(tmp_path, {"accuracy": {"abs": float("inf")}}, **claim)


@pytest.mark.parametrize("tolerance", [{"abs": 0}, {"abs": 3}, {"rel": 0.05},
                                       {"abs": 0.02, "rel": 0.1, "unit": "fraction"}],
                         ids=["abs 0", "abs int", "rel", "abs and rel with unit"])
def test_finite_tolerances_at_least_0_are_kept(tmp_path, tolerance):
    (entry,) = _load(tmp_path, {"accuracy": tolerance})
    assert entry.tolerance == tolerance


SETTING_BAD = {"infinite": float("inf"), "minus infinite": float("-inf"),
               "nan": float("nan"), "negative": -1.0}


@pytest.mark.parametrize("key", ["abs", "rel"])
@pytest.mark.parametrize("value", SETTING_BAD.values(), ids=SETTING_BAD.keys())
def test_a_setting_tolerance_that_is_not_a_finite_number_at_least_0_is_refused(
        tmp_path, key, value):
    settings = {"iteration": {"value": 4000, "tolerance": {key: value}}}
    with pytest.raises(ValueError, match=r"entries\[0\].settings.iteration.tolerance: exact"):
        _load(tmp_path, {"accuracy": {"abs": 0.02}}, settings=settings)


def test_a_finite_setting_tolerance_is_kept(tmp_path):
    settings = {"iteration": {"value": 4000, "tolerance": {"abs": 100}}}
    (entry,) = _load(tmp_path, {"accuracy": {"abs": 0.02}}, settings=settings)
    assert entry.settings["iteration"].describe() == "±100"
