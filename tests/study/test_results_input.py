"""Hostile input to `report`, `compare`, `check`, `calibrate`, `claims`, `el` and `party`: each exits 0 with a right
answer, or exits 2 with one `error:` line naming the file (or argument) and what is wrong; never a traceback, a
hang, or a half-written page left looking complete."""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

import cpu_limits
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from experiment_fakes import FakeScenario, FakeSimulator
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import ArenaError
from arena.limits import MAX_GROUP_COUNT, MAX_WORKERS
from arena.study.runs.experiment import run_experiment
from arena.study.statistics.encounters import read_encounters
from arena.study.statistics.summaries import summarise, wilson

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
PAGE_FILES = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(md|html|png)$")
"""What `arena report` may name a file (arena.study.runs.folder.REPORT_RE, and never a dot file)."""


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def one_error(result, *names: str) -> str:
    """Exit 2, nothing on stdout, one `error:` line on stderr naming each of ``names``; the line."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert not CONTROL.search(result.stderr), result.stderr
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


def invoke_limited(*args: str, cpu: float = 20):
    """:func:`invoke` in a forked child limited to ``cpu`` seconds of CPU time (``cpu_limits.call``): a command
    that loops fails the test (``cpu: used more than ...``) instead of hanging the suite. A plain copy of the result
    (exit code, streams, the exception: one that is not a SystemExit comes back as a RuntimeError naming it)."""

    def plain() -> SimpleNamespace:
        result = invoke(*args)
        exception = result.exception
        if exception is not None and not isinstance(exception, SystemExit):
            exception = RuntimeError(f"{type(exception).__name__}: {exception}")
        return SimpleNamespace(
            exit_code=result.exit_code,
            stdout=result.stdout,
            stderr=result.stderr,
            output=result.output,
            exception=exception,
        )

    return cpu_limits.call(plain, cpu=cpu)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("res") / "r"
    run_experiment([FakeScenario(n=60, keys=("d20", "3d6"))], out, simulator=FakeSimulator())
    return out


def _copy_results(src: Path, dst: Path, table: pa.Table | None = None) -> Path:
    dst.mkdir(parents=True, exist_ok=True)
    pq.write_table(
        table if table is not None else pq.read_table(src / "encounters.parquet"), dst / "encounters.parquet"
    )
    return dst


# --------------------------------------------------------------------------------------------- 1. Wilson edges
def test_wilson_bounds_are_exactly_0_and_1_at_the_edges():
    for n in range(1, 3001):
        low, high = wilson(0, n)
        assert low == 0.0 and 0.0 < high <= 1.0, (0, n, low, high)
        low, high = wilson(n, n)
        assert high == 1.0 and 0.0 <= low < 1.0, (n, n, low, high)
    for k, n in ((1, 3), (2, 3), (7, 10), (999, 1000)):
        low, high = wilson(k, n)
        assert 0.0 <= low <= k / n <= high <= 1.0


def _edge_summary(ns) -> pd.DataFrame:
    rows = []
    for n in ns:
        for k in (0, n):
            low, high = wilson(k, n)
            rows.append({"rules": f"k{k}-n{n}", "win_rate": k / n, "win_low": low, "win_high": high})
    return pd.DataFrame(rows)


def test_win_rate_error_bars_are_never_negative_and_plot(tmp_path):
    from arena.study.reports.plots import plot_win_rates, win_rate_errors

    summary = _edge_summary(range(1, 3001))
    assert (win_rate_errors(summary) >= 0).all()
    # the cells that crashed matplotlib ("'xerr' must not contain negative values"): n = 3, 6, 7, 10, 12 ...
    for start in (0, 1000, 2800):
        chunk = _edge_summary(range(start + 1, start + 101))
        plot_win_rates(chunk, tmp_path / f"w{start}.png", "edges")
        assert (tmp_path / f"w{start}.png").read_bytes()[:4] == b"\x89PNG"


def test_report_of_a_run_won_or_lost_every_time(tmp_path):
    out = tmp_path / "r"
    # n = 10 all won: Wilson's upper bound came back 0.9999999999999999; n = 3 all lost: the lower one 5.6e-17
    run_experiment(
        [
            FakeScenario(name="sure", n=10, keys=("d20",), edge=1.0),
            FakeScenario(name="hopeless", n=3, keys=("d20",), edge=0.0),
        ],
        out,
        simulator=FakeSimulator(bonus=0.0),
    )
    summary = summarise(read_encounters(out))
    assert summary["win_rate"].tolist() == [1.0, 0.0]
    assert summary["win_high"].iloc[0] == 1.0 and summary["win_low"].iloc[1] == 0.0
    for fmt in ("html", "md"):
        result = invoke("report", out, "--format", fmt)
        assert result.exit_code == 0, (result.output, result.exception)
        assert (out / "report" / f"report.{fmt}").is_file()


# --------------------------------------------------------------------------------------------- 2. writing
def test_report_out_that_is_a_file_or_under_proc(results, tmp_path):
    a_file = tmp_path / "taken.txt"
    a_file.write_text("mine")
    one_error(invoke("report", results, "--out", a_file), str(a_file), "not a folder")
    assert a_file.read_text() == "mine"
    one_error(
        invoke("report", results, "--out", "/proc/arena-no-such-folder/x"),
        "/proc/arena-no-such-folder/x",
        "cannot create",
    )


def _no_tmp(folder: Path) -> None:
    assert not [p.name for p in folder.rglob("*.tmp")]


def test_report_full_disk_while_plotting_leaves_the_old_report(results, tmp_path, monkeypatch):
    import matplotlib.figure

    out = tmp_path / "rep"
    assert invoke("report", results, "--out", out).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def full(self, fname, *args, **kwargs):
        fname.write(b"\x89PNG half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", full)
    one_error(invoke("report", results, "--out", out), str(out), "the disk is full")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the earlier report, whole
    _no_tmp(out)
    fresh = tmp_path / "fresh"
    one_error(invoke("report", results, "--out", fresh, "--format", "html"), "disk is full")
    assert not (fresh / "report.html").exists() and not list(fresh.glob("*.png"))


def test_report_full_disk_while_writing_the_page(results, tmp_path, monkeypatch):
    from arena.study.reports.staging import Staged

    def half(self, name, text):
        with self.open(name) as handle:
            handle.write(text.encode()[:20])
            raise OSError(errno.ENOSPC, "No space left on device", str(self.folder / (name + ".tmp")))

    monkeypatch.setattr(Staged, "text", half)
    out = tmp_path / "rep"
    line = one_error(invoke("report", results, "--out", out), str(out / "report.md"), "the disk is full")
    assert ".tmp" not in line
    assert not (out / "report.md").exists() and not list(out.glob("*.png"))
    _no_tmp(out)


def test_report_read_only_folder(results, tmp_path, monkeypatch):
    real_open = os.open

    def read_only(path, flags, *args):
        if str(path).endswith(".tmp"):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    out = tmp_path / "ro"
    one_error(invoke("report", results, "--out", out), str(out), "read-only")
    assert not (out / "report.md").exists()


def test_report_never_writes_through_a_planted_link(results, tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (out / "report.md.tmp").symlink_to(victim)
    (out / "report.md").symlink_to(victim)
    assert invoke("report", results, "--out", out).exit_code == 0
    assert victim.read_text() == "keep" and not (out / "report.md").is_symlink()


def _fake_table(grid: bool = False) -> pd.DataFrame:
    row = {
        "party_level": 5,
        "monster": "troll",
        "cr": "5",
        "size": 1,
        "rules": "3d6",
        "metric": "hp-lost",
        "n": 8,
        "difficulty": 0.4,
        "difficulty_d20": 0.5,
        "c_star": 4.5,
        "c_star_low": 4.0,
        "c_star_high": 5.0,
        "c_star_d20": 5.0,
        "censored": "",
        "delta": -0.5,
        "delta_low": -1.0,
        "delta_high": 0.0,
        "predicted_delta": 0.0,
        "ladder": "1..9",
    }
    return pd.DataFrame([row, {**row, "size": 4, "party_level": 3}] if grid else [row])


@pytest.fixture
def fake_calibration(monkeypatch):
    """calibrate / calibrate_grid replaced by a spy returning a canned table: the CLI's checks and writing only."""
    from arena.study.calibration import calibrate as cal

    calls = []

    def one(*args, **kwargs):
        calls.append(("calibrate", args, kwargs))
        return _fake_table()

    def grid(**kwargs):
        calls.append(("grid", (), kwargs))
        return _fake_table(grid=True)

    monkeypatch.setattr(cal, "calibrate", one)
    monkeypatch.setattr(cal, "calibrate_grid", grid)
    return calls


def test_calibrate_out_errors_and_full_disk(fake_calibration, tmp_path, monkeypatch):
    a_file = tmp_path / "taken.csv"
    a_file.write_text("mine")
    one_error(invoke("calibrate", "troll", "--out", a_file), str(a_file), "not a folder")
    one_error(invoke("calibrate", "troll", "--out", "/proc/arena-no-such/x"), "/proc/arena-no-such/x")
    ok = tmp_path / "ok"
    result = invoke("calibrate", "--grid", "--out", ok)
    assert result.exit_code == 0, result.output
    assert (ok / "calibration.csv").is_file() and (ok / "delta-cr.png").is_file()

    import matplotlib.figure

    def full(self, fname, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", full)
    out = tmp_path / "cal"
    one_error(invoke("calibrate", "--grid", "--out", out), str(out), "the disk is full")
    assert not (out / "calibration.csv").exists() and not (out / "delta-cr.png").exists()
    _no_tmp(out)


def test_claims_out_errors_and_full_disk(tmp_path, monkeypatch, results):
    only = ("--only", "bell-automatic-rate")
    a_file = tmp_path / "taken.md"
    a_file.write_text("mine")
    one_error(invoke("claims", *only, "--out", a_file), str(a_file), "not a folder")
    one_error(invoke("claims", *only, "--out", "/proc/arena-no-such/x"), "/proc/arena-no-such/x")
    manifest = (results / "manifest.json").read_bytes()
    one_error(invoke("claims", *only, "--out", results), "results folder")
    assert (results / "manifest.json").read_bytes() == manifest

    from arena.study.reports.staging import Staged

    real = Staged.text

    def full(self, name, text):
        if name == "claims.md":
            raise OSError(errno.ENOSPC, "No space left on device", str(self.folder / (name + ".tmp")))
        real(self, name, text)

    monkeypatch.setattr(Staged, "text", full)
    out = tmp_path / "cl"
    one_error(invoke("claims", *only, "--out", out), str(out / "claims.md"), "the disk is full")
    assert [p.name for p in out.iterdir()] == ["manifest.json"]  # neither the page nor its summary.csv:
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"  # an unfinished study (--resume)


# --------------------------------------------------------------------------------------------- 3. numbers
@pytest.mark.parametrize(
    "option,value",
    [
        ("--tolerance", "nan"),
        ("--tolerance", "inf"),
        ("--tolerance", "-inf"),
        ("--tolerance", "-0.01"),
        ("--tolerance", "1"),
        ("--tolerance", "1e300"),
        ("--alpha", "nan"),
        ("--alpha", "0"),
        ("--alpha", "1"),
        ("--alpha", "-0.05"),
        ("--alpha", "inf"),
        ("--alpha", "1e400"),
    ],
)
def test_compare_refuses_nan_infinite_and_out_of_range_levels(results, option, value):
    one_error(invoke("compare", results, results, option, value), option)


def test_compare_tolerance_zero_is_fine(results):
    result = invoke("compare", results, results, "--tolerance", "0", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["moved"] is False


def test_compare_library_checks_its_levels():
    from arena.study.statistics.comparisons import compare_cells

    frame = pd.DataFrame(
        {
            "scenario": "s",
            "rules": "d20",
            "winner": ["party", "monsters"],
            "rounds": [1, 2],
            "party_hp_lost": [0.1, 0.2],
        }
    )
    with pytest.raises(ArenaError, match="--tolerance"):
        compare_cells(frame, frame, tolerance=float("nan"))
    with pytest.raises(ArenaError, match="--alpha"):
        compare_cells(frame, frame, alpha=float("nan"))


# --------------------------------------------------------------------------------------------- 4. calibrate
@pytest.mark.parametrize(
    "args,names",
    [
        (["--n", "0"], ["--n"]),
        (["--n", "1"], ["--n"]),
        (["--n", "-5"], ["--n"]),
        (["--n", "100000000000"], ["--n"]),
        (["--sizes", "100000"], ["--sizes", str(MAX_GROUP_COUNT)]),
        (["--sizes", "101"], ["--sizes"]),
        (["--sizes", "1,,x"], ["--sizes"]),
        (["--sizes", "-1"], ["--sizes"]),
        (["--sizes", "0"], ["--sizes"]),
        (["--sizes", "1,2,1"], ["--sizes", "twice"]),
        (["--sizes", ""], ["--sizes"]),
        (["--sizes", "２"], ["--sizes"]),
        (["--sizes", "1.5"], ["--sizes"]),
        (["--sizes", "9" * 40], ["--sizes"]),
        (["--party-level", "0"], ["--party-level"]),
        (["--party-level", "21"], ["--party-level"]),
        (["--rules", "garbage"], ["--rules", "garbage"]),
        (["--rules", ""], ["--rules"]),
        (["--rules", ","], ["--rules"]),
        (["--metric", "garbage"], ["--metric"]),
        (["--metric", ""], ["--metric"]),
        (["--seed", "-1"], ["--seed"]),
        (["--seed", str(2**64)], ["--seed"]),
        (["--workers", "0"], ["--workers"]),
        (["--workers", "100000"], ["--workers", str(MAX_WORKERS)]),
    ],
)
def test_calibrate_refuses_bad_options_before_fighting(fake_calibration, args, names):
    one_error(invoke("calibrate", "troll", *args), *names)
    assert fake_calibration == []


@pytest.mark.parametrize(
    "args", [["--n", "0"], ["--n", "1"], ["--rules", "d20,3d6"], ["--workers", "0"], ["--seed", "-1"], ["troll"]]
)
def test_calibrate_grid_refuses_bad_options(fake_calibration, args):
    one_error(invoke("calibrate", "--grid", *args))
    assert fake_calibration == []


def test_calibrate_defaults_are_explicit(fake_calibration, tmp_path):
    assert invoke("calibrate", "troll").exit_code == 0
    assert invoke("calibrate", "--grid", "--out", "/dev/null/x").exit_code == 2
    assert invoke("calibrate", "--grid", "--json", "--out", tmp_path / "g").exit_code == 0
    (_, args, kwargs), (_, _, grid) = fake_calibration
    assert kwargs["n"] == 1000 and args[2] == (1, 2, 4, 6) and grid["n"] == 150
    assert 1 <= kwargs["workers"] <= MAX_WORKERS


def test_calibrate_library_checks_too():
    from arena.study.calibration import calibrate as cal
    from arena.study.runs.matchups import run_batch
    from arena.study.runs.options import parse_sizes

    for kwargs in ({"n": 0}, {"n": 10, "seed": -1}, {"n": 10, "workers": 0}, {"n": 10, "resamples": 0}):
        with pytest.raises(ArenaError):
            cal.calibrate("typical-cr1", 2, [1], ["3d6"], **kwargs)
    for sizes in ([], [0], [MAX_GROUP_COUNT + 1], [1, 1], [True]):
        with pytest.raises(ArenaError, match="sizes"):
            cal.calibrate("typical-cr1", 2, sizes, ["3d6"], n=10)
    with pytest.raises(ArenaError, match="--rules"):
        cal.calibrate("typical-cr1", 2, [1], [], n=10)
    with pytest.raises(ArenaError, match="--workers"):
        run_batch([], workers=10**6)
    assert parse_sizes(" 1, 2 ,4") == (1, 2, 4)


def test_claims_refuses_bad_options(monkeypatch):
    from arena.study.claims import evaluation as claims

    def fought(*args, **kwargs):
        raise AssertionError("claims fought encounters instead of refusing the options")

    monkeypatch.setattr(claims, "run_batch", fought)
    for args in (
        ["--only", ","],
        ["--only", ""],
        ["--n", "0"],
        ["--n", "2"],
        ["--seed", "-1"],
        ["--seed", str(2**64)],
        ["--workers", "0"],
        ["--workers", str(MAX_WORKERS + 1)],
    ):
        one_error(invoke("claims", *args), args[0])
    line = one_error(invoke("claims", "--only", "x\x1b[2J"), "unknown claim")
    assert "\\x1b" in line


# --------------------------------------------------------------------------------------------- 5. names
EVIL = [
    "<img src=x onerror=alert(1)>",
    "\x1b[31mred\x1b[0m",
    "[/bad] [bold]x",
    "$\\frac{1}{$",
    "../../etc/passwd",
    "",
    "a b",
    "a-b",
    "Ünï🙂",
    "x" * 5000,
    "|pipe|`tick`*star*",
    "\u202eevil",
    ".hidden",
    "CON",
]


@pytest.fixture(scope="module")
def evil_results(results, tmp_path_factory) -> Path:
    table = pq.read_table(results / "encounters.parquet").slice(0, 20)
    parts = []
    for name in EVIL:
        i = table.schema.get_field_index("scenario")
        parts.append(table.set_column(i, "scenario", pa.array([name] * table.num_rows, pa.string())))
    evil = pa.concat_tables(parts)
    i = evil.schema.get_field_index("rules")
    evil = evil.set_column(i, "rules", pa.array(["<b>r</b>`|\x07"] * evil.num_rows, pa.string()))
    return _copy_results(results, tmp_path_factory.mktemp("evil") / "r", evil)


def test_report_escapes_names_and_slugs_files(evil_results):
    for fmt in ("md", "html"):
        result = invoke("report", evil_results, "--format", fmt)
        assert result.exit_code == 0, (result.output, result.exception)
        assert not CONTROL.search(result.stdout)
        folder = evil_results / "report"
        text = (folder / f"report.{fmt}").read_text(encoding="utf-8")
        assert "<img src=x" not in text and "<b>r</b>" not in text and not CONTROL.search(text)
        assert "onerror" in text and "\\x1b" in text  # shown, escaped
    names = [p.name for p in folder.iterdir()]
    assert all(PAGE_FILES.fullmatch(n) for n in names), names
    assert len([n for n in names if n.endswith("-win-rate.png")]) == len(EVIL)  # "a b" and "a-b" apart
    assert not any(".." in n or "/" in n for n in names)


def test_markdown_escaping_of_one_name():
    from arena.study.reports.text import md_code, md_text

    assert md_text("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;"
    assert md_text("a|b`c*d_e[f]") == "a\\|b\\`c\\*d\\_e\\[f\\]"
    assert md_text("\x1b[2J") == "\\\\x1b\\[2J"
    assert md_code("d20+prad") == "`d20+prad`" and md_code("a`b") == "a\\`b"


def test_compare_and_check_print_names_without_markup_or_escapes(evil_results, tmp_path):
    result = invoke("compare", evil_results, evil_results)
    assert result.exit_code == 0, (result.output, result.exception)
    assert not CONTROL.search(result.stdout) and "\\x1b" in result.stdout
    suite = tmp_path / "suite.yaml"
    (tmp_path / "duel.yaml").write_text((ROOT / "scenarios" / "duel.yaml").read_text())
    suite.write_text('checks:\n  - {name: "[/bad] \\e[31m", file: duel.yaml, n: 20, win_rate: {rules: d20}}\n')
    result = invoke("check", suite, "--workers", "1")
    assert result.exit_code == 0, (result.output, result.exception)
    assert "[/bad]" in result.stdout and not CONTROL.search(result.stdout)


# --------------------------------------------------------------------------------------------- 6. results files
def _table(results: Path) -> pa.Table:
    return pq.read_table(results / "encounters.parquet")


def _set(table: pa.Table, name: str, values) -> pa.Table:
    return table.set_column(table.schema.get_field_index(name), name, values)


def _hostile(kind: str, results: Path, folder: Path) -> tuple[Path, str]:
    """A results folder (or file) of the given kind and a word the error must hold."""
    folder.mkdir()
    t = _table(results)
    n = t.num_rows
    target = folder / "encounters.parquet"
    if kind == "empty-folder":
        return folder, "no encounters.parquet"
    if kind == "not-results":
        (folder / "notes.txt").write_text("hello")
        return folder, "no encounters.parquet"
    if kind == "random-bytes":
        target.write_bytes(np.random.default_rng(1).bytes(5000))
        return folder, "not a readable parquet"
    if kind == "empty-file":
        target.write_bytes(b"")
        return folder, "not a readable parquet"
    if kind == "truncated":
        target.write_bytes((results / "encounters.parquet").read_bytes()[:3000])
        return folder, "not a readable parquet"
    if kind == "bit-flips":
        data = bytearray((results / "encounters.parquet").read_bytes())
        for k in range(200, len(data) - 200, 37):
            data[k] ^= 0xFF
        target.write_bytes(bytes(data))
        return folder, "encounters.parquet"
    if kind == "missing-columns":
        pq.write_table(pa.table({"a": [1, 2]}), target)
        return folder, "missing column"
    if kind == "missing-winner":
        pq.write_table(t.drop_columns(["winner"]), target)
        return folder, "'winner'"
    if kind == "winner-numbers":
        pq.write_table(_set(t, "winner", pa.array(np.zeros(n, np.int64))), target)
        return folder, "'winner'"
    if kind == "rounds-text":
        pq.write_table(_set(t, "rounds", pa.array(["x"] * n)), target)
        return folder, "'rounds'"
    if kind == "null-scenario":
        pq.write_table(_set(t, "scenario", pa.array([None] * n, pa.string())), target)
        return folder, "missing values"
    if kind == "nan-hp":
        pq.write_table(_set(t, "party_hp_lost", pa.array([float("nan")] * n)), target)
        return folder, "not finite"
    if kind == "no-rows":
        pq.write_table(t.slice(0, 0), target)
        return folder, "no encounters"
    if kind == "folder-named-parquet":
        target.mkdir()
        return folder, "is a folder"
    if kind == "fifo":
        os.mkfifo(target)
        return folder, "not a regular file"
    if kind == "dev-zero":
        return Path("/dev/zero"), "not a regular file"
    if kind == "link-loop":
        target.symlink_to(target)
        return folder, "encounters.parquet"
    if kind == "too-many-cells":
        pq.write_table(
            pa.table(
                {
                    "scenario": ["s"] * 12_000,
                    "rules": [f"r{i}" for i in range(12_000)],
                    "winner": ["party"] * 12_000,
                    "rounds": [1] * 12_000,
                    "party_hp_lost": [0.1] * 12_000,
                }
            ),
            target,
        )
        return folder, "cells"
    if kind == "unfinished":
        pq.write_table(t, target)
        (folder / "manifest.json").write_text(json.dumps({"status": "running"}))
        return folder, "not complete"
    raise ValueError(kind)


KINDS = [
    "empty-folder",
    "not-results",
    "random-bytes",
    "empty-file",
    "truncated",
    "bit-flips",
    "missing-columns",
    "missing-winner",
    "winner-numbers",
    "rounds-text",
    "null-scenario",
    "nan-hp",
    "no-rows",
    "folder-named-parquet",
    "dev-zero",
    "link-loop",
    "too-many-cells",
    "unfinished",
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["report", "compare"])
def test_hostile_results_are_one_line_errors(kind, command, results, tmp_path):
    path, word = _hostile(kind, results, tmp_path / "bad")
    args = ["report", path, "--out", tmp_path / "page"] if command == "report" else ["compare", path, results]
    line = one_error(invoke_limited(*args), word)
    assert str(path) in line
    assert not (tmp_path / "page" / "report.md").exists()


@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_named_pipe_is_refused_not_waited_on(command, results, tmp_path):
    """Reading a FIFO blocks in C (no signal gets through), so the command runs in a process of its own."""
    import sys

    path, word = _hostile("fifo", results, tmp_path / "bad")
    args = ["report", str(path)] if command == "report" else ["compare", str(path), str(results)]
    try:
        proc = cpu_limits.run(
            [sys.executable, "-m", "arena", *args], cpu=20, capture_output=True, text=True, cwd=tmp_path
        )
    except cpu_limits.Hang as err:
        pytest.fail(f"arena {command} waited on a named pipe: {err}")
    assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ") and word in proc.stderr


def test_compare_with_repeated_indices_is_not_paired(results, tmp_path):
    t = _table(results)
    folder = _copy_results(results, tmp_path / "dup", _set(t, "index", pa.array(np.zeros(t.num_rows, np.int64))))
    result = invoke("compare", folder, results, "--json")
    assert result.exit_code == 0, (result.output, result.exception)
    cells = json.loads(result.stdout)["cells"]
    assert all(not c["paired"] for c in cells) and all(c["n"] == t.num_rows for c in cells)  # not n**2 rows


def test_report_ignores_a_broken_manifest(results, tmp_path):
    for i, content in enumerate(["[1, 2]", "{not json", '{"seeds": 5, "started": "<script>\\u001b"}']):
        folder = _copy_results(results, tmp_path / f"m{i}")
        (folder / "manifest.json").write_text(content)
        assert invoke("report", folder).exit_code == 0
        text = (folder / "report" / "report.md").read_text()
        assert "<script>" not in text and not CONTROL.search(text)
    folder = _copy_results(results, tmp_path / "mdir")
    (folder / "manifest.json").mkdir()
    assert invoke("report", folder).exit_code == 0


def test_report_refuses_a_linked_report_folder(results, tmp_path):
    folder = _copy_results(results, tmp_path / "r")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "report").symlink_to(elsewhere)
    one_error(invoke("report", folder), "symbolic link")
    assert not list(elsewhere.iterdir())


# --------------------------------------------------------------------------------------------- 6. suites
def _suite(tmp_path: Path, body: str) -> Path:
    (tmp_path / "duel.yaml").write_text((ROOT / "scenarios" / "duel.yaml").read_text())
    path = tmp_path / "suite.yaml"
    path.write_text(body)
    return path


CHECK = "checks:\n  - {name: x, file: duel.yaml, %s}\n"


@pytest.mark.parametrize(
    "fields,names",
    [
        ("n: -5, win_rate: {rules: d20}", ["suite.yaml:2", "checks.0.n"]),
        ("n: 0, win_rate: {rules: d20}", ["checks.0.n"]),
        ("n: 100000000000, win_rate: {rules: d20}", ["checks.0.n"]),
        ("n: true, win_rate: {rules: d20}", ["checks.0.n"]),
        ("n: '5', win_rate: {rules: d20}", ["checks.0.n"]),
        ("n: 2.5, win_rate: {rules: d20}", ["checks.0.n"]),
        ("seed: -1, win_rate: {rules: d20}", ["checks.0.seed"]),
        ("seed: 99999999999999999999999, win_rate: {rules: d20}", ["checks.0.seed"]),
        ("win_rate: {rules: d20, min: -0.1}", ["checks.0.win_rate.min"]),
        ("win_rate: {rules: d20, max: 1.5}", ["checks.0.win_rate.max"]),
        ("win_rate: {rules: d20, min: .nan}", ["checks.0.win_rate.min", "finite"]),
        ("win_rate: {rules: d20, max: .inf}", ["checks.0.win_rate.max"]),
        ("win_rate: {rules: d20, min: true}", ["checks.0.win_rate.min"]),
        ("equivalent: {rules: [d20, 3d6], margin: .nan}", ["checks.0.equivalent.margin"]),
        ("equivalent: {rules: [d20, 3d6], margin: 0}", ["checks.0.equivalent.margin"]),
        ("equivalent: {rules: [d20, 3d6], margin: 0.1, alpha: .nan}", ["checks.0.equivalent.alpha"]),
        ("equivalent: {rules: [d20, ' d20'], margin: 0.1}", ["checks.0.equivalent.rules", "two different"]),
        ("better: {rules: 3d6, than: d20, alpha: 2}", ["checks.0.better.alpha"]),
        ("better: {rules: 3d6, than: garbage}", ["checks.0.better.than", "garbage"]),
        ("better: {rules: 3d6, than: d20, foo: 1}", ["checks.0.better.foo"]),
        ("win_rate: {rules: d21}", ["checks.0.win_rate.rules"]),
        ("scenario: nope, win_rate: {rules: d20}", ["checks.0.scenario", "nope"]),
    ],
)
def test_suite_fields_are_checked_with_file_line_field(tmp_path, fields, names):
    path = _suite(tmp_path, CHECK % fields)
    one_error(invoke("check", path, "--workers", "1"), "suite.yaml:", *names)


@pytest.mark.parametrize(
    "body,names",
    [
        ("checks:\n  - {name: '  ', file: duel.yaml, win_rate: {rules: d20}}\n", ["checks.0.name"]),
        ("checks:\n  - {name: x, file: '  ', win_rate: {rules: d20}}\n", ["checks.0.file"]),
        ("checks:\n  - {name: x, file: nowhere.yaml, win_rate: {rules: d20}}\n", ["checks.0.file", "nowhere.yaml"]),
        ("checks:\n  - {name: x, file: ., win_rate: {rules: d20}}\n", ["suite.yaml:2", "checks.0.file", "folder"]),
        ("checks:\n  - {name: x, file: suite.yaml, win_rate: {rules: d20}}\n", ["suite.yaml:2: checks.0.file"]),
        ("defaults: {n: 0}\nchecks:\n  - {name: x, file: duel.yaml, win_rate: {rules: d20}}\n", ["defaults.n"]),
        (
            "defaults: {n: 10000000}\nchecks:\n"
            + "".join(f"  - {{name: c{i}, file: duel.yaml, seed: {i}, win_rate: {{rules: d20}}}}\n" for i in range(11)),
            ["checks.10", "100,000,000"],
        ),
    ],
)
def test_suite_level_problems(tmp_path, body, names):
    one_error(invoke("check", _suite(tmp_path, body), "--workers", "1"), *names)


@pytest.mark.parametrize("workers", ["0", "-1", str(MAX_WORKERS + 1), "100000"])
def test_check_workers_range(tmp_path, workers):
    path = _suite(tmp_path, CHECK % "n: 5, win_rate: {rules: d20}")
    one_error(invoke("check", path, "--workers", workers), "--workers")


def test_suite_rule_keys_are_canonical(tmp_path):
    path = _suite(tmp_path, CHECK % "n: 30, better: {rules: ' 3d6', than: d20}")
    result = invoke("check", path, "--workers", "1")
    assert result.exit_code in (0, 1), (result.output, result.exception)  # ran: ' 3d6' is the rule set 3d6
    assert "passed" in result.stdout


# --------------------------------------------------------------------------------------------- 7. el and party
@pytest.mark.parametrize(
    "group",
    [
        "troll:1000000000",
        "troll:0",
        f"troll:{MAX_GROUP_COUNT + 1}",
        "troll:-1",
        "troll:²",
        "troll:１２",
        "troll:1_0",
        "troll:" + "9" * 5000,
        "troll:",
        "t" * 100_000,
    ],
)
def test_el_counts(group):
    one_error(invoke_limited("el", group))


def test_el_largest_group_and_merged_groups():
    result = invoke("el", f"troll:{MAX_GROUP_COUNT}", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["groups"][0]["count"] == MAX_GROUP_COUNT
    one_error(invoke("el", "troll:60", "troll:50"), "110")
    one_error(invoke("el", "troll:100", "ogre:100", "orc:1"), "201")


@pytest.mark.parametrize("level", ["0", "21", "-1", "abc", "99999999999999999999"])
def test_party_and_el_levels(level):
    for args in (["party", "--level", level], ["el", "troll", "--party-level", level]):
        result = invoke(*args)
        assert result.exit_code == 2 and result.stdout == "", result.output


def test_party_levels_1_and_20():
    for level in ("1", "20"):
        assert invoke("party", "--level", level).exit_code == 0
        assert invoke("el", "troll:4", "--party-level", level, "--die", "3d6").exit_code == 0


def test_console_entry_point_gives_one_line(monkeypatch, capsys, results):
    from arena.cli import main

    for args in (
        ["compare", str(results), str(results), "--tolerance", "nan"],
        ["calibrate", "troll", "--n", "0"],
        ["el", "troll:1000000000"],
        ["report", str(results), "--out", "/proc/arena-no-such/x"],
    ):
        monkeypatch.setattr("sys.argv", ["arena", *args])
        with pytest.raises(SystemExit) as info:
            main()
        out = capsys.readouterr()
        assert info.value.code == 2 and out.out == "", (args, out)
        assert len(out.err.splitlines()) == 1 and out.err.startswith("error: "), (args, out.err)
