"""The reproduction report: published numbers, the scorecard and the run summary."""

from .published import PublishedEntry, load_published
from .scorecard import VERDICTS, score_entry, scorecard

__all__ = ["PublishedEntry", "VERDICTS", "load_published", "score_entry", "scorecard"]
