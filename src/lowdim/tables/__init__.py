"""Tables of the three papers, written as Markdown, CSV and LaTeX from tidy results."""

from .write import format_mean_std, write_table

__all__ = ["format_mean_std", "write_table"]
