"""The profile a run ran: the profile it names, and every result-changing key it modified.

A run names its profile (``profile: paper``), but a ``--config`` or an overlaid file can
change any key of it (``--config 'cca={"n_rows": 1000}'``). The scorecard compares the
run's effective config with the profile's own file, both validated with their defaults
filled in, and names each result-changing key that differs: the run's profile reads
``paper (modified: cca.n_rows)``. A scorecard row whose inputs depend on a modified key
cannot read "reproduced": it reads "reproduced at another setting" and names the keys.

A row depends on the keys of the config sections its published file names
(``sections:`` in ``config/published/*.yaml``), on ``seed``, and on ``datasets.<name>``
when ``<name>`` is one of the names its rows select (a dataset, or a matrix built on it
such as ``mlp_digits``: the name between underscores).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..config import changes_result

__all__ = ["PROFILE_FILES", "affecting", "modified_keys", "profile_file", "profile_label",
           "profile_modifications"]

#: The profiles the repository ships, by name: the file each one is.
PROFILE_FILES = {"offline": "config/config.yaml", "paper": "config/paper.yaml",
                 "rehearsal": "config/rehearsal.yaml"}

_MISSING = object()


def _flatten(value, prefix=""):
    """``{dotted key: leaf}``; lists of mappings by index (``matrices[0].threads``)."""
    if isinstance(value, dict):
        items = {}
        for key, inner in value.items():
            items.update(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return items
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        items = {}
        for index, inner in enumerate(value):
            items.update(_flatten(inner, f"{prefix}[{index}]"))
        return items
    return {prefix: value}


def _shown(key: str) -> str:
    """``similarity.matrices[3].n_items`` -> ``similarity.matrices`` (a list entry by its
    list; ``datasets.mnist.n_rows`` stays whole)."""
    return key.split("[", 1)[0]


def modified_keys(config: dict, reference: dict) -> list[str]:
    """The result-changing keys whose values differ between a run's config and its profile.

    Parameters
    ----------
    config : dict
        The run's effective config (validated, defaults filled in).
    reference : dict
        Its profile's file, validated the same way.

    Returns
    -------
    list of str
        Dotted keys, sorted; a changed entry of a list of mappings is named by its list.

    Examples
    --------
    >>> from lowdim.report.profile import modified_keys
    >>> profile = {"profile": "paper", "seed": 0, "cca": {"reg": 0.005, "threads": 4},
    ...            "datasets": {"mnist": {"n_rows": 0}}}
    >>> run = {"profile": "paper", "seed": 0, "cca": {"reg": 0.01, "threads": 8},
    ...        "datasets": {"mnist": {"n_rows": 1000}, "mine": {"file": "mine.csv"}}}
    >>> modified_keys(run, profile)     # threads change no result
    ['cca.reg', 'datasets.mine.file', 'datasets.mnist.n_rows']
    """
    ours, theirs = _flatten(config), _flatten(reference)
    changed = {_shown(key) for key in set(ours) | set(theirs)
               if changes_result(key) and ours.get(key, _MISSING) != theirs.get(key, _MISSING)}
    return sorted(changed)



def profile_label(profile: str, modified) -> str:
    """The profile column of a run's scorecard.

    Examples
    --------
    >>> from lowdim.report.profile import profile_label
    >>> profile_label("paper", ["cca.n_rows"]), profile_label("offline", [])
    ('paper (modified: cca.n_rows)', 'offline')
    """
    return f"{profile} (modified: {', '.join(modified)})" if modified else profile


def profile_file(profile: str, configfiles=(), root=".") -> Path | None:
    """The file of the profile a run names, to compare its config with.

    A profile the repository ships (:data:`PROFILE_FILES`) is its file in ``root`` (the
    checkout). Any other name is the first of ``configfiles`` (``--configfile``) that
    declares it (a test's or your own complete profile); ``None`` when none does.

    Examples
    --------
    >>> from lowdim.report.profile import profile_file
    >>> profile_file("paper", root="/repo").as_posix()
    '/repo/config/paper.yaml'
    >>> profile_file("mine", configfiles=[]) is None
    True
    """
    if profile in PROFILE_FILES:
        return Path(root) / PROFILE_FILES[profile]
    for path in configfiles:
        doc = yaml.safe_load(Path(path).read_text()) if Path(path).exists() else None
        if isinstance(doc, dict) and doc.get("profile") == profile:
            return Path(path)
    return None


def profile_modifications(config: dict, configfiles, root, schema) -> list[str]:
    """:func:`modified_keys` of a run against the file of the profile it names.

    Parameters
    ----------
    config : dict
        The run's effective config, validated.
    configfiles : sequence of path-like
        The files given with ``--configfile`` (empty for the default profile).
    root : path-like
        The checkout (where :data:`PROFILE_FILES` are).
    schema : path-like
        ``workflow/schemas/config.schema.yaml``, to validate the profile's file the same way.

    Returns
    -------
    list of str
        Empty when the run is its profile, or names a profile with no file.

    Examples
    --------
    >>> from lowdim.config import checkout_config
    >>> from lowdim.report.profile import profile_modifications
    >>> config, schema = checkout_config()
    >>> root = schema.parents[2]
    >>> profile_modifications(config, [], root, schema)
    []
    >>> changed = {**config, "cca": {**config["cca"], "reg": 0.01}}
    >>> profile_modifications(changed, [], root, schema)
    ['cca.reg']
    """
    from ..config import validate_config

    path = profile_file(config["profile"], configfiles, root)
    if path is None or not path.exists():
        return []
    return modified_keys(config, validate_config(yaml.safe_load(path.read_text()), schema))


def _names(entry) -> set:
    sources = [entry.reproduced] + ([entry.than] if entry.than else [])
    return {str(value) for source in sources
            for value in (source.get("where") or {}).values()}


def affecting(entry, modified) -> list[str]:
    """The modified keys that ``entry``'s rows depend on.

    Examples
    --------
    >>> from lowdim.report import PublishedEntry
    >>> entry = PublishedEntry(
    ...     paper="SMS-Nyström", artifact="Figure 1", metric="claim", setting="s",
    ...     provenance="p", expect="less", paired_by="seed", sections=("similarity",),
    ...     reproduced={"file": "e.csv", "column": "error", "where": {"matrix": "mlp_digits"}},
    ...     than={"file": "e.csv", "column": "error", "where": {"matrix": "mlp_digits"}})
    >>> from lowdim.report.profile import affecting
    >>> affecting(entry, ["cca.reg", "datasets.digits.n_rows", "datasets.mnist.n_rows",
    ...                   "similarity.fractions"])
    ['datasets.digits.n_rows', 'similarity.fractions']
    """
    names = _names(entry)
    hit = []
    for key in modified:
        section, _, rest = key.partition(".")
        if section == "datasets":
            dataset = rest.split(".", 1)[0]
            pattern = re.compile(rf"(^|_){re.escape(dataset)}(_|$)")
            if any(pattern.search(name) for name in names):
                hit.append(key)
        elif section == "seed" or section in entry.sections:
            hit.append(key)
    return hit
