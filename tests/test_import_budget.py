"""Jobs import only what they use: which modules load, not how long they take.

A workflow job pays for every library its script imports, in every one of the hundreds of
jobs of a run (benchmarks/workflow_overhead.md). The jobs that only aggregate, tabulate or
plot need pandas and matplotlib, never the libraries of the compute jobs; nor do the
library modules they read, nor the workflow's own start-up (each cluster job starts
Snakemake twice). A compute job loads the heavy libraries its work needs, no others.
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

#: The heavy libraries a compute job's script imports because its work needs them: the
#: estimators (scikit-learn style; numba kernels for AppGrad) and scikit-learn's metrics
#: and splits. UMAP, pynndescent, gensim and Vec2vec's kernels load inside the fit that
#: uses them. Every rule not listed (tidy, table, figure, report, data preparation,
#: features, similarity matrices and errors, timing) loads none of HEAVY.
NEEDS = {
    "cca_appgrad": {"sklearn", "numba"},
    "kernel_cca_run": {"sklearn", "numba"},
    "embedding_embed": {"sklearn"},
    "embedding_embed_batch": {"sklearn"},
    "embedding_score": {"sklearn"},
    "embedding_sensitivity": {"sklearn"},
    "sms_coref_matrices": {"sklearn"},
    "sms_coref_cluster": {"sklearn"},
    "sms_glue_matrix": {"sklearn"},
    "sms_glue_scores": {"sklearn"},
    "sms_wme_similarities": {"sklearn"},
    "sms_wmd_classify": {"sklearn"},
}

#: Library modules the light jobs read, and the report's.
LIGHT_MODULES = ["lowdim.tables", "lowdim.tables.embedding", "lowdim.tables.kernel_cca",
                 "lowdim.tables.select", "lowdim.tables.similarity", "lowdim.tables.sms_tasks",
                 "lowdim.tables.sweeps", "lowdim.plots", "lowdim.plots.cca",
                 "lowdim.plots.embedding", "lowdim.plots.kernel_cca", "lowdim.plots.similarity",
                 "lowdim.plots.sweeps", "lowdim.report", "lowdim.report.published",
                 "lowdim.report.decision", "lowdim.report.profile", "lowdim.report.selection",
                 "lowdim.report.render", "lowdim.report.scorecard",
                 "lowdim.report.summary", "lowdim.cca.experiments", "lowdim.embedding.features",
                 "lowdim.embedding.selection", "lowdim.log"]


def _rules_text() -> str:
    return "\n".join(path.read_text() for path in sorted(RULES.glob("*.smk")))


def rule_scripts(local_only=False) -> dict:
    """rule -> script path, for every rule with a ``script:`` (or the local ones only)."""
    text = _rules_text()
    listed = set()
    for block in re.findall(r"^localrules:\n((?:[ \t]+\w+,?[ \t]*\n?)+)", text, flags=re.M):
        listed |= set(re.findall(r"\w+", block))
    scripts = {}
    for name, body in _rule_blocks(text):
        script = re.search(r"^\s+script:\s*\n\s+\"([^\"]+)\"", body, flags=re.M)
        local = name in listed or re.search(r"^\s+localrule:\s*True", body, flags=re.M)
        if script and (local or not local_only):
            scripts[name] = (RULES / script.group(1)).resolve()
    return scripts


def _rule_blocks(text: str):
    """``(name, body)`` of every rule, at the top level or indented under an ``if``: the body
    runs to the first non-blank line indented no deeper than its ``rule`` line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        found = re.match(r"^( *)rule (\w+):$", line)
        if not found:
            continue
        depth, end = len(found.group(1)), i + 1
        while end < len(lines) and (not lines[end].strip()
                                    or len(lines[end]) - len(lines[end].lstrip()) > depth):
            end += 1
        yield found.group(2), "\n".join(lines[i + 1:end]) + "\n"


def workflow_imports() -> str:
    """The workflow's own top-level ``from lowdim ...`` imports, as its start-up runs them."""
    statements = re.findall(r"^from lowdim[^\n(]*(?:\([^)]*\))?[^\n]*", _rules_text(),
                            flags=re.M)
    return "\n".join(statements)


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


def test_the_rules_and_the_workflow_imports_are_found():
    scripts = rule_scripts()
    # Every kind of light job (tidy, table, figure, report) runs locally.
    assert {"similarity_render", "cca_render", "cca_tidy", "sms_tasks_render", "sms_tasks_tidy",
            "embedding_tidy", "embedding_render", "kernel_cca_render",
            "report_scorecard"} <= set(rule_scripts(local_only=True))
    assert set(NEEDS) <= set(scripts), sorted(set(NEEDS) - set(scripts))
    assert all(path.exists() for path in scripts.values())
    imports = workflow_imports()
    for module in ("lowdim.config", "lowdim.settings", "lowdim.cca.methods"):
        assert f"from {module} import" in imports


def test_jobs_load_only_the_heavy_libraries_their_work_needs():
    # One interpreter per set of allowed libraries (three start-ups for the whole check);
    # where one loads more, find the scripts and modules that do, one by one.
    groups = {}
    for rule, path in rule_scripts().items():
        groups.setdefault(frozenset(NEEDS.get(rule, ())), {})[rule] = import_block(path)
    light = groups.setdefault(frozenset(), {})
    light.update({name: f"import {name}" for name in LIGHT_MODULES})
    light["(the workflow's start-up)"] = workflow_imports()
    too_many = {}
    for allowed, blocks in groups.items():
        if set(heavy_modules_loaded("\n".join(blocks.values()))) <= allowed:
            continue
        for name, code in blocks.items():
            extra = sorted(set(heavy_modules_loaded(code)) - allowed)
            if extra:
                too_many[name] = extra
    assert not too_many


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
