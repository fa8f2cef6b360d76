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


# -- issue 17: numbers written as text, overlays ------------------------------------------
def test_numeric_strings_are_read_as_the_schema_types():
    # What `--config 'cca={"reg": 0.01}'` hands over (Snakemake's YAML BaseLoader keeps
    # nested scalars as text) and what PyYAML makes of `1e-4`.
    config = {"datasets": {"digits": {"n_rows": "100"}},
              "cca": {"enabled": "true", "reg": "0.01", "sappgrad": {"batch_size": "1e2"},
                      "appgrad": {"step_size": "0.05"}, "figure2": {"dataset": "null"}},
              "embedding": {"neighbors": ["5", "15"], "clustering": {"gammas": ["1e-4"]}}}
    validated = validate_config(config, SCHEMA)
    cca = validated["cca"]
    assert cca["enabled"] is True and cca["reg"] == 0.01 and cca["figure2"]["dataset"] is None
    assert cca["sappgrad"]["batch_size"] == 100 and isinstance(cca["sappgrad"]["batch_size"], int)
    assert cca["appgrad"]["step_size"] == 0.05
    assert validated["embedding"]["neighbors"] == [5, 15]
    assert validated["embedding"]["clustering"]["gammas"] == [1e-4]
    assert validated["datasets"]["digits"]["n_rows"] == 100
    assert config["cca"]["reg"] == "0.01"  # the input is left as it was


def test_yaml_floats_without_a_dot_validate():
    config = yaml.safe_load("datasets: {}\ncca:\n  reg: 1e-4\n")
    assert config["cca"]["reg"] == "1e-4"  # PyYAML, YAML 1.1: not a float
    assert validate_config(config, SCHEMA)["cca"]["reg"] == 1e-4


@pytest.mark.parametrize("value, expected", [
    ("0.5", "integer"),           # an integer key does not take a fraction
    ("lots", "integer"),
    ("nan", "integer"),
])
def test_strings_that_are_not_the_wanted_number_are_still_refused(value, expected):
    message = _error({"datasets": {"digits": {"n_rows": value}}})
    assert f"datasets.digits.n_rows: got {value!r} (str); expected {expected}" in message


def test_strings_where_the_schema_takes_strings_are_kept():
    validated = validate_config({"datasets": {}, "profile": "2024",
                                 "cca": {"sappgrad": {"step_size": "auto"}}}, SCHEMA)
    assert validated["profile"] == "2024" and validated["cca"]["sappgrad"]["step_size"] == "auto"


def test_a_partial_config_file_is_refused_with_how_to_overlay_it():
    from lowdim.config import check_complete_profile

    check_complete_profile({"cca": {"reg": 0.01}}, [])  # default profile: nothing to check
    check_complete_profile({"profile": "mine", "datasets": {}}, ["mine.yaml"])
    with pytest.raises(ConfigError) as info:
        check_complete_profile({"cca": {"reg": 0.01}}, ["my_overrides.yaml"])
    message = str(info.value)
    assert "my_overrides.yaml is not a complete profile" in message and "\n" not in message
    assert "snakemake --configfile config/config.yaml my_overrides.yaml" in message


def test_checkout_config_is_the_default_profile_and_names_a_folder_that_is_no_checkout(tmp_path):
    from lowdim.config import checkout_config

    root = Path(__file__).resolve().parents[1]
    config, schema = checkout_config(root)
    raw = yaml.safe_load((root / "config" / "config.yaml").read_text())
    assert schema == root / "workflow" / "schemas" / "config.schema.yaml"
    assert config == validate_config(raw, schema)
    with pytest.raises(FileNotFoundError, match=f"{tmp_path} is not a checkout"):
        checkout_config(tmp_path)
