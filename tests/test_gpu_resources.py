"""The paper profile's GPU settings: they validate, and SLURM gets ``--gpus`` for them.

``config/paper.yaml`` carries, commented, the GPU form of its first cross-encoder matrix and
GLUE task (``gpu: 1``, ``device: cuda``). The test puts them in place of the entries they
replace, runs ``snakemake -n`` on the paper profile, reads each job's resources from it, and
builds the ``sbatch`` command the SLURM executor plugin would submit (its own functions, no
cluster needed).
"""

import os
import re
from types import SimpleNamespace

import pytest
import yaml

from fixtures.workflow import ROOT, snakemake
from lowdim.config import ConfigError, validate_config

pytestmark = pytest.mark.workflow
PAPER = ROOT / "config" / "paper.yaml"
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
GPU_JOBS = {"similarity_matrix": "results/similarity/matrices/ce_stsb.npz",
            "sms_glue_matrix": "results/similarity/tasks/glue/stsb/matrix.npz"}


def commented_entries(text: str) -> list[dict]:
    """The commented list entries of ``text`` (``# - {...}`` over one or more lines)."""
    entries, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if not re.match(r"\s*# - \{", line):
            continue
        block = [line.split("# ", 1)[1]]
        while block[-1].count("{") > block[-1].count("}") or \
                "".join(block).count("{") > "".join(block).count("}"):
            i += 1
            block.append(lines[i].split("#", 1)[1])
        entries.append(yaml.safe_load("\n".join(block))[0])
    return entries


def gpu_config() -> dict:
    """The paper profile with its commented GPU entries in place of those they replace."""
    config = yaml.safe_load(PAPER.read_text())
    examples = commented_entries(PAPER.read_text())
    matrix = next(e for e in examples if e.get("kind") == "crossencoder")
    task = next(e for e in examples if "n_pairs" in e)
    config["similarity"]["matrices"] = [matrix if m["name"] == matrix["name"] else m
                                        for m in config["similarity"]["matrices"]]
    config["sms_tasks"]["glue"]["tasks"] = [task if t["dataset"] == task["dataset"] else t
                                            for t in config["sms_tasks"]["glue"]["tasks"]]
    return config


def test_the_commented_gpu_entries_validate():
    config = validate_config(gpu_config(), SCHEMA)
    matrix = next(m for m in config["similarity"]["matrices"] if m["name"] == "ce_stsb")
    task = next(t for t in config["sms_tasks"]["glue"]["tasks"] if t["dataset"] == "stsb")
    assert (matrix["gpu"], matrix["crossencoder"]["device"]) == (1, "cuda")
    assert (task["gpu"], task["device"]) == (1, "cuda")
    with pytest.raises(ConfigError, match="gpu"):
        bad = gpu_config()
        bad["sms_tasks"]["glue"]["tasks"][0]["gpu"] = -1
        validate_config(bad, SCHEMA)


def _resources(out: str, rule: str, output: str) -> dict:
    """The resources of the job of ``rule`` writing ``output`` in a dry run's log."""
    for match in re.finditer(rf"^rule {rule}:\n((?:    .*\n)+)", out, re.M):
        if re.search(rf"^    output: {re.escape(output)}\b", match.group(1), re.M):
            text = re.search(r"^    resources: (.*)$", match.group(1), re.M).group(1)
            return dict(part.split("=", 1) for part in text.split(", "))
    raise AssertionError(f"no job of {rule} writes {output}")


class _Resources(dict):
    """Job resources as the plugin reads them: ``.get`` and attribute access."""

    __getattr__ = dict.get


def _sbatch(resources: dict, threads: int) -> str:
    """The sbatch command snakemake-executor-plugin-slurm builds for such a job."""
    plugin = pytest.importorskip("snakemake_executor_plugin_slurm", reason="the SLURM "
                                 "executor plugin is not installed (pip install -e '.[slurm]')")
    from snakemake_executor_plugin_slurm.submit_string import get_submit_command

    typed = _Resources({k: int(v) if v.isdigit() else v for k, v in resources.items()})
    job = SimpleNamespace(resources=typed, threads=threads)
    params = {"run_uuid": "uuid", "slurm_logfile": "log", "comment_str": "rule", "account": "",
              "partition": "", "workdir": "."}
    return get_submit_command(job, params) + plugin.set_gres_string(job)


@pytest.mark.skipif(os.environ.get("LOWDIM_REQUIRE_SLURM") != "1"
                    and not __import__("importlib").util.find_spec(
                        "snakemake_executor_plugin_slurm"),
                    reason="the SLURM executor plugin is not installed")
def test_gpu_entries_are_submitted_with_gpus(tmp_path):
    path = tmp_path / "paper_gpu.yaml"
    path.write_text(yaml.safe_dump(gpu_config()))
    out = snakemake(tmp_path, "-n", "--cores", "64", *GPU_JOBS.values(),
                    "results/similarity/matrices/ce_mrpc.npz", configfile=path).stdout
    for rule, output in GPU_JOBS.items():
        resources = _resources(out, rule, output)
        assert resources["gpu"] == "1", resources
        command = _sbatch(resources, threads=2)
        assert " --gpus=1" in command and "--cpus-per-task=2" in command, command
        assert "--ntasks=" not in command, command
    # the matrices left on the CPU ask for none
    resources = _resources(out, "similarity_matrix", "results/similarity/matrices/ce_mrpc.npz")
    assert resources["gpu"] == "0" and "--gpus" not in _sbatch(resources, threads=8)
