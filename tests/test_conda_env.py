"""The rules' conda environment matches pyproject.toml, and `snakemake --lint` keeps only
the finding explained in config/README.md."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
ENV = ROOT / "workflow" / "envs" / "lowdim.yaml"


def _requirements(specs):
    """name -> version floor, from 'name>=x' strings."""
    out = {}
    for spec in specs:
        name, _, floor = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(>=\s*(\S+))?", spec).groups()
        out[name.lower()] = floor
    return out


def test_conda_env_has_the_runtime_dependencies_of_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = _requirements(project["dependencies"])
    del wanted["snakemake"]  # Snakemake runs outside the rules' environment
    env = yaml.safe_load(ENV.read_text())["dependencies"]
    pip = next(item["pip"] for item in env if isinstance(item, dict))
    conda = [item for item in env if isinstance(item, str) and not item.startswith(("python=",
                                                                                    "pip"))]
    assert _requirements(conda + pip) == wanted


def test_every_rule_runs_in_the_conda_env_and_lint_keeps_one_explained_finding():
    result = subprocess.run([sys.executable, "-m", "snakemake", "--lint", "-s",
                             str(ROOT / "Snakefile")], capture_output=True, text=True, cwd=ROOT)
    findings = re.findall(r"^    \* (.+?):?$", result.stdout + result.stderr, flags=re.M)
    kept = [f for f in findings
            if f.startswith("Environment variable PYTHONPATH used but not asserted")]
    assert findings == kept and len(kept) == 1, findings
    readme = (ROOT / "config" / "README.md").read_text()
    assert "envvars" in readme  # the kept finding is explained
