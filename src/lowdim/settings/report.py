"""Settings of the report part: the scorecards against published numbers, the run summary.

Jobs: ``scorecard`` and ``summary``; both read only tidy result files, benchmark files and
the files of published numbers (:func:`published_files`).
"""

from __future__ import annotations

from ._core import Job, job, setting

__all__ = ["PARTS", "published_files"]

#: The workflow's experiment parts, each a config section with ``enabled``.
PARTS = ("similarity", "sms_tasks", "embedding", "cca", "kernel_cca")


def published_files(config: dict) -> list:
    """The files of published numbers (``report.published``), as configured (relative to the
    repository unless absolute).

    Examples
    --------
    >>> from lowdim.settings.report import published_files
    >>> published_files(config)[0]
    'config/published/sms_nystrom.yaml'
    """
    return list(setting(config, "report.published")[0])


def _replica(config):
    manifest, key = setting(config, "resources.replica_manifest")
    return bool(manifest), key


@job("report", "scorecard")
def scorecard_job(config):
    """The profile, and whether the data are a rehearsal's replicas: their entries read "ran
    on replica", each scored at the nearest setting run where the published one was not."""
    from ..report.render import SCORECARD_FILES, describe_data

    replica = _replica(config)
    return Job({"papers": (dict(SCORECARD_FILES), ""), "profile": setting(config, "profile"),
                "replica": replica,
                "data": (describe_data(config["datasets"], replica[0]), "datasets")},
               {"threads": (1, "")})


@job("report", "summary")
def summary_job(config):
    """The parts and datasets of the run, and the thresholds its savings are read at."""
    return Job({"profile": setting(config, "profile"),
                "parts": ({part: setting(config, f"{part}.enabled")[0] for part in PARTS},
                          ""),
                # sorted: the order of `datasets:` keys is no result
                "datasets": (sorted(config["datasets"]), "datasets"),
                "savings_fraction": setting(config, "report.savings_fraction"),
                "pcc_targets": setting(config, "report.pcc_targets")},
               {"threads": (1, "")})
