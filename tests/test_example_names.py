"""The names the docstrings' examples take as given (``src/lowdim/conftest.py``): each is built for
the examples, listed in the API reference, and used instead of set-up copied between
examples."""

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import lowdim_api  # noqa: E402


def _examples_conftest():
    spec = importlib.util.spec_from_file_location("examples_conftest",
                                                  ROOT / "src" / "lowdim" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _example_sources():
    """``{path: the >>> and ... lines of its docstrings}`` of every module of src/lowdim."""
    return {path: "\n".join(re.findall(r"^\s*(?:>>>|\.\.\.) (.*)$", path.read_text(), re.M))
            for path in sorted((ROOT / "src" / "lowdim").rglob("*.py"))
            if path.name != "conftest.py"}


def test_no_module_of_the_library_imports_the_examples_conftest():
    # It needs pytest; the library and the docs build do not.
    importers = [str(path.relative_to(ROOT)) for path in _example_sources()
                 if re.search(r"^\s*(from|import) \S*conftest", path.read_text(), re.M)]
    assert importers == []
    assert "lowdim.conftest" not in dict(lowdim_api.public_modules())


def test_every_example_name_has_a_builder_and_the_api_index_lists_it():
    conftest = _examples_conftest()
    assert set(conftest._BUILDERS) == set(conftest.EXAMPLE_NAMES)
    assert lowdim_api.example_names() == conftest.EXAMPLE_NAMES
    index = lowdim_api.index_page({})
    assert all(f"- ``{name}``: " in index for name in conftest.EXAMPLE_NAMES)


def test_examples_take_scratch_directories_and_seeds_from_the_namespace():
    # What the namespace replaced: 98 examples imported tempfile, 22 repeated one mkdtemp
    # line, 19 drew `rng = np.random.default_rng(0)` before anything else.
    offenders = {str(path.relative_to(ROOT)): hits for path, source in _example_sources().items()
                 if (hits := re.findall(r"import tempfile|tempfile\.\w+\(|^rng = np\.random\."
                                        r"default_rng\(0\)$", source, re.M))}
    assert offenders == {}


def test_every_example_name_is_used_by_an_example():
    used = "\n".join(_example_sources().values())
    unused = [name for name in _examples_conftest().EXAMPLE_NAMES
              if not re.search(rf"\b{name}\b", used)]
    assert unused == []
