"""Look at `arena report --format html` as a person does: headless Chromium at laptop width.

    python benchmarks/screenshot_report.py [RESULTS] [--out report.png] [--width 1366]

Without RESULTS it runs a small experiment first (scenarios/reference.yaml, 200 encounters per rule set). It writes
the page, a screenshot of it, and prints the page's scroll width against the window's (wider means the page
makes a laptop reader scroll sideways). Needs Chromium (Debian: `apt-get install chromium`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH_PROBE = (
    "<script>window.addEventListener('load', () => { document.title = 'scroll-width=' + "
    "document.documentElement.scrollWidth; });</script>"
)


def chromium() -> str | None:
    """The Chromium (or Chrome) binary on PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(browser: str, *args: str) -> subprocess.CompletedProcess:
    # A new empty profile, and no background connections: a closed network (CI's) refuses them, many at a time.
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )


def scroll_width(browser: str, page: Path, width: int) -> int:
    """The page's ``document.documentElement.scrollWidth`` in a ``width``-pixel window."""
    probe = page.with_name(page.stem + "-probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", WIDTH_PROBE + "</body>"), encoding="utf-8")
    done = _run(browser, f"--window-size={width},900", "--virtual-time-budget=5000", "--dump-dom", probe.as_uri())
    probe.unlink()
    found = re.search(r"scroll-width=(\d+)", done.stdout)
    if not found:
        raise RuntimeError(f"chromium printed no scroll width: {done.stderr[-500:]}")
    return int(found.group(1))


def screenshot(browser: str, page: Path, png: Path, width: int = 1366, height: int = 2400) -> None:
    done = _run(browser, f"--window-size={width},{height}", f"--screenshot={png}", page.as_uri())
    if not png.is_file():
        raise RuntimeError(f"chromium wrote no screenshot: {done.stderr[-500:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", type=Path)
    parser.add_argument("--out", type=Path, default=Path("report.png"))
    parser.add_argument("--width", type=int, default=1366)
    args = parser.parse_args(argv)
    browser = chromium()
    if browser is None:
        print("no chromium on PATH (Debian: apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        results = args.results
        if results is None:
            results = Path(tmp) / "ref"
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "arena",
                    "run",
                    str(ROOT / "scenarios" / "reference.yaml"),
                    "--n",
                    "200",
                    "--out",
                    str(results),
                    "--quiet",
                ],
                check=True,
            )
        page_dir = Path(tmp) / "page"
        subprocess.run(
            [sys.executable, "-m", "arena", "report", str(results), "--format", "html", "--out", str(page_dir)],
            check=True,
        )
        page = page_dir / "report.html"
        screenshot(browser, page, args.out.resolve(), args.width)
        wide = scroll_width(browser, page, args.width)
    print(
        f"wrote {args.out}; page scroll width {wide}px in a {args.width}px window"
        + (" (fits)" if wide <= args.width else " (TOO WIDE)")
    )
    return 0 if wide <= args.width else 1


if __name__ == "__main__":
    sys.exit(main())
