"""One connection to the server (`Client`): where it comes from, the tables it is at, what waits to be
sent to it (a slow reader holds up no one else, and one too far behind is dropped), and its allowance of
messages a second and of refused messages."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .limits import Limits

#: The close code of a connection whose table moved to another process (1012: the service restarts).
MOVED = 1012


@dataclass(eq=False)
class Client:
    """One connection: where it comes from, the tables it sits at or watches, its message allowance."""

    ws: ServerConnection
    address: str
    seats: dict[str, int | None] = field(default_factory=dict)  # code -> seat (None: watching)
    allowance: float = 0.0
    checked: float = 0.0
    bad: int = 0  # refused messages, less those forgiven since
    last_bad: float = 0.0  # from when the next one is forgiven
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue())
    closing: str = ""  # why the connection is closed once what waits in its outbox is sent


def allowed(client: Client, limits: Limits, now: float) -> bool:
    """Whether `client` may send one more message now (its allowance refills at `per_second`)."""
    client.allowance = min(float(limits.burst), client.allowance + (now - client.checked) * limits.per_second)
    client.checked = now
    if client.allowance < 1:
        return False
    client.allowance -= 1
    return True


def forgive(client: Client, limits: Limits) -> None:
    """Forgive `client` its refused messages one by one, one every 1 / `bad_forgiven` seconds."""
    rate = limits.bad_forgiven
    if not client.bad or rate <= 0:
        client.last_bad = client.checked
        return
    forgiven = int((client.checked - client.last_bad) * rate)
    if forgiven >= client.bad:  # all of them: no credit is saved up for the next ones
        client.bad, client.last_bad = 0, client.checked
    elif forgiven:
        client.bad -= forgiven
        client.last_bad += forgiven / rate


def close_soon(client: Client, reason: str) -> None:
    """Close `client`'s connection once what it was sent is, the answer being made now too."""
    if not client.closing:
        client.closing = reason
        asyncio.get_running_loop().call_soon(client.outbox.put_nowait, None)


async def write_out(client: Client) -> None:
    """Send what waits for `client`, in order (a slow reader holds up no one else)."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            text = await client.outbox.get()
            if text is None:
                if client.closing:
                    await client.ws.close(MOVED, client.closing[:120])
                return
            await client.ws.send(text)


async def drain(ws: ServerConnection) -> None:
    """Read and drop what `ws` sends until it is closed."""
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass
