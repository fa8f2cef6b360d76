"""Blocks between markers: find them, replace them, leave the rest of a file alone."""

from __future__ import annotations

import re

__all__ = ["block", "blocks_in", "markers", "replace_block", "replace_section"]


def markers(name: str) -> tuple[str, str]:
    """The two marker lines of block ``name``.

    Examples
    --------
    >>> from tooling.blocks import markers
    >>> markers("speed-table")
    ('<!-- speed-table:start -->', '<!-- speed-table:end -->')
    """
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


def block(name: str, body: str) -> str:
    """``body`` between the markers of ``name``.

    Examples
    --------
    >>> from tooling.blocks import block
    >>> print(block("x", "Two lines."))
    <!-- x:start -->
    Two lines.
    <!-- x:end -->
    """
    start, end = markers(name)
    return f"{start}\n{body.strip(chr(10))}\n{end}"


def replace_section(text: str, section: str, start: str, end: str) -> str:
    """Put ``section`` (markers included) in place of ``text``'s block from ``start`` to
    ``end`` (appended when there is none).

    Examples
    --------
    >>> from tooling.blocks import replace_section
    >>> text = "# Title\\n\\n<!-- a -->\\nold\\n<!-- b -->\\n\\nMore.\\n"
    >>> print(replace_section(text, "<!-- a -->\\nnew\\n<!-- b -->", "<!-- a -->", "<!-- b -->"))
    # Title
    <BLANKLINE>
    <!-- a -->
    new
    <!-- b -->
    <BLANKLINE>
    More.
    <BLANKLINE>
    """
    if start in text and end in text:
        before, rest = text.split(start, 1)
        _, after = rest.split(end, 1)
        return before + section + after
    return text.rstrip("\n") + "\n\n" + section + "\n"


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with block ``name`` rewritten as ``body``; a missing block is an error (a
    number has to be placed by hand once, then the script keeps it).

    Examples
    --------
    >>> from tooling.blocks import replace_block
    >>> replace_block("Took <!-- t:start -->\\n5 s\\n<!-- t:end -->.", "t", "4 s")
    'Took <!-- t:start -->\\n4 s\\n<!-- t:end -->.'
    """
    start, end = markers(name)
    if text.count(start) != 1 or text.count(end) != 1:
        raise ValueError(f"block {name!r}: expected one {start} and one {end}, found "
                         f"{text.count(start)} and {text.count(end)}")
    return replace_section(text, block(name, body), start, end)


def blocks_in(text: str) -> list[str]:
    """The names of the blocks in ``text``, in order.

    Examples
    --------
    >>> from tooling.blocks import blocks_in
    >>> blocks_in("<!-- a:start -->\\n1\\n<!-- a:end --> and <!-- b:start -->2<!-- b:end -->")
    ['a', 'b']
    """
    return re.findall(r"<!-- ([\w-]+):start -->", text)
