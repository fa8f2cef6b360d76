"""The `sms_tasks` config section: defaults, grids validated by the schema, cross-checks."""

from pathlib import Path

import pytest
import yaml

from lowdim.config import ConfigError, validate_config

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"


def config_with(section):
    return {"datasets": {"pang_lee": {}, "digits": {}}, "sms_tasks": section}


def test_defaults_are_filled():
    tasks = validate_config(config_with({"enabled": True}), SCHEMA)["sms_tasks"]
    assert tasks["wmd_classification"]["small_rank_max"] == 550
    assert tasks["wmd_classification"]["large_rank_max"] == 4096
    assert tasks["wmd_classification"]["wme"]["d_max"] == [3, 6, 9, 12, 15, 18, 21]
    assert tasks["coreference"]["sms"] == {"multiplier": 2, "alpha": 1.5, "eigen_solver": "auto"}
    assert tasks["glue"]["tasks"] == []


@pytest.mark.parametrize("section, message", [
    ({"wmd_classification": {"wme": {"d_max": [0, 3]}}},
     "sms_tasks.wmd_classification.wme.d_max[0]: got 0; expected minimum 1"),
    ({"wmd_classification": {"wme": {"d_max": []}}},
     "sms_tasks.wmd_classification.wme.d_max: got []; expected minItems 1"),
    ({"wmd_classification": {"svm": {"C": [1.0, -2.0]}}},
     "sms_tasks.wmd_classification.svm.C[1]: got -2.0; expected exclusiveMinimum 0"),
    ({"wmd_classification": {"svm": {"cv_folds": 1}}},
     "sms_tasks.wmd_classification.svm.cv_folds: got 1; expected minimum 2"),
    ({"wmd_classification": {"gammas": [0.1, 0.1]}},
     "sms_tasks.wmd_classification.gammas: got [0.1, 0.1]; expected uniqueItems True"),
    ({"wmd_classification": {"ranks": [1]}},
     "sms_tasks.wmd_classification.ranks[0]: got 1; expected minimum 2"),
    ({"coreference": {"fractions": [0.7]}},
     "sms_tasks.coreference.fractions[0]: got 0.7; expected maximum 0.5"),
    ({"glue": {"tasks": [{"dataset": "pang_lee", "model": "m"}]}},
     "sms_tasks.glue.tasks[0].dataset: got 'pang_lee'; allowed: 'stsb', 'mrpc', 'rte'"),
    ({"wmd_classification": {"corpora": [{"name": "x", "dataset": "lee"}]}},
     "sms_tasks.wmd_classification.corpora[0].dataset: got 'lee', which is not listed"),
])
def test_bad_grids_and_names_fail_in_one_line(section, message):
    with pytest.raises(ConfigError) as error:
        validate_config(config_with(section), SCHEMA)
    assert str(error.value).startswith(f"config: {message}")


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_shipped_profiles_configure_the_tasks(name):
    config = validate_config(yaml.safe_load((ROOT / "config" / name).read_text()), SCHEMA)
    tasks = config["sms_tasks"]
    assert tasks["enabled"] and tasks["wmd_classification"]["corpora"]
    assert tasks["coreference"]["corpora"]
