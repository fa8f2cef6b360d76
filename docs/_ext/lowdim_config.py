"""The ``lowdim-config-reference`` directive: every config key, read from the JSON schemas.

The directive reads ``workflow/schemas/config.schema.yaml`` (following ``$ref`` to its
sibling files) and, for the ``datasets`` section, the dataset registry and the options
of own data, the same sources ``lowdim.config`` validates a config against. It renders
one section per top-level key with a table of every key below it: dotted path, type,
default and description. Nothing is written to a file, so the page cannot drift from
the schemas; the schema files are dependencies of the page, so editing one rebuilds it.

Paths: ``cca.checkpoints.count`` for nested mappings, ``similarity.matrices[].kind`` for
the items of a list, ``cca.overrides.<dataset>.reg`` for a mapping from names.
"""

import importlib
import inspect
import json
from pathlib import Path

import yaml
from docutils import nodes
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

#: Config sections whose keys pass straight to a library estimator or function: a key
#: named as one of its parameters links to that object's documentation.
ARGUMENTS = {
    "cca": "lowdim.cca.AppGradCCA",
    "cca.appgrad": "lowdim.cca.AppGradCCA",
    "cca.sappgrad": "lowdim.cca.AppGradCCA",
    "kernel_cca": "lowdim.cca.KernelCCA",
    "similarity.sms": "lowdim.approx.sms_nystrom",
    "similarity.matrices[].mlp": "lowdim.similarity.PairwiseMLP",
    "embedding.vec2vec": "lowdim.embedding.Vec2Vec",
    "embedding.mds": "lowdim.embedding.MDSEmbedding",
    "embedding.umap": "lowdim.embedding.UMAPEmbedding",
    "embedding.tfidf": "lowdim.embedding.features.tfidf_features",
    "embedding.classification": "lowdim.evaluate.classification.knn_cv_accuracy",
    "embedding.clustering": "lowdim.evaluate.clustering.spectral_ari_sweep",
}


def _parameters(target):
    """Parameter names of the object at the dotted path ``target``."""
    module_name, _, name = target.rpartition(".")
    obj = getattr(importlib.import_module(module_name), name)
    return set(inspect.signature(obj).parameters)


#: Keys named as a parameter that do not set it (``cca.checkpoints`` is a mapping from which
#: the workflow computes the iterations it passes).
NOT_ARGUMENTS = {"cca.checkpoints"}


def argument_of(path):
    """The documented object whose parameter the key ``path`` sets, or None: the key is a
    direct child of an :data:`ARGUMENTS` section and has a parameter's name."""
    if path in NOT_ARGUMENTS:
        return None
    section, _, leaf = path.rpartition(".")
    target = ARGUMENTS.get(section)
    return target if target and leaf in _parameters(target) else None


#: Words for the JSON-schema ``format``s of this project.
FORMATS = {"dataset-name": "dataset name"}


def load_schemas(schema_dir):
    """``{file name: schema}`` of every ``*.schema.yaml`` in ``schema_dir``."""
    return {p.name: yaml.safe_load(p.read_text())
            for p in sorted(Path(schema_dir).glob("*.schema.yaml"))}


def resolve(schema, files):
    """``schema`` with a ``$ref`` to a sibling file replaced by that file's schema."""
    if isinstance(schema, dict) and "$ref" in schema:
        return {**files[schema["$ref"]], **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def _literal(value):
    return json.dumps(value, ensure_ascii=False)


def _bounds(schema):
    out = []
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"),
                      ("exclusiveMaximum", "<")):
        if key in schema:
            out.append(f"{sign} {schema[key]}")
    if "minLength" in schema:
        out.append(f"at least {schema['minLength']} characters")
    if "minItems" in schema:
        out.append(f"at least {schema['minItems']} item{'s' * (schema['minItems'] != 1)}")
    if schema.get("uniqueItems"):
        out.append("distinct")
    if "pattern" in schema:
        out.append(f"matching {schema['pattern']}")
    return out


def type_text(schema):
    """A short reading of a schema's type: ``integer ≥ 1``, ``list of string``,
    ``"none" | "max_abs"``, ``null or dataset name``."""
    if not isinstance(schema, dict) or not schema:
        return "any"
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " or ".join(type_text(sub) for sub in schema[key])
    if "enum" in schema:
        return " | ".join(_literal(v) for v in schema["enum"])
    if "const" in schema:
        return _literal(schema["const"])
    kinds = schema.get("type", "object" if "properties" in schema else "any")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    words = []
    for kind in kinds:
        if kind == "array":
            items = schema.get("items")
            item = type_text(items) if items else ""
            grouped = f"({item})" if any(c in item for c in ",|") or " or " in item else item
            words.append(f"list of {grouped}" if items else "list")
        elif kind == "object":
            words.append("mapping")
        elif kind == "string" and "format" in schema:
            words.append(FORMATS.get(schema["format"], schema["format"]))
        else:
            words.append(kind)
    text = " or ".join(words)
    bounds = _bounds(schema)
    return f"{text}, {', '.join(bounds)}" if bounds else text


def _placeholder(schema):
    names = schema.get("propertyNames", {})
    return "<dataset>" if names.get("format") == "dataset-name" else "<name>"


def _branches(schema):
    """The schema itself and the object branches of its ``oneOf``/``anyOf``."""
    yield schema
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in schema.get(key, []):
            if isinstance(sub, dict):
                yield sub


def key_rows(schema, files, path):
    """``[(path, schema)]`` of every key below ``schema``, depth first, each path once."""
    rows, seen = [], set()

    def walk(schema, path):
        schema = resolve(schema, files)
        if not isinstance(schema, dict):
            return
        for branch in _branches(schema):
            branch = resolve(branch, files)
            for name, sub in branch.get("properties", {}).items():
                sub = resolve(sub, files)
                child = f"{path}.{name}" if path else name
                if child not in seen:
                    seen.add(child)
                    rows.append((child, sub))
                walk(sub, child)
            items = branch.get("items")
            if isinstance(items, dict):
                walk(items, f"{path}[]")
            extra = branch.get("additionalProperties")
            if isinstance(extra, dict):
                walk(extra, f"{path}.{_placeholder(branch)}")

    walk(schema, path)
    return rows


def datasets_schema():
    """The ``datasets`` section: each registered dataset's options, and own data's."""
    from lowdim.data import REGISTRY
    from lowdim.data.own import OWN_OPTIONS

    return {"type": "object", "default": {},
            "description": "datasets to prepare: a registered name with its options, or any "
                           "other name with `file:` (or `file_x:` and `file_y:`) for your own "
                           "data",
            "properties": {name: {**spec.json_schema(), "description": spec.description}
                           for name, spec in sorted(REGISTRY.items())},
            "additionalProperties": {"type": "object", "properties": OWN_OPTIONS}}


def sections(schema_dir):
    """``[(name, schema)]`` of the top-level keys, in the order of ``config.schema.yaml``."""
    files = load_schemas(schema_dir)
    top = files["config.schema.yaml"]
    out = []
    for name, sub in top["properties"].items():
        out.append((name, datasets_schema() if name == "datasets" else resolve(sub, files)))
    return out, files


def _inline(text, argument=None, leaf=None):
    """Paragraph of ``text`` with its `backticked` spans as literals (no reST parsing), and,
    for a key that sets a library parameter, a link to the object it is a parameter of."""
    para = nodes.paragraph()
    for i, part in enumerate(str(text).split("`")):
        if part:
            para += nodes.literal(part, part) if i % 2 else nodes.Text(part)
    if argument:
        short = argument.rpartition(".")[2]
        para += nodes.Text(" (parameter ")
        para += nodes.literal(leaf, leaf)
        para += nodes.Text(" of ")
        para += addnodes.pending_xref("", nodes.literal(short, short), refdomain="py",
                                      reftype="obj", reftarget=argument, refexplicit=True,
                                      refwarn=True)
        para += nodes.Text(")")
    return para


def _cell(content):
    entry = nodes.entry()
    entry += content
    return entry


def table(rows, widths=(28, 22, 18, 32)):
    """A docutils table of ``[(path, type, default, description)]``."""
    group = nodes.tgroup(cols=4)
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    header = nodes.row()
    for title in ("key", "type", "default", "description"):
        header += _cell(nodes.paragraph(text=title))
    head += header
    group += head
    body = nodes.tbody()
    for path, kind, default, description in rows:
        row = nodes.row()
        row += _cell(nodes.paragraph("", "", nodes.literal(path, path)))
        row += _cell(nodes.paragraph("", "", nodes.literal(kind, kind)))
        row += _cell(nodes.paragraph("", "", nodes.literal(default, default)) if default
                     else nodes.paragraph(text="—"))
        row += _cell(_inline(description, argument_of(path), path.rpartition(".")[2]))
        body += row
    group += body
    out = nodes.table(classes=["config-reference"])
    out += group
    return out


def _row(path, schema):
    default = _literal(schema["default"]) if "default" in schema else ""
    description = " ".join(str(schema.get("description", "")).split()) or "—"
    return path, type_text(schema), default, description


class ConfigReference(SphinxDirective):
    """``.. lowdim-config-reference::``: one section per top-level config key."""

    has_content = False

    def run(self):
        schema_dir = Path(self.config.lowdim_schema_dir)
        for path in sorted(schema_dir.glob("*.schema.yaml")):
            self.env.note_dependency(str(path))
        top_sections, files = sections(schema_dir)
        out = []
        for name, schema in top_sections:
            section = nodes.section(ids=[f"config-{name}"], names=[f"config-{name}"])
            section += nodes.title(name, "", nodes.literal(name, name))
            section += _inline(" ".join(str(schema.get("description", "")).split()))
            whole = _row(name, schema)[:3] + ("the whole section",)
            section += table([whole] + [_row(p, s) for p, s in key_rows(schema, files, name)])
            self.state.document.note_explicit_target(section, section)
            out.append(section)
        return out


def setup(app):
    app.add_config_value("lowdim_schema_dir", "", "env")
    app.add_directive("lowdim-config-reference", ConfigReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
