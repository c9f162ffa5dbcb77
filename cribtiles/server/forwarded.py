"""Whom a connection is for: the peer's own address, or, from a reverse proxy the server trusts
(`--forwarded-allow-ips`), the client's address the proxy forwards in `X-Forwarded-For` or in RFC 7239's
`Forwarded`. Standard library only (`ipaddress`); the headers arrive as the lists of their values."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from cribtiles.quoting import quoted

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(text: str) -> tuple[Network, ...]:
    """The addresses and networks of `--forwarded-allow-ips`, separated by commas: `127.0.0.1`,
    `10.0.0.0/8`, `::1`, `2001:db8::/32`. ValueError in words for anything else.

    >>> [str(n) for n in networks("127.0.0.1, 10.0.0.0/8,::1")]
    ['127.0.0.1/32', '10.0.0.0/8', '::1/128']
    """
    found: list[Network] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise ValueError("separate the addresses with commas, like 127.0.0.1,10.0.0.0/8")
        found.append(_network(part))
    return tuple(found)


def _network(part: str) -> Network:
    try:
        return ipaddress.ip_network(part)
    except ValueError:
        pass
    try:  # 10.0.0.1/8: an address inside the network meant, most likely a slip; said rather than guessed
        meant = ipaddress.ip_network(part, strict=False)
    except ValueError:
        raise ValueError(
            f"{quoted(part)} is neither an address nor a network, like 127.0.0.1, ::1 or 10.0.0.0/8"
        ) from None
    raise ValueError(f"{quoted(part)} is not a network's first address: write {meant}")


def address(text: str) -> Address | None:
    """The address a header (or a socket) writes as `text`: quotes, brackets and a port taken off, an
    IPv4 address written as IPv6 (`::ffff:1.2.3.4`, a dual-stack socket's) made IPv4 again. None for
    anything that is not an address (`unknown`, an obfuscated `_hidden`, garbage).

    >>> [str(address(t)) for t in ('1.2.3.4', '"[2001:DB8::1]:4711"', '1.2.3.4:80', '::ffff:1.2.3.4', 'unknown')]
    ['1.2.3.4', '2001:db8::1', '1.2.3.4', '1.2.3.4', 'None']
    """
    text = text.strip().strip('"').strip()
    if text.startswith("["):
        inside, closed, _port = text[1:].partition("]")
        text = inside if closed else ""
    elif text.count(":") == 1:  # IPv4 and a port (an IPv6 address has two colons or more)
        text = text.partition(":")[0]
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def _split(text: str, separator: str) -> list[str]:
    """`text` cut at each `separator` outside a quoted string (RFC 7230: `"..."`, `\\` escaping one
    character)."""
    parts: list[str] = []
    part: list[str] = []
    quoting = escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif quoting and char == "\\":
            escaped = True
        elif char == '"':
            quoting = not quoting
        elif char == separator and not quoting:
            parts.append("".join(part))
            part = []
            continue
        part.append(char)
    parts.append("".join(part))
    return parts


def forwarded_for(values: list[str]) -> list[str | None]:
    """The `for=` of each hop of RFC 7239 `Forwarded` headers, first hop first (None: a hop that names
    no client). Parameter names are case-insensitive, values a token or a quoted string.

    >>> forwarded_for(['for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711"', 'proto=https'])
    ['192.0.2.60', '[2001:db8:cafe::17]:4711', None]
    """
    return forwarded_param(values, "for")


def forwarded_param(values: list[str], name: str) -> list[str | None]:
    """The parameter `name` (`for`, `host`, `proto`) of each hop of RFC 7239 `Forwarded` headers, first
    hop first (None: a hop without it).

    >>> forwarded_param(['for=1.2.3.4;host="play.example.org";Proto=https', 'for=5.6.7.8'], "proto")
    ['https', None]
    """
    hops: list[str | None] = []
    for value in values:
        for element in _split(value, ","):
            found = None
            for pair in _split(element, ";"):
                key, equals, given = pair.partition("=")
                if equals and key.strip().lower() == name:
                    found = _unquote(given.strip())
            hops.append(found)
    return hops


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] == '"':
        inner, out, escaped = text[1:-1], [], False
        for char in inner:
            if char == "\\" and not escaped:
                escaped = True
                continue
            out.append(char)
            escaped = False
        return "".join(out)
    return text


@dataclass(frozen=True)
class Proxies:
    """The reverse proxies whose forwarded headers are believed (none: every header is ignored)."""

    networks: tuple[Network, ...] = ()

    def trusts(self, peer: str) -> bool:
        found = address(peer)
        return found is not None and any(found in network for network in self.networks)

    def client(self, peer: str, forwarded_for_values: list[str], forwarded_values: list[str]) -> str:
        """The address a connection from `peer` is for: from a trusted proxy, the right-most address of
        the forwarded chain that is not itself a trusted proxy (those left of it were written by the
        client, and may be anything); from any other peer, or when the proxy sent no usable header,
        the peer's own. When both headers come and name different clients, one of them was written by
        the client and passed on untouched (a proxy sets one of them), so neither is believed."""
        peer = canonical(peer)
        if not self.trusts(peer):
            return peer
        listed: list[str | None] = [hop for value in forwarded_for_values for hop in _split(value, ",")]
        chains = [hops for hops in (listed, forwarded_for(forwarded_values)) if hops]
        found = {self._rightmost(hops) for hops in chains}
        if len(found) != 1:
            return peer
        client = found.pop()
        return str(client) if client is not None else peer

    def _rightmost(self, hops: list[str | None]) -> Address | None:
        """The right-most hop that no trusted proxy is at (None: a hop on the way is not an address; the
        left-most one when every hop is a trusted proxy)."""
        client: Address | None = None
        for hop in reversed(hops):
            client = address(hop) if hop is not None else None
            if client is None:
                return None
            if not any(client in network for network in self.networks):
                return client
        return client


def canonical(peer: str) -> str:
    """`peer` as one address is always written (`::ffff:1.2.3.4` as `1.2.3.4`, IPv6 in lower case and
    shortest), so that one client is counted once; anything that is not an address as it is."""
    found = address(peer)
    return str(found) if found is not None else peer
