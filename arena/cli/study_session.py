"""What `arena claims` and `arena calibrate` share as long, interruptible studies: their --workers, --cluster,
--resume and --force, the progress bar, the study folder of --out (locked, resumable) and the one line an interrupt
prints (what was kept, and the command that completes the study)."""

from __future__ import annotations

import contextlib
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from arena.cli.common import default_workers
from arena.errors import ArenaError
from arena.labels import printable
from arena.limits import MAX_WORKERS


def workers_asked(workers: int | None) -> int:
    """--workers, checked (1 to MAX_WORKERS); by default every core, at most MAX_WORKERS."""
    from arena.study.runs.options import check_workers

    return min(default_workers(), MAX_WORKERS) if workers is None else check_workers(workers)


def progress_bar(enabled: bool, what: str) -> Any:
    """The study's rich progress bar, drawn only when both stderr and stdout are a terminal (and ``enabled``)."""
    from arena.study.runs.progress import rich_progress

    return rich_progress(enabled and sys.stderr.isatty() and sys.stdout.isatty(), what)


def command_line() -> str:
    """This command as typed, quoted for a shell (a study folder's manifest records it)."""
    return "arena " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def resume_command() -> str:
    """This command with ``--resume`` (and without ``--force``): what completes an interrupted study."""
    args = [a for a in sys.argv[1:] if a != "--force"]
    return "arena " + " ".join(shlex.quote(a) for a in [*args, *(["--resume"] if "--resume" not in args else [])])


RESUME_HELP = (
    "Complete the interrupted study in --out (the same command and settings): the finished fights kept "
    "there are not fought again."
)
FORCE_HELP = "Start again in --out: only the files this command wrote there are removed."
CLUSTER_HELP = (
    "A Dask scheduler address, tcp://HOST:PORT (checked before anything is written: it must answer within 5 s)."
)
WorkersOption = Annotated[
    int | None,
    typer.Option(
        help="Local worker processes, 1 to 64 (default: every core, at most 64; results are the same for any number)."
    ),
]
ClusterOption = Annotated[str | None, typer.Option(help=CLUSTER_HELP)]
ResumeFlag = Annotated[bool, typer.Option("--resume", help=RESUME_HELP)]
ForceFlag = Annotated[bool, typer.Option("--force", help=FORCE_HELP)]


class Session:
    """What an interrupt message needs: the study folder, once open."""

    def __init__(self, out: Path | None):
        self.out = out
        self.study: Any = None


@contextlib.contextmanager
def study_folder(session: Session, kind: str, settings: dict, resume: bool, force: bool) -> Iterator[Any]:
    """The study folder of ``--out`` (locked, prepared; None without --out), its chunks kept for ``--resume``."""
    if session.out is None:
        if resume or force:
            raise ArenaError(
                f"{'--resume' if resume else '--force'} needs --out: a study keeps its finished work "
                "on disk only in an --out folder"
            )
        yield None
        return
    from arena.study.runs.study_folder import open_study

    with open_study(
        session.out,
        kind,
        settings,
        command=command_line(),
        resume=resume,
        force=force,
        say=lambda msg: typer.echo(f"warning: {printable(msg, 500)}", err=True),
    ) as study:
        session.study = study
        yield study


def stopped(session: Session, signum: int | None) -> typer.Exit:
    """One line on stderr for an interrupted study (Ctrl-C, SIGTERM, SIGHUP): what was kept, how to resume."""
    head = f"stopped by signal {signum}" if signum else "interrupted"
    study = session.study
    if session.out is None:
        line = (
            f"{head}: nothing was kept (a study keeps its finished work only with --out DIR; run it with "
            "--out DIR to be able to --resume)"
        )
    elif study is None:
        line = f"{head} before the study began: nothing to keep in {printable(session.out)}"
    else:
        kept = study.kept()
        line = (
            f"{head}: {kept:,} finished chunk{'s' * (kept != 1)} kept in {printable(session.out)}; complete "
            f"the study with: {printable(resume_command(), 2000)}"
        )
    typer.echo(line, err=True)
    return typer.Exit(128 + signum if signum else 130)
