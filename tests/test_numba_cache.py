"""numba's on-disk cache makes a second process skip compilation (lowdim._numba_cache).

Each check runs fresh interpreters on one cache directory, as the jobs of a workflow run do
(the workflow sets NUMBA_CACHE_DIR, workflow/rules/common.smk), and counts what numba
compiles: which functions, not how long it takes.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

#: Prints {"compiled": [module.function, ...], "result": [...]} for the code it wraps: the
#: functions numba compiled (not loaded from its cache) after the imports.
PROBE = """
import json
{imports}
from numba.core import event

compiled = []


class Compiled(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        func = ev.data["dispatcher"].py_func
        compiled.append(f"{{func.__module__}}.{{func.__qualname__}}")


event.register("numba:compile", Compiled())
{body}
print(json.dumps({{"compiled": compiled, "result": result}}))
"""


def run_probe(cache_dir, imports, body, pythonpath=()):
    code = PROBE.format(imports=textwrap.dedent(imports), body=textwrap.dedent(body))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *map(str, pythonpath)])}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_a_second_umap_process_loads_umap_from_the_cache(tmp_path):
    # umap-learn's own functions are declared without cache=True; UMAPEmbedding turns the
    # cache on. The import compiles a few functions declared with explicit types in every
    # process; the fit is what a workflow job pays for.
    imports = "import numpy as np\nimport umap\nfrom lowdim.embedding import UMAPEmbedding"
    body = """
        X = np.random.default_rng(0).normal(size=(80, 6))
        est = UMAPEmbedding(n_components=2, n_neighbors=8, random_state=0)
        result = est.fit_transform(X).tolist()
    """
    first = run_probe(tmp_path, imports, body)
    second = run_probe(tmp_path, imports, body)
    assert sum(name.startswith("umap.") for name in first["compiled"]) >= 5, first["compiled"]
    assert second["compiled"] == []
    np.testing.assert_array_equal(second["result"], first["result"])


def test_functions_taking_functions_are_compiled_but_never_cached(tmp_path):
    # numba keys such compilations by the argument's function object, new in every process:
    # they could never be found again, and each process would add one to the cache.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent("""
        import numba

        @numba.njit
        def square(x):
            return x * x

        @numba.njit
        def apply(f, x):
            return f(x) + 1.0

        @numba.njit
        def plain(x):
            return square(x) + 1.0
    """))
    imports = "import pkg\nfrom lowdim._numba_cache import cache_jit_functions"
    body = """
        assert cache_jit_functions("pkg") == 3
        result = [pkg.plain(3.0), pkg.apply(pkg.square, 3.0)]
    """
    cache = tmp_path / "cache"
    first = run_probe(cache, imports, body, [tmp_path])
    files_after_first = sorted(path.name for path in cache.rglob("*") if path.is_file())
    second = run_probe(cache, imports, body, [tmp_path])
    assert {"pkg.plain", "pkg.apply"} <= set(first["compiled"])
    assert second["compiled"] == ["pkg.apply"]
    assert second["result"] == first["result"] == [10.0, 10.0]
    assert sorted(path.name for path in cache.rglob("*") if path.is_file()) == files_after_first
    assert not [name for name in files_after_first if name.startswith("pkg.apply")]


def test_a_parallel_dispatcher_never_loads_the_serial_one_of_the_same_function(tmp_path):
    # umap-learn jits its layout epoch twice, parallel=False for seeded fits and parallel=True
    # for unseeded ones; numba names the cache file after the Python function, so the
    # parallel dispatcher loaded the serial machine code whenever that was saved first, and
    # an unseeded UMAP ran its layout on one thread.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent("""
        import numba
        import numpy as np

        def threads_used(n):
            seen = np.zeros(n, dtype=np.int64)
            for i in numba.prange(n):
                seen[i] = numba.get_thread_id()
            return seen.max() + 1

        serial = numba.njit(threads_used, parallel=False)
        parallel = numba.njit(threads_used, parallel=True)
    """))
    imports = ("import numba\nimport pkg\nfrom lowdim._numba_cache import cache_jit_functions\n"
               "numba.set_num_threads(2)")
    cache = tmp_path / "cache"
    first = run_probe(cache, imports, """
        assert cache_jit_functions("pkg") == 2
        result = [int(pkg.serial(1000))]
    """, [tmp_path])
    second = run_probe(cache, imports, """
        cache_jit_functions("pkg")
        result = [int(pkg.parallel(1000)), int(pkg.serial(1000))]
    """, [tmp_path])
    assert first["result"] == [1]
    assert second["result"] == [2, 1]   # the parallel code, on both threads
    # the parallel one compiled, the serial one loaded
    assert [name for name in second["compiled"] if name.startswith("pkg.")] == [
        "pkg.threads_used"]
