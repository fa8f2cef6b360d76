"""Light jobs import only what they use: which modules load, not how long they take.

A workflow job pays for every library its script imports, in every one of the hundreds of
jobs of a run (benchmarks/workflow_overhead.md). The jobs that only aggregate, tabulate or
plot (the workflow's local rules) need pandas and matplotlib, never the libraries of the
compute jobs; nor do the library modules they read.
"""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "workflow" / "rules"
SCRIPTS = ROOT / "workflow" / "scripts"

#: Heavy libraries of the compute jobs (scikit-learn alone takes 1.7-2.5 s to import).
HEAVY = ("sklearn", "umap", "pynndescent", "gensim", "torch", "transformers", "numba", "ot")

#: Library modules the light jobs read, and the report's.
LIGHT_MODULES = ["lowdim.tables", "lowdim.tables.embedding", "lowdim.tables.kernel_cca",
                 "lowdim.tables.select", "lowdim.tables.similarity", "lowdim.tables.sms_tasks",
                 "lowdim.tables.sweeps", "lowdim.plots", "lowdim.plots.cca",
                 "lowdim.plots.embedding", "lowdim.plots.kernel_cca", "lowdim.plots.similarity",
                 "lowdim.plots.sweeps", "lowdim.report.published", "lowdim.report.scorecard",
                 "lowdim.report.summary", "lowdim.cca.experiments", "lowdim.log"]


def local_rule_scripts() -> dict:
    """rule -> script path, for every rule that runs on the host running Snakemake."""
    text = "\n".join(path.read_text() for path in sorted(RULES.glob("*.smk")))
    listed = set()
    for block in re.findall(r"^localrules:\n((?:[ \t]+\w+,?[ \t]*\n?)+)", text, flags=re.M):
        listed |= set(re.findall(r"\w+", block))
    scripts = {}
    for name, body in re.findall(r"^rule (\w+):\n(.*?)(?=^\S|\Z)", text, flags=re.M | re.S):
        script = re.search(r"^\s+script:\s*\n\s+\"([^\"]+)\"", body, flags=re.M)
        local = name in listed or re.search(r"^\s+localrule:\s*True", body, flags=re.M)
        if script and local:
            scripts[name] = (RULES / script.group(1)).resolve()
    return scripts


def import_block(script: Path) -> str:
    """The script's top-level import statements, in order (what every run of it imports)."""
    tree = ast.parse(script.read_text())
    return "\n".join(ast.unparse(node) for node in tree.body
                     if isinstance(node, (ast.Import, ast.ImportFrom)))


def heavy_modules_loaded(code: str) -> list:
    """The HEAVY packages in ``sys.modules`` after a fresh interpreter runs ``code``."""
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps(sorted({{m.partition('.')[0] for m in sys.modules}} "
             f"& set({HEAVY!r}))))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(SCRIPTS)])}
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=SCRIPTS, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_the_local_rules_are_found():
    scripts = local_rule_scripts()
    # Every kind of light job: tidy, table, figure, report.
    for rule in ("similarity_error_figure", "cca_table1", "cca_tidy_pcc", "sms_wmd_table",
                 "embedding_tables", "report_scorecard"):
        assert rule in scripts, sorted(scripts)
    assert all(path.exists() for path in scripts.values())


def test_light_jobs_and_the_modules_they_read_load_no_heavy_library():
    blocks = {rule: import_block(path) for rule, path in local_rule_scripts().items()}
    modules = "\n".join(f"import {name}" for name in LIGHT_MODULES)
    # All in one interpreter (one start-up for the whole check); if that loads a heavy
    # library, find the scripts and modules that do, one by one.
    if not heavy_modules_loaded("\n".join([modules, *blocks.values()])):
        return
    culprits = {rule: heavy_modules_loaded(code) for rule, code in blocks.items()}
    culprits.update({name: heavy_modules_loaded(f"import {name}") for name in LIGHT_MODULES})
    assert not {name: loaded for name, loaded in culprits.items() if loaded}


@pytest.mark.parametrize("module, allowed", [
    # Loading a matrix or a prepared dataset needs NumPy and SciPy, not scikit-learn.
    ("lowdim.similarity.matrices", ()),
    ("lowdim.data", ()),
    # The estimators load with the first one used.
    ("lowdim.cca", ()),
    ("lowdim.embedding", ()),
])
def test_packages_load_their_estimators_on_first_use(module, allowed):
    assert set(heavy_modules_loaded(f"import {module}")) <= set(allowed)
