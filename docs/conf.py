"""Sphinx configuration of the lowdim documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html`` (``pip install -e ".[docs]"``).
Generated at each build, never committed: ``api/`` (from the ``__all__`` lists,
``_ext/lowdim_api.py``), ``api/generated/`` (autosummary), ``auto_examples/``
(sphinx-gallery runs every example again, ``run_stale_examples``) and
``gen_modules/`` (its backreferences). Math is rendered by a local MathJax
(``_ext/lowdim_mathjax.py``: Debian's ``libjs-mathjax``), so the site needs no network.
"""

import os
import sys
from pathlib import Path

import matplotlib

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT / "src"))  # this checkout's lowdim, whatever is installed
sys.path.insert(0, str(DOCS / "_ext"))
matplotlib.use("Agg")

import lowdim  # noqa: E402  (after the checkout's src is on the path)

project = "lowdim"
author = "the lowdim authors"
copyright = "the lowdim authors, BSD-3-Clause"
release = version = lowdim.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "lowdim_api",
    "lowdim_config",
    "lowdim_mathjax",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py",
                    "auto_examples/*.zip", "auto_examples/*.md5", "auto_examples/*.json"]
templates_path = ["_templates"]

# config/README.md is included in pages here (docs/config/README.md, docs/rehearsal.md);
# its links resolve because docs/config/README.md sits where config/README.md does.
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]

autosummary_generate = True
autosummary_imported_members = True
# The class and function pages link to their user-guide section (lowdim_api.USER_GUIDE)
# and list the examples that use them (sphinx-gallery's backreferences).
from lowdim_api import (INTERNAL_NOT_VALIDATED, NOT_VALIDATED, internal_pattern,  # noqa: E402
                        user_guide_links)

autosummary_context = {"user_guides": user_guide_links()}
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc sections carry the types

numpydoc_show_class_members = False  # the class template lists the methods
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# numpydoc's validation of every docstring the site renders (modules, classes, methods,
# functions): every check but those lowdim_api.NOT_VALIDATED lists, and EX01 (Examples are
# required of the public names, tests/test_docs.py, not of every method). A failed check is
# a warning, so `sphinx-build -W` fails. The workflow internals are checked by lowdim_api
# instead, without INTERNAL_NOT_VALIDATED (PR01, PR07, RT01), which the public API passes.
numpydoc_validation_checks = {"all", "EX01", *NOT_VALIDATED}
numpydoc_validation_exclude = {internal_pattern()}
assert not INTERNAL_NOT_VALIDATED.keys() & NOT_VALIDATED.keys()

lowdim_schema_dir = str(ROOT / "workflow" / "schemas")

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "run_stale_examples": True,  # never reuse an earlier build's output
    "abort_on_example_error": True,
    "remove_config_comments": True,
    "download_all_examples": False,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "reset_modules": ("matplotlib",),
    "show_memory": False,
    # "Examples using X" on each API page (the minigallery of docs/_templates/autosummary)
    "backreferences_dir": "gen_modules/backreferences",
    "doc_module": ("lowdim",),
    "plot_gallery": os.environ.get("LOWDIM_DOCS_PLOT_GALLERY", "True"),
}


def _defined_outside_lowdim(app, what, name, obj, skip, options):
    """Leave out members a class inherits from outside lowdim (scikit-learn's ``get_params``,
    ``set_fit_request``, ...: their docstrings refer to scikit-learn's own pages); a
    class's page shows what lowdim defines, inherited or not."""
    target = getattr(obj, "fget", obj)
    module = getattr(target, "__module__", None) or ""
    if what == "class" and not module.startswith("lowdim"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _defined_outside_lowdim)


html_theme = "pydata_sphinx_theme"
html_title = "lowdim"
html_theme_options = {
    # the top bar: Install, User guide, API reference, Examples, Workflow (docs/index.md)
    "header_links_before_dropdown": 7,
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_static_path = []
