"""The server's web pages, answered on the WebSocket's own port to a browser's plain GET (no upgrade): a
table's invitation (`/t/CODE`: the game, the seats and who is waiting, "Open in Crib Tiles" as a
`cribtiles://` address, and where to get the game), a word about the server at `/`, and a plain 404 for
anything else. No script, nothing secret (what `status` tells anyone with the code), everything written
into the HTML escaped. The links name the server as the browser reached it: its `Host`, or, from a
reverse proxy the server trusts, the host and scheme it forwards."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from cribtiles.games import GAMES, rules_in_words
from cribtiles.online.invitation import Invitation

from .forwarded import forwarded_param

#: A table's page: `/t/` and its code as the server reads one (letters, maybe dashes).
TABLE_PATH = re.compile(r"/t/([A-Za-z-]{1,20})/?")
#: A `Host` as a browser or a proxy sends it: a name or IPv4 address, or [IPv6], maybe a port.
_HOST = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
#: What the browser may do with a page: show it, with its own style sheet, and nothing else (no script,
#: no frame, no form, no image fetched); and no address of it goes to another site (the code is in it).
_NOTHING_ELSE = "form-action 'none'; frame-ancestors 'none'"
HEADERS = (
    ("Content-Type", "text/html; charset=utf-8"),
    ("Cache-Control", "no-store"),
    ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; " + _NOTHING_ELSE),
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
)
STYLE = """
body{margin:0;background:#2a1c11;color:#f3e6c8;font:17px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:36rem;margin:2rem auto;padding:1.4rem 2rem 1.6rem;background:#4b311f;border-radius:14px;
border:1px solid #7a5434;box-shadow:0 8px 30px #0008}
h1{font-size:1.45rem;margin:.2rem 0 .4rem;color:#f2c65c}h2{font-size:1.1rem;margin:1.4rem 0 .3rem;color:#f2c65c}
.code{font:bold 2.3rem/1.2 ui-monospace,monospace;letter-spacing:.16em;color:#f2c65c;margin:.3rem 0}
ol{padding-left:1.5rem;margin:.4rem 0}li{margin:.15rem 0}li.open{color:#9fe09a;font-weight:bold}
.dim{color:#c8b28b}a{color:#f2c65c}
a.button{display:inline-block;margin:.8rem 0 .2rem;padding:.7rem 1.4rem;background:#f2c65c;color:#2a1c11;
border-radius:10px;font-weight:bold;text-decoration:none}
code{background:#2a1c11;padding:.1rem .35rem;border-radius:4px;white-space:nowrap}
pre{background:#2a1c11;padding:.45rem .6rem;border-radius:6px;overflow-x:auto;margin:.3rem 0}
"""


@dataclass(frozen=True)
class Page:
    """A page to answer with: its status and its whole HTML."""

    status: HTTPStatus
    html: str


def is_upgrade(request: Request) -> bool:
    """Whether `request` asks for a WebSocket (the game's clients) rather than a page (a browser)."""
    upgrade = ",".join(request.headers.get_all("Upgrade")).lower()
    return "websocket" in upgrade


def table_code(path: str) -> str | None:
    """The code of the table whose page `path` asks for, as written (None: not a table's page).

    >>> table_code("/t/KXQMWD"), table_code("/t/kxq-mwd/?from=mail"), table_code("/"), table_code("/t/")
    ('KXQMWD', 'kxq-mwd', None, None)
    """
    found = TABLE_PATH.fullmatch(path.partition("?")[0])
    return found[1] if found else None


def public_server(headers: Headers, trusted: bool) -> str | None:
    """The server's address as the browser reached it (`ws://host:port`, `wss://…` when a trusted proxy
    says the browser came by https), for the page's links; None when the request names no host a link
    may carry. From a trusted proxy its forwarded host and scheme (the nearest proxy's, the right-most),
    else the `Host` header; the server itself speaks no TLS, so without a proxy it is always ws://.

    >>> public_server(Headers([("Host", "192.168.1.20:8765")]), trusted=False)
    'ws://192.168.1.20:8765'
    >>> public_server(Headers([("Host", "127.0.0.1:8765"), ("X-Forwarded-Proto", "https"),
    ...                        ("X-Forwarded-Host", "play.example.org")]), trusted=True)
    'wss://play.example.org'
    >>> public_server(Headers([("Host", "x"), ("Forwarded", 'for=1.2.3.4;host="Crib.Org";proto=https')]), True)
    'wss://crib.org'
    >>> public_server(Headers([("Host", "evil.org/<b>")]), trusted=False) is None
    True
    """
    host, proto = headers.get("Host", ""), "http"
    if trusted:
        hosts = [h for h in forwarded_param(headers.get_all("Forwarded"), "host") if h]
        hosts += _listed(headers.get_all("X-Forwarded-Host"))
        protos = [p for p in forwarded_param(headers.get_all("Forwarded"), "proto") if p]
        protos += _listed(headers.get_all("X-Forwarded-Proto"))
        host = hosts[-1] if hosts else host
        proto = protos[-1].lower() if protos else proto
    host = host.strip()
    if not _HOST.fullmatch(host):
        return None
    return f"{'wss' if proto == 'https' else 'ws'}://{host.lower()}"


def _listed(values: Sequence[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


# --- the pages ---


def _document(title: str, body: str) -> str:
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="robots" content="noindex">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n"
        "</body>\n</html>\n"
    )


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def code_words(code: str) -> str:
    """A code as read out: two groups of three ("KXQ MWD")."""
    return f"{code[:3]} {code[3:]}" if len(code) == 6 else code


def seat_line(seat: dict[str, Any], phase: str) -> str:
    """One seat of the list, as an HTML list item.

    >>> seat_line({"name": None, "kind": "open", "level": None, "present": False, "away": None}, "waiting")
    '<li class="open">An open seat: waiting for a player</li>'
    >>> seat_line({"name": "<Ann>", "kind": "person", "level": None, "present": True, "away": None}, "playing")
    '<li>&lt;Ann&gt; <span class="dim">· here</span></li>'
    """
    kind = seat.get("kind")
    if kind == "open":
        return '<li class="open">An open seat: waiting for a player</li>'
    level = str(seat.get("level") or "")
    name = str(seat.get("name") or f"{level.capitalize()} bot")
    if kind == "bot":
        said = "the server's bot"
    elif phase == "over":
        said = ""
    else:
        said = "here" if seat.get("present") else "away"
    return f"<li>{_e(name)}" + (f' <span class="dim">· {_e(said)}</span>' if said else "") + "</li>"


def _standing(table: dict[str, Any]) -> str:
    seats = [s for s in table.get("seats", []) if isinstance(s, dict)]
    phase = table.get("phase")
    if phase == "waiting":
        open_seats = sum(1 for s in seats if s.get("kind") == "open")
        return f"Waiting for {open_seats} more player{'s' if open_seats != 1 else ''}. The seats:"
    if phase == "playing":
        return "The game is on: every seat is taken. The seats:"
    names = [str(s.get("name") or "?") for s in seats]
    won = [names[w] for w in table.get("winners", []) if isinstance(w, int) and 0 <= w < len(names)]
    return "The game is over" + (f": {' and '.join(won)} won." if won else ".") + " The seats:"


def invitation_page(table: dict[str, Any], invitation: Invitation, download: str | None) -> str:
    """The page of a table (`table`: what `status` tells anyone with its code) whose invitation is
    `invitation`; `download`: where the game is got (None: the person who sent the link is asked)."""
    game = GAMES[str(table.get("game"))].title if table.get("game") in GAMES else "Crib Tiles"
    code = code_words(invitation.code)
    phase = str(table.get("phase"))
    seats = "\n".join(seat_line(s, phase) for s in table.get("seats", []) if isinstance(s, dict))
    settings = table.get("settings")
    rules = str(settings.get("rules") or "") if isinstance(settings, dict) else ""
    variant, unusual = rules_in_words(table.get("game"), rules[:400])
    said = " · ".join([*variant, *unusual]) or "the usual rules"
    get = (
        f'<p>Crib Tiles is a free game for Linux, Windows and macOS: get it at <a href="{_e(download)}" '
        f'id="download">{_e(download)}</a>. Once it is installed, the button above opens it at this table.</p>'
        if download
        else "<p>Crib Tiles is a free game for Linux, Windows and macOS: ask whoever sent you this link where "
        "to get it. Once it is installed, the button above opens it at this table.</p>"
    )
    body = (
        f"<h1>A table of {_e(game)}</h1>\n"
        f'<p class="code" id="code">{_e(code)}</p>\n'
        + f'<p class="dim" id="rules">Rules: {_e(said)}</p>\n'
        + f"<p>{_e(_standing(table))}</p>\n"
        f'<ol id="seats">\n{seats}\n</ol>\n'
        f'<p><a class="button" id="open" href="{_e(invitation.app)}">Open in Crib Tiles</a></p>\n'
        f'<p class="dim">It takes the open seat under the name you used last, or goes back to your seat. Or, in '
        f"Crib Tiles, choose Online, then Join with a code: the server <code>{_e(invitation.server)}</code>, the "
        f"code <code>{_e(code)}</code>. Or from a terminal:</p>\n"
        f"<pre>cribtiles online play {_e(invitation.web)}</pre>\n"
        f"<h2>No Crib Tiles yet?</h2>\n{get}\n"
    )
    return _document(f"Crib Tiles: a table of {game}, {code}", body)


def server_page(server: str | None) -> str:
    """The page at `/`: what this is, and how a player reaches it."""
    where = f" at <code>{_e(server)}</code>" if server else ""
    body = (
        "<h1>A Crib Tiles server</h1>\n"
        f"<p>Players connect to it from Crib Tiles: Online, then the server's address{where}. "
        "An invitation to one of its tables is a link like <code>…/t/KXQMWD</code>, which opens the game at "
        "that table.</p>\n"
    )
    return _document("A Crib Tiles server", body)


def not_found_page() -> str:
    return _document(
        "No such table", "<h1>No such table</h1>\n<p>No table here has that code. Check the link you were sent.</p>\n"
    )


def too_many_page() -> str:
    body = (
        "<h1>Too many codes tried</h1>\n<p>Too many codes that open no table were tried from your address. "
        "Wait a minute, then open the link again.</p>\n"
    )
    return _document("Too many codes tried", body)


def no_host_page() -> str:
    body = "<h1>No server's address</h1>\n<p>The request named no host a link could be made of.</p>\n"
    return _document("No server's address", body)


def respond(connection: ServerConnection, page: Page) -> Response:
    """The HTTP answer of `page` on `connection` (which then closes: it never becomes a WebSocket)."""
    response = connection.respond(page.status, page.html)
    del response.headers["Content-Type"]
    for name, value in HEADERS:
        response.headers[name] = value
    return response
