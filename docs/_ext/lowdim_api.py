"""Generate the API reference pages from lowdim's ``__all__`` lists at build time.

A module is public when no part of its dotted name starts with ``_``. Each public
module with an ``__all__`` gets a page ``api/<module>.rst`` whose ``autosummary``
table (with ``:toctree:``) lists the names it is the first to export: a name that
``lowdim.approx`` re-exports from ``lowdim.approx.nystrom`` is documented once,
under ``lowdim.approx``, the shallowest module that exports it. The pages are
written at ``config-inited``, before Sphinx looks for source files, so a name
added to an ``__all__`` is in the next build without editing the docs; nothing
here is committed (``docs/api/`` is generated).
"""

import ast
import importlib
import inspect
import pkgutil
import shutil
import types
from pathlib import Path

#: numpydoc checks not enforced on the public names (tests/test_docs.py runs the rest),
#: with why. The first two are optional sections; the others are gaps of this code base,
#: counted in issue 27's report, to close one module at a time.
NOT_VALIDATED = {
    "GL02": "one-line docstrings close on their line, as PEP 257 asks",
    "ES01": "an extended summary is optional: many one-line summaries say it all",
    "SA01": "a See Also section is optional",
    "PR01": "parameters not documented (191 public functions)",
    "PR04": "a parameter without a type",
    "PR07": "a parameter without a description",
    "RT01": "no Returns section (144 public functions)",
    "RT02": "the first line of Returns names the value as well as its type",
    "RT03": "a return value without a description",
    "SS05": "summaries in the third person ('Returns ...')",
    "SS02": "summaries that start with a file or parameter name",
    "SS06": "summaries that wrap to a second line",
    "PR08": "parameter descriptions that start with a symbol or a name",
    "RT04": "return descriptions that start with a name",
    "SA03": "See Also descriptions that start with a name",
}

#: Order of the API index: packages first, in the order a reader meets them.
SECTIONS = ("lowdim", "lowdim.approx", "lowdim.similarity", "lowdim.embedding", "lowdim.cca",
            "lowdim.data", "lowdim.evaluate", "lowdim.tasks", "lowdim.plots", "lowdim.tables",
            "lowdim.report")


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


def module_page(module_name, names):
    """reST text of one module's page: its docstring, a table per kind of name (with a
    page each), then the constants in full."""
    module = importlib.import_module(module_name)
    lines = [module_name, "=" * len(module_name), "", f".. automodule:: {module_name}"]
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
    return "\n".join(lines)


def _section(module_name, pages):
    """The index section of a page: its subpackage (``lowdim.data`` for
    ``lowdim.data.replicas.images``), or ``lowdim`` for a top-level module."""
    group = ".".join(module_name.split(".")[:2])
    is_package = any(m.startswith(group + ".") for m in pages) or \
        hasattr(importlib.import_module(group), "__path__")
    return group if is_package else "lowdim"


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
    """reST text of ``api/index.rst``: a toctree of the module pages, by subpackage, and
    the names the examples take as given."""
    lines = ["API reference", "=============", "",
             "Every name in the ``__all__`` list of a public module of ``lowdim``, generated "
             "from the code at each build. A name a package re-exports is documented under "
             "the package (``lowdim.approx.sms_nystrom``); its module's page lists the rest.",
             ""] + _examples_section()
    sections = {}
    for module_name in pages:
        sections.setdefault(_section(module_name, pages), []).append(module_name)
    order = sorted(sections, key=lambda s: (SECTIONS.index(s) if s in SECTIONS else len(SECTIONS), s))
    for section in order:
        title = f"``{section}``"
        members = sorted(sections[section], key=lambda m: (m != section, m))
        lines += [title, "-" * len(title), "", ".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {m}" for m in members] + [""]
    return "\n".join(lines)


def write_api_pages(outdir):
    """Write ``index.rst`` and one page per module into ``outdir``, replaced whole."""
    outdir = Path(outdir)
    if outdir.exists():
        shutil.rmtree(outdir)
    outdir.mkdir(parents=True)
    pages = canonical_names(public_modules())
    (outdir / "index.rst").write_text(index_page(pages))
    for module_name, names in pages.items():
        (outdir / f"{module_name}.rst").write_text(module_page(module_name, names))
    return pages


def _generate(app, config):
    write_api_pages(Path(app.srcdir) / "api")


def setup(app):
    app.connect("config-inited", _generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
