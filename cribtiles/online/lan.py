"""Finding a server on the local network by mDNS (the `zeroconf` package): a hosted server is advertised
as `_cribtiles._tcp.local.` with the protocol's version (`Advertiser`), and a `Browser` lists the servers
it hears of, in a thread of zeroconf's own so that no frame waits on the network (issue 31)."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from zeroconf import ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from .protocol import VERSION

SERVICE = "_cribtiles._tcp.local."
#: Milliseconds a browser waits for a server's address once it has heard its name.
RESOLVE_MS = 2000
#: Servers listed at most: a network with more is not a home or a club.
MOST_FOUND = 20


@dataclass(frozen=True)
class Found:
    """A server heard of on the network: its name as advertised, and its address."""

    name: str
    url: str


def lan_address() -> str | None:
    """This computer's address on its local network (the one its default route leaves by), or None.
    Connecting a UDP socket sends nothing; it only picks the way out."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("198.51.100.1", 9))  # a documentation address (TEST-NET-2): never sent to
        address: str = probe.getsockname()[0]
        return None if address.startswith(("0.", "127.")) else address
    return None


def instance_name(label: str) -> str:
    """A service name from `label`: dots would split it, and mDNS allows 63 bytes."""
    clean = "".join(ch if ch.isprintable() and ch != "." else " " for ch in label).strip() or "Crib Tiles"
    return clean.encode("utf-8")[:60].decode("utf-8", "ignore").strip()


def server_url(info: ServiceInfo) -> str | None:
    """The ws:// address of an advertised server: its first IPv4 address, else its first IPv6 one."""
    addresses = info.parsed_addresses()
    if not addresses or info.port is None:
        return None
    ipv4 = [a for a in addresses if ":" not in a]
    host = ipv4[0] if ipv4 else f"[{addresses[0]}]"
    return f"ws://{host}:{info.port}"


class Advertiser:
    """Tells the network that a server listens on `port` at `addresses` (default: this computer's
    local address), under `label`, until `close`."""

    def __init__(self, port: int, label: str, addresses: Sequence[str] | None = None) -> None:
        chosen = list(addresses) if addresses is not None else [a for a in (lan_address(),) if a]
        if not chosen:
            raise OSError("this computer has no address on a local network")
        name = f"{instance_name(label)}.{SERVICE}"
        host = f"{instance_name(socket.gethostname()).replace(' ', '-') or 'cribtiles'}.local."
        self.info = ServiceInfo(
            SERVICE,
            name,
            addresses=[socket.inet_pton(socket.AF_INET6 if ":" in a else socket.AF_INET, a) for a in chosen],
            port=port,
            properties={"v": str(VERSION)},  # the protocol's version, for a browser to tell before it connects
            server=host,
        )
        self._zc = Zeroconf(interfaces=chosen)
        try:
            self._zc.register_service(self.info, allow_name_change=True)
        except BaseException:
            self._zc.close()
            raise

    def close(self) -> None:
        with contextlib.suppress(Exception):  # the network may be gone already: closing must not fail
            self._zc.unregister_service(self.info)
        self._zc.close()


class Browser:
    """Listens for servers on the network (on `interfaces`, default all) until `close`; `found()` is
    what it has heard so far, and never waits."""

    def __init__(self, interfaces: Sequence[str] | None = None) -> None:
        self._lock = threading.Lock()
        self._found: dict[str, Found] = {}
        self._zc = Zeroconf(interfaces=list(interfaces)) if interfaces is not None else Zeroconf()
        self._browser = ServiceBrowser(self._zc, SERVICE, handlers=[self._changed])

    def _changed(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            with self._lock:
                self._found.pop(name, None)
            return
        info = zeroconf.get_service_info(service_type, name, RESOLVE_MS)
        url = server_url(info) if info is not None else None
        if url is None:
            return
        label = name[: -len(SERVICE) - 1] if name.endswith("." + SERVICE) else name
        with self._lock:
            if name in self._found or len(self._found) < MOST_FOUND:
                self._found[name] = Found(instance_name(label), url)

    def found(self) -> list[Found]:
        with self._lock:
            return sorted(self._found.values(), key=lambda f: (f.name.lower(), f.url))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._browser.cancel()
        self._zc.close()
