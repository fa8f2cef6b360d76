"""Validate a workflow config against the JSON schemas, fill defaults, explain errors in one line.

The workflow calls :func:`validate_config` when it starts. Schemas live in
``workflow/schemas/``: ``config.schema.yaml`` refers to one file per section by
name (``$ref: similarity.schema.yaml``). The ``datasets`` section is checked
against the registry: a registered dataset's options must match its
``options_schema``; any other name declares the user's own data with a
``file`` (or ``file_x`` and ``file_y``) and the options of
:data:`lowdim.data.own.OWN_OPTIONS`. String fields with
``format: dataset-name`` must name a dataset listed under ``datasets``.

Strings where the schema wants a number, an integer, a boolean or null are
converted first (:func:`coerce_scalars`): ``--config`` hands nested values over
as strings (``cca={"reg": 0.01}`` gives ``"0.01"``), and PyYAML, a YAML 1.1
reader, reads ``1e-4`` (no dot) as a string.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

__all__ = ["ConfigError", "PROFILE_KEYS", "changes_result", "check_complete_profile",
           "checkout_config", "coerce_scalars", "validate_config", "load_schema"]

#: Top-level keys every profile given alone with ``--configfile`` must have.
PROFILE_KEYS = ("profile", "datasets")

#: Keys that never change a result, at any depth: what runs, where, with which resources.
_NOT_RESULT_LEAVES = {"enabled", "threads", "mem_mb", "runtime", "n_jobs"}
#: Top-level sections that never change a result.
_NOT_RESULT_SECTIONS = {"profile", "resources", "report", "sweeps", "sweep_run"}


def changes_result(key: str) -> bool:
    """Whether the dotted config ``key`` can change a result.

    Keys that say what runs (``enabled``), where or with which resources (``threads``,
    ``mem_mb``, ``runtime``, ``n_jobs``, the ``resources`` section), and the report's and
    sweeps' own sections, change none; a list entry is named by index (``matrices[0]``).

    Examples
    --------
    >>> from lowdim.config import changes_result
    >>> changes_result("cca.reg"), changes_result("cca.threads"), changes_result("resources.raw_dir")
    (True, False, False)
    >>> changes_result("similarity.matrices[2].mem_mb")
    False
    """
    parts = re.split(r"[.\[\]]+", key)
    return parts[0] not in _NOT_RESULT_SECTIONS and not set(parts) & _NOT_RESULT_LEAVES


class ConfigError(ValueError):
    """A config problem, described in one line: the key, what was given, what is allowed.

    Examples
    --------
    >>> from lowdim.config import checkout_config, validate_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config import ConfigError
    >>> try:
    ...     validate_config({**config, "cca": {"reg": -1}}, schema)
    ... except ConfigError as err:
    ...     print(err)
    config: cca.reg: got -1; expected minimum 0
    """


#: libyaml's safe loader where PyYAML has it: every Snakemake start-up (each cluster job
#: starts two) reads the schemas, 7x faster than with the pure-Python loader.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_schema(schema_path):
    """Load the top schema and a registry of its sibling ``*.schema.yaml`` files.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> from lowdim.config import load_schema
    >>> top, registry = load_schema(schema)
    >>> sorted(top["properties"])[:4], registry.contents("cca.schema.yaml")["properties"]["reg"]["default"]
    (['cca', 'datasets', 'embedding', 'kernel_cca'], 0.005)
    """
    schema_path = Path(schema_path)
    resources = []
    for path in sorted(schema_path.parent.glob("*.schema.yaml")):
        contents = yaml.load(path.read_text(), Loader=_SAFE_LOADER)
        # jsonschema picks the validator class from `$schema` when it follows a
        # $ref, which would drop the default-filling extension below.
        contents.pop("$schema", None)
        resources.append((path.name, Resource.from_contents(contents, default_specification=DRAFT202012)))
    top = yaml.load(schema_path.read_text(), Loader=_SAFE_LOADER)
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

    Examples
    --------
    >>> from lowdim.config import checkout_config, validate_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> config["cca"]["reg"], config["embedding"]["vec2vec"]["walk_length"]
    (0.005, 20)
    >>> validate_config({**config, "cca": {"reg": "0.01"}}, schema)["cca"]["reg"]   # text read as a number
    0.01
    >>> validate_config({**config, "embeding": {}}, schema)
    Traceback (most recent call last):
        ...
    lowdim.config.ConfigError: config: unknown key 'embeding'; allowed keys here: cca, datasets, embedding, ...
    """
    from .data import REGISTRY

    top, registry = load_schema(schema_path)
    top = copy.deepcopy(top)
    top.setdefault("properties", {})["datasets"] = _datasets_schema(REGISTRY)
    config = copy.deepcopy(dict(config))
    _check_dataset_names(config.get("datasets"), REGISTRY)
    listed = set((config.get("datasets") or {}).keys())
    checker = jsonschema.FormatChecker()
    checker.checks("dataset-name", raises=())(lambda value: not isinstance(value, str)
                                              or value in listed)
    validator = _DefaultFilling(top, registry=registry, format_checker=checker)
    coerce_scalars(config, validator)
    errors = sorted(validator.iter_errors(config), key=lambda e: (len(e.absolute_path), str(e.path)))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        more = f" ({len(errors) - 1} more problem(s) after this one)" if len(errors) > 1 else ""
        raise ConfigError(_describe(error, listed) + more)
    return config


def checkout_config(root=None) -> tuple[dict, Path]:
    """The default profile of a checkout of the repository, validated, and its schema's path.

    For examples and scripts that start from what ``snakemake`` would run with no
    ``--configfile``: ``config/config.yaml`` validated against
    ``workflow/schemas/config.schema.yaml``, every default filled in.

    Parameters
    ----------
    root : path-like, optional
        The checkout. Default: the one this ``lowdim`` is installed from
        (``pip install -e .``); a ``lowdim`` installed from a wheel has none.

    Returns
    -------
    config : dict
        The validated default profile.
    schema : pathlib.Path
        ``workflow/schemas/config.schema.yaml`` of the checkout.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()
    >>> config["profile"], schema.name
    ('offline', 'config.schema.yaml')
    """
    root = Path(__file__).resolve().parents[2] if root is None else Path(root)
    schema, default = root / "workflow" / "schemas" / "config.schema.yaml", \
        root / "config" / "config.yaml"
    if not (schema.is_file() and default.is_file()):
        raise FileNotFoundError(f"checkout_config: {root} is not a checkout of lowdim's "
                                "repository (no config/config.yaml or its schema); pass root=")
    return validate_config(yaml.load(default.read_text(), Loader=_SAFE_LOADER), schema), schema


def check_complete_profile(config: dict, configfiles, default="config/config.yaml") -> None:
    """Refuse config files that replace the default profile without being a profile.

    Files given with ``--configfile`` replace the default profile. A file that
    sets a few keys (``cca: {reg: 0.01}``) would then run almost nothing, so a
    merged config without every key of :data:`PROFILE_KEYS` is an error that
    says how to overlay the file on the default profile instead.

    Parameters
    ----------
    config : dict
        The config Snakemake merged from ``configfiles`` (and ``--config``).
    configfiles : sequence of str
        The files given with ``--configfile``; empty when the default profile is used.
    default : str
        The default profile, for the message.

    Raises
    ------
    ConfigError

    Examples
    --------
    >>> from lowdim.config import check_complete_profile
    >>> check_complete_profile({"profile": "offline", "datasets": {}}, ["config/config.yaml"])
    >>> check_complete_profile({"cca": {"reg": 0.01}}, ["mine.yaml"])
    Traceback (most recent call last):
        ...
    lowdim.config.ConfigError: config: mine.yaml is not a complete profile (it sets cca; a profile also needs `profile:` and `datasets:`), and a file given with --configfile replaces the default profile; to change keys of the default profile, overlay the file on it: snakemake --configfile config/config.yaml mine.yaml
    """
    missing = [key for key in PROFILE_KEYS if key not in config]
    if not configfiles or not missing:
        return
    files = " ".join(str(f) for f in configfiles)
    keys = ", ".join(sorted(config)) or "nothing"
    raise ConfigError(
        f"config: {files} is not a complete profile (it sets {keys}; a profile also needs "
        f"{' and '.join(f'`{k}:`' for k in missing)}), and a file given with --configfile "
        f"replaces the default profile; to change keys of the default profile, overlay the "
        f"file on it: snakemake --configfile {default} {files}")


#: Strings YAML 1.1 and ``--config`` leave as text, by the JSON type they stand for.
_BOOLEANS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
_NULLS = ("null", "~", "none", "")


def _as_number(text: str, integer: bool):
    """``text`` as an int (integer) or a number, else None (``"1e-4"``, ``"5"``, ``"1e5"``)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None  # "nan" and "inf" are words, not numbers the user meant
    if integer:
        return int(value) if value.is_integer() else None
    return value


def _converted(text: str, types) -> tuple[bool, object]:
    """``(True, value)`` if ``text`` reads as one of the JSON ``types``, else ``(False, None)``."""
    types = [types] if isinstance(types, str) else list(types)
    word = text.strip().lower()
    for kind in types:
        if kind in ("integer", "number"):
            value = _as_number(text.strip(), integer=kind == "integer")
            if value is not None:
                return True, value
        elif kind == "boolean" and word in _BOOLEANS:
            return True, _BOOLEANS[word]
        elif kind == "null" and word in _NULLS:
            return True, None
    return False, None


def _string_errors(errors):
    """``(error, wanted types)`` for each error about a string, also inside ``anyOf``/``oneOf``
    branches: the types the schema wants there other than string."""
    for error in errors:
        if isinstance(error.instance, str):
            wanted = error.validator_value if error.validator == "type" \
                else error.schema.get("type", ()) if isinstance(error.schema, dict) else ()
            wanted = [wanted] if isinstance(wanted, str) else list(wanted)
            wanted = [kind for kind in wanted if kind != "string"]
            if wanted:
                yield error, wanted
        yield from _string_errors(error.context or ())


def coerce_scalars(config: dict, validator, max_rounds: int = 50) -> dict:
    """Convert, in place, strings of ``config`` where the schema wants another scalar type.

    A string at a key whose schema asks for ``number``, ``integer``, ``boolean``
    or ``null`` (also inside one branch of an ``anyOf``/``oneOf``) becomes that
    value when it reads as one: ``"0.01"`` and ``"1e-4"`` become floats, ``"5"``
    and ``"1e5"`` integers, ``"true"`` a boolean, ``"null"`` None. Strings the
    schema accepts as they are, and strings that read as nothing the schema
    wants, are left alone (validation then names them).

    Parameters
    ----------
    config : dict
        The config as loaded, changed in place.
    validator : jsonschema validator
        For the config's schema.
    max_rounds : int, default=50
        Passes over the errors; a conversion can uncover values below it.

    Returns
    -------
    config : dict

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> config, schema = checkout_config()       # config/config.yaml, validated
    >>> import jsonschema
    >>> from lowdim.config import coerce_scalars, load_schema
    >>> top, registry = load_schema(schema)
    >>> validator = jsonschema.Draft202012Validator(registry.contents("cca.schema.yaml"))
    >>> coerce_scalars({"reg": "1e-4", "n_components": "5", "enabled": "true"}, validator)
    {'reg': 0.0001, 'n_components': 5, 'enabled': True}
    """
    for _ in range(max_rounds):
        changed = False
        for error, wanted in _string_errors(validator.iter_errors(config)):
            ok, value = _converted(error.instance, wanted)
            path = list(error.absolute_path)
            if ok and path:
                parent = config
                for part in path[:-1]:
                    parent = parent[part]
                if parent[path[-1]] == error.instance:
                    parent[path[-1]] = value
                    changed = True
        if not changed:
            return config
    return config


def _datasets_schema(registry) -> dict:
    from .data.own import OWN_OPTIONS

    return {
        "type": "object",
        "description": "datasets to prepare: registry name -> options, or own data",
        "default": {},
        "properties": {name: spec.json_schema() for name, spec in registry.items()},
        "additionalProperties": {"type": "object", "additionalProperties": False,
                                 "properties": OWN_OPTIONS},
    }


def _check_dataset_names(datasets, registry) -> None:
    """Each name under ``datasets:`` is registered, or declares own data with ``file:``."""
    from .data.own import FILE_KEYS, declares_own_data

    if not isinstance(datasets, dict):
        return  # the schema says what is wrong
    for name, options in datasets.items():
        if name in registry and declares_own_data(options):
            given = next(key for key in FILE_KEYS if options.get(key))
            raise ConfigError(f"config: datasets.{name}.{given}: {name!r} is a registered "
                              f"dataset, which takes no file; give your own data another name")
        if name not in registry and declares_own_data(options) \
                and not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", str(name)):
            raise ConfigError(f"config: datasets: got {name!r}; the name of your own data goes "
                              f"into file names and patterns: letters, digits and _, starting "
                              f"with a letter")
        if name not in registry and not declares_own_data(options):
            raise ConfigError(
                f"config: datasets: unknown dataset {name!r}; registered datasets: "
                f"{', '.join(sorted(registry))}; or, for your own data, give the file: "
                f"datasets: {{{name}: {{file: <path>}}}} (or file_x and file_y for two views)")


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
