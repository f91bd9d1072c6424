"""Output written together: every file of a page (the page, its plots, its tables) written aside as ``NAME.tmp`` and
put in place only once all of them are written (:class:`Staged`).

Why a module of its own: a failure (a full disk, a read-only folder) must leave the folder as it was, never a page
that looks complete beside plots of another run; and a planted link must never be written through. The report, the
claims report and the calibration's files are staged alike.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from arena.errors import ArenaError
from arena.study.runs.folder import os_problem


def output_folder(path: str | os.PathLike, what: str = "output") -> Path:
    """``path`` as a folder to write into (created if need be), or an ArenaError naming it and the reason."""
    folder = Path(path)
    try:
        if folder.exists() and not folder.is_dir():
            raise ArenaError(f"{folder}: exists and is not a folder (choose another --out)")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ArenaError(f"{folder}: cannot create the {what} folder ({os_problem(err)})") from None
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

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, _tb: Any) -> Literal[False]:
        if kind is None:
            return False
        self.discard()
        if isinstance(err, OSError):
            where = err.filename or self.folder
            if isinstance(where, str) and where.endswith(".tmp"):
                where = where[:-4]
            raise ArenaError(f"{where}: cannot write the {self.what} ({os_problem(err)})") from None
        return False
