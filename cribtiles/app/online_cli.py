"""`cribtiles serve` and `cribtiles online new|bot|status|play|open|seat-bot`: a server for online play,
and its tables from the command line (create one, put a bot of this computer in a seat, see how one
stands, sit down at one in the window, list the tables anyone may join, or, as a table's host, give an
absent player's seat to a bot). What the server sends reaches the terminal with no control character;
failures are one line and exit status 2 (issue 31). A table is named by its server and code, or by its
invitation link whole (`http://…/t/CODE`, `cribtiles://…`: `cribtiles.online.invitation`, issue 44).

    cribtiles serve --port 8765
    cribtiles online new ws://127.0.0.1:8765 --players Ann,?,hard
    cribtiles online bot ws://127.0.0.1:8765 KXQMWD --level medium
    cribtiles online status ws://127.0.0.1:8765 KXQMWD
    cribtiles online play ws://127.0.0.1:8765 KXQMWD --name Ben
    cribtiles online play http://127.0.0.1:8765/t/KXQMWD
    cribtiles online open ws://127.0.0.1:8765
    cribtiles online seat-bot ws://127.0.0.1:8765 KXQMWD Ben medium
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cribtiles.names import name_problem
from cribtiles.online.presence import span_words
from cribtiles.quoting import quoted
from cribtiles.terminal import for_terminal, json_for_terminal, say

from .commands import runs
from .files import folder_named

if TYPE_CHECKING:
    from cribtiles.online.botclient import SeatBot
    from cribtiles.online.client import ServerLinks
    from cribtiles.server.forwarded import Proxies

#: seconds: how long a one-off command waits for the server to answer
CONNECT_WAIT = 10.0
ANSWER_WAIT = 10.0
#: seconds `online bot` waits for a server that is not there when it starts: one being started or
#: restarted beside it (its bots' processes may take a minute to start on a loaded machine)
BOT_START_WAIT = 180.0
GAMES = ("tiles", "cribbage")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400}
_DURATION = re.compile(r"\s*([0-9]{1,7})\s*([smhd]?)\s*", re.IGNORECASE)
_CODE = re.compile(r"[A-Za-z][A-Za-z \-]{0,19}")  # a code as typed: letters, maybe spaces or dashes
ENDINGS = {  # the tile game's end reasons (EndReason), as `status` says them
    "out": "a player went out with the bag empty",
    "blocked": "the bag is empty and nobody can play",
    "locked": "the board locked: nobody could play for two rounds",
    "idle": "nobody played for three rounds",
    "resigned": "resigned",
}


class Trouble(Exception):
    """A command that cannot go on; its words are for the person who ran it."""


# --- the arguments ---


def add_serve_arguments(ap: argparse.ArgumentParser) -> None:
    ap.description = (
        "Run a server for online play. It keeps every table in its data folder (tables.db), so a restarted "
        "server resumes them all; it plays the bots' seats. Stop it with Ctrl-C (or SIGTERM)."
    )
    ap.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this computer only)"
    )
    ap.add_argument("--port", type=_port, default=8765, help="the port to listen on (default 8765; 0: any free one)")
    ap.add_argument(
        "--data-dir",
        type=folder_named,
        help="the server's folder: its tables and its log (default: 'server' in the user data folder)",
    )
    ap.add_argument(
        "--forwarded-allow-ips",
        type=_proxies,
        metavar="ADDR[,ADDR...]",
        help="reverse proxies (addresses or networks, like 127.0.0.1 or 10.0.0.0/8) whose X-Forwarded-For or "
        "Forwarded header gives the client's address, which the limits per address then count (default: none; "
        "from any other peer the headers are ignored)",
    )
    ap.add_argument(
        "--allowed-origins",
        type=_origins,
        default=(),
        metavar="ORIGIN[,ORIGIN...]",
        help="web pages that may connect, like https://play.example.org (default: none; a handshake from "
        "any other page is refused with HTTP 403; the game's own clients send no origin)",
    )
    ap.add_argument(
        "--download-url",
        type=_download,
        metavar="URL",
        help="where a table's invitation page (http://HOST:PORT/t/CODE) says to get Crib Tiles, like "
        "https://example.org/cribtiles (default: none; the page says to ask whoever sent the link)",
    )
    ap.add_argument(
        "--store",
        type=_store_url,
        metavar="postgresql://…",
        help="keep the tables in this PostgreSQL database rather than in the data folder, shared with any "
        "number of server processes (each with a --data-dir of its own, for its log), a table served by one "
        "at a time; needs pip install 'cribtiles[server]' (default: tables.db in the data folder)",
    )
    ap.add_argument(
        "--lease",
        type=_lease,
        metavar="SECONDS",
        help="with --store: seconds a server process holds a table after it last said it serves it, so "
        "how long after a process dies its tables wait for another (default 10)",
    )


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles online`'s sub-commands: new, bot, status, play, open and seat-bot."""
    ap.description = (
        "Online tables from the command line: create one, put a bot in a seat, see how one stands, sit down "
        "at one in the window, list the tables anyone may join, or give an absent player's seat to a bot."
    )
    ap.epilog = (
        "SERVER is the server's address, like ws://192.168.1.20:8765 (wss:// behind a TLS proxy). SERVER CODE may "
        "be given as a table's invitation link whole: http://192.168.1.20:8765/t/KXQMWD or "
        "cribtiles://192.168.1.20:8765/t/KXQMWD. Each command takes --data-dir after its name."
    )
    commands = ap.add_subparsers(dest="online", required=True, metavar="new|bot|status|play|open|seat-bot")
    new = commands.add_parser(
        "new",
        help="create a table and print its code",
        description="Create a table on SERVER and print its code, which players take their seats with.",
    )
    new.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765")
    new.add_argument(
        "--players",
        required=True,
        help="the seats, 2 to 4: ? for an open seat, a bot level for the server's bot, any other name keeps "
        "a seat for that person (Ann,?,hard)",
    )
    new.add_argument("--game", choices=GAMES, default="tiles", help="the game (default tiles)")
    new.add_argument("--rules", default="", help="rule options, like joker=on,rounds=3")
    new.add_argument("--seed", type=int, help="seed of the shuffles (default: a random one)")
    new.add_argument("--coach", action="store_true", help="allow hints and taking moves back at this table")
    new.add_argument("--turn-timer", type=_duration, help="time for a move, like 90s, 5m or 2d (default: none)")
    new.add_argument(
        "--on-timeout", choices=("bot", "pass"), default="bot", help="when the time runs out (default: a bot moves)"
    )
    new.add_argument("--absent-bot", type=_duration, help="a bot moves for a player away this long, like 10m")
    new.add_argument(
        "--public", action="store_true", help="anyone may join: the server lists the table among its open tables"
    )
    new.add_argument("--json", action="store_true", help="print a JSON object")
    _data_dir(new, "the data folder, where the table's host token is kept for online seat-bot")
    runs(new, _prepare_new)
    bot = commands.add_parser(
        "bot",
        help="play a seat with a bot of this computer until the game is over",
        description="Take a seat at the table CODE (the open one, or the one kept for --name) and play it with a "
        "bot running here until the game is over; a dropped connection is made again by itself, and a server "
        f"not answering yet when it starts (one starting beside it) is waited for, {BOT_START_WAIT / 60:g} minutes "
        "at most.",
    )
    bot.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765")
    bot.add_argument("code", metavar="CODE", help="the table's code")
    bot.add_argument("--level", required=True, help="the bot's level (the game's levels, like easy or hard)")
    bot.add_argument("--name", help="the seat's name (default: the level's, like 'Hard bot', or 'Hard bot 2')")
    bot.add_argument("--seed", type=int, help="seed of the bot's choices (default: a random one)")
    _data_dir(bot, "a folder for the bot's log, cribtiles.log (default: none; trouble is said on standard error)")
    runs(bot, _prepare_bot)
    status = commands.add_parser(
        "status",
        help="the seats, whose turn, the scores, and how the game ended",
        description="How the table CODE stands: its seats, whose turn it is, the scores, and how it ended.",
    )
    status.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765")
    status.add_argument("code", metavar="CODE", nargs="?", help="the table's code (none: SERVER is its link)")
    status.add_argument("--json", action="store_true", help="print a JSON object")
    _data_dir(status, "the data folder: the seat you hold at the table there is marked as yours")
    runs(status, _prepare_status)
    play = commands.add_parser(
        "play",
        help="open the window at the table, seated",
        description="Open the window straight at the table CODE, seated: in the open seat, in the one kept for "
        "--name, or back in the seat you hold there already (kept in the data folder). It is the Online screen's "
        "Join with a code, filled in; what goes wrong is said there. SERVER CODE may be the table's invitation "
        "link whole (http://HOST:PORT/t/CODE or cribtiles://HOST:PORT/t/CODE); `cribtiles cribtiles://…`, what a "
        "desktop runs for such a link, is this command.",
    )
    play.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765, or the link")
    play.add_argument(
        "code", metavar="CODE", nargs="?", help="the table's code (capitals or not, spaces or not; none: a link)"
    )
    play.add_argument("--name", help="your name at the table (default: the one you used last online)")
    _data_dir(play, "keep saves and settings in this folder (default: the user data folder)")
    play.add_argument("--size", help="window size, like 1280x800")
    runs(play, _prepare_play)
    listed = commands.add_parser(
        "open",
        help="the tables anyone may join, with a seat open",
        description="List the public tables of SERVER that have a seat open, the newest first: each one's code, "
        "game, seats and rules. Join one with online play SERVER CODE (or the Online screen's list).",
    )
    listed.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765")
    listed.add_argument("--game", choices=GAMES, help="only the tables of this game")
    listed.add_argument("--json", action="store_true", help="print a JSON object")
    _data_dir(listed, "the data folder: the tables where you hold a seat are marked as yours")
    runs(listed, _prepare_open)
    seat_bot = commands.add_parser(
        "seat-bot",
        help="as the table's host, give an absent player's seat to the server's bot",
        description="As the host of the table CODE (its creator), give SEAT to the server's bot of LEVEL: before "
        "the game, an open seat or the seat of a person who is not there, for good; during the game, the seat of a "
        "person away two minutes or more, until they come back. The host token is the one kept in the data folder "
        "(by online new, or by the window when you created the table there), or --host-token.",
    )
    seat_bot.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765")
    seat_bot.add_argument("code", metavar="CODE", help="the table's code")
    seat_bot.add_argument("seat", metavar="SEAT", help="the seat: its number as status lists it (1, 2, …) or its name")
    seat_bot.add_argument("level", metavar="LEVEL", help="the bot's level (the game's levels, like easy or hard)")
    seat_bot.add_argument("--host-token", help="the table's host token, as online new printed it")
    _data_dir(seat_bot, "the data folder where the host token is kept (default: the user data folder)")
    runs(seat_bot, _prepare_seat_bot)


def _data_dir(ap: argparse.ArgumentParser, words: str) -> None:
    """`--data-dir` after a command's name, as every command takes its options (issue 44, defect 14)."""
    ap.add_argument("--data-dir", type=folder_named, help=words)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {quoted(text)}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {port:,}")
    return port


def _download(text: str) -> str:
    """`--download-url`: an http(s) address a web page may link to.

    >>> _download("https://example.org/cribtiles")
    'https://example.org/cribtiles'
    """
    split = urlsplit(text.strip())
    printable = all(ch.isprintable() and not ch.isspace() for ch in text.strip())
    if split.scheme not in ("http", "https") or not split.netloc or not printable:
        raise argparse.ArgumentTypeError(f"a web address like https://example.org/cribtiles, not {quoted(text)}")
    return text.strip()


def _proxies(text: str) -> Proxies:
    from cribtiles.server.forwarded import Proxies, networks

    try:
        return Proxies(networks(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _origins(text: str) -> tuple[str, ...]:
    from cribtiles.server.doors import web_origins

    try:
        return web_origins(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _duration(text: str) -> int:
    """Seconds of a time written like 90s, 5m, 2h or 2d (a bare number: seconds).

    >>> _duration("90s"), _duration("5m"), _duration("2d"), _duration("45")
    (90, 300, 172800, 45)
    """
    m = _DURATION.fullmatch(text)
    if m is None:
        raise argparse.ArgumentTypeError(f"write a time like 90s, 5m or 2d, not {quoted(text)}")
    return int(m[1]) * _UNITS[(m[2] or "s").lower()]


def seats_asked(players: str, game: str) -> list[dict[str, str]]:
    """The seats of `--players`: `?` open, a level of `game` the server's bot, a name a person's seat.

    >>> seats_asked("Ann,?,Hard", "tiles")
    [{'kind': 'person', 'name': 'Ann'}, {'kind': 'open'}, {'kind': 'bot', 'level': 'hard'}]
    """
    from cribtiles.server.rooms import levels

    entries = [e.strip() for e in players.split(",")]
    if any(not e for e in entries):
        raise ValueError("--players: separate the seats with commas, like Ann,?,hard")
    if not 2 <= len(entries) <= 4:
        raise ValueError(f"--players: a table has 2 to 4 seats, not {len(entries)}")
    seats: list[dict[str, str]] = []
    for entry in entries:
        if entry == "?":
            seats.append({"kind": "open"})
        elif entry.lower() in levels(game):
            seats.append({"kind": "bot", "level": entry.lower()})
        else:
            problem = name_problem(entry)
            if problem:
                raise ValueError(f"--players: {problem}")
            seats.append({"kind": "person", "name": entry})
    return seats


def _server(text: str) -> str:
    """SERVER as an address the link can use; ValueError in words."""
    from websockets.exceptions import InvalidURI
    from websockets.uri import parse_uri

    from cribtiles.online.client import check_url

    url = check_url(text)
    try:
        parse_uri(url)
    except (InvalidURI, ValueError):
        raise ValueError(f"{quoted(text)} is not a server's address, like ws://192.168.1.20:8765") from None
    return url


# --- preparing each command ---


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """Never called: `cribtiles online` runs one of its sub-commands, which argparse requires."""
    raise AssertionError("cribtiles online without a sub-command")


def prepare_serve(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    doors = (args.forwarded_allow_ips, args.allowed_origins)
    if args.lease is not None and args.store is None:
        raise ValueError("--lease: only with --store (a server of its own folder holds its tables for ever)")
    return functools.partial(
        _serve, args.data_dir, args.host, args.port, *doors, args.download_url, args.store, args.lease
    )


def _store_url(text: str) -> str:
    if not text.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError(
            "give a PostgreSQL address, like postgresql://cribtiles@db.example.org/cribtiles"
        )
    return text


def _lease(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds") from None
    if not 0.5 <= seconds <= 600:
        raise argparse.ArgumentTypeError("a lease is 0.5 to 600 seconds")
    return seconds


def _prepare_new(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    fields: dict[str, Any] = {"game": args.game, "seats": seats_asked(args.players, args.game), "rules": args.rules}
    if args.seed is not None:
        fields["seed"] = args.seed
    if args.coach:
        fields["coach"] = True
    if args.turn_timer is not None:
        fields["turn_timer"] = args.turn_timer
        fields["on_timeout"] = args.on_timeout
    if args.absent_bot is not None:
        fields["absent_bot"] = args.absent_bot
    if args.public:
        fields["public"] = True
    run = functools.partial(_new, _server(args.server), fields, args.json, args.data_dir)
    return functools.partial(_one_off, "online new", run)


def _prepare_bot(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    name = args.name.strip() if args.name is not None else None
    if name is not None:
        problem = name_problem(name) if name else "a seat's name has 1 to 40 characters"
        if problem:
            raise ValueError(f"--name: {problem}")
    run = functools.partial(_bot, _server(args.server), args.code, args.level.strip().lower(), name, args.seed)
    return functools.partial(_one_off, "online bot", functools.partial(_logged, args.data_dir, run))


def _logged(folder: Path | None, run: Callable[[], int]) -> int:
    """`run`, with the log written in `folder` when one is given."""
    if folder is not None:
        from .logs import setup_logging

        setup_logging(folder)
    return run()


def _prepare_status(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    url, code = table_named(args.server, args.code)
    run = functools.partial(_status, url, code, args.json, args.data_dir)
    return functools.partial(_one_off, "online status", run)


def _prepare_open(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    run = functools.partial(_open, _server(args.server), args.game, args.json, args.data_dir)
    return functools.partial(_one_off, "online open", run)


def _prepare_seat_bot(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    url, code = _server(args.server), _code(args.code)
    seat = args.seat.strip()
    if not seat:
        raise ValueError("SEAT: a seat's number (1, 2, …) or its name")
    token = args.host_token.strip() if args.host_token is not None else None
    if token is None:
        from .online_games import host_token
        from .storage import default_data_dir

        token = host_token(args.data_dir or default_data_dir(), url, code)
        if token is None:
            raise ValueError(
                f"no host token of table {code} at {for_terminal(url)[:80]} is kept in the data folder: give it "
                "with --host-token (online new printed it), or --data-dir for the folder where it is kept"
            )
    run = functools.partial(_seat_bot, url, code, seat, args.level.strip().lower(), token)
    return functools.partial(_one_off, "online seat-bot", run)


def table_named(server: str, code: str | None) -> tuple[str, str]:
    """The server and the code a command names: SERVER CODE, or an invitation link whole (then no CODE,
    or the link's own); ValueError in words.

    >>> table_named("ws://127.0.0.1:8765", "kxq mwd"), table_named("cribtiles://h:1/t/KXQMWD?tls=1", None)
    (('ws://127.0.0.1:8765', 'kxq mwd'), ('wss://h:1', 'KXQMWD'))
    """
    from cribtiles.online.invitation import is_invitation, read_invitation

    if is_invitation(server) and (code is None or not server.lower().startswith("http")):
        invitation = read_invitation(server)
        if code is not None and _letters(code) != invitation.code:
            raise ValueError(f"the link names table {invitation.code}, not {quoted(code)}: give the link alone")
        return _server(invitation.server), invitation.code
    if code is None:
        raise ValueError("give the table's code after SERVER, or its invitation link alone")
    return _server(server), _code(code)


def _code(text: str) -> str:
    """A code as typed; ValueError in words when it cannot be one."""
    if _CODE.fullmatch(text.strip()) is None:
        raise ValueError(f"a table's code is six letters, like KXQMWD, not {quoted(text)}")
    return text.strip()


def _letters(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalpha())


def _prepare_play(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    from cribtiles.rules import RuleOptions
    from cribtiles.ui.geometry import window_size  # pure arithmetic: no pygame is imported

    from .play import play_window

    url, code = table_named(args.server, args.code)
    name = args.name.strip() if args.name is not None else None
    if name is not None:
        problem = name_problem(name) if name else "a player's name has 1 to 40 characters"
        if problem:
            raise ValueError(f"--name: {problem}")
    size = window_size(args.size)
    table = (url, code, name)
    return functools.partial(play_window, args.data_dir, None, None, RuleOptions(), False, size, online_table=table)


# --- the runs ---


def _serve(
    folder: Path | None,
    host: str,
    port: int,
    proxies: Proxies | None,
    origins: tuple[str, ...],
    download: str | None = None,
    store: str | None = None,
    lease: float | None = None,
) -> int:
    from .serve import CannotServe, default_server_folder, serve

    def ready(line: str) -> None:
        print(line, flush=True)

    try:
        where = folder if folder is not None else default_server_folder()
        serve(where, host, port, ready, proxies, origins, download, store, lease)
    except CannotServe as e:
        say(f"cribtiles serve: {e}")
        return 2
    return 0


def _one_off(command: str, run: Callable[[], int]) -> int:
    """`run`, whose trouble (no server, a refusal, a lost connection) is one line and exit status 2."""
    from cribtiles.online.client import NotConnected, Refused

    try:
        return run()
    except Refused as e:
        say(f"cribtiles {command}: the server refused: {e}")
    except (NotConnected, Trouble) as e:
        say(f"cribtiles {command}: {e}")
    return 2


def _connect(url: str, patience: float = 0.0, command: str = "") -> Any:
    """The links to `url` (`ServerLinks`: a table's messages go on a link of that table's) once the server's
    own is up; Trouble in words when the server cannot be reached at once, or, with `patience`, in that
    many seconds, trying again meanwhile (said once on standard error, with `command`'s name)."""
    from cribtiles.online.client import ServerLinks

    link = ServerLinks(url, backoff=(0.25, 5.0))
    where = for_terminal(url)[:80]
    deadline = time.monotonic() + (patience or CONNECT_WAIT)
    told = False
    while not link.wait_connected(0.05):
        failed = bool(link.problem) and not link.connects
        if failed and patience and not told:
            waiting = f"waiting for the server to start (at most {patience:g} s)"
            say(f"cribtiles {command}: {where}: {link.problem}; {waiting}")
            told = True
        if (failed and not patience) or time.monotonic() > deadline:
            problem = link.problem or "the server did not answer in time"
            link.close()
            waited = f" (waited {patience:g} s)" if patience else ""
            raise Trouble(f"{where}: {problem}{waited}")
    return link


def _new(url: str, fields: dict[str, Any], as_json: bool, folder: Path | None = None) -> int:
    from cribtiles.online.invitation import invitation_to

    from .online_games import HostTokens
    from .storage import default_data_dir

    link = _connect(url)
    try:
        answer = link.request("create", timeout=ANSWER_WAIT, **fields)
    finally:
        link.close()
    code, host = str(answer["code"]), str(answer["host"])
    kept = folder or default_data_dir()
    try:  # for online seat-bot; the table is made whether or not it can be kept
        HostTokens(kept).add(url, code, host)
    except OSError as e:
        say(f"cribtiles online new: the host token could not be kept in {for_terminal(str(kept))[:80]} ({e.strerror})")
    link_text = invitation_to(url, code).web
    if as_json:
        told = {"server": url, "code": code, "host_token": host, "game": fields["game"], "seats": fields["seats"]}
        told["invitation"] = link_text
        print(json_for_terminal(json.dumps(told, indent=1, ensure_ascii=False)))
        return 0
    print(for_terminal(f"code {code}: players take their seats at the table with it"))
    print(for_terminal(f"host token {host}: keep it to yourself; it lets you give an absent player's seat to a bot"))
    print(for_terminal(f"invitation {link_text}: a browser shows the table and opens Crib Tiles at it"))
    return 0


def bot_name(level: str, taken: list[object]) -> str:
    """A bot's name at a table where the names `taken` sit already: its level's, numbered when two
    bots of one level share the table (a name sits only once).

    >>> bot_name("easy", ["Ann", None]), bot_name("easy", ["Easy bot", None]), bot_name("hard", [])
    ('Easy bot', 'Easy bot 2', 'Hard bot')
    """
    base = f"{level.title()[:30]} bot"
    names = {str(n).casefold() for n in taken if n}
    tried = [base] + [f"{base} {k}" for k in range(2, len(names) + 3)]
    return next(n for n in tried if n.casefold() not in names)


def _bot(url: str, code: str, level: str, name: str | None, seed: int | None) -> int:
    from cribtiles.online.botclient import SeatBot
    from cribtiles.online.client import NotConnected, Refused
    from cribtiles.server.rooms import levels

    # a bot is often started beside its server, which may be starting or restarting: it waits for it
    link = _connect(url, BOT_START_WAIT, "online bot")
    try:
        table = link.request("status", timeout=ANSWER_WAIT, code=code)
        game = str(table["table"].get("game"))
        if game in GAMES and level not in levels(game):
            raise Trouble(f"there is no bot level {quoted(level)} for {game}; the levels are {', '.join(levels(game))}")
        bot = SeatBot(link.table(code, ANSWER_WAIT), code, level, seed)
        seat, name = _sit(link, bot, code, name, table["table"])
        print(for_terminal(f"{name} sits at seat {seat + 1} of table {bot.code} and plays until the game is over"))
        sys.stdout.flush()
        bot.play(timeout=float("inf"))
        try:
            answer = link.request("status", timeout=ANSWER_WAIT, code=bot.code)
        except (NotConnected, Refused):  # over all the same: only its last words are missing
            answer = {"code": bot.code, "table": {"phase": "over", "game": game}}
    finally:
        link.close()
    print(for_terminal("\n".join(status_lines(str(answer["code"]), answer["table"]))))
    return 0


def _sit(link: ServerLinks, bot: SeatBot, code: str, name: str | None, table: dict[str, Any]) -> tuple[int, str]:
    """`bot` takes a seat at `code` as `name`, or under its level's name not taken there yet: two bots
    of one level started at once may both find the same name free, and the second tries the next."""
    from cribtiles.online.client import Refused

    for attempt in range(3):
        chosen = name if name is not None else bot_name(bot.level, [s.get("name") for s in _dicts(table.get("seats"))])
        try:
            return bot.take_seat(chosen), chosen
        except Refused:
            if name is not None or attempt == 2:
                raise
        table = link.request("status", timeout=ANSWER_WAIT, code=code)["table"]
    raise AssertionError("unreachable")


def _dicts(value: object) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _status(url: str, code: str, as_json: bool, folder: Path | None = None) -> int:
    link = _connect(url)
    try:
        answer = link.request("status", timeout=ANSWER_WAIT, code=code)
    finally:
        link.close()
    table = answer["table"]
    yours = _held_seats(folder, url).get(str(answer["code"]))
    if as_json:
        told = {"code": answer["code"], **table} | ({"yours": yours} if folder is not None else {})
        print(json_for_terminal(json.dumps(told, indent=1, ensure_ascii=False)))
    else:
        print(for_terminal("\n".join(status_lines(str(answer["code"]), table, yours))))
    return 0


def _held_seats(folder: Path | None, url: str) -> dict[str, int]:
    """The seats held at the tables of `url` that `folder` keeps (none without a folder): code -> seat."""
    if folder is None:
        return {}
    from .online_games import OnlineGames

    return {held.code: held.seat for held in OnlineGames(folder).seats() if held.server == url}


def _open(url: str, game: str | None, as_json: bool, folder: Path | None) -> int:
    link = _connect(url)
    try:
        answer = link.request("open_tables", timeout=ANSWER_WAIT, **({"game": game} if game else {}))
    finally:
        link.close()
    tables = _dicts(answer.get("tables"))
    held = _held_seats(folder, url)
    if as_json:
        told = {
            "server": url,
            "tables": [t | ({"yours": held.get(str(t.get("code")))} if folder else {}) for t in tables],
        }
        print(json_for_terminal(json.dumps(told, indent=1, ensure_ascii=False)))
        return 0
    print(for_terminal("\n".join(open_lines(url, tables, held))))
    return 0


def _seat_bot(url: str, code: str, seat: str, level: str, host: str) -> int:
    link = _connect(url)
    try:
        table = link.request("status", timeout=ANSWER_WAIT, code=code)
        seats = _dicts(table["table"].get("seats"))
        number = _seat_number(seat, seats)
        link.request("seat_bot", timeout=ANSWER_WAIT, code=code, host=host, seat=number, level=level)
        after = link.request("status", timeout=ANSWER_WAIT, code=code)
    finally:
        link.close()
    print(for_terminal(f"the {level} bot takes seat {number + 1} of table {table['code']}"))
    print(for_terminal("\n".join(status_lines(str(after["code"]), after["table"]))))
    return 0


def _seat_number(seat: str, seats: list[dict[str, Any]]) -> int:
    """The seat (0 first) that SEAT names: its number as status lists it (1 first), or its name.

    >>> _seat_number("2", [{"name": "Ann"}, {"name": None}]), _seat_number("ben", [{"name": "Ann"}, {"name": "Ben"}])
    (1, 1)
    """
    if seat.isdigit():
        if not 1 <= int(seat) <= len(seats):
            raise Trouble(f"the table has seats 1 to {len(seats)}, not {seat}")
        return int(seat) - 1
    found = [n for n, s in enumerate(seats) if str(s.get("name") or "").casefold() == seat.casefold()]
    if not found:
        raise Trouble(f"no seat at the table is {quoted(seat, 40)}: give its number, as status lists it")
    return found[0]


# --- what is said ---


def open_lines(url: str, tables: list[dict[str, Any]], held: dict[str, int] | None = None) -> list[str]:
    """`open`'s lines for the open tables a server listed (the caller makes them safe to print).

    >>> seats = [{"name": "Ann", "kind": "person"}, {"name": None, "kind": "open"}, {"level": "hard", "kind": "bot"}]
    >>> table = {"code": "KXQMWD", "game": "tiles", "seats": seats, "settings": {"rules": "joker=on"}, "open": 1}
    >>> for line in open_lines("ws://h:1", [table]):
    ...     print(line)
    1 open table at ws://h:1 (join one: cribtiles online play ws://h:1 CODE)
      KXQMWD  tiles  1 seat open  Ann, (open), Hard  joker=on
    """
    count = len(tables)
    lines = [
        f"{count} open table{'s' if count != 1 else ''} at {url}"
        + (f" (join one: cribtiles online play {url} CODE)" if count else ": none has a seat open now")
    ]
    for table in tables:
        free = _int(table.get("open"))
        names = ", ".join(_seat_name(s) for s in _list(table.get("seats")))
        rules = table.get("settings", {}).get("rules") if isinstance(table.get("settings"), dict) else ""
        code = str(table.get("code"))[:12]
        mine = "  (your seat is there)" if held and code in held else ""
        parts = [f"  {code}", str(table.get("game"))[:12], f"{free} seat{'s' if free != 1 else ''} open", names]
        lines.append("  ".join([*parts, str(rules or "")[:80]]).rstrip() + mine)
    return lines


def status_lines(code: str, table: dict[str, Any], yours: int | None = None) -> list[str]:
    """`status`'s lines for a table as the server summed it up (the caller makes them safe to print).

    >>> seats = [{"name": "Ann", "kind": "person", "level": None, "present": True, "away": None},
    ...          {"name": None, "kind": "open", "level": None, "present": False, "away": 30}]
    >>> status_lines("KXQMWD", {"game": "tiles", "phase": "waiting", "ply": 1, "seats": seats})
    ['table KXQMWD: tiles, waiting for 1 more player', '  1. Ann     here', '  2. (open)']
    """
    phase, seats = table.get("phase"), _list(table.get("seats"))
    scores, to_move = _list(table.get("scores")), table.get("to_move")
    head = f"table {code}: {table.get('game')}"
    if phase == "waiting":
        open_seats = sum(1 for s in seats if isinstance(s, dict) and s.get("kind") == "open")
        head += f", waiting for {open_seats} more player{'s' if open_seats != 1 else ''}"
    elif phase == "playing":
        head += f", playing: turn {_int(table.get('turns')) + 1}"
        if _int(table.get("rounds"), 1) > 1:
            head += f" of round {table.get('round')} of {table.get('rounds')}"
        if isinstance(table.get("since_last_move"), int):
            head += f", the last move {_ago(table['since_last_move'])}"
    elif table.get("aborted"):
        head += ", aborted before its first move: no result"
    else:
        head += f", over after {_int(table.get('turns'))} turns"
    lines = [head]
    width = max((len(_seat_name(s)) for s in seats), default=0)
    for number, seat in enumerate(seats):
        parts = [f"  {number + 1}. {_seat_name(seat).ljust(width)}"]
        if number < len(scores):
            parts.append(f"{scores[number]:>4}")
        if phase != "over":  # once it is over, who is still connected says nothing
            parts.append(_presence(seat))
        if phase == "playing" and to_move == number:
            parts.append("<- to move")
        if yours == number:
            parts.append("(you)")
        lines.append("  ".join(p for p in parts if p).rstrip())
    if phase == "over" and not table.get("aborted"):
        lines.append(_ending(table, seats))
    return lines


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _seat_name(seat: object) -> str:
    if not isinstance(seat, dict):
        return "?"
    name = seat.get("name")
    if name:
        return str(name)[:40]
    level = seat.get("level")  # the server's bot, named once the game begins
    return str(level)[:30].capitalize() if seat.get("kind") == "bot" and level else "(open)"


def _presence(seat: object) -> str:
    """Whether a seat's person is here, and what plays for them while away.

    >>> _presence({"kind": "person", "present": False, "away": 200, "host_bot": "medium"})
    "away 3 min, the host's medium bot plays for them"
    """
    if not isinstance(seat, dict):
        return ""
    if seat.get("kind") == "bot":
        return f"the server's bot ({seat.get('level')})"
    if seat.get("kind") == "open":
        return ""
    if seat.get("present"):
        return "here"
    away = seat.get("away")
    host_bot = seat.get("host_bot")
    bot = f", the host's {str(host_bot)[:20]} bot plays for them" if isinstance(host_bot, str) else ""
    return (f"away {_span(away)}" if isinstance(away, int) else "away") + bot


def _span(seconds: int) -> str:
    """A time as the window says it (`span_words`), in seconds under a minute.

    >>> _span(30), _span(600), _span(7200), _span(200_000)
    ('30 s', '10 min', '2 h', '2 days')
    """
    return span_words(seconds) or f"{seconds} s"


def _ago(seconds: int) -> str:
    return "just now" if seconds < 5 else f"{_span(seconds)} ago"


def _ending(table: dict[str, Any], seats: list[Any]) -> str:
    ended = table.get("ended")
    how = ENDINGS.get(ended, str(ended)[:60]) if isinstance(ended, str) else "the game ended"
    resigned = table.get("resigned")
    if isinstance(resigned, int) and 0 <= resigned < len(seats):  # the others won, tied or not
        how = f"{_seat_name(seats[resigned])} resigned"
    winners = [_seat_name(seats[w]) for w in _list(table.get("winners")) if isinstance(w, int) and 0 <= w < len(seats)]
    if not winners:
        return f"ended: {how}"
    # several winners share a tile game's end (a tie), unless the others won by a resignation; a game that
    # ends by a margin (cribbage's: not among ENDINGS) is won by one side, so several winners are partners
    tied = len(winners) > 1 and not isinstance(resigned, int) and ended in ENDINGS
    return f"ended: {how}; {' and '.join(winners)} {'tied' if tied else 'won'}"
