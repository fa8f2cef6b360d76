"""Figures of the three papers, one function per figure, fed by tidy result files.

All figures share :mod:`lowdim.plots.style`: one colour and marker per method
across every figure, axis labels with units, and vector PDF plus PNG output.
"""

from .style import method_style, save_figure, use_style

__all__ = ["method_style", "save_figure", "use_style"]
