"""Per-process CPU accounting for benchmarks/workflow_overhead.py (not part of lowdim).

Python imports ``sitecustomize`` at start-up from the first directory on ``sys.path`` that
holds one; ``workflow_overhead.py`` puts this directory on ``PYTHONPATH`` of the measured
``snakemake`` command, so every Python process of the run (Snakemake itself and each job's
script) loads it. With ``LOWDIM_JOB_PROFILE`` naming a directory, each process writes one
JSON record there when it exits:

- ``startup_cpu_s``: CPU of the process before this module ran (interpreter start-up);
- ``import_cpu_s``: CPU of the main thread inside outermost imports (``import x`` and
  ``importlib.import_module`` both end in ``importlib._bootstrap._find_and_load``), per
  top-level package imported in ``imports``, and per package whose modules' own code ran
  (the imports they made left out) in ``import_own``; numba work done during an import is
  not counted here;
- ``numba_cpu_s``: CPU of the thread holding numba's compiler lock, outermost acquisitions
  only: compiling, and loading or saving numba's on-disk cache;
- ``total_cpu_s``: user + system CPU of the whole process (all threads) at exit, and
  ``children_cpu_s`` of the child processes it waited for;
- ``wall_s``: wall seconds from this module's start to the exit (what an exclusive job held
  its cores for).

CPU seconds, not wall seconds: the jobs of a run share 2 cores with each other and, on a
shared machine, with other work; CPU time is what a job costs whatever it waited for.
"""

import os

_DIR = os.environ.get("LOWDIM_JOB_PROFILE")

if _DIR:
    import _thread
    import atexit
    import resource
    import sys
    import time
    from importlib import _bootstrap

    def _cpu(who=resource.RUSAGE_SELF):
        usage = resource.getrusage(who)
        return usage.ru_utime + usage.ru_stime

    _MAIN = _thread.get_ident()
    _WALL = time.perf_counter()
    _STARTUP = _cpu()
    _imports = {}  # top-level package -> CPU s of the main thread in its outermost imports
    _own = {}  # top-level package -> CPU s of its own modules' code, nested imports excluded
    _numba = {"cpu_s": 0.0, "depth": {}, "start": {}, "in_import": 0.0}
    _children = []  # per import under way (main thread): CPU s of the imports it made
    _original = _bootstrap._find_and_load

    def _find_and_load(name, import_):
        if _thread.get_ident() != _MAIN:
            return _original(name, import_)
        start, numba_before = time.thread_time(), _numba["cpu_s"]
        _children.append(0.0)
        try:
            return _original(name, import_)
        finally:
            numba = _numba["cpu_s"] - numba_before
            spent = time.thread_time() - start - numba
            top = name.partition(".")[0]
            _own[top] = _own.get(top, 0.0) + spent - _children.pop()
            if _children:
                _children[-1] += spent
            else:
                _imports[top] = _imports.get(top, 0.0) + spent
                _numba["in_import"] += numba
            if name == "numba.core.event":
                _listen_to_numba()

    _bootstrap._find_and_load = _find_and_load

    def _listen_to_numba():
        from numba.core import event

        class CompilerLockCPU(event.Listener):
            """Thread CPU between the outermost acquisition and release of the lock."""

            def on_start(self, ev):
                thread = _thread.get_ident()
                depth = _numba["depth"].get(thread, 0)
                if depth == 0:
                    _numba["start"][thread] = time.thread_time()
                _numba["depth"][thread] = depth + 1

            def on_end(self, ev):
                thread = _thread.get_ident()
                _numba["depth"][thread] -= 1
                if _numba["depth"][thread] == 0:
                    _numba["cpu_s"] += time.thread_time() - _numba["start"].pop(thread)

        event.register("numba:compiler_lock", CompilerLockCPU())

    def _job():
        """Rule and wildcards when this process runs a Snakemake script, else None."""
        job = getattr(sys.modules.get("__main__"), "snakemake", None)
        if job is None or not hasattr(job, "rule"):
            return None
        return {"rule": job.rule, "wildcards": dict(job.wildcards.items()),
                "output": [str(path) for path in job.output]}

    def _write():
        import json

        record = {
            "pid": os.getpid(), "ppid": os.getppid(), "argv": sys.argv[:3],
            "job": _job(), "startup_cpu_s": _STARTUP,
            "import_cpu_s": sum(_imports.values()), "imports": _imports, "import_own": _own,
            "numba_cpu_s": _numba["cpu_s"], "numba_in_import_cpu_s": _numba["in_import"],
            "total_cpu_s": _cpu(), "children_cpu_s": _cpu(resource.RUSAGE_CHILDREN),
            "wall_s": time.perf_counter() - _WALL,
        }
        path = os.path.join(_DIR, f"{os.getpid()}-{time.time_ns()}.json")
        with open(path + ".tmp", "w") as file:
            json.dump(record, file)
        os.replace(path + ".tmp", path)

    atexit.register(_write)
