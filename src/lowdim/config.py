"""Validate a workflow config against the JSON schemas, fill defaults, explain errors in one line.

The workflow calls :func:`validate_config` when it starts. Schemas live in
``workflow/schemas/``: ``config.schema.yaml`` refers to one file per section by
name (``$ref: similarity.schema.yaml``). The ``datasets`` section is checked
against the registry: a dataset name must be registered and its options must
match that dataset's ``options_schema``. String fields with
``format: dataset-name`` must name a dataset listed under ``datasets``.
"""

from __future__ import annotations

import copy
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

__all__ = ["ConfigError", "validate_config", "load_schema"]


class ConfigError(ValueError):
    """A config problem, described in one line: the key, what was given, what is allowed."""


def load_schema(schema_path):
    """Load the top schema and a registry of its sibling ``*.schema.yaml`` files."""
    schema_path = Path(schema_path)
    resources = []
    for path in sorted(schema_path.parent.glob("*.schema.yaml")):
        contents = yaml.safe_load(path.read_text())
        # jsonschema picks the validator class from `$schema` when it follows a
        # $ref, which would drop the default-filling extension below.
        contents.pop("$schema", None)
        resources.append((path.name, Resource.from_contents(contents, default_specification=DRAFT202012)))
    top = yaml.safe_load(schema_path.read_text())
    return top, Registry().with_resources(resources)


def validate_config(config: dict, schema_path) -> dict:
    """Return a validated copy of ``config`` with every default filled in.

    Parameters
    ----------
    config : dict
        As loaded from ``config/*.yaml`` (and ``--config`` overrides).
    schema_path : str or Path
        ``workflow/schemas/config.schema.yaml``.

    Raises
    ------
    ConfigError
        With a one-line message naming the key, the value given and what is allowed.
    """
    from .data import REGISTRY

    top, registry = load_schema(schema_path)
    top = copy.deepcopy(top)
    top.setdefault("properties", {})["datasets"] = _datasets_schema(REGISTRY)
    config = copy.deepcopy(dict(config))
    listed = set((config.get("datasets") or {}).keys())
    checker = jsonschema.FormatChecker()
    checker.checks("dataset-name", raises=())(lambda value: not isinstance(value, str)
                                              or value in listed)
    validator = _DefaultFilling(top, registry=registry, format_checker=checker)
    errors = sorted(validator.iter_errors(config), key=lambda e: (len(e.absolute_path), str(e.path)))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        more = f" ({len(errors) - 1} more problem(s) after this one)" if len(errors) > 1 else ""
        raise ConfigError(_describe(error, listed) + more)
    return config


def _datasets_schema(registry) -> dict:
    names = sorted(registry)
    return {
        "type": "object",
        "description": "datasets to prepare: registry name -> options",
        "default": {},
        "propertyNames": {"enum": names},
        "properties": {name: spec.json_schema() for name, spec in registry.items()},
    }


def _extend_with_defaults(validator_class):
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for key, sub in properties.items():
                if isinstance(sub, dict) and "default" in sub and key not in instance:
                    instance[key] = copy.deepcopy(sub["default"])
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


_DefaultFilling = _extend_with_defaults(jsonschema.Draft202012Validator)


def _key(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _describe(error, listed) -> str:
    where = _key(error.absolute_path)
    given = error.instance
    kind = error.validator
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(given) - set(allowed)) if isinstance(given, dict) else []
        key = f"{where}.{extra[0]}" if where != "(top level)" else (extra[0] if extra else where)
        return (f"config: unknown key {key!r}; allowed keys here: "
                f"{', '.join(allowed) or '(none)'}")
    if "propertyNames" in error.absolute_schema_path and kind == "enum":
        return (f"config: {where}: unknown dataset {given!r}; registered datasets: "
                f"{', '.join(error.validator_value)}")
    if kind == "format" and error.validator_value == "dataset-name":
        return (f"config: {where}: got {given!r}, which is not listed under `datasets:`; "
                f"listed: {', '.join(sorted(listed)) or '(none)'}")
    if kind == "type":
        return (f"config: {where}: got {given!r} ({type(given).__name__}); expected "
                f"{error.validator_value}")
    if kind == "enum":
        return f"config: {where}: got {given!r}; allowed: {', '.join(map(repr, error.validator_value))}"
    if kind == "required":
        return f"config: {where}: {error.message}"
    return f"config: {where}: got {given!r}; expected {kind} {error.validator_value!r}"
