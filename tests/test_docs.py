"""The documentation site: it builds with warnings as errors, its API reference lists every
public name, its workflow reference every config key, and the gallery's examples run.

The build is ``sphinx-build -W --keep-going -b html docs <tmp>`` (the command of docs/install.md, into
a temporary directory), once per session, started with it (``tests/conftest.py``). It regenerates everything it generates
(``docs/api/`` from the ``__all__`` lists, the gallery by running every example), so
nothing from an earlier build can hide a failure.
"""

import html
import importlib
import inspect
import os
import pkgutil
import re
import sys
import tomllib
import zlib
from pathlib import Path

import numpydoc.validate
import pytest
import sphinx  # noqa: F401  (the `docs` extra; without it this module fails, never skips)

import lowdim
from test_config_docs import _schema_keys

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
from lowdim_api import (INTERNAL_NOT_VALIDATED, INTERNALS, NOT_VALIDATED,  # noqa: E402
                        is_internal, is_relaxed)
EXAMPLES = sorted((ROOT / "examples").glob("plot_*.py"))


def public_names():
    """``[(module name, name)]`` for every name in the ``__all__`` of a public module of
    lowdim (no part of its dotted name starts with ``_``)."""
    names = [("lowdim", name) for name in lowdim.__all__]
    for info in pkgutil.walk_packages(lowdim.__path__, "lowdim."):
        if any(part.startswith("_") for part in info.name.split(".")) \
                or info.name == "lowdim.conftest":  # pytest's: the examples' names
            continue
        module = importlib.import_module(info.name)
        names += [(info.name, name) for name in getattr(module, "__all__", ())]
    return names


def read_inventory(path):
    """``{name: role}`` of a Sphinx ``objects.inv`` (format version 2)."""
    raw = Path(path).read_bytes()
    header_end = 0
    for _ in range(4):
        header_end = raw.index(b"\n", header_end) + 1
    assert raw.startswith(b"# Sphinx inventory version 2"), raw[:40]
    entries = {}
    for line in zlib.decompress(raw[header_end:]).decode().splitlines():
        match = re.match(r"(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S*)\s+(.*)", line)
        if match:
            entries[match.group(1)] = match.group(2)
    return entries


@pytest.fixture(scope="module")
def built_docs(_long_runs):
    """The HTML site, built afresh with warnings as errors (started with the session,
    ``tests/conftest.py``: the build runs every gallery example, about a minute)."""
    result = _long_runs["built_docs"].wait()
    if result.returncode:
        pytest.fail(f"sphinx-build -W failed ({result.returncode}):\n"
                    f"{result.stderr[-8000:]}\n{result.stdout[-2000:]}")
    return Path(result.args[-1])


def test_sphinx_build_passes_with_warnings_as_errors(built_docs):
    assert (built_docs / "index.html").is_file()
    for page in ("user_guide/sms_nystrom", "user_guide/vec2vec", "user_guide/appgrad_cca",
                 "own_data", "sweeps", "rehearsal", "slurm", "workflow_reference", "gallery",
                 "api/index"):
        assert (built_docs / f"{page}.html").is_file(), page


def test_api_reference_lists_every_public_name(built_docs):
    """Each name of a public ``__all__`` is documented under a module that exports it."""
    documented = read_inventory(built_docs / "objects.inv")
    missing = []
    for module_name, name in public_names():
        obj = getattr(importlib.import_module(module_name), name)
        paths = [p for p in documented if p.rsplit(".", 1)[-1] == name and "." in p]
        if not any(_exports(p.rsplit(".", 1)[0], name, obj) for p in paths):
            missing.append(f"{module_name}.{name}")
    assert not missing, f"not in the API reference: {missing}"


def _exports(module_name, name, obj):
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return False
    found = getattr(module, name, None)
    # A module's __getattr__ may build a mapping anew at each read: equal, not identical.
    return found is obj or (isinstance(obj, dict) and found == obj)


def test_workflow_reference_lists_every_schema_key(built_docs):
    """Every key of the schemas is a row of the generated workflow reference."""
    page = (built_docs / "workflow_reference.html").read_text()
    codes = re.findall(r'<code class="docutils literal[^"]*">(.*?)</code>', page, flags=re.S)
    paths = {html.unescape(re.sub(r"<[^>]+>", "", code)) for code in codes}
    leaves = {re.split(r"[.\]]", path)[-1] for path in paths}
    missing = [key for key in _schema_keys() if key not in leaves]
    assert not missing, f"config keys missing from the workflow reference: {missing}"
    assert "cca.checkpoints.count" in paths and "similarity.matrices[].kind" in paths
    assert "cca.overrides.<dataset>.reg" in paths


def test_every_config_key_is_described_and_estimator_arguments_link(built_docs):
    """No key of the workflow reference lacks a description, and a key that sets a library
    parameter links to the estimator or function it is a parameter of."""
    from lowdim_config import argument_of, key_rows, sections

    top, files = sections(ROOT / "workflow" / "schemas")
    rows = [(path, schema) for name, schema in top for path, schema in key_rows(schema, files, name)]
    missing = [path for path, schema in rows if not str(schema.get("description", "")).strip()]
    assert not missing, f"config keys without a description: {missing}"
    linked = {path: argument_of(path) for path, _ in rows if argument_of(path)}
    assert linked["embedding.vec2vec.topk"] == "lowdim.embedding.Vec2Vec"
    assert linked["kernel_cca.reg"] == "lowdim.cca.KernelCCA" and "embedding.alpha" not in linked
    page = (built_docs / "workflow_reference.html").read_text()
    for target in set(linked.values()):
        assert f"generated/{target}.html" in page, target


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_gallery_ran_example(built_docs, example):
    """sphinx-gallery ran each example and kept what it printed or plotted."""
    page = (built_docs / "auto_examples" / f"{example.stem}.html").read_text()
    assert "sphx-glr-script-out" in page or "sphx-glr-single-img" in page or \
        "sphx-glr-multi-img" in page, f"{example.name}: no output in its gallery page"


def test_every_example_prints_and_is_in_the_gallery():
    """Each example prints what it shows, and the gallery picks it up (``plot_`` prefix)."""
    assert len(EXAMPLES) >= 5
    for path in EXAMPLES:
        source = path.read_text()
        assert "print(" in source, f"{path.name} prints nothing"
        assert source.startswith('"""'), f"{path.name}: sphinx-gallery needs a docstring title"


def _public_objects():
    """``{qualified name: object}`` of the classes and functions among the public names."""
    objects = {}
    for module_name, name in public_names():
        obj = getattr(importlib.import_module(module_name), name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            objects.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return objects


def test_public_docstrings_pass_numpydoc_validation():
    """Every public class and function passes numpydoc's checks, but those
    ``docs/_ext/lowdim_api.py`` lists with the reason: among them EX01, an Examples section.
    The public API passes PR01, PR07 and RT01 too (every parameter described, a Returns
    section); only the workflow internals are spared them."""
    failures = []
    for name in sorted(_public_objects()):
        skipped = NOT_VALIDATED.keys() | (INTERNAL_NOT_VALIDATED.keys() if is_relaxed(name)
                                          else set())
        errors = [(code, message) for code, message in numpydoc.validate.validate(name)["errors"]
                  if code not in skipped]
        failures += [f"{name}: {code} {message}" for code, message in errors]
    assert not failures, f"{len(failures)} numpydoc failures:\n" + "\n".join(failures)


def test_the_api_index_has_a_table_per_module_and_the_internals_last(built_docs):
    """scikit-learn's layout: a table per public module (name and one-line summary), the
    library's packages first, the workflow's plumbing under its own heading at the end,
    and a short sidebar (one page per package, not per module)."""
    page = (built_docs / "api" / "index.html").read_text()
    for module in ("lowdim.approx", "lowdim.cca", "lowdim.embedding", "lowdim.settings"):
        assert f"<strong>{module}</strong>" in page or f"<strong>{module}" in page, module
    internals = page.index('<section id="workflow-internals">')  # the heading, not the TOC
    assert page.index("<strong>lowdim.approx") < internals < page.index("<strong>lowdim.io")
    assert page.count('class="autosummary longtable') >= 40 or page.count("autosummary") >= 40
    assert "sms_nystrom" in page and "Submatrix-shifted Nyström" in page  # name + summary
    sidebar = re.search(r'<nav class="bd-docs-nav.*?</nav>', page, flags=re.S).group(0)
    # one entry per package page; their objects fold under them (collapsed)
    assert sidebar.count('class="toctree-l1') < 20, "the sidebar lists every module again"
    assert is_internal("lowdim.settings.cca") and not is_internal("lowdim.cca.kernel")


def test_api_pages_link_to_the_user_guide_and_the_examples_using_them(built_docs):
    page = (built_docs / "api" / "generated" / "lowdim.cca.KernelCCA.html").read_text()
    assert "User Guide: kernel CCA" in page and "kernel-cca-method" in page
    assert "Examples using" in page and "plot_kernel_cca" in page


def test_math_renders_from_the_sites_own_mathjax(built_docs):
    """No CDN: the pages load MathJax from _static, which the build copied there."""
    page = (built_docs / "api" / "generated" / "lowdim.approx.sms_nystrom.html").read_text()
    scripts = re.findall(r'<script[^>]*src="([^"]*)"', page)
    mathjax = [src for src in scripts if "mathjax" in src.lower()]
    assert mathjax and all(not src.startswith(("http:", "https:", "//")) for src in mathjax)
    assert (built_docs / "_static" / "mathjax" / "MathJax.js").is_file()
    assert "Notes" in page and 'class="math' in page


def test_every_examples_section_runs_code():
    """An Examples section is doctested (``--doctest-modules`` in pyproject.toml): it must
    hold ``>>>`` lines, and the test command must collect ``src/lowdim``."""
    empty = [name for name, obj in _public_objects().items()
             if ">>> " not in (inspect.getdoc(obj) or "").split("Examples\n--------", 1)[-1]]
    assert not empty, f"Examples sections without a doctest: {empty}"
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in options["addopts"] and "src/lowdim" in options["testpaths"]


def test_ci_runs_the_readme_test_command_with_the_docs_extra():
    """CI (``.ci/run``) runs the README's test command, which installs the ``docs`` extra,
    so this module (the ``sphinx-build -W`` build) and the doctests run in CI."""
    readme = (ROOT / "README.md").read_text()
    command = next(line for line in readme.splitlines()
                   if line.startswith("pip install -e") and line.endswith("&& pytest"))
    extras = re.search(r'"\.\[([^\]]*)\]"', command).group(1).split(",")
    assert "docs" in extras and "test" in extras, command
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert command in ci, f".ci/run does not run the README's test command {command!r}"


# -- the site in a browser ------------------------------------------------------------------------
#: Screenshots of the site, shown in docs/gallery.md: saved to docs/gallery/ with
#: LOWDIM_UPDATE_GALLERY=1 (as tests/test_report_browser.py does for the report).
DOCS_SCREENSHOTS = ("docs_api_index.png", "docs_user_guide.png")
#: The top bar, in order (docs/index.md's toctree).
TOP_BAR = ("Install", "User guide", "API reference", "Examples", "Workflow")


@pytest.fixture(scope="module")
def site(built_docs, tmp_path_factory):
    """Headless Chromium (the report's browser test's set-up) and where screenshots go."""
    from test_report_browser import start_chromium

    driver = start_chromium(tmp_path_factory.mktemp("chromium-docs"),
                            "the documentation's browser test")
    shots = DOCS / "gallery" if os.environ.get("LOWDIM_UPDATE_GALLERY") == "1" else \
        tmp_path_factory.mktemp("docs-screenshots")
    try:
        yield driver, shots
    finally:
        driver.quit()


def _open(driver, page):
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(page.as_uri())
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def _resources(driver):
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")


@pytest.mark.browser
def test_browser_top_bar_and_api_index(site, built_docs):
    """The top bar reads Install, User guide, API reference, Examples, Workflow, nothing under
    "More"; the API index shows its tables and the internals heading; nothing is fetched
    from the network."""
    driver, shots = site
    _open(driver, built_docs / "api" / "index.html")
    bar = driver.execute_script(
        "return Array.from(document.querySelectorAll('.bd-header .navbar-nav > li'))"
        ".map(li => li.innerText.trim()).filter(t => t)")
    assert tuple(bar[:len(TOP_BAR)]) == TOP_BAR, bar
    assert not any("More" in item for item in bar), bar
    tables = driver.execute_script("return document.querySelectorAll('table.autosummary').length")
    assert tables >= 40, tables
    headings = driver.execute_script(
        "return Array.from(document.querySelectorAll('h2')).map(h => h.innerText)")
    assert any(INTERNALS in h for h in headings), headings
    assert not [name for name in _resources(driver) if name.startswith("http")]
    driver.save_screenshot(str(shots / DOCS_SCREENSHOTS[0]))
    assert (shots / DOCS_SCREENSHOTS[0]).stat().st_size > 0


@pytest.mark.browser
def test_browser_math_renders_offline_and_the_user_guide_shows_code_and_figure(site, built_docs):
    from selenium.webdriver.support.ui import WebDriverWait

    driver, shots = site
    _open(driver, built_docs / "api" / "generated" / "lowdim.approx.sms_nystrom.html")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "return document.querySelectorAll('.MathJax_CHTML, mjx-container').length > 0"))
    raw = driver.execute_script(
        "return Array.from(document.querySelectorAll('.math')).filter("
        "el => el.innerText.includes('\\\\(') || el.innerText.includes('\\\\[')).length")
    assert raw == 0, f"{raw} formulas left as TeX source"
    assert driver.execute_script("return document.querySelector('script[src*=\"MathJax.js\"]')"
                                 ".src").startswith("file:")  # the site's own copy
    assert not [name for name in _resources(driver) if name.startswith("http")]
    _open(driver, built_docs / "user_guide" / "sms_nystrom.html")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "return document.querySelectorAll('.MathJax_CHTML, mjx-container').length > 0"))
    loaded = driver.execute_script(
        "return Array.from(document.querySelectorAll('figure img, div.figure img'))"
        ".map(img => img.complete && img.naturalWidth > 0)")
    assert loaded and all(loaded), loaded
    assert driver.execute_script("return document.querySelectorAll('div.highlight-python').length")
    driver.execute_script(
        "document.querySelector('figure, div.figure').scrollIntoView({block: 'center'})")
    driver.save_screenshot(str(shots / DOCS_SCREENSHOTS[1]))
    assert (shots / DOCS_SCREENSHOTS[1]).stat().st_size > 0
