"""An online table (`Room`): its seats (people who take them with the table's code and come back with
their seat's secret token, bots the server runs, seats still open), its game (the tile game's or
cribbage's part, `GameAtTable`), and the one count of what has happened at it (`ply`) by which every
act is judged: an act for an old ply is refused, unless it is the very act the seat made then (a resend
after a dropped connection), which is answered again and changes nothing. Pure: no socket, no clock of
its own (`now` is passed in), no randomness but the codes and tokens (issue 31)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from cribtiles.games import ROOM, game_named
from cribtiles.names import name_problem
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.chat import CHAT_LIMIT
from cribtiles.table.core import BotRequest
from cribtiles.table.seats import Seat, seat_names

from .rematch import RematchAsk, RematchEnd

#: The letters of an invitation code: no I or O (read as 1 and 0), 24**6 = 191 million codes.
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 6
MAX_CHAT_KEPT = 50
TIMEOUTS = ("bot", "pass")
#: Seconds a person must have been away before the host may put a bot in their seat during the game: long
#: enough that a dropped connection has come back by itself, short enough that the others do not wait long.
HOST_BOT_AWAY = 120


def new_code(taken: Callable[[str], bool]) -> str:
    """A fresh invitation code not `taken`."""
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code


def normal_code(text: str) -> str:
    """A code as typed ("abc-def ", "abcdef") as the server keeps it ("ABCDEF")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())[:12]


def new_token() -> str:
    """A seat's secret: 192 random bits, as URL-safe text."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the server keeps of a token (its SHA-256): a stolen store gives no seat away."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class GameAtTable(Protocol):
    """A game's part of an online table (the tile game's `TilesGame`, cribbage's `CribbageGame`)."""

    name: str

    def dump(self) -> str: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def round_over(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    def shown(self, seat: int | None) -> dict[str, Any]: ...

    def act(self, seat: int, message: dict[str, Any]) -> None: ...

    def call(self, seat: int) -> None: ...

    def next_round(self) -> None: ...

    def undo(self, seat: int) -> None: ...

    def undo_check(self, seat: int) -> None:
        """IllegalMove, in words, when `seat` may not take back its last turn now."""
        ...

    def count_hint(self) -> None: ...

    def bot_request(self) -> BotRequest[Any] | None: ...

    def play_bot(self, move: Any, request: BotRequest[Any]) -> bool: ...

    def stand_in(self, seat: int, level: str | None, why: str = "timer") -> str:
        """Move for `seat`; `why`: "timer" (its time ran out) or "away" (away too long), kept with the turn."""
        ...

    #: The turns a stand-in made, by (round, turn) (cribbage: round 0, the game's move number): why.
    stand_ins: dict[tuple[int, int], str]

    @property
    def begun(self) -> bool:
        """A move has been made (the first round's first turn, cribbage's first discard)."""
        ...

    @property
    def resigned(self) -> int | None:
        """The seat that gave the game up, or None."""
        ...

    def resign(self, seat: int) -> None:
        """`seat` gives the game up (a match: the whole match): the others win; IllegalMove in words."""
        ...

    def stand_in_request(self, seat: int, level: str) -> BotRequest[Any] | None:
        """What a bot of `level` moving for the person at `seat` must decide (None: not their turn)."""
        ...

    def play_stand_in(self, move: Any, request: BotRequest[Any]) -> bool:
        """The move chosen for `request` made for its person; False when the game has moved on since."""
        ...

    def summary(self) -> dict[str, Any]: ...

    @property
    def chooser(self) -> Callable[[BotRequest[Any]], Any]:
        """The bots' choice: a function of a request alone, run beside the server's loop."""
        ...


@dataclass
class Place:
    """A seat of an online table: a person's (named when made, or open until someone takes it) or a
    bot's the server runs. `token_hash` is set once a person has taken it."""

    kind: str  # "person" or "bot"
    name: str | None
    level: str | None = None
    token_hash: str | None = None
    # during the game, the level of the bot the host put in this person's seat while they are away (their
    # seat stays theirs: it moves for them until they come back)
    host_bot: str | None = None

    @property
    def open(self) -> bool:
        return self.kind == "person" and self.name is None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def seat(self) -> Seat:
        assert self.name is not None
        return Seat(self.name, self.level)

    def data(self) -> dict[str, Any]:
        kept = {"kind": self.kind, "name": self.name, "level": self.level, "token_hash": self.token_hash}
        return kept | ({"host_bot": self.host_bot} if self.host_bot else {})  # as kept before, without one


@dataclass
class Settings:
    """What the creator chose for the table beyond the game's rules."""

    rules: str = ""
    coach: bool = False  # hints and reviews allowed at this table
    turn_timer: int | None = None  # seconds a person has for a move (None: no limit)
    on_timeout: str = "bot"  # "bot": a bot moves for them; "pass": they pass
    absent_bot: int | None = None  # seconds away before a bot moves for an absent person (None: never)
    public: bool = False  # listed among the server's open tables while a seat is open: anyone may join

    def data(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "coach": self.coach,
            "turn_timer": self.turn_timer,
            "on_timeout": self.on_timeout,
            "absent_bot": self.absent_bot,
            "public": self.public,
        }


class UndoEnd(StrEnum):
    """How a request to take back a turn ended (its value is the protocol's word)."""

    MADE = "made"  # everyone agreed: the turn went back
    REFUSED = "refused"
    WITHDRAWN = "withdrawn"
    MOVED = "moved"  # a move was made meanwhile


@dataclass
class UndoAsk:
    """A person's request to take back their last turn (`seat`, asked at `ply`): the people who have
    agreed, and once it is over how it ended ("made", "refused" by `by`, "withdrawn", or "moved": a
    move was made meanwhile) at which ply (`until`). Only one at a time; the server's bots never need
    asking."""

    seat: int
    ply: int
    agreed: list[int] = field(default_factory=list)
    ended: UndoEnd | None = None
    by: int | None = None
    until: int | None = None

    def data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "ply": self.ply,
            "agreed": list(self.agreed),
            "ended": self.ended,
            "by": self.by,
            "until": self.until,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> UndoAsk | None:
        if data is None:
            return None
        agreed = [int(s) for s in data["agreed"]]
        ended = None if data["ended"] is None else UndoEnd(data["ended"])
        return cls(int(data["seat"]), int(data["ply"]), agreed, ended, data["by"], data["until"])


class GameRules(Protocol):
    """A game's rules at an online table, as the registry hands them to the server (its `ROOM` part: the
    class of its `GameAtTable`)."""

    levels: tuple[str, ...]  # the bots that may sit at its tables

    def check(self, seats: int, rules: str) -> None: ...

    def start(self, seats: Sequence[Seat], rules: str, seed: int) -> GameAtTable: ...

    def load(self, text: str) -> GameAtTable: ...

    def bot_seat(self, level: str) -> Seat: ...


def rules_of(game: str) -> GameRules:
    """The server's part of the game called `game`; ValueError in words for a game it does not host."""
    kind: GameRules = game_named(game).part(ROOM)
    return kind


def levels(game: str) -> tuple[str, ...]:
    return rules_of(game).levels


def bot_seat(game: str, level: str) -> Seat:
    """A bot's seat, named as a table at one window names it (the tile game's by its level, "Medium";
    cribbage's as a bot, "Medium bot")."""
    return rules_of(game).bot_seat(level)


def read_places(game: str, told: Sequence[object]) -> list[Place]:
    """The seats a `create` message asks for: `{"kind": "person", "name": "Ann"}`, `{"kind": "open"}`,
    `{"kind": "bot", "level": "hard"}`; ValueError in words."""
    if not 2 <= len(told) <= 4:
        raise ValueError(f"a table has 2 to 4 seats, not {len(told)}")
    places = []
    for entry in told:
        if not isinstance(entry, dict):
            raise ValueError("a seat is an object with its kind")
        kind = entry.get("kind")
        if kind == "open":
            places.append(Place("person", None))
        elif kind == "person":
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                raise ValueError("a seat needs a name")
            problem = name_problem(name)
            if problem:
                raise ValueError(problem)
            places.append(Place("person", name.strip()))
        elif kind == "bot":
            level = entry.get("level")
            if level not in levels(game):
                raise ValueError(f"there is no bot level {str(level)[:20]!r}; the levels are {', '.join(levels(game))}")
            places.append(Place("bot", None, str(level)))
        else:
            raise ValueError("a seat is a person's, an open one or a bot's")
    named = [p.name.lower() for p in places if p.name]
    if len(named) != len(set(named)):
        raise ValueError("two seats have the same name")
    if not any(p.kind == "person" for p in places):
        raise ValueError("a table online has at least one person's seat")
    return places


def check_game(game: str, seats: int, settings: Settings) -> None:
    """ValueError in words when the game cannot be played so."""
    rules_of(game).check(seats, settings.rules)
    if settings.turn_timer is not None and not 10 <= settings.turn_timer <= 30 * 86_400:
        raise ValueError("a turn timer runs from 10 seconds to 30 days")
    if settings.absent_bot is not None and not 10 <= settings.absent_bot <= 30 * 86_400:
        raise ValueError("a bot takes an absent seat after 10 seconds to 30 days")
    if settings.on_timeout not in TIMEOUTS:
        raise ValueError("when time runs out a bot moves (bot) or the player passes (pass)")


def start_game(game: str, seats: Sequence[Seat], rules: str, seed: int) -> GameAtTable:
    return rules_of(game).start(seats, rules, seed)


def load_game(game: str, text: str) -> GameAtTable:
    return rules_of(game).load(text)


@dataclass
class Room:
    """An online table. Every change counts one `ply`; `done` keeps each seat's last act (its ply and
    what it asked) so that the same act sent again is answered, not made twice."""

    code: str
    game_name: str
    places: list[Place]
    settings: Settings
    seed: int
    host_hash: str
    created: float
    ply: int = 0
    game: GameAtTable | None = None
    last_change: float = 0.0
    done: dict[int, tuple[int, str]] = field(default_factory=dict)
    chat: list[dict[str, Any]] = field(default_factory=list)
    undo_ask: UndoAsk | None = None  # the last request to take back a turn (waiting, or how it ended)
    aborted: bool = False  # ended before its first move, with no result (its game let go of)
    rematch: RematchAsk | None = None  # the last request to play again (waiting, or how it ended)
    # not kept: who is connected now, and since when a seat has been away
    present: dict[int, int] = field(default_factory=dict)
    away_since: dict[int, float] = field(default_factory=dict)

    @classmethod
    def new(
        cls, code: str, game: str, places: list[Place], settings: Settings, seed: int, now: float
    ) -> tuple[Room, str]:
        """A new table and its host's token (the creator's: lets bots take absent seats)."""
        check_game(game, len(places), settings)
        host = new_token()
        room = cls(code, game, places, settings, seed, token_hash(host), now, last_change=now)
        for seat in range(len(places)):
            room.away_since[seat] = now
        room._start_if_full()
        return room, host

    # --- seats ---

    @property
    def phase(self) -> str:
        if self.aborted:
            return "over"
        if self.game is None:
            return "waiting"
        return "over" if self.game.over else "playing"

    def _start_if_full(self) -> None:
        if self.game is None and not any(p.open for p in self.places):
            seats = seat_names(
                [p.seat() if p.kind == "person" else bot_seat(self.game_name, p.level or "") for p in self.places]
            )
            for place, seat in zip(self.places, seats, strict=True):
                place.name = seat.name
            self.game = start_game(self.game_name, seats, self.settings.rules, self.seed)

    def take(self, name: str, now: float, seat: int | None = None) -> tuple[int, str]:
        """`name` takes a seat: theirs if one was named for them, else the first open one (or `seat`);
        its secret token. IllegalMove in words."""
        name = name.strip()
        problem = name_problem(name) if name else "a name has 1 to 40 characters"
        if problem:
            raise IllegalMove(problem)
        if self.aborted:
            raise IllegalMove("this table was aborted before its first move: it has no seat to take")
        named = [(s, p) for s, p in enumerate(self.places) if p.kind == "person" and p.name]
        mine = [s for s, p in named if (p.name or "").lower() == name.lower()]
        if mine:
            chosen = mine[0]
            if self.places[chosen].taken:
                raise IllegalMove(f"{name}'s seat is taken: come back to it with its token")
        else:
            free = [s for s, p in enumerate(self.places) if p.open]
            if seat is not None:
                free = [s for s in free if s == seat]
            if not free:
                raise IllegalMove("no seat is open at this table")
            if any(p.name and p.name.lower() == name.lower() for p in self.places):
                raise IllegalMove(f"someone called {name} sits at this table already: choose another name")
            chosen = free[0]
            self.places[chosen].name = name
        token = new_token()
        self.places[chosen].token_hash = token_hash(token)
        if self.game is None:  # once the game is on a seat taken moves nothing: an act in flight stays good
            self._change(now)
        self._start_if_full()
        return chosen, token

    def seat_of(self, token: str) -> int | None:
        """The seat `token` opens (None: none)."""
        wanted = token_hash(token)
        for seat, place in enumerate(self.places):
            if place.token_hash is not None and hmac.compare_digest(place.token_hash, wanted):
                return seat
        return None

    def is_host(self, token: str) -> bool:
        return hmac.compare_digest(self.host_hash, token_hash(token))

    def arrive(self, seat: int) -> bool:
        """`seat`'s person is here (on one more connection); True when a bot the host put in their seat
        has left it to them (a change to keep)."""
        self.present[seat] = self.present.get(seat, 0) + 1
        self.away_since.pop(seat, None)
        place = self.places[seat]
        back, place.host_bot = place.host_bot is not None, None
        return back

    def depart(self, seat: int, now: float) -> None:
        self.present[seat] = max(0, self.present.get(seat, 0) - 1)
        if not self.present[seat]:
            self.away_since[seat] = now
            ask = self.rematch
            if ask is not None and ask.ended is None and self.places[seat].kind == "person":
                ask.ended, ask.by = RematchEnd.GONE, seat  # a new table needs everyone at this one

    def _change(self, now: float) -> None:
        self.ply += 1
        self.last_change = now

    # --- acts ---

    def act(self, seat: int, message: dict[str, Any], now: float) -> bool:
        """`seat` does what `message` (an act, a call, next_round, undo) asks, at the ply it names: True
        when done now, False when it was done already (the same message sent again); IllegalMove in
        words for anything else, which changes nothing."""
        if message["type"] in ("undo", "undo_answer"):
            return self._take_back(seat, message, now)
        key = json.dumps({k: message.get(k) for k in ("type", "move", "declared")}, sort_keys=True)
        if message["ply"] != self.ply:
            if self.done.get(seat) == (message["ply"], key):
                return False
            # the plys stay the client's business: a player reads that something happened meanwhile
            raise IllegalMove("the table has moved on since: another move was made first, so nothing was done")
        game = self._game()
        kind = message["type"]
        if kind == "act":
            game.act(seat, message)
        elif kind == "call":
            game.call(seat)
        elif kind == "next_round":
            game.next_round()
        else:
            raise IllegalMove("an unknown act")
        self.done[seat] = (message["ply"], key)
        self._change(now)
        self._lapse()
        return True

    # --- taking back a turn, by agreement ---

    def _name(self, seat: int) -> str:
        return self.places[seat].name or f"seat {seat + 1}"

    def waiting_for(self, ask: UndoAsk) -> list[int]:
        """The people who have not yet agreed to `ask` (the server's bots agree by themselves)."""
        return [s for s, p in enumerate(self.places) if p.kind == "person" and s != ask.seat and s not in ask.agreed]

    def may_ask(self, seat: int) -> bool:
        """No request waits, and `seat`'s last one was not turned down with nothing moved since."""
        ask = self.undo_ask
        if ask is None or ask.ended in (UndoEnd.MADE, UndoEnd.MOVED):
            return True
        return ask.ended is not None and not (ask.seat == seat and ask.until == self.ply)

    def _ended_words(self, ask: UndoAsk) -> str:
        if ask.ended == UndoEnd.REFUSED and ask.by is not None:
            return f"{self._name(ask.by)} said no"
        words = {UndoEnd.WITHDRAWN: "it was withdrawn", UndoEnd.MADE: "the move was taken back"}
        return words.get(ask.ended, "the table moved on") if ask.ended is not None else "it is waiting"

    def _take_back(self, seat: int, message: dict[str, Any], now: float) -> bool:
        """`undo` asks to take back `seat`'s last turn (made at once when no one else need agree);
        `undo_answer` agrees or refuses (the asker's no withdraws). True when something changed, False for
        the same request or answer sent again; IllegalMove in words for anything else."""
        game = self._game()
        ask, ply = self.undo_ask, message["ply"]
        if message["type"] == "undo":
            if ask is not None and ask.seat == seat and ask.ply == ply and ask.ended in (None, UndoEnd.MADE):
                return False  # the same request again (waiting, or made already)
            if ply != self.ply:
                raise IllegalMove("the table has moved on since you asked: another move was made first")
            if ask is not None and ask.ended is None:
                raise IllegalMove(f"{self._name(ask.seat)} is asking to take back a move already: one at a time")
            if ask is not None and not self.may_ask(seat):
                raise IllegalMove(f"{self._ended_words(ask)}: a move is asked back once")
            game.undo_check(seat)
            return self._agreed(UndoAsk(seat, ply), None, now)
        yes = message["yes"]
        if ask is None or ask.ply != ply:
            raise IllegalMove("no one is asking to take back a move now")
        if ask.ended is not None:
            again = (
                (ask.ended == UndoEnd.MADE and yes and seat in ask.agreed)
                or (ask.ended == UndoEnd.REFUSED and not yes and ask.by == seat)
                or (ask.ended == UndoEnd.WITHDRAWN and not yes and ask.seat == seat)
            )
            if again:
                return False
            raise IllegalMove(f"that request is over: {self._ended_words(ask)}")
        if seat == ask.seat:
            if yes:
                raise IllegalMove("you asked: the others answer")
            ask.ended, ask.until = UndoEnd.WITHDRAWN, self.ply
            return True
        if not yes:
            ask.ended, ask.by, ask.until = UndoEnd.REFUSED, seat, self.ply
            return True
        if seat in ask.agreed:
            return False
        return self._agreed(ask, seat, now)

    def _agreed(self, ask: UndoAsk, seat: int | None, now: float) -> bool:
        """`seat` (None: nobody new) agrees to `ask`: the turn is taken back once every person has."""
        agreed = [*ask.agreed, *([] if seat is None else [seat])]
        if not self.waiting_for(replace(ask, agreed=agreed)):
            self._game().undo(ask.seat)  # refused in words before anything changes
            self._change(now)
            ask.ended, ask.until = UndoEnd.MADE, self.ply
        ask.agreed = agreed
        self.undo_ask = ask
        return True

    def _lapse(self) -> None:
        """A move made while a request waits ends it: the table has moved on."""
        ask = self.undo_ask
        if ask is not None and ask.ended is None:
            ask.ended, ask.until = UndoEnd.MOVED, self.ply

    def undo_told(self) -> dict[str, Any] | None:
        """The request to take back a turn, as every seat is told it: while it waits, and in the state
        that ended it (no tile of it: who asked, who agreed, who is still to answer)."""
        ask = self.undo_ask
        if ask is None or (ask.ended is not None and ask.until != self.ply):
            return None
        return {
            "seat": ask.seat,
            "ply": ask.ply,
            "agreed": sorted(ask.agreed),
            "waiting": [] if ask.ended is not None else self.waiting_for(ask),
            "ended": ask.ended,
            "by": ask.by,
        }

    def _game(self) -> GameAtTable:
        if self.game is None:
            raise IllegalMove("the game starts once every seat is taken")
        return self.game

    def count_hint(self) -> None:
        if not self.settings.coach:
            raise IllegalMove("the coach is not at this table: its creator did not allow hints")
        self._game().count_hint()

    def say(self, seat: int | None, name: str, text: str, now: float) -> dict[str, Any]:
        """A chat line, plain and bounded: control characters become spaces."""
        clean = "".join(ch if ch.isprintable() else " " for ch in text[:CHAT_LIMIT]).strip()
        if not clean:
            raise IllegalMove("say something")
        line = {"seat": seat, "name": name, "text": clean, "at": now}
        self.chat = [*self.chat[-(MAX_CHAT_KEPT - 1) :], line]
        return line

    def seat_bot(self, seat: int, level: str, now: float) -> str:
        """The host lets a bot of `level` take `seat`: before the game, a person's seat no one is in (open,
        or its person away), for good; during the game, the seat of a person away `HOST_BOT_AWAY` seconds
        or more, until they come back. What was done, in a sentence for the table. IllegalMove in words."""
        if self.aborted:
            raise IllegalMove("this table was aborted before its first move")
        if not 0 <= seat < len(self.places) or self.places[seat].kind != "person":
            raise IllegalMove("that is not a person's seat")
        place = self.places[seat]
        who = place.name or "the open seat"
        if self.present.get(seat):
            raise IllegalMove(f"{who} is here: a bot takes only an absent player's seat")
        if level not in levels(self.game_name):
            raise IllegalMove(
                f"there is no bot level {level[:20]!r}; the levels are {', '.join(levels(self.game_name))}"
            )
        if self.game is None:
            given = f"{place.name}'s seat" if place.name else "an open seat"
            place.kind, place.level, place.token_hash = "bot", level, None
            place.name = None
            self._change(now)
            self._start_if_full()
            return f"The host gave {given} to the {level} bot."
        if self.game.over:
            raise IllegalMove("the game is over: no seat needs a bot")
        away = round(now - self.away_since.get(seat, now))
        if away < HOST_BOT_AWAY:
            raise IllegalMove(
                f"{who} has been away {away} s; a bot may take a player's seat once they have been away "
                f"{HOST_BOT_AWAY // 60} minutes (a dropped connection comes back by itself before that)"
            )
        place.host_bot = level
        return f"{who} is away, so the host has given their seat to the {level} bot until they come back."

    # --- the end of a table: resigning, aborting, playing again ---

    @property
    def people(self) -> list[int]:
        return [s for s, p in enumerate(self.places) if p.kind == "person"]

    def resign(self, seat: int, now: float) -> str:
        """`seat` (a person's) gives the game up: it ends at once and the others win (a tile match: the whole
        match). What happened, in a sentence for the table ("" when `seat` had resigned already: the same
        message sent again changes nothing); IllegalMove in words otherwise."""
        game = self._game()
        if game.resigned == seat:
            return ""
        if game.over:
            raise IllegalMove("the game is over: there is nothing to resign")
        game.resign(seat)
        self._change(now)
        self._lapse()
        winners = [self._name(s) for s in range(len(self.places)) if s != seat]
        won = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
        return f"{self._name(seat)} resigned: {won} {'wins' if len(winners) == 1 else 'win'}."

    def abort(self, now: float) -> bool:
        """End the table before its first move, with no result: it is kept as aborted (its game, if it
        had begun, let go of). False when it was aborted already; IllegalMove in words once a move is made."""
        if self.aborted:
            return False
        if self.game is not None and (self.game.begun or self.game.over):
            raise IllegalMove("a move has been made: a game under way is resigned, not aborted")
        self.aborted, self.game = True, None
        self._change(now)
        return True

    def ask_rematch(self, seat: int) -> bool:
        """`seat` asks to play the finished table again with the same seats. True when asked (or made at
        once: `rematch_ready`), False for the same request sent again; IllegalMove in words otherwise."""
        ask = self.rematch
        if ask is not None and ask.seat == seat and ask.ended is None:
            return False
        if self.aborted or self.game is None or not self.game.over:
            raise IllegalMove("a table is played again once its game is over")
        if ask is not None and ask.ended is RematchEnd.MADE:
            raise IllegalMove(f"this table is played again already, at {ask.table}")
        if ask is not None and ask.ended is None:
            raise IllegalMove(f"{self._name(ask.seat)} is asking to play again already: answer them")
        gone = [self._name(s) for s in self.people if s != seat and not self.present.get(s)]
        if gone:
            raise IllegalMove(
                f"{' and '.join(gone)} {'is' if len(gone) == 1 else 'are'} not at the table: a new "
                "table needs everyone here"
            )
        self.rematch = RematchAsk(seat)
        return True

    def answer_rematch(self, seat: int, yes: bool) -> bool:
        """`seat` agrees to the request to play again, or refuses it (the asker's no withdraws it). True
        when something changed, False for the same answer sent again; IllegalMove in words otherwise."""
        ask = self.rematch
        if ask is None:
            raise IllegalMove("no one is asking to play again now")
        if ask.ended is not None:
            again = (ask.ended is RematchEnd.MADE and yes) or (not yes and ask.by == seat)
            if again or (ask.ended is RematchEnd.WITHDRAWN and not yes and ask.seat == seat):
                return False
            raise IllegalMove("that request to play again is over")
        if seat == ask.seat:
            if yes:
                raise IllegalMove("you asked: the others answer")
            ask.ended = RematchEnd.WITHDRAWN
            return True
        if not yes:
            ask.ended, ask.by = RematchEnd.REFUSED, seat
            return True
        if seat in ask.agreed:
            return False
        ask.agreed.append(seat)
        return True

    @property
    def rematch_ready(self) -> bool:
        """Everyone has agreed to the request waiting: the new table is to be made (`play_again`)."""
        ask = self.rematch
        return ask is not None and ask.ended is None and not ask.waiting(self.people)

    def play_again(self, code: str, seed: int, now: float) -> tuple[Room, dict[int, str]]:
        """The new table `code` for the same seats, in the same order (who starts is drawn, or cut for,
        from the new seed: no seat need move), the same game, rules and settings, the same host; each
        person's seat taken at once. The new table and each person's new token, by seat (to be sent to
        that seat's own connections only)."""
        places = [Place(p.kind, p.name if p.kind == "person" else None, p.level) for p in self.places]
        room = Room(code, self.game_name, places, replace(self.settings), seed, self.host_hash, now, last_change=now)
        tokens: dict[int, str] = {}
        for seat in self.people:
            tokens[seat] = new_token()
            places[seat].token_hash = token_hash(tokens[seat])
            room.away_since[seat] = now
        room._start_if_full()
        assert self.rematch is not None
        self.rematch.ended, self.rematch.table = RematchEnd.MADE, code
        return room, tokens

    def rematch_told(self) -> dict[str, Any] | None:
        return None if self.rematch is None else self.rematch.told(self.people)

    # --- what the server does by itself ---

    def bot_request(self) -> BotRequest[Any] | None:
        """What the bot to move must decide: the server's own bot's, or the one the host put in an
        absent person's seat (None: no bot is to move)."""
        if self.game is None or self.game.over:
            return None
        seat = self.game.to_move
        level = self._stand_in_for(seat)
        if seat is not None and level is not None:
            return self.game.stand_in_request(seat, level)
        return self.game.bot_request()

    def _stand_in_for(self, seat: int | None) -> str | None:
        """The level of the bot the host put in `seat` while its person is away (None: none moves there)."""
        if seat is None or self.places[seat].kind != "person" or self.present.get(seat):
            return None
        return self.places[seat].host_bot

    def play_bot(self, move: Any, request: BotRequest[Any], now: float) -> bool:
        """The move chosen for `request` made: False when the table has moved on since it was asked (or
        the person a host's bot moved for has come back meanwhile)."""
        if self.game is None:
            return False
        if self.places[request.seat].kind == "person":
            if self._stand_in_for(request.seat) != request.level or not self.game.play_stand_in(move, request):
                return False
        elif not self.game.play_bot(move, request):
            return False
        self._change(now)
        if self.undo_ask is not None and self.undo_ask.ended is None:
            try:  # a bot's reply is taken back with the move asked back: the request waits on
                self.game.undo_check(self.undo_ask.seat)
            except IllegalMove:
                self._lapse()
        return True

    def due(self, now: float) -> tuple[int, str | None] | None:
        """A person to move who is out of time, or away longer than the table allows: their seat and
        the level of the bot that moves for them (None: they pass)."""
        if self.game is None or self.game.over:
            return None
        seat = self.game.to_move
        if seat is None or self.places[seat].kind != "person" or self._stand_in_for(seat) is not None:
            return None  # a bot's turn, or the host's bot's in the seat: it needs no timer
        timer = self.settings.turn_timer
        if timer is not None and now - self.last_change >= timer:
            return seat, ("easy" if self.settings.on_timeout == "bot" else None)
        away = self.away_since.get(seat)
        if self.settings.absent_bot is not None and away is not None:
            since = max(away, self.last_change)
            if now - since >= self.settings.absent_bot:
                return seat, "easy"
        return None

    def stand_in(self, seat: int, level: str | None, now: float) -> str:
        """Move for `seat`, out of time or away (`due`): what was done and why, in a sentence for the
        table ("" when it was not `seat`'s turn, and nothing changed)."""
        timer = self.settings.turn_timer
        name = self.places[seat].name or "?"
        if timer is not None and now - self.last_change >= timer:
            cause, why = "timer", f"{name}'s time for the move ran out"
        else:
            cause, why = "away", f"{name} was away longer than the table allows"
        done = self._game().stand_in(seat, level, cause)
        if not done:
            return ""
        self._change(now)
        self._lapse()
        return f"{why}. {done}."

    def deadline(self) -> float | None:
        if self.game is None or self.game.over or self.settings.turn_timer is None:
            return None
        seat = self.game.to_move
        if seat is None or self.places[seat].kind != "person" or self._stand_in_for(seat) is not None:
            return None
        return self.last_change + self.settings.turn_timer

    # --- what is sent ---

    def _away(self, seat: int, now: float) -> int | None:
        """Seconds since `seat`'s person was last here; None while here, for a bot (never away) and for an
        open seat (no one to be away)."""
        place = self.places[seat]
        if place.kind == "bot" or place.open or seat not in self.away_since:
            return None
        return round(now - self.away_since[seat])

    def seats_told(self, now: float) -> list[dict[str, Any]]:
        return [
            {
                "name": p.name,
                "kind": "open" if p.open else p.kind,
                "level": p.level,
                "present": p.kind == "bot" or bool(self.present.get(s)),
                "away": self._away(s, now),
                "host_bot": p.host_bot,
            }
            for s, p in enumerate(self.places)
        ]

    def shown(self, seat: int | None, now: float) -> dict[str, Any]:
        """The state `seat` (None: a spectator) is sent: never what its seat may not see."""
        told: dict[str, Any] = {
            "game": self.game_name,
            "phase": self.phase,
            "ply": self.ply,
            "you": seat,
            "seats": self.seats_told(now),
            "settings": self.settings.data(),
            "deadline": self.deadline(),
            "last_change": self.last_change,
            "undo": self.undo_told(),
            "resigned": None if self.game is None else self.game.resigned,
            "aborted": self.aborted,
            "rematch": self.rematch_told(),
        }
        if self.game is not None:
            told.update(self.game.shown(seat))
            if seat is not None and told.get("can_undo") and not self.may_ask(seat):
                told["can_undo"] = False
        return told

    def listing(self, now: float) -> dict[str, Any]:
        """The table among the server's open tables: what `status` tells of a table not begun, its code,
        when it was made, and its seats still open."""
        return {
            "code": self.code,
            "game": self.game_name,
            "seats": self.seats_told(now),
            "settings": self.settings.data(),
            "created": self.created,
            "open": sum(1 for p in self.places if p.open),
        }

    def summary(self, now: float) -> dict[str, Any]:
        """What `status` tells anyone with the code."""
        told: dict[str, Any] = {
            "game": self.game_name,
            "phase": self.phase,
            "ply": self.ply,
            "seats": self.seats_told(now),
            "settings": self.settings.data(),
            "since_last_move": round(now - self.last_change),
            "resigned": None if self.game is None else self.game.resigned,
            "aborted": self.aborted,
        }
        if self.game is not None:
            told.update(self.game.summary())
        return told

    # --- kept ---

    def data(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game_name,
            "places": [p.data() for p in self.places],
            "settings": self.settings.data(),
            "seed": self.seed,
            "host_hash": self.host_hash,
            "created": self.created,
            "ply": self.ply,
            "last_change": self.last_change,
            "done": {str(s): list(v) for s, v in self.done.items()},
            "chat": self.chat,
            "undo": None if self.undo_ask is None else self.undo_ask.data(),
            "table": None if self.game is None else self.game.dump(),
            "aborted": self.aborted,
            "rematch": None if self.rematch is None else self.rematch.data(),
            "stand_ins": [] if self.game is None else [[r, t, w] for (r, t), w in self.game.stand_ins.items()],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], now: float) -> Room:
        """A table as kept (a restarted server's): everyone away until they come back."""
        places = [Place(p["kind"], p["name"], p["level"], p["token_hash"], p.get("host_bot")) for p in data["places"]]
        room = cls(
            code=data["code"],
            game_name=data["game"],
            places=places,
            settings=Settings(**data["settings"]),
            seed=data["seed"],
            host_hash=data["host_hash"],
            created=data["created"],
            ply=data["ply"],
            last_change=data["last_change"],
            done={int(s): (int(v[0]), str(v[1])) for s, v in data["done"].items()},
            chat=list(data["chat"]),
            undo_ask=UndoAsk.from_data(data.get("undo")),
            aborted=bool(data.get("aborted", False)),  # absent from a table kept before these were
            rematch=RematchAsk.from_data(data.get("rematch")),
        )
        if data["table"] is not None:
            room.game = load_game(room.game_name, data["table"])
            room.game.stand_ins = {(int(r), int(t)): str(w) for r, t, w in data.get("stand_ins", [])}
        for seat in range(len(places)):
            room.away_since[seat] = now
        if room.rematch is not None and room.rematch.ended is None:  # nobody is here after a restart
            room.rematch.ended, room.rematch.by = RematchEnd.GONE, room.rematch.seat
        return room
