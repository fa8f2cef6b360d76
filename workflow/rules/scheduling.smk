# How Snakemake schedules a local run of this workflow.
#
# Snakemake 9 re-plans after every scheduling round on a timer of --max-jobs-per-timespan's
# span (1 s by default), and that timer starts the next one: every finished job adds one
# more such chain, so a run of N jobs re-plans up to N times a second near its end. In the
# default run (83 jobs) the main process spent 20 CPU s, 12 of them in these rounds, on the
# 2 cores its jobs need (profiled runs s20 and s20lift, benchmarks/workflow_overhead.md).
# The limit guards a cluster's queue against floods of submissions; a local run starts at
# most --cores jobs at once, so on a local run at Snakemake's default limit its timers are
# lifted: the scheduler then plans when a job finishes, as it does anyway. A limit given on
# the command line or in a profile is kept, and so is the limit of cluster runs.

import sys

#: Snakemake's default --max-jobs-per-timespan: jobs, seconds.
SNAKEMAKE_DEFAULT_RATE = (100, 1)


def lift_local_rate_limit(workflow):
    """Drop the job rate limiter of a local run at Snakemake's default limit; return
    whether it was dropped. Reads Snakemake's scheduler (JobScheduler.job_rate_limiter,
    Snakemake 8.20-9.x); where that is not there it changes nothing."""
    scheduler = getattr(workflow, "scheduler", None)
    limiter = getattr(scheduler, "job_rate_limiter", None)
    if not workflow.local_exec or limiter is None:
        return False
    if (getattr(limiter, "max_jobs", None), getattr(limiter, "timespan", None)) \
            != SNAKEMAKE_DEFAULT_RATE:
        return False
    scheduler.job_rate_limiter = None
    return True


onstart:
    if lift_local_rate_limit(workflow):
        print("lowdim: local run: Snakemake's job rate limit (100 a second) is lifted",
              file=sys.stderr)
