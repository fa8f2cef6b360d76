"""Math without a network: the HTML pages load a MathJax copied into the site.

``sphinx.ext.mathjax`` loads MathJax from a CDN by default, so offline the formulas show
as raw ``\\(K \\in ...\\)``. This extension points ``mathjax_path`` at
``_static/mathjax/`` and copies there, at the end of each HTML build, the part of
MathJax 2 that the TeX input and the CommonHTML output need (about 3 MB of the 54 MB
package): Debian's ``libjs-mathjax`` (``apt-get install libjs-mathjax``; ``.ci/run``
installs it), found at :data:`MATHJAX_DIRS` or at ``$LOWDIM_MATHJAX_DIR``. Without it the
build stops with that instruction rather than publish pages that need the network.
"""

import os
import shutil
from pathlib import Path

from sphinx.errors import ExtensionError

#: Where Debian's libjs-mathjax puts MathJax 2.
MATHJAX_DIRS = ("/usr/share/javascript/mathjax",)

#: MathJax's combined configuration: TeX (with AMS) in, CommonHTML out, all in one file.
CONFIG = "TeX-AMS_CHTML-full"

#: What the pages load, relative to MathJax's folder: the loader, the configuration,
#: the CommonHTML output's fonts and the parts MathJax loads on demand.
PARTS = ("MathJax.js", f"config/{CONFIG}.js", "config/local", "extensions", "jax/input/TeX",
         "jax/output/CommonHTML", "jax/element", "fonts/HTML-CSS/TeX/woff", "localization/en")


def mathjax_dir():
    """The folder of a local MathJax 2, or an error saying how to install one."""
    candidates = [os.environ["LOWDIM_MATHJAX_DIR"]] if os.environ.get("LOWDIM_MATHJAX_DIR") \
        else list(MATHJAX_DIRS)
    for candidate in candidates:
        if (Path(candidate) / "MathJax.js").is_file():
            return Path(candidate)
    raise ExtensionError(f"no local MathJax in {candidates}: install Debian's libjs-mathjax "
                         "(apt-get install libjs-mathjax) or set LOWDIM_MATHJAX_DIR to a "
                         "MathJax 2 folder; the documentation renders math without a network")


def _configure(app, config):
    config.mathjax_path = f"mathjax/MathJax.js?config={CONFIG}"
    # MyST marks its pages tex2jax_ignore and asks MathJax 3 to process class "math" only
    # (processHtmlClass); MathJax 2 needs that said in its own words.
    config.mathjax2_config = {"tex2jax": {
        "processClass": "math|tex2jax_process|mathjax_process|output_area",
        "ignoreClass": "tex2jax_ignore|mathjax_ignore"}}


def _check(app):
    if app.builder.format == "html":
        mathjax_dir()  # fail early, before the pages are read


def _copy(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    source, target = mathjax_dir(), Path(app.outdir) / "_static" / "mathjax"
    for part in PARTS:
        path = source / part
        if path.is_dir():
            shutil.copytree(path, target / part, dirs_exist_ok=True)
        elif path.is_file():
            (target / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / part)


def setup(app):
    app.connect("config-inited", _configure)
    app.connect("builder-inited", _check)
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
