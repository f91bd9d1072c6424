"""`arena report`: a markdown or HTML page with tables and PNG plots (matplotlib, Agg) of a results folder.

Names in a results file (scenarios, rule sets) and in its manifest are data, not markup: they are escaped for
the page (markdown or HTML), for matplotlib (``$`` would start mathtext) and for the terminal, and a name used in
a file name becomes a slug. Every file is written aside (``NAME.tmp``) and put in place only when all of them are
written (:class:`Staged`), so a failure (a full disk, a read-only folder) leaves the folder as it was: never a
page that looks complete beside plots of another run.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import stat
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from arena.errors import ArenaError
from arena.labels import printable, slug
from arena.limits import MAX_FILE_BYTES, MAX_NAME_LENGTH
from arena.study.analysis import SUMMARY_COLUMNS, check_complete, read_encounters, summarise

TABLE_COLUMNS = {
    "rules": "rule set", "n": "n", "win": "party wins (95% CI)", "draw_rate": "draws",
    "rounds": "rounds mean [Q1, median, Q3]", "hp_lost_mean": "party hp lost", "pc_deaths_mean": "PC deaths",
    "monster_hit_rate": "monster hit rate", "lucky_damage_share": "lucky share of monster damage",
}
FORMATS = ("md", "html")
MAX_REPORT_SCENARIOS = 100
"""Scenarios in one report: each is a section with three plots (about a second of matplotlib); a run has a few."""
MAX_REPORT_RULE_SETS = 200
"""Rule sets of one scenario in a report: each is a row of a plot (the whole variant grid is 50)."""
MAX_PLOT_LABEL = 80
"""Characters of a name shown in a plot's title or axis (the page has the full name)."""


# --------------------------------------------------------------------------------------------- escaping
def _slug(text: str) -> str:
    """A file-name stem for ``text``: see :func:`arena.labels.slug` (never empty, never a dot file)."""
    return slug(str(text), "scenario") if str(text) else "scenario"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]#!|~])")
_CODE_SAFE = re.compile(r"[A-Za-z0-9+_.,:=/ -]+")


def md_text(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` as literal markdown text: control characters escaped (:func:`arena.labels.printable`), markdown
    punctuation backslash-escaped and ``&``, ``<``, ``>`` as entities (so no raw HTML survives)."""
    return html.escape(_MD_SPECIAL.sub(r"\\\1", printable(value, limit=limit)), quote=False)


def md_code(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` in a code span when it holds only plain characters, else as :func:`md_text`."""
    text = printable(value, limit=limit)
    return f"`{text}`" if _CODE_SAFE.fullmatch(text) and text.strip() == text else md_text(value, limit)


def html_text(value: object, limit: int = MAX_NAME_LENGTH) -> str:
    """``value`` as HTML text (quotes escaped too: safe in an attribute)."""
    return html.escape(printable(value, limit=limit), quote=True)


def plot_text(value: object, limit: int = MAX_PLOT_LABEL) -> str:
    """``value`` for a matplotlib title or tick label: printable, shortened, and ``$`` escaped (no mathtext)."""
    return printable(value, limit=limit).replace("$", r"\$")


# --------------------------------------------------------------------------------------------- writing
def os_reason(err: OSError) -> str:
    """A short reason for an OS error (a full disk, a read-only file system, no permission ...)."""
    from arena.study.results_folder import os_problem

    return os_problem(err)


def output_folder(path: str | os.PathLike, what: str = "output") -> Path:
    """``path`` as a folder to write into (created if need be), or an ArenaError naming it and the reason."""
    folder = Path(path)
    try:
        if folder.exists() and not folder.is_dir():
            raise ArenaError(f"{folder}: exists and is not a folder (choose another --out)")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ArenaError(f"{folder}: cannot create the {what} folder ({os_reason(err)})") from None
    return folder


class Staged:
    """Files of one output written aside and put in place together by :meth:`commit`.

    Each file is first written as ``NAME.tmp`` (created afresh, never through a link); :meth:`commit` renames
    them in the order they were staged (stage the page last). Used as a context manager, an error before the
    commit removes the ``.tmp`` files, and an OSError becomes an ArenaError naming the file and the reason."""

    def __init__(self, folder: Path, what: str = "output"):
        self.folder = Path(folder)
        self.what = what
        self.pending: list[tuple[Path, Path]] = []

    def path(self, name: str) -> Path:
        """The ``.tmp`` path to write ``name`` to (an existing ``.tmp`` file or link there is removed first)."""
        final = self.folder / name
        tmp = final.with_name(final.name + ".tmp")
        if os.path.lexists(tmp):
            if tmp.is_dir() and not tmp.is_symlink():
                raise ArenaError(f"{tmp}: is a folder; remove it (arena writes {name} there first)")
            tmp.unlink()
        self.pending.append((tmp, final))
        return tmp

    @contextlib.contextmanager
    def open(self, name: str) -> Iterator[Any]:
        """A new binary file for ``name`` (``O_EXCL | O_NOFOLLOW``: never written through a planted link)."""
        tmp = self.path(name)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "wb") as handle:
            yield handle

    def text(self, name: str, text: str) -> None:
        with self.open(name) as handle:
            handle.write(text.encode("utf-8"))

    def figure(self, name: str, fig: Any) -> None:
        with self.open(name) as handle:
            fig.savefig(handle, format="png", dpi=100)

    def commit(self) -> None:
        for _tmp, final in self.pending:
            if final.is_dir() and not final.is_symlink():
                raise ArenaError(f"{final}: is a folder; remove it or choose another --out")
        for tmp, final in self.pending:
            os.replace(tmp, final)
        self.pending = []

    def discard(self) -> None:
        for tmp, _final in self.pending:
            with contextlib.suppress(OSError):
                tmp.unlink()
        self.pending = []

    def __enter__(self) -> Staged:
        return self

    def __exit__(self, kind: Any, err: Any, _tb: Any) -> bool:
        if kind is None:
            return False
        self.discard()
        if isinstance(err, OSError):
            where = err.filename or self.folder
            if isinstance(where, str) and where.endswith(".tmp"):
                where = where[:-4]
            raise ArenaError(f"{where}: cannot write the {self.what} ({os_reason(err)})") from None
        return False


# --------------------------------------------------------------------------------------------- tables
def _pct(x: float) -> str:
    return "-" if pd.isna(x) else f"{100 * x:.1f}%"


def table_rows(summary: pd.DataFrame) -> list[dict[str, str]]:
    """The summary as display strings, one dict per rule set (names as they are: escape them for the page)."""
    out = []
    for r in summary.itertuples(index=False):
        out.append({
            "rules": str(r.rules), "n": f"{r.n:,}",
            "win": f"{_pct(r.win_rate)} ({_pct(r.win_low)}-{_pct(r.win_high)})",
            "draw_rate": _pct(r.draw_rate),
            "rounds": f"{r.rounds_mean:.2f} [{r.rounds_q1:g}, {r.rounds_median:g}, {r.rounds_q3:g}]",
            "hp_lost_mean": _pct(r.hp_lost_mean),
            "pc_deaths_mean": "-" if pd.isna(r.pc_deaths_mean) else f"{r.pc_deaths_mean:.2f}",
            "monster_hit_rate": _pct(r.monster_hit_rate), "lucky_damage_share": _pct(r.lucky_damage_share),
        })
    return out


# --------------------------------------------------------------------------------------------- plots
def win_rate_errors(summary: pd.DataFrame) -> np.ndarray:
    """The (2, k) error-bar lengths of the win rates: distances to the Wilson bounds, never negative (matplotlib
    refuses a negative one, and rounding can leave a bound a hair inside the estimate)."""
    rate = summary["win_rate"].to_numpy(dtype=float)
    err = np.vstack([rate - summary["win_low"].to_numpy(dtype=float),
                     summary["win_high"].to_numpy(dtype=float) - rate])
    return np.clip(np.nan_to_num(err, nan=0.0), 0.0, None)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Any) -> None:
    """Save ``fig`` to ``path`` (a path, or a callable such as a :class:`Staged` file that saves it)."""
    if callable(path):
        path(fig)
    else:
        fig.savefig(path, dpi=100, format="png")


@contextlib.contextmanager
def figure(path: Any, figsize: tuple[float, float]) -> Iterator[tuple[Any, Any]]:
    """``(fig, ax)`` for the block; laid out and saved to ``path`` when it ends, closed however it ends. A glyph
    missing from the font is not worth a line on stderr, so matplotlib's warnings are silenced here."""
    plt = _pyplot()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig, ax = plt.subplots(figsize=figsize)
        try:
            yield fig, ax
            fig.tight_layout()
            save_figure(fig, path)
        finally:
            plt.close(fig)


def plot_win_rates(summary: pd.DataFrame, path: Any, title: str) -> None:
    """Win rate by rule set with the 95% Wilson interval as error bars."""
    k = len(summary)
    with figure(path, (7, 1.2 + 0.28 * k)) as (_fig, ax):
        y = np.arange(k)[::-1]
        ax.errorbar(summary["win_rate"].to_numpy(dtype=float), y, xerr=win_rate_errors(summary), fmt="o",
                    capsize=3)
        ax.set_yticks(y, [plot_text(r) for r in summary["rules"].tolist()], fontsize=8)
        ax.set_xlim(0, 1)
        ax.set_xlabel("party win rate (95% Wilson interval)")
        ax.set_title(plot_text(title))
        ax.grid(axis="x", alpha=0.3)


def plot_distribution(frame: pd.DataFrame, column: str, order: list[str], path: Any, title: str,
                      label: str) -> None:
    """Box plots of ``column`` by rule set."""
    data = [frame.loc[frame["rules"] == key, column].to_numpy(dtype=float) for key in order]
    with figure(path, (7, 1.2 + 0.28 * len(order))) as (_fig, ax):
        ax.boxplot(data[::-1], orientation="horizontal", showfliers=False)
        ax.set_yticks(np.arange(1, len(order) + 1), [plot_text(r) for r in order[::-1]], fontsize=8)
        ax.set_xlabel(label)
        ax.set_title(plot_text(title))
        ax.grid(axis="x", alpha=0.3)


# --------------------------------------------------------------------------------------------- the report
def read_manifest(results: Path) -> dict:
    """The run's manifest.json as a dict, or {} when there is none or it is not a readable JSON object (the
    report does not need it: it only adds the run's dates, seeds and commit)."""
    path = (results if results.is_dir() else results.parent) / "manifest.json"
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return {}
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _report_folder(results: Path, out: str | os.PathLike | None) -> Path:
    if out is not None:
        return output_folder(out, "report")
    folder = (results if results.is_dir() else results.parent) / "report"
    if folder.is_symlink():
        raise ArenaError(f"{folder} is a symbolic link; a results folder's report must be a real folder (remove "
                         "the link, or give --out)")
    return output_folder(folder, "report")


def build_report(results: str | os.PathLike, out: str | os.PathLike | None = None, fmt: str = "md") -> Path:
    """Write the report page and its plots into ``out`` (default ``RESULTS/report``); return the page's path."""
    if fmt not in FORMATS:
        raise ArenaError(f"--format must be md or html, not {printable(fmt)!r}")
    results = Path(results)
    check_complete(results)
    frame = read_encounters(results, SUMMARY_COLUMNS)
    summary = summarise(frame)
    scenarios = list(dict.fromkeys(summary["scenario"].tolist()))
    if len(scenarios) > MAX_REPORT_SCENARIOS:
        raise ArenaError(f"{results}: {len(scenarios):,} scenarios, more than one report shows "
                         f"({MAX_REPORT_SCENARIOS})")
    widest = int(summary.groupby("scenario", sort=False).size().max())
    if widest > MAX_REPORT_RULE_SETS:
        raise ArenaError(f"{results}: a scenario with {widest:,} rule sets, more than one report shows "
                         f"({MAX_REPORT_RULE_SETS})")
    manifest = read_manifest(results)
    folder = _report_folder(results, out)

    used: set[str] = set()
    sections = []
    with Staged(folder, "report") as stage:
        for scenario, cells in summary.groupby("scenario", sort=False):
            stem = _slug(str(scenario))
            base, i = stem, 2
            while stem in used:                  # two names, one slug: keep their plots apart
                stem, i = f"{base}-{i}", i + 1
            used.add(stem)
            order = cells["rules"].tolist()
            rows = frame[frame["scenario"] == scenario]
            images = {"win": f"{stem}-win-rate.png", "rounds": f"{stem}-rounds.png", "hp": f"{stem}-hp-lost.png"}

            def saver(name: str) -> Any:
                return lambda fig: stage.figure(name, fig)

            plot_win_rates(cells, saver(images["win"]), f"{scenario}: party win rate")
            plot_distribution(rows, "rounds", order, saver(images["rounds"]), f"{scenario}: rounds", "rounds")
            plot_distribution(rows, "party_hp_lost", order, saver(images["hp"]),
                              f"{scenario}: party hit points lost", "fraction of the party's hit points lost")
            sections.append((str(scenario), table_rows(cells), images))
        name = f"report.{fmt}"
        stage.text(name, _html(sections, manifest, results) if fmt == "html" else
                   _markdown(sections, manifest, results))
        stage.commit()
    return folder / name


def _about(manifest: dict, results: Path, text: Any) -> list[str]:
    """The page's opening lines, every value from the manifest passed through ``text`` (an escaper)."""
    lines = [f"Results: {(md_code if text is md_text else text)(results, 1000)}"]
    if manifest:
        lines.append(f"Run started {text(manifest.get('started'), 80)}, finished {text(manifest.get('finished'), 80)}; "
                     f"{text(manifest.get('encounters_per_second'), 40)} encounters/s; "
                     f"commit {text(manifest.get('git_commit'), 80)}.")
        seeds = manifest.get("seeds")
        if isinstance(seeds, dict) and seeds:
            shown = list(seeds.items())[:MAX_REPORT_SCENARIOS]
            lines.append("Seeds: " + ", ".join(f"{text(k, MAX_NAME_LENGTH)} = {text(v, 40)}" for k, v in shown)
                         + (", ..." if len(seeds) > len(shown) else "")
                         + " (encounter i has the same seed under every rule set).")
    lines.append("Win rates carry 95% Wilson intervals; a lucky hit is a hit whose chance was 25% or less.")
    return lines


def _markdown(sections: list, manifest: dict, results: Path) -> str:
    out = ["# d20 Arena report", ""]
    out += [line + "  " for line in _about(manifest, results, md_text)]
    for scenario, rows, images in sections:
        out += ["", f"## {md_text(scenario) if scenario else '(unnamed scenario)'}", ""]
        out.append("| " + " | ".join(TABLE_COLUMNS.values()) + " |")
        out.append("|" + "|".join("---" if k == "rules" else "---:" for k in TABLE_COLUMNS) + "|")
        for row in rows:
            out.append("| " + " | ".join(md_code(row[k]) if k == "rules" else row[k] for k in TABLE_COLUMNS)
                       + " |")   # the other cells are numbers this module formatted
        out += ["", f"![win rate by rule set]({images['win']})", "",
                f"![rounds by rule set]({images['rounds']})", "",
                f"![party hit points lost by rule set]({images['hp']})"]
    return "\n".join(out) + "\n"


def _html(sections: list, manifest: dict, results: Path) -> str:
    esc = html_text
    out = ["<!doctype html>", "<html><head><meta charset='utf-8'><title>d20 Arena report</title>",
           "<style>body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child{text-align:left}</style>",
           "</head><body>", "<h1>d20 Arena report</h1>"]
    out += [f"<p>{line}</p>" for line in _about(manifest, results, esc)]
    for scenario, rows, images in sections:
        out.append(f"<h2>{esc(scenario) if scenario else '(unnamed scenario)'}</h2><table><tr>"
                   + "".join(f"<th>{esc(h)}</th>" for h in TABLE_COLUMNS.values()) + "</tr>")
        for row in rows:
            out.append("<tr>" + "".join(f"<td>{esc(row[k])}</td>" for k in TABLE_COLUMNS) + "</tr>")
        out.append("</table>")
        for key, alt in (("win", "win rate by rule set"), ("rounds", "rounds by rule set"),
                         ("hp", "party hit points lost by rule set")):
            out.append(f"<p><img src='{esc(images[key])}' alt='{esc(alt)}'></p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
