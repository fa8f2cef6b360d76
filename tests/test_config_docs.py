"""config/README.md documents every config key and every dataset option."""

import re
from pathlib import Path

import pytest
import yaml

from lowdim.data import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "workflow" / "schemas"
DOC = (ROOT / "config" / "README.md").read_text()
DOCUMENTED = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", DOC))


def _keys(schema, files, seen=()):
    """Every property name reachable from `schema`, following $ref to sibling files."""
    if not isinstance(schema, dict):
        return set()
    keys = set()
    ref = schema.get("$ref")
    if ref and ref not in seen:
        keys |= _keys(files[ref], files, seen + (ref,))
    for name, sub in schema.get("properties", {}).items():
        keys.add(name)
        keys |= _keys(sub, files, seen)
    for key in ("items", "additionalProperties"):
        keys |= _keys(schema.get(key), files, seen)
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in schema.get(key, []):
            keys |= _keys(sub, files, seen)
    return keys


def _schema_keys():
    files = {p.name: yaml.safe_load(p.read_text()) for p in SCHEMAS.glob("*.schema.yaml")}
    return sorted(_keys(files["config.schema.yaml"], files))


@pytest.mark.parametrize("key", _schema_keys())
def test_schema_key_is_documented(key):
    assert key in DOCUMENTED, f"config key `{key}` is not documented in config/README.md"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_dataset_and_its_options_are_documented(name):
    missing = [k for k in [name, *REGISTRY[name].options_schema] if k not in DOCUMENTED]
    assert not missing, f"config/README.md does not document {missing} (dataset {name})"
