"""An invitation to a table online, in its two written forms: the link a person sends
(`http://HOST:PORT/t/CODE`, `https://…` for a server behind TLS), which a browser opens as the server's
invitation page, and the address the installed game is opened with (`cribtiles://HOST:PORT/t/CODE`, with
`?tls=1` for a server behind TLS), which that page's "Open in Crib Tiles" points at. Both name the same
server, `ws://HOST:PORT` or `wss://HOST:PORT`; a path before `/t/` is the server's own (a proxy's folder).
Pure: no socket, nothing but the standard library."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from cribtiles.quoting import quoted

#: The scheme the installers register for the game (the desktop entry's `x-scheme-handler/cribtiles`).
SCHEME = "cribtiles"
#: The query that says the server is behind TLS (`wss://`), in a `cribtiles://` address.
TLS = "tls=1"
#: A host as a link may name it: a name or an IPv4 address, or an IPv6 address in brackets.
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]")
#: What a code may be written as in a link: six letters, maybe split by a dash.
_CODE = re.compile(r"[A-Za-z]{3}-?[A-Za-z]{3}")
#: A server's folder on its host (a proxy's `location`): plain names, never `.` or `..`.
_FOLDER = re.compile(r"(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+")
_TRUE = {"1", "true", "yes", "on"}
EXAMPLE = "http://192.168.1.20:8765/t/KXQMWD or cribtiles://192.168.1.20:8765/t/KXQMWD"


@dataclass(frozen=True)
class Invitation:
    """The table `code` at the server `server` (`ws://host:port`, `wss://…`, maybe with a folder)."""

    server: str
    code: str

    @property
    def tls(self) -> bool:
        return self.server.startswith("wss://")

    @property
    def _rest(self) -> str:
        """The server's address without its scheme, and the table's path on it."""
        return f"{self.server.split('://', 1)[1].rstrip('/')}/t/{self.code}"

    @property
    def web(self) -> str:
        """The link to send: a browser opens the server's invitation page.

        >>> Invitation("ws://192.168.1.20:8765", "KXQMWD").web, Invitation("wss://play.example.org", "KXQMWD").web
        ('http://192.168.1.20:8765/t/KXQMWD', 'https://play.example.org/t/KXQMWD')
        """
        return f"{'https' if self.tls else 'http'}://{self._rest}"

    @property
    def app(self) -> str:
        """The address that opens the installed game at the table (the URL handler's).

        >>> Invitation("ws://192.168.1.20:8765", "KXQMWD").app, Invitation("wss://play.example.org", "KXQMWD").app
        ('cribtiles://192.168.1.20:8765/t/KXQMWD', 'cribtiles://play.example.org/t/KXQMWD?tls=1')
        """
        return f"{SCHEME}://{self._rest}" + (f"?{TLS}" if self.tls else "")


def is_invitation(text: str) -> bool:
    """Whether `text` is written as an invitation (a `cribtiles://` address, or an http(s) link to a
    table's page), right or wrong; `read_invitation` says what is wrong with it.

    >>> [is_invitation(t) for t in ("cribtiles://h/t/ABCDEF", "HTTPS://h/t/x", "ws://h:1", "KXQMWD")]
    [True, True, False, False]
    """
    scheme = text.strip().partition("://")[0].lower()
    return scheme in (SCHEME, "http", "https")


def read_invitation(text: str) -> Invitation:
    """The invitation `text` writes: `http(s)://HOST[:PORT][/FOLDER]/t/CODE` or
    `cribtiles://HOST[:PORT][/FOLDER]/t/CODE[?tls=1]`; ValueError in words for anything else (it may come
    from any web page, through the URL handler).

    >>> read_invitation("cribtiles://192.168.1.20:8765/t/kxq-mwd")
    Invitation(server='ws://192.168.1.20:8765', code='KXQMWD')
    >>> read_invitation("https://Play.Example.org/crib/t/KXQMWD/")
    Invitation(server='wss://play.example.org/crib', code='KXQMWD')
    >>> read_invitation("cribtiles://[::1]:8765/t/KXQMWD?tls=1").server
    'wss://[::1]:8765'
    """
    words = f"{quoted(text.strip(), 80)} is not an invitation to a table, like {EXAMPLE}"
    try:
        split = urlsplit(text.strip())
        port = split.port
    except ValueError:
        raise ValueError(words) from None
    scheme = split.scheme.lower()
    netloc = "" if "@" in split.netloc else split.netloc  # a user name in an invitation is no server's
    host = netloc.rsplit(":", 1)[0] if port is not None or netloc.endswith(":") else netloc
    if scheme not in (SCHEME, "http", "https") or not _HOST.fullmatch(host) or split.fragment:
        raise ValueError(words)
    folder, marker, code = split.path.rstrip("/").rpartition("/t/")
    if not marker or not _CODE.fullmatch(code) or (folder and not _FOLDER.fullmatch(folder)):
        raise ValueError(words)
    # a cribtiles:// address says TLS in its query; a link, by its own scheme
    tls = parse_qs(split.query).get("tls", ["0"])[-1].lower() in _TRUE if scheme == SCHEME else scheme == "https"
    where = host.lower() + (f":{port}" if port is not None else "")
    return Invitation(f"{'wss' if tls else 'ws'}://{where}{folder}", code.replace("-", "").upper())


def invitation_to(server: str, code: str) -> Invitation:
    """The invitation to the table `code` at the server `server` (`ws://…` or `wss://…`), as the
    server's own code is kept (capitals, no dash).

    >>> invitation_to("ws://127.0.0.1:8765/", "kxq mwd").web
    'http://127.0.0.1:8765/t/KXQMWD'
    """
    return Invitation(server.strip().rstrip("/"), "".join(ch for ch in code.upper() if ch.isalpha()))
