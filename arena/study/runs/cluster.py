"""Connecting to a Dask cluster (``--cluster tcp://HOST:PORT``): the address checked, the scheduler asked who it is
within :data:`CONNECT_TIMEOUT` seconds, before anything is written, and the client closed quietly after.

Why a module of its own: a scheduler that is not there, or a port that accepts and never answers, must cost a
command one error line and five seconds, never a hang, a traceback or a half-made results folder; the run, the
claims and the calibration share one client for their whole length (:func:`cluster_session`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from arena.errors import ArenaError

CONNECT_TIMEOUT = 5.0
"""Seconds a Dask scheduler (``--cluster``) has to accept a connection and answer as a scheduler before the command
gives up with one error line (nothing is written by then)."""


def connect_cluster(address: str) -> Any:
    """A ``dask.distributed.Client`` for ``address``; ArenaError (one line) if dask is missing, the address is not
    a scheduler's (``tcp://HOST:PORT`` or ``tls://HOST:PORT``), or no scheduler answers there within
    :data:`CONNECT_TIMEOUT` seconds. A client that could not start is stopped here, quietly (no ``Client.__del__``
    traceback after the error)."""
    import socket
    from urllib.parse import urlparse

    expected = f"--cluster {address!r}: expected a scheduler address like tcp://HOST:PORT"
    try:
        parsed = urlparse(address if "://" in address else f"tcp://{address}")
        host, port = parsed.hostname, parsed.port
    except ValueError:
        raise ArenaError(expected) from None
    if parsed.scheme not in ("tcp", "tls") or not host or not port:
        raise ArenaError(expected)
    try:
        from dask.distributed import Client
    except ImportError:
        raise ArenaError("--cluster needs Dask: pip install 'd20-arena[dask]'") from None
    try:  # fail fast: Client() would keep retrying a refused connection until its timeout
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except OSError as err:
        raise ArenaError(f"cannot reach the Dask scheduler at {address} ({err.strerror or err})") from None
    problem = _probe(f"{parsed.scheme}://{parsed.netloc}")
    if problem:
        raise ArenaError(f"cannot reach the Dask scheduler at {address} ({problem})")
    client = Client.__new__(Client)  # made first, so that a start that fails can still be stopped (_discard)
    try:
        Client.__init__(client, address, timeout=f"{CONNECT_TIMEOUT:g}s", set_as_default=False)
    except Exception as err:
        _discard(client)
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ArenaError(f"cannot reach the Dask scheduler at {address} ({reason[:160]})") from None
    return client


def _probe(address: str) -> str | None:
    """None when a Dask scheduler answers at ``address`` within :data:`CONNECT_TIMEOUT` seconds, else why not.

    ``Client()`` does not bound the handshake: a port that accepts and never answers held it for as long as the
    port stayed open. This asks the scheduler who it is, on an event loop of its own (in a thread, so a caller's
    running loop, a notebook's, is not in the way), and gives up after the timeout."""
    import asyncio
    import threading

    async def ask() -> Any:
        from distributed.comm import connect
        from distributed.security import Security

        comm = await connect(address, timeout=CONNECT_TIMEOUT, **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    answer: dict[str, Any] = {}

    def run() -> None:
        try:
            answer["reply"] = asyncio.run(asyncio.wait_for(ask(), CONNECT_TIMEOUT))
        except TimeoutError:
            answer["problem"] = f"no answer within {CONNECT_TIMEOUT:g} s"
        except Exception as err:
            text = str(err).splitlines()[0] if str(err) else type(err).__name__
            answer["problem"] = text[:160]

    thread = threading.Thread(target=run, name="arena-cluster-probe", daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT + 5)
    if "problem" in answer:
        return answer["problem"]
    reply = answer.get("reply")
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        return "no answer as a Dask scheduler" if "reply" in answer else f"no answer within {CONNECT_TIMEOUT:g} s"
    return None


def _discard(client: Any) -> None:
    """Stop a client whose start failed without the close its ``__del__`` would try (ten seconds, then a
    traceback on stderr)."""
    with contextlib.suppress(Exception):
        client.status = "closed"
    with contextlib.suppress(Exception):
        client._loop_runner.stop()


def close_client(client: Any) -> None:
    """Close a client (bounded by :data:`CONNECT_TIMEOUT`; a scheduler gone by now is no error)."""
    with contextlib.suppress(Exception):
        client.close(timeout=CONNECT_TIMEOUT)
    _discard(client)


@contextlib.contextmanager
def cluster_session(cluster: Any) -> Iterator[Any]:
    """``cluster`` as a client for the block: an address is connected to once here (and closed after), a client
    or None is passed through. Connect before writing anything, so an unreachable scheduler leaves nothing."""
    if not isinstance(cluster, str):
        yield cluster
        return
    client = connect_cluster(cluster)
    try:
        yield client
    finally:
        close_client(client)
