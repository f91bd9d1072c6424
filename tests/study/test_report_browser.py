"""The HTML report in a real browser: headless Chromium renders it at laptop width without sideways scrolling, with
every column header of every table inside the window (none clipped by a scrolling box), and at a phone's width
with no table wider than the screen; the screenshots show the page (skipped only where no Chromium is installed)."""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from experiment_fakes import FakeScenario, FakeSimulator

from arena.rules import default_grid
from arena.study.reports.changes import CHANGE_HEADS, TABLE_COLUMNS
from arena.study.reports.report import build_report
from arena.study.runs.experiment import run_experiment

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("screenshot_report", ROOT / "benchmarks" / "screenshot_report.py")
shot = importlib.util.module_from_spec(spec)
sys.modules["screenshot_report"] = shot
spec.loader.exec_module(shot)

BROWSER = shot.chromium()
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no chromium installed (apt-get install chromium)")

LAYOUT_PROBE = """<script>
// The page is shown in a frame exactly WIDTH pixels wide (a window may not be narrower than 500), and measured there.
const frame = document.getElementById('page');
frame.addEventListener('load', () => {
  const win = frame.contentWindow, doc = frame.contentDocument;
  const view = doc.documentElement.clientWidth;
  // The part of the frame an element can be seen in: the frame, cut by every ancestor that clips or scrolls.
  const visible = (el) => {
    let left = 0, right = view;
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (win.getComputedStyle(a).overflowX !== 'visible') {
        const box = a.getBoundingClientRect();
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
      }
    }
    return [left, right];
  };
  const cells = (table, selector) => Array.from(table.querySelectorAll(selector)).map((c) => {
    const box = c.getBoundingClientRect();
    const [left, right] = visible(c);
    return {text: c.textContent.trim(), left: box.left, right: box.right, width: box.width,
            seenLeft: left, seenRight: right};
  });
  const tables = Array.from(doc.querySelectorAll('table')).map((t) => {
    const box = t.getBoundingClientRect();
    return {left: box.left, right: box.right, scrollWidth: t.scrollWidth, clientWidth: t.clientWidth,
            heads: cells(t, 'th'), cells: cells(t, 'td')};
  });
  const out = document.createElement('pre');
  out.id = 'layout-probe';
  out.textContent = JSON.stringify({view, inner: win.innerWidth, scrollWidth: doc.documentElement.scrollWidth,
                                    tables});
  document.body.appendChild(out);
});
</script>"""


def framed(page: Path, width: int, height: int, script: str = "") -> Path:
    """A page that shows ``page`` in a frame ``width`` by ``height`` pixels (its own window: its media queries see
    ``width``), then runs ``script``."""
    wrapper = page.with_name(f"{page.stem}-framed-{width}.html")
    source = html.escape(page.read_text(encoding="utf-8"), quote=True)
    wrapper.write_text(
        '<!doctype html><html><body style="margin:0">'
        f'<iframe id="page" style="width:{width}px;height:{height}px;border:0;display:block" srcdoc="{source}">'
        f"</iframe>{script}</body></html>",
        encoding="utf-8",
    )
    return wrapper


def layout(page: Path, width: int) -> dict:
    """Where every table and cell of ``page`` lies in a ``width``-pixel window (:data:`LAYOUT_PROBE`)."""
    probe = framed(page, width, 900, LAYOUT_PROBE)
    done = shot._run(
        BROWSER, f"--window-size={max(width, 500) + 40},900", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()
    )
    probe.unlink()
    found = re.search(r'<pre id="layout-probe">(.*?)</pre>', done.stdout, re.S)
    assert found, f"chromium printed no layout: {done.stderr[-500:]}"
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The widest page a run makes: the whole variant grid (48 rule sets, the longest keys) under a long name."""
    tmp = tmp_path_factory.mktemp("browser")
    keys = tuple(rules.key for rules in default_grid())
    run_experiment(
        [FakeScenario(name="a-long-scenario-name-to-test-the-layout", n=60, keys=keys)],
        tmp / "r",
        simulator=FakeSimulator(),
    )
    return build_report(tmp / "r", tmp / "page", "html")


def test_the_page_fits_a_laptop_screen(page):
    assert shot.scroll_width(BROWSER, page, 1366) <= 1366
    assert shot.scroll_width(BROWSER, page, 1024) <= 1024


@pytest.mark.parametrize("width", [1366, 1024])
def test_every_column_header_is_in_view_on_a_laptop(page, width):
    seen = layout(page, width)
    assert seen["inner"] == width and seen["scrollWidth"] <= seen["view"]
    change, details = seen["tables"]
    assert [h["text"] for h in change["heads"]][:2] == ["rule set", "what moved (Holm)"]
    assert sorted(h["text"] for h in change["heads"]) == sorted(CHANGE_HEADS.values())
    assert [h["text"] for h in details["heads"]] == list(TABLE_COLUMNS.values())
    for table in seen["tables"]:
        assert table["scrollWidth"] <= table["clientWidth"]  # nothing to scroll to inside the table
        for head in table["heads"]:
            assert head["width"] > 0, head
            assert head["seenLeft"] - 0.5 <= head["left"] and head["right"] <= head["seenRight"] + 0.5, head
            assert head["right"] <= seen["view"], head


@pytest.mark.parametrize("width", [390, 800])
def test_no_table_is_wider_than_a_phone_or_a_tablet(page, width):
    """Under 1000 pixels the rows are cards: no table, and no cell, reaches past the screen's edge."""
    seen = layout(page, width)
    assert seen["inner"] == width and seen["scrollWidth"] <= width
    assert len(seen["tables"]) == 2
    for table in seen["tables"]:
        assert table["left"] >= 0 and table["right"] <= width and table["scrollWidth"] <= table["clientWidth"]
        shown = [c for c in table["cells"] if c["width"] > 0]
        assert len(shown) > 48  # the rows are there, as cards
        for cell in shown:
            assert cell["seenLeft"] - 0.5 <= cell["left"] and cell["right"] <= cell["seenRight"] + 0.5, cell


@pytest.mark.parametrize(("width", "height"), [(1366, 1400), (390, 1600)])
def test_the_screenshot_shows_the_page(page, tmp_path, width, height):
    """A screenshot at a laptop's and at a phone's width (the phone's through a frame of its width: a window may not
    be narrower than 500 pixels), kept in ``$ARENA_SCREENSHOTS`` when it is set, to look at."""
    png = tmp_path / "page.png"
    shown = page if width >= 500 else framed(page, width, height)
    shot.screenshot(BROWSER, shown, png, width, height)
    from PIL import Image

    image = Image.open(png).convert("L")
    assert image.size == (width, height)
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50  # text, tables and plots, not a blank or error page
    keep = os.environ.get("ARENA_SCREENSHOTS")
    if keep:
        shutil.copy(png, Path(keep) / f"report-{width}.png")
