"""The documentation site: it builds with warnings as errors, its API reference lists every
public name, its workflow reference every config key, and the gallery's examples run.

The build is ``sphinx-build -W --keep-going -b html docs <tmp>`` (the README's command, into
a temporary directory), once per session. It regenerates everything it generates
(``docs/api/`` from the ``__all__`` lists, the gallery by running every example), so
nothing from an earlier build can hide a failure.
"""

import html
import importlib
import inspect
import pkgutil
import re
import subprocess
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
from lowdim_api import NOT_VALIDATED  # noqa: E402
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
def built_docs(tmp_path_factory):
    """The HTML site, built afresh with warnings as errors."""
    out = tmp_path_factory.mktemp("docs")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q",
         "-d", str(out / "doctrees"), str(DOCS), str(out / "html")],
        cwd=ROOT, capture_output=True, text=True)
    if result.returncode:
        pytest.fail(f"sphinx-build -W failed ({result.returncode}):\n"
                    f"{result.stderr[-8000:]}\n{result.stdout[-2000:]}")
    return out / "html"


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
    ``docs/_ext/lowdim_api.py`` lists with the reason: among them EX01, an Examples section."""
    failures = []
    for name in sorted(_public_objects()):
        errors = [(code, message) for code, message in numpydoc.validate.validate(name)["errors"]
                  if code not in NOT_VALIDATED]
        failures += [f"{name}: {code} {message}" for code, message in errors]
    assert not failures, f"{len(failures)} numpydoc failures:\n" + "\n".join(failures)


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
