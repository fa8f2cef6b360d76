"""The rules take their settings from lowdim.settings: they read the config only to choose
their targets and the enabled parts, every rule passes its settings' config keys, and no
rule decides by a method's name what its jobs get."""

import io
import re
import tokenize
from pathlib import Path

from test_import_budget import RULES, _rule_blocks

#: At most this many direct config reads in workflow/rules (issue 35: 183 counted before).
MOST_READS = 30


def _aliases(texts) -> set:
    """Names bound at the top level by subscripting the config or another such name
    (``EMB_DATASETS = config["embedding"]["datasets"]``); calls that hand ``config`` to a
    lowdim.settings function are the settings module reading it, and do not count."""
    names, changed = {"config"}, True
    while changed:
        changed = False
        for text in texts:
            for name, expr in re.findall(r"^([A-Z_][A-Z0-9_]*)\s*=\s*(.+?)(?=^\S|\Z)", text,
                                         flags=re.M | re.S):
                expr = re.sub(r"(\"[^\"]*\"|'[^']*')", '""', expr)
                if name not in names and any(re.search(rf"\b{a}\s*(\[|\.get\()", expr)
                                             for a in names):
                    names.add(name)
                    changed = True
    return names - {"config"}


def config_reads() -> dict:
    """file -> the number of its direct config reads: ``config[...]``, ``config.get(...)``
    and each use of an alias."""
    texts = {path.name: path.read_text() for path in sorted(RULES.glob("*.smk"))}
    aliases = _aliases(texts.values())
    reads = {}
    for name, text in texts.items():
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type in (tokenize.NAME, tokenize.OP)]
        reads[name] = sum(
            1 for before, token, after in zip([None, *tokens], tokens, [*tokens[1:], None])
            if token.type == tokenize.NAME and (before is None or before.string != ".")
            and ((token.string == "config" and after is not None and after.string in "[.")
                 or (token.string in aliases and (after is None or after.string != "="))))
    return reads


def test_the_rules_read_the_config_at_most_a_few_times():
    reads = config_reads()
    assert sum(reads.values()) <= MOST_READS, reads


def test_the_count_sees_direct_reads_and_aliases():
    texts = ['X = config["a"]["b"]\nY = X["c"]\nZ = settings(config)\n']
    assert _aliases(texts) == {"X", "Y"}


def test_every_rule_passes_its_settings_config_keys():
    text = "\n".join(path.read_text() for path in sorted(RULES.glob("*.smk")))
    rules = dict(_rule_blocks(text))
    assert len(rules) > 30
    missing = [name for name, body in rules.items() if name != "all"
               and ".params" not in body and "config_keys" not in body]
    assert not missing, missing


def test_no_rule_decides_by_a_method_name_what_its_jobs_get():
    text = "\n".join(path.read_text() for path in sorted(RULES.glob("*.smk")))
    assert not re.findall(r"(?:\bw|wildcards)\.\w*method\w*\s*(?:==|!=|\bin\b)", text)
