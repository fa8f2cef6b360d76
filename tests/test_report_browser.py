"""The report as a reader opens it: the tiny run's ``results/report.html`` in headless Chromium.

Debian's ``chromium``, driven through ``chromium-driver`` by Selenium, loads the report from
disk (no network) and checks that no script logs an error; that the front page's text stays
clear of the rule graph at 1,000-1,600 px; that every result category opens and lists its
results; that every figure's image loads (``naturalWidth > 0``); and that the Overview's
scorecard table shows. Screenshots of the front page and of one figure page go to
``docs/gallery/`` with ``LOWDIM_UPDATE_GALLERY=1``, else to a temporary folder.

Without Chromium, its driver or Selenium the tests skip, naming what is missing; with
``LOWDIM_REQUIRE_CHROMIUM=1`` (set by ``.ci/run``, which installs them) they fail instead.
"""

import os
import shutil
import sys

import pytest

from fixtures.requirements import require
from fixtures.workflow import ROOT
from lowdim.report.scorecard import VERDICTS

sys.path.insert(0, str(ROOT / "docs"))  # the docs tooling (not the library)
from tooling.gallery import SCREENSHOTS  # noqa: E402

pytestmark = pytest.mark.browser

#: Chromium started as on a closed network: no first-run, update, sync or QUIC traffic.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
#: Window widths at which the front page's text must stay clear of the rule graph.
WIDTHS = (1000, 1300, 1600)
#: Where the screenshots go: docs/gallery/ when LOWDIM_UPDATE_GALLERY=1 (so a plain `pytest`
#: leaves the checkout clean), else the test's own temporary folder.
UPDATE_GALLERY = os.environ.get("LOWDIM_UPDATE_GALLERY") == "1"
GALLERY = ROOT / "docs" / "gallery"
#: The screenshots' files, shown in the documentation's gallery (docs/gallery.md, docs/tooling/gallery.py).
FRONT_PAGE, FIGURE_PAGE = (name for name, _ in SCREENSHOTS)
#: The figures of the tiny run's report: the three papers' and kernel CCA's.
FIGURES = ("figure1_error_vs_sample_fraction.png", "figure2_spectra.png", "figure3_timing.png",
           "figure4_knn_accuracy.png", "figure5_sensitivity.png", "figure1_pcc.png",
           "figure2_tcc.png", "kernel_cca_tcc.png")
#: The figure page shown in the gallery.
FIGURE = "figure4_knn_accuracy.png"
PAPERS = ("SMS-Nyström", "Vec2vec", "AppGrad CCA")


def missing_requirements() -> list[str]:
    """What this machine lacks to run the browser tests (empty: nothing)."""
    missing = []
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip install -e '.[test]')")
    if not shutil.which("chromium"):
        missing.append("chromium (apt-get install chromium)")
    if not shutil.which("chromedriver"):
        missing.append("chromedriver (apt-get install chromium-driver)")
    return missing


def start_chromium(profile_dir, what="the browser tests"):
    """Headless Chromium with a fresh profile in ``profile_dir``, its console log kept (the
    caller quits it); skips, or fails under CI, naming what the machine lacks."""
    require(missing_requirements(), "LOWDIM_REQUIRE_CHROMIUM", what)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in (*FLAGS, f"--user-data-dir={profile_dir}", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options,
                              service=Service(executable_path=shutil.which("chromedriver")))
    driver.set_page_load_timeout(120)
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium with a fresh profile, its console log kept."""
    driver = start_chromium(tmp_path_factory.mktemp("chromium"))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def screenshot_dir(tmp_path_factory):
    """docs/gallery/ when the gallery is being updated, else a temporary folder."""
    if UPDATE_GALLERY:
        GALLERY.mkdir(parents=True, exist_ok=True)
        return GALLERY
    return tmp_path_factory.mktemp("screenshots")


def _save_screenshot(driver, path):
    """Save the window as a PNG at ``path``; an empty or failed capture fails the test."""
    assert driver.save_screenshot(str(path)), f"no screenshot written to {path}"
    assert path.stat().st_size > 0, path


def _wait(driver, script, what, timeout=60):
    """Wait until the JavaScript expression ``script`` is truthy; fail naming ``what``."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, timeout).until(lambda d: d.execute_script(f"return {script}"))
    except TimeoutException:
        pytest.fail(f"the report never showed {what} within {timeout} s")


def _front_page(driver):
    driver.execute_script("app.setView({navbarMode: 'menu', content: 'rulegraph'})")
    _wait(driver, "document.querySelector('#rulegraph canvas, #rulegraph svg')", "the rule graph")


@pytest.fixture(scope="module")
def report(browser, tiny_report):
    """The browser with the tiny run's report open on its front page."""
    browser.get(tiny_report.as_uri())
    _wait(browser, "typeof app !== 'undefined' && typeof categories !== 'undefined'",
          "its application")
    _front_page(browser)
    return browser


def _overlaps_with_graph(driver):
    """Elements of the front page's text whose box reaches into the rule graph's."""
    return driver.execute_script("""
        const graph = document.querySelector('#rulegraph canvas, #rulegraph svg')
            .getBoundingClientRect();
        const text = document.querySelector('.prose');
        return Array.from(text.querySelectorAll('*')).concat([text]).filter(el => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && r.right > graph.left + 1
                && r.left < graph.right && r.bottom > graph.top && r.top < graph.bottom;
        }).map(el => el.tagName + ': ' + el.textContent.slice(0, 60));
    """)


def test_front_page_text_stays_clear_of_the_rule_graph(report, screenshot_dir):
    try:
        for width in WIDTHS:
            report.set_window_size(width, 1000)
            _front_page(report)
            assert "This run:" in report.find_element("css selector", ".prose").text
            assert _overlaps_with_graph(report) == [], f"at {width} px"
    finally:
        report.set_window_size(1400, 1000)
    _front_page(report)
    report.execute_script("document.querySelectorAll('*').forEach(el => el.scrollTop = 0)")
    _save_screenshot(report, screenshot_dir / FRONT_PAGE)


def test_every_category_opens_and_lists_its_results(report):
    categories = report.execute_script("return categories")
    assert {"Overview", *PAPERS} <= set(categories)
    for category, subcategories in categories.items():
        report.execute_script("app.showCategory(arguments[0])", category)
        _wait(report, "app.state.category === arguments[0]".replace("arguments[0]", repr(category)),
              f"category {category}")
        for subcategory, paths in subcategories.items():
            report.execute_script("app.setView({navbarMode: 'menu'})")  # no results table
            _wait(report, "document.querySelectorAll('tbody tr').length === 0", "the menu")
            report.execute_script("app.setView({navbarMode: 'subcategory', category: arguments[0],"
                                  " subcategory: arguments[1]})", category, subcategory)
            _wait(report, f"document.querySelectorAll('tbody tr').length === {len(paths)}",
                  f"the {len(paths)} results of {category} / {subcategory}")


def test_every_figure_image_loads(report, screenshot_dir):
    figures = report.execute_script(
        "return Object.keys(results).filter(p => results[p].mime_type.startsWith('image/'))")
    assert {path.rsplit("/", 1)[-1] for path in figures} >= set(FIGURES)
    for path in figures:
        # as a reader gets there: the figure's subcategory in the sidebar, then its image
        report.execute_script("app.setView({navbarMode: 'menu'})")  # a new results list
        _wait(report, "document.querySelectorAll('tbody tr').length === 0", "the menu")
        report.execute_script("""
            const path = arguments[0];
            const [category, subcategory] = Object.entries(categories).flatMap(([c, subs]) =>
                Object.entries(subs).filter(([s, paths]) => paths.includes(path))
                    .map(([s]) => [c, s]))[0];
            app.setView({navbarMode: 'subcategory', category: category, subcategory: subcategory,
                         content: 'img', contentPath: results[path].data_uri, resultPath: path});
        """, path)
        shown = (f"Array.from(document.images).find(img => img.src === results[{path!r}].data_uri"
                 " && img.complete)")
        width = _wait(report, f"{shown} && {shown}.naturalWidth + 1", f"the image of {path}") - 1
        assert width > 0, path
        if path.endswith(FIGURE):
            _save_screenshot(report, screenshot_dir / FIGURE_PAGE)


def test_overview_shows_the_scorecard_table(report):
    [overview] = report.execute_script(
        "return Object.keys(results).filter(p => p.endsWith('overview.html'))")
    report.execute_script("app.setView({content: 'html', contentPath: results[arguments[0]]"
                          ".data_uri, resultPath: arguments[0]})", overview)
    frame = _wait(report, "document.querySelector('iframe')", "the Overview's page")
    report.switch_to.frame(frame)
    try:
        _wait(report, "document.querySelectorAll('table').length > 0", "the Overview's tables")
        rows = report.execute_script("""
            const table = document.querySelector('table');
            return Array.from(table.rows).map(r => Array.from(r.cells).map(c => c.textContent));
        """)
        headings = [h.text for h in report.find_elements("css selector", "h2")]
    finally:
        report.switch_to.default_content()
    assert headings[:2] == ["Scorecard", "Time per stage"]
    assert rows[0] == ["paper", *VERDICTS]  # every verdict a column, in the scorecard's order
    assert {row[0] for row in rows[1:]} == set(PAPERS)
    assert all(int(cell) >= 0 for row in rows[1:] for cell in row[1:])


def test_no_console_errors(report):
    """Last: the log holds whatever the other tests' pages printed."""
    _front_page(report)
    errors = [entry for entry in report.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
