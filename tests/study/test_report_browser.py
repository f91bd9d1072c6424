"""The HTML report in a real browser: headless Chromium renders it at laptop width without sideways scrolling,
and the screenshot shows the page (skipped only where no Chromium is installed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from experiment_fakes import FakeScenario, FakeSimulator

from arena.study.reports.report import build_report
from arena.study.runs.experiment import run_experiment

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("screenshot_report", ROOT / "benchmarks" / "screenshot_report.py")
shot = importlib.util.module_from_spec(spec)
sys.modules["screenshot_report"] = shot
spec.loader.exec_module(shot)

BROWSER = shot.chromium()
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no chromium installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    keys = ("d20", "d20+prad", "d20+luck", "d20+open+called", "3d6", "3d6+prad", "3d6+var", "3d6+luck+open")
    run_experiment(
        [FakeScenario(name="a-long-scenario-name-to-test-the-layout", n=120, keys=keys)],
        tmp / "r",
        simulator=FakeSimulator(),
    )
    return build_report(tmp / "r", tmp / "page", "html")


def test_the_page_fits_a_laptop_screen(page):
    assert shot.scroll_width(BROWSER, page, 1366) <= 1366
    assert shot.scroll_width(BROWSER, page, 1024) <= 1024


def test_the_screenshot_shows_the_page(page, tmp_path):
    png = tmp_path / "page.png"
    shot.screenshot(BROWSER, page, png, 1366, 1400)
    from PIL import Image

    image = Image.open(png).convert("L")
    assert image.size == (1366, 1400)
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50  # text, tables and plots, not a blank or error page
