"""Send lowdim's log lines, warnings and uncaught errors to a file (one per workflow job)."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

__all__ = ["log_to_file"]

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_to_file(path, level: int = logging.INFO) -> logging.Logger:
    """Route the ``lowdim`` logger, Python warnings and uncaught exceptions to ``path``.

    Workflow scripts call this first, so that every job's log holds its start and
    end lines, progress, warnings and, if it fails, the traceback.
    Inside a SLURM job (``SLURM_JOB_ID`` set) the first line names the SLURM job,
    step and node.

    Parameters
    ----------
    path : str or Path
        Log file; its directory is created. Opened in write mode (one job, one log).
    level : int, default=logging.INFO

    Returns
    -------
    logger : logging.Logger
        The ``lowdim`` logger.

    Examples
    --------
    >>> import logging
    >>> import sys
    >>> from lowdim.log import log_to_file
    >>> hook = sys.excepthook
    >>> path = tmp / "logs" / "job.log"
    >>> logger = log_to_file(path)                 # the first line of a workflow job
    >>> logger.info("fitted %d rows", 100)
    >>> print(path.read_text().split(" lowdim: ")[1].strip())
    fitted 100 rows
    >>> handler = logger.handlers[0]     # a job ends here; a longer-lived process undoes it:
    >>> for name in ("lowdim", "py.warnings", "gensim", "umap", "pynndescent"):
    ...     logging.getLogger(name).removeHandler(handler)
    >>> handler.close()
    >>> logging.captureWarnings(False)
    >>> logger.propagate, sys.excepthook = True, hook
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter(_FORMAT))
    logging.captureWarnings(True)
    for name in ("lowdim", "py.warnings", "gensim", "umap", "pynndescent"):
        target = logging.getLogger(name)
        target.setLevel(level if name in ("lowdim", "py.warnings") else logging.WARNING)
        target.addHandler(handler)
    logger = logging.getLogger("lowdim")
    logger.propagate = False
    previous = sys.excepthook

    def log_uncaught(exc_type, exc, tb):
        # Snakemake points users at the log file: make sure the traceback is in it.
        logger.critical("uncaught error", exc_info=(exc_type, exc, tb))
        previous(exc_type, exc, tb)

    sys.excepthook = log_uncaught
    if "SLURM_JOB_ID" in os.environ:
        # On a cluster, the log names the scheduler's job: sacct/seff and the SLURM
        # log (.snakemake/slurm_logs/) are found from it.
        logger.info("SLURM job %s, step %s, on node %s", os.environ["SLURM_JOB_ID"],
                    os.environ.get("SLURM_STEP_ID", "batch"),
                    os.environ.get("SLURMD_NODENAME", "?"))
    return logger
