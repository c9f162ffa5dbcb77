"""`cribtiles serve` and `cribtiles online new|bot|status|play`: a server for online play, and its tables
from the command line (create one, put a bot of this computer in a seat, see how one stands, or sit down
at one in the window). What the server sends reaches the terminal with no control character; failures
are one line and exit status 2 (issue 31).

    cribtiles serve --port 8765
    cribtiles online new ws://127.0.0.1:8765 --players Ann,?,hard
    cribtiles online bot ws://127.0.0.1:8765 KXQMWD --level medium
    cribtiles online status ws://127.0.0.1:8765 KXQMWD
    cribtiles online play ws://127.0.0.1:8765 KXQMWD --name Ben
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

from cribtiles.names import name_problem
from cribtiles.quoting import quoted
from cribtiles.terminal import for_terminal, json_for_terminal, say

from .commands import runs
from .files import folder_named

if TYPE_CHECKING:
    from cribtiles.online.botclient import SeatBot
    from cribtiles.online.client import Link
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


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles online`'s sub-commands: new, bot, status and play."""
    ap.description = (
        "Online tables from the command line: create one, put a bot in a seat, see how one stands, "
        "or sit down at one in the window."
    )
    ap.epilog = "SERVER is the server's address, like ws://192.168.1.20:8765 (wss:// behind a TLS proxy)."
    commands = ap.add_subparsers(dest="online", required=True, metavar="new|bot|status|play")
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
    new.add_argument("--json", action="store_true", help="print a JSON object")
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
    runs(bot, _prepare_bot)
    status = commands.add_parser(
        "status",
        help="the seats, whose turn, the scores, and how the game ended",
        description="How the table CODE stands: its seats, whose turn it is, the scores, and how it ended.",
    )
    status.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765")
    status.add_argument("code", metavar="CODE", help="the table's code")
    status.add_argument("--json", action="store_true", help="print a JSON object")
    runs(status, _prepare_status)
    play = commands.add_parser(
        "play",
        help="open the window at the table, seated",
        description="Open the window straight at the table CODE, seated: in the open seat, in the one kept for "
        "--name, or back in the seat you hold there already (kept in the data folder). It is the Online screen's "
        "Join with a code, filled in; what goes wrong is said there.",
    )
    play.add_argument("server", metavar="SERVER", help="the server's address, like ws://127.0.0.1:8765")
    play.add_argument("code", metavar="CODE", help="the table's code (capitals or not, spaces or not)")
    play.add_argument("--name", help="your name at the table (default: the one you used last online)")
    play.add_argument(
        "--data-dir", type=folder_named, help="keep saves and settings in this folder (default: the user data folder)"
    )
    play.add_argument("--size", help="window size, like 1280x800")
    runs(play, _prepare_play)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {quoted(text)}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {port:,}")
    return port


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
    return functools.partial(_serve, args.data_dir, args.host, args.port, *doors)


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
    return functools.partial(_one_off, "online new", functools.partial(_new, _server(args.server), fields, args.json))


def _prepare_bot(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    name = args.name.strip() if args.name is not None else None
    if name is not None:
        problem = name_problem(name) if name else "a seat's name has 1 to 40 characters"
        if problem:
            raise ValueError(f"--name: {problem}")
    run = functools.partial(_bot, _server(args.server), args.code, args.level.strip().lower(), name, args.seed)
    return functools.partial(_one_off, "online bot", run)


def _prepare_status(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    run = functools.partial(_status, _server(args.server), args.code, args.json)
    return functools.partial(_one_off, "online status", run)


def _prepare_play(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    from cribtiles.rules import RuleOptions
    from cribtiles.ui.geometry import window_size  # pure arithmetic: no pygame is imported

    from .play import play_window

    url = _server(args.server)
    if _CODE.fullmatch(args.code.strip()) is None:
        raise ValueError(f"a table's code is six letters, like KXQMWD, not {quoted(args.code)}")
    name = args.name.strip() if args.name is not None else None
    if name is not None:
        problem = name_problem(name) if name else "a player's name has 1 to 40 characters"
        if problem:
            raise ValueError(f"--name: {problem}")
    size = window_size(args.size)
    table = (url, args.code.strip(), name)
    return functools.partial(play_window, args.data_dir, None, None, RuleOptions(), False, size, online_table=table)


# --- the runs ---


def _serve(folder: Path | None, host: str, port: int, proxies: Proxies | None, origins: tuple[str, ...]) -> int:
    from .serve import CannotServe, default_server_folder, serve

    def ready(line: str) -> None:
        print(line, flush=True)

    try:
        serve(folder if folder is not None else default_server_folder(), host, port, ready, proxies, origins)
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
    """A `Link` to `url` once it is up; Trouble in words when the server cannot be reached at once, or,
    with `patience`, in that many seconds, trying again meanwhile (said once on standard error, with
    `command`'s name)."""
    from cribtiles.online.client import Link

    link = Link(url, backoff=(0.25, 5.0))
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


def _new(url: str, fields: dict[str, Any], as_json: bool) -> int:
    link = _connect(url)
    try:
        answer = link.request("create", timeout=ANSWER_WAIT, **fields)
    finally:
        link.close()
    code, host = str(answer["code"]), str(answer["host"])
    if as_json:
        told = {"server": url, "code": code, "host_token": host, "game": fields["game"], "seats": fields["seats"]}
        print(json_for_terminal(json.dumps(told, indent=1, ensure_ascii=False)))
        return 0
    print(for_terminal(f"code {code}: players take their seats at the table with it"))
    print(for_terminal(f"host token {host}: keep it to yourself; it lets you give an absent player's seat to a bot"))
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
        bot = SeatBot(link, code, level, seed)
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


def _sit(link: Link, bot: SeatBot, code: str, name: str | None, table: dict[str, Any]) -> tuple[int, str]:
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


def _status(url: str, code: str, as_json: bool) -> int:
    link = _connect(url)
    try:
        answer = link.request("status", timeout=ANSWER_WAIT, code=code)
    finally:
        link.close()
    table = answer["table"]
    if as_json:
        print(json_for_terminal(json.dumps({"code": answer["code"], **table}, indent=1, ensure_ascii=False)))
    else:
        print(for_terminal("\n".join(status_lines(str(answer["code"]), table))))
    return 0


# --- what is said ---


def status_lines(code: str, table: dict[str, Any]) -> list[str]:
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
        lines.append("  ".join(p for p in parts if p).rstrip())
    if phase == "over":
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
    if not isinstance(seat, dict):
        return ""
    if seat.get("kind") == "bot":
        return f"the server's bot ({seat.get('level')})"
    if seat.get("kind") == "open":
        return ""
    if seat.get("present"):
        return "here"
    away = seat.get("away")
    return f"away {_span(away)}" if isinstance(away, int) else "away"


def _span(seconds: int) -> str:
    """A time in its largest unit.

    >>> _span(30), _span(600), _span(7200), _span(200_000)
    ('30 s', '10 min', '2 h', '2 days')
    """
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{seconds // 60} min"
    if seconds < 2 * 86_400:
        return f"{seconds // 3600} h"
    return f"{seconds // 86_400} days"


def _ago(seconds: int) -> str:
    return "just now" if seconds < 5 else f"{_span(seconds)} ago"


def _ending(table: dict[str, Any], seats: list[Any]) -> str:
    ended = table.get("ended")
    how = ENDINGS.get(ended, str(ended)[:60]) if isinstance(ended, str) else "the game ended"
    winners = [_seat_name(seats[w]) for w in _list(table.get("winners")) if isinstance(w, int) and 0 <= w < len(seats)]
    if not winners:
        return f"ended: {how}"
    # a game that ends by a margin (cribbage's) is won by one side: several winners are partners, not a tie
    from cribtiles.cribbage.events import MarginKind

    tied = len(winners) > 1 and ended not in tuple(MarginKind)
    return f"ended: {how}; {' and '.join(winners)} {'tied' if tied else 'won'}"
