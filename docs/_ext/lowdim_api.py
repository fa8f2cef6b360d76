"""Generate the API reference pages from lowdim's ``__all__`` lists at build time.

A module is public when no part of its dotted name starts with ``_``. The library's
subpackages (:data:`LIBRARY`) are the public API; every other module is a workflow
internal (:func:`is_internal`, decided by the module's name, so a new settings module
lands there without an edit here). Each subpackage gets a page ``api/<package>.rst``
with a section per module: its docstring and an ``autosummary`` table (with
``:toctree:``) of the names it is the first to export (a name that ``lowdim.approx``
re-exports from ``lowdim.approx.nystrom`` is documented once, under ``lowdim.approx``,
the shallowest module that exports it); the internals share ``api/internals.rst``. The
index ``api/index.rst`` has one table per module: each name with its one-line summary.
The pages are written at ``config-inited``, before Sphinx looks for source files, so a
name added to an ``__all__`` is in the next build without editing the docs; nothing here
is committed (``docs/api/`` is generated).
"""

import ast
import importlib
import inspect
import pkgutil
import re
import shutil
import types
from pathlib import Path

#: numpydoc checks not enforced on any documented name (tests/test_docs.py runs the rest),
#: with why: optional sections, and style points this code base does not follow.
NOT_VALIDATED = {
    "GL02": "one-line docstrings close on their line, as PEP 257 asks",
    "ES01": "an extended summary is optional: many one-line summaries say it all",
    "SA01": "a See Also section is optional",
    "PR04": "a parameter without a type",
    "RT02": "the first line of Returns names the value as well as its type",
    "RT03": "a return value without a description",
    "SS05": "summaries in the third person ('Returns ...')",
    "SS02": "summaries that start with a file or parameter name",
    "SS06": "summaries that wrap to a second line",
    "PR08": "parameter descriptions that start with a symbol or a name",
    "RT04": "return descriptions that start with a name",
    "SA03": "See Also descriptions that start with a name",
}

#: Checks enforced on the public API but not on the workflow internals (:func:`is_internal`),
#: whose modules document the workflow's plumbing for its own scripts.
INTERNAL_NOT_VALIDATED = {
    "PR01": "a parameter not documented",
    "PR07": "a parameter without a description",
    "RT01": "no Returns section",
}

#: Public modules checked like the workflow internals for now, with why. Remove an entry
#: once its docstrings pass PR01, PR07 and RT01.
PENDING: dict[str, str] = {}

#: The library's subpackages, in the order a reader meets them: the public API, the three
#: papers' methods and their evaluation. Every other module of ``lowdim`` is a workflow
#: internal: its top-level modules (config, settings, logs, seeds, files), the datasets'
#: registry, downloads and parsers (``lowdim.data``), the downstream tasks the workflow runs
#: (``lowdim.tasks``), the renderers of its figures, tables and report (``lowdim.plots``,
#: ``.tables``, ``.report``), and any new subpackage until it is listed here.
LIBRARY = ("lowdim.approx", "lowdim.similarity", "lowdim.embedding", "lowdim.cca",
           "lowdim.evaluate")

#: The heading of the workflow internals in the API index.
INTERNALS = "Workflow internals"

#: User-guide section (a label of ``docs/user_guide``) of each estimator or function family,
#: by the module its object is defined in (the longest prefix wins).
USER_GUIDE = {
    "lowdim.approx": ("sms-nystrom-method", "SMS-Nyström"),
    "lowdim.similarity": ("sms-nystrom-method", "SMS-Nyström"),
    "lowdim.embedding": ("vec2vec-method", "Vec2vec"),
    "lowdim.evaluate": ("vec2vec-workflow", "Vec2vec"),
    "lowdim.cca": ("appgrad-method", "AppGrad CCA"),
    "lowdim.cca.kernel": ("kernel-cca-method", "kernel CCA"),
    "lowdim.similarity.kernel": ("kernel-cca-method", "kernel CCA"),
}


def user_guide_links():
    """``{full name: [label, title]}`` of every documented class and function that has a
    user-guide section (:data:`USER_GUIDE`, by the module it is defined in): plain strings,
    so Sphinx can cache them (``autosummary_context``)."""
    links = {}
    for module_name, names in canonical_names(public_modules()).items():
        module = importlib.import_module(module_name)
        for name in names:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            guide = user_guide(getattr(obj, "__module__", "") or "")
            if guide and not is_internal(module_name):
                links[f"{module_name}.{name}"] = list(guide)
    return links


def is_internal(module_name):
    """True for a workflow internal: a module of ``lowdim`` outside :data:`LIBRARY`, or an
    experiment runner inside it (a module named ``experiment`` or ``*_experiments``: what a
    workflow job calls to run one setting and write its rows). The package ``lowdim``
    itself is public."""
    group = ".".join(module_name.split(".")[:2])
    leaf = module_name.rsplit(".", 1)[-1]
    runner = leaf == "experiment" or leaf.endswith("experiments")
    return module_name != "lowdim" and (group not in LIBRARY or runner)


def user_guide(fullname):
    """``(label, title)`` of the user-guide section of the object ``fullname``, or None."""
    module = fullname
    while module:
        if module in USER_GUIDE:
            return USER_GUIDE[module]
        module = module.rpartition(".")[0]
    return None


def public_modules(package="lowdim"):
    """``[(name, module)]`` of the public modules of ``package`` that have an ``__all__``."""
    root = importlib.import_module(package)
    found = [(package, root)]
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        # lowdim.conftest is pytest's (the examples' names), not the library's
        if any(part.startswith("_") for part in info.name.split(".")) \
                or info.name == "lowdim.conftest":
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "__all__"):
            found.append((info.name, module))
    return found


def _depth_order(item):
    name = item[0]
    return name.count("."), name


def _has_doc_comment(module_name, attr):
    """True when ``module_name`` documents ``attr`` with a ``#:`` comment or a docstring."""
    from sphinx.pycode import ModuleAnalyzer

    try:
        docs = ModuleAnalyzer.for_module(module_name).find_attr_docs()
    except Exception:  # no source to read (a compiled or generated module)
        return False
    return ("", attr) in docs


def canonical_names(modules):
    """``{module name: [names first exported there]}``.

    A class or function is documented under the shallowest module that exports it; a
    constant under the module that documents it with a ``#:`` comment (autodoc reads
    the comment only there), else the shallowest.
    """
    ordered = sorted(modules, key=_depth_order)
    # Each attribute read once: a module's __getattr__ may build a new object per read
    # (a lazily imported mapping), and the ids below must stay those of live objects.
    objects = {(name, attr): getattr(module, attr) for name, module in ordered
               for attr in module.__all__}
    home = {}
    for (name, attr), obj in objects.items():
        key = (attr, id(obj))
        if inspect.isclass(obj) or callable(obj):
            home.setdefault(key, name)
        elif _has_doc_comment(name, attr) or key not in home:
            if key not in home or not _has_doc_comment(home[key], attr):
                home[key] = name
    pages = {}
    for name, module in ordered:
        fresh = [attr for attr in module.__all__
                 if home[(attr, id(objects[(name, attr)]))] == name]
        if fresh:
            pages[name] = fresh
    return pages


def _shadowed(module_name):
    """True when the parent package's attribute of this name is not the module itself
    (``lowdim.approx.nystrom`` is the function): the module then gets no index entry,
    which would clash with the object's."""
    parent, _, leaf = module_name.rpartition(".")
    if not parent:
        return False
    attribute = getattr(importlib.import_module(parent), leaf, None)
    return not isinstance(attribute, types.ModuleType)


def _kind(obj):
    if inspect.isclass(obj):
        return "exceptions" if issubclass(obj, BaseException) else "classes"
    return "functions" if callable(obj) else "constants"


def _constant(module, name):
    """``autodata`` of a constant; a value longer than a line is left to its description."""
    lines = [f".. autodata:: {name}"]
    if len(repr(getattr(module, name))) > 160:
        lines.append("   :no-value:")
    return lines + [""]


def module_section(module_name, names, level="-"):
    """reST lines of one module on its package's page: its docstring, a table per kind of
    name (with a page each), then the constants in full."""
    module = importlib.import_module(module_name)
    title = f"``{module_name}``"
    lines = [f".. _api-{module_name}:", "", title, level * len(title), "",
             f".. automodule:: {module_name}"]
    if _shadowed(module_name):
        lines.append("   :no-index:")
    lines += ["", f".. currentmodule:: {module_name}", ""]
    for kind in ("classes", "functions", "exceptions"):
        members = [n for n in names if _kind(getattr(module, n)) == kind]
        if not members:
            continue
        lines += [f".. rubric:: {kind.capitalize()}", "", ".. autosummary::",
                  "   :toctree: generated/", "   :nosignatures:", ""]
        lines += [f"   {n}" for n in members] + [""]
    constants = [n for n in names if _kind(getattr(module, n)) == "constants"]
    if constants:
        lines += [".. rubric:: Constants", ""]
        for name in constants:
            lines += _constant(module, name)
    return lines


def _group(module_name):
    """The API page a module is documented on: its subpackage (``lowdim.data`` for
    ``lowdim.data.sources.glue``), ``lowdim`` itself, or ``internals`` for the top-level
    modules of the workflow."""
    group = ".".join(module_name.split(".")[:2])
    if module_name == "lowdim":
        return "lowdim"
    if hasattr(importlib.import_module(group), "__path__"):
        return group
    return "internals"


def _order(module_name):
    return (module_name.count("."), module_name)


def _title(group):
    return "Top-level modules" if group == "internals" else f"``{group}``"


def group_page(group, pages):
    """reST text of one API page: every public module of ``group``, the package first."""
    title = _title(group)
    lines = [title, "=" * len(title), ""]
    if is_internal(group if group != "internals" else "lowdim.internals"):
        lines += [f"Part of the *{INTERNALS}*: what the workflow's rules and scripts call. "
                  "Documented for contributors; names may change between versions.", ""]
    for module_name in sorted((m for m in pages if _group(m) == group), key=_order):
        lines += module_section(module_name, pages[module_name])
    return "\n".join(lines)


def _summary_table(module_name, names):
    """Index lines of one module: its heading, its one-line summary and a table of names."""
    module = importlib.import_module(module_name)
    summary = (inspect.getdoc(module) or "").strip().split("\n\n")[0].replace("\n", " ")
    heading = f"**{module_name}**" if not summary else f"**{module_name}**: {summary}"
    lines = [heading, f"(:ref:`the module's page <api-{module_name}>`)", ""]
    lines += [f".. currentmodule:: {module_name}", "", ".. autosummary::",
              "   :nosignatures:", ""]
    return lines + [f"   {n}" for n in names] + [""]


def _group_order(group):
    internal = is_internal(group if group != "internals" else "lowdim.internals")
    return (internal, group == "internals", group != "lowdim",
            LIBRARY.index(group) if group in LIBRARY else 0, group)


#: ``src/lowdim/conftest.py``: the names the docstrings' examples use without defining them.
EXAMPLES_CONFTEST = Path(__file__).resolve().parents[2] / "src" / "lowdim" / "conftest.py"


def example_names():
    """``{name: description}`` of ``EXAMPLE_NAMES`` in ``lowdim/conftest.py``, read as text (the
    docs build needs neither pytest nor the examples' data)."""
    for node in ast.parse(EXAMPLES_CONFTEST.read_text()).body:
        if isinstance(node, ast.AnnAssign | ast.Assign) and "EXAMPLE_NAMES" in ast.unparse(node):
            return ast.literal_eval(node.value)
    raise LookupError(f"{EXAMPLES_CONFTEST}: no EXAMPLE_NAMES")


def _examples_section():
    lines = ["The examples", "------------", "",
             "Each example runs as a test. To keep them to the call they show, they use these "
             "names without defining them; define them first to run an example yourself:", ""]
    lines += [f"- ``{name}``: {text}" for name, text in example_names().items()]
    return lines + [""]


def index_page(pages):
    """reST text of ``api/index.rst``: a table per public module (name and one-line
    summary), the library's subpackages first, then the workflow internals."""
    groups = sorted({_group(m) for m in pages}, key=_group_order)
    lines = ["API reference", "=============", "",
             "Every name in the ``__all__`` list of a public module of ``lowdim``, generated "
             "from the code at each build, with a table per module. A name a package "
             "re-exports is documented under the package (``lowdim.approx.sms_nystrom``). "
             f"The *{INTERNALS}* at the end are the workflow's plumbing.", ""]
    lines += _examples_section() + [".. toctree::", "   :hidden:", ""]
    lines += [f"   {group}" for group in groups] + [""]
    internal_started = False
    for group in groups:
        internal = _group_order(group)[0]
        if internal and not internal_started:
            lines += [INTERNALS, "-" * len(INTERNALS), "",
                      "The workflow's plumbing: dataset registry, downloads and parsers, the "
                      "downstream tasks it runs, the renderers of its figures, tables and "
                      "report, its config, settings, logs and files.", ""]
            internal_started = True
        title = _title(group)
        lines += [title, ("~" if internal else "-") * len(title), ""]
        for module_name in sorted((m for m in pages if _group(m) == group), key=_order):
            lines += _summary_table(module_name, pages[module_name])
    return "\n".join(lines)


def write_api_pages(outdir):
    """Write ``index.rst`` and one page per group of modules into ``outdir``, replaced whole."""
    outdir = Path(outdir)
    if outdir.exists():
        shutil.rmtree(outdir)
    outdir.mkdir(parents=True)
    pages = canonical_names(public_modules())
    (outdir / "index.rst").write_text(index_page(pages))
    for group in {_group(m) for m in pages}:
        (outdir / f"{group}.rst").write_text(group_page(group, pages))
    return pages


def _validate_internal(app, what, name, obj, options, lines):
    """numpydoc's checks on a workflow internal's docstring, less
    :data:`INTERNAL_NOT_VALIDATED` (numpydoc itself skips the internals,
    ``numpydoc_validation_exclude`` in conf.py)."""
    # numpydoc checks what has a docstring of its own, not a constant's value
    if what not in ("module", "class", "exception", "function", "method") \
            or not name.startswith("lowdim") or not is_relaxed(name):
        return
    from numpydoc.validate import validate
    from sphinx.util import logging as sphinx_logging

    try:
        errors = validate(name)["errors"]
    except Exception:  # an attribute numpydoc cannot import by name: nothing to check
        return
    skipped = NOT_VALIDATED.keys() | INTERNAL_NOT_VALIDATED.keys() | {"EX01"}
    for code, message in errors:
        if code not in skipped:
            sphinx_logging.getLogger(__name__).warning(f"{code}: {message}",
                                                       location=(name, None))


def _module_of(name):
    """The longest importable module prefix of a dotted name."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        candidate = ".".join(parts[:i])
        try:
            importlib.import_module(candidate)
            return candidate
        except ImportError:
            continue
    return name


def relaxed_names():
    """Documented names of the objects defined in a :data:`PENDING` module (wherever
    they are documented, e.g. ``lowdim.embedding.cooccurrence_sgns``)."""
    names = set()
    for module_name, attrs in canonical_names(public_modules()).items():
        module = importlib.import_module(module_name)
        for attr in attrs:
            if getattr(getattr(module, attr), "__module__", None) in PENDING:
                names.add(f"{module_name}.{attr}")
    return names


def is_relaxed(name):
    """True when the documented object ``name`` is checked without
    :data:`INTERNAL_NOT_VALIDATED`: a workflow internal or a :data:`PENDING` module's."""
    return is_internal(_module_of(name)) or any(name == n or name.startswith(n + ".")
                                                for n in _relaxed_cache())


def _relaxed_cache(_cache=[]):
    if not _cache:
        _cache.append(relaxed_names() | set(PENDING))
    return _cache[0]


def internal_pattern():
    """A regular expression of the names numpydoc itself does not check (for
    ``numpydoc_validation_exclude``): the workflow internals and the :data:`PENDING`
    objects, which :func:`_validate_internal` checks instead."""
    internal = [m for m, _ in public_modules() if is_internal(m)] + sorted(_relaxed_cache())
    return r"^(" + "|".join(re.escape(m) for m in internal) + r")(\.|$)"


def _generate(app, config):
    write_api_pages(Path(app.srcdir) / "api")


def setup(app):
    app.connect("config-inited", _generate)
    app.connect("autodoc-process-docstring", _validate_internal)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
