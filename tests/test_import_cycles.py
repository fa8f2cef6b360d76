"""No import cycles in src/lowdim, counting the imports written inside functions.

An import inside a function hides a cycle from Python's start-up (the cycle only
bites when the function runs, in whatever order the modules happen to be loaded), so
the graph here is read from the source: every ``import`` and ``from ... import``
statement of every module, at any depth, is an edge to the module it names.
"""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "lowdim"


def module_names() -> dict:
    """Module name -> its file, for every module of the package."""
    modules = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _ancestors(module: str) -> list:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imported(module: str, path: Path, modules: dict) -> set:
    """The package's modules ``module`` imports anywhere in its source.

    Importing ``a.b.c`` also runs the packages ``a`` and ``a.b``: those count, but for
    the packages ``module`` is itself part of (Python runs them before it).
    """
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            source = (f"{base}.{node.module}" if node.module else base) if node.level \
                else node.module
            # `from package import submodule` imports the submodule, `import name` the package
            targets.update(f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                           else source for alias in node.names)
    own = set(_ancestors(module)) | {module}
    found = {name for target in targets for name in [target, *_ancestors(target)]}
    return {name for name in found if name in modules and name not in own}


def subpackage_graph(graph: dict) -> dict:
    """The graph between lowdim's subpackages and top-level modules (``lowdim.data`` stands
    for every module below it)."""
    def top(name):
        return ".".join(name.split(".")[:2])
    merged = {}
    for name, targets in graph.items():
        merged.setdefault(top(name), set()).update(top(t) for t in targets if top(t) != top(name))
    return merged


def import_graph() -> dict:
    modules = module_names()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict) -> list:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    # lowdim.embedding.timing imports lowdim.embedding.experiments inside timing_sweep only
    assert "lowdim.embedding.experiments" in graph["lowdim.embedding.timing"]
    # ... and the packages an import runs, but for the importer's own
    assert "lowdim.tables" in graph["lowdim.report.summary"]
    assert "lowdim.data" not in graph["lowdim.data.registry"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_lowdim_has_no_import_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_subpackages_depend_on_each_other_one_way():
    found = cycles(subpackage_graph(import_graph()))
    assert not found, "cycles between subpackages: " + "; ".join(" <-> ".join(c) for c in found)
