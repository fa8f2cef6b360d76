"""Config validation: defaults filled, and every kind of mistake explained in one line."""

from pathlib import Path

import pytest
import yaml

from lowdim.config import ConfigError, validate_config

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"


def _error(config) -> str:
    with pytest.raises(ConfigError) as info:
        validate_config(config, SCHEMA)
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_shipped_profiles_are_valid(name):
    config = yaml.safe_load((ROOT / "config" / name).read_text())
    validated = validate_config(config, SCHEMA)
    assert validated["datasets"], "a profile must prepare at least one dataset"


def test_tiny_test_profile_is_valid():
    validate_config(yaml.safe_load((ROOT / "tests/config/tiny.yaml").read_text()), SCHEMA)


def test_defaults_are_filled_without_touching_the_input():
    config = {"datasets": {"digits": {"n_rows": 100}}}
    validated = validate_config(config, SCHEMA)
    assert validated["datasets"]["digits"] == {"n_rows": 100, "seed": 0}
    assert validated["resources"]["raw_dir"] == "resources/raw"
    assert validated["seed"] == 0
    assert config == {"datasets": {"digits": {"n_rows": 100}}}


def test_only_listed_datasets_are_kept():
    validated = validate_config({"datasets": {"lee": {}}}, SCHEMA)
    assert list(validated["datasets"]) == ["lee"]


def test_unknown_top_level_key_names_key_and_allowed():
    message = _error({"datasets": {}, "sead": 1})
    assert "'sead'" in message and "seed" in message and "datasets" in message


def test_unknown_nested_key_names_full_path():
    message = _error({"datasets": {"digits": {"nrows": 5}}})
    assert "datasets.digits.nrows" in message and "n_rows" in message


def test_wrong_type_names_key_value_and_expected_type():
    message = _error({"datasets": {"digits": {"n_rows": "many"}}})
    assert "datasets.digits.n_rows" in message and "'many'" in message and "integer" in message


def test_unknown_dataset_lists_registered_names():
    message = _error({"datasets": {"mnits": {}}})
    assert "'mnits'" in message and "digits" in message and "pang_lee" in message


def test_enum_violation_lists_allowed_values():
    message = _error({"datasets": {"digits_halves": {"split": "diagonal"}}})
    assert "'diagonal'" in message and "'left_right'" in message and "'top_bottom'" in message


def test_out_of_range_value_is_explained():
    message = _error({"datasets": {}, "seed": -3})
    assert "seed" in message and "-3" in message and "minimum" in message


def test_dataset_name_fields_must_be_listed_under_datasets(tmp_path):
    # A section schema whose field names a dataset, as the experiment sections do.
    for path in SCHEMA.parent.glob("*.schema.yaml"):
        (tmp_path / path.name).write_text(path.read_text())
    (tmp_path / "cca.schema.yaml").write_text(yaml.safe_dump({
        "type": "object", "additionalProperties": False, "default": {},
        "properties": {"datasets": {"type": "array", "default": [],
                                    "items": {"type": "string", "format": "dataset-name"}}}}))
    top = tmp_path / "config.schema.yaml"
    ok = validate_config({"datasets": {"lee": {}}, "cca": {"datasets": ["lee"]}}, top)
    assert ok["cca"]["datasets"] == ["lee"]
    with pytest.raises(ConfigError) as info:
        validate_config({"datasets": {"lee": {}}, "cca": {"datasets": ["lee", "digits"]}}, top)
    message = str(info.value)
    assert "cca.datasets[1]" in message and "'digits'" in message and "lee" in message
