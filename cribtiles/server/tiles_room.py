"""The tile game at an online table: a `Table` judged by the server, what each seat is sent of it (its own
rack, never another, no bag's order, no seed until the match is over), and the moves that come as text
(issue 31)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import DEFAULT_LEVEL, LEVELS, make_bot
from cribtiles.bot.tiles.levels import LEVELS as TILE_LEVELS
from cribtiles.rules.board import parse_square
from cribtiles.rules.errors import IllegalMove, NotationError
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.movegen import has_legal_play
from cribtiles.rules.moves import Exchange, Move, Pass, Play, parse_move
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.tiles import format_tiles
from cribtiles.table.core import BotRequest
from cribtiles.table.saves import save_table
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.joker import Item, items_of
from cribtiles.table.tiles.public import match_json, public_match
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table, chance

#: The bot that plays for a person out of time at a table whose timer passes for them, when they hold a
#: play (and so may not pass): the weakest, so that letting the clock run out never plays better than
#: the person would have.
STAND_IN_FOR_PASS = LEVELS[0]


def read_rules(text: str) -> RuleOptions:
    """The tile game's rules from `--rules` text; ValueError in words."""
    try:
        return RuleOptions.parse(text)
    except (NotationError, ValueError) as e:
        raise ValueError(str(e)) from None


def choose_tile_move(request: BotRequest[Any]) -> Move:
    """A bot's move for `request` (a pure function of it: the same request, the same move)."""
    return choose_safely(make_bot(request.level), request.view, random.Random(request.seed))


def claimed_items(table: Table, move: Move, told: Sequence[object]) -> tuple[Item, ...]:
    """The combinations a person pointed at to count their play under the Joker rule, as sent: kept only
    those the play really scores (a client cannot make the table show what is not there)."""
    if not isinstance(move, Play) or not told:
        return ()
    try:
        score = table.state.scorer.score(table.state.board, move)
    except (IllegalMove, NotationError, ValueError):
        return ()
    real = list(items_of(score))
    kept: list[Item] = []
    for entry in told[:40]:
        if not isinstance(entry, dict):
            continue
        squares = entry.get("squares")
        if not isinstance(squares, list) or not all(isinstance(s, str) for s in squares):
            continue
        try:
            wanted = frozenset(parse_square(s) for s in squares)
        except (NotationError, ValueError):
            continue
        match = next((i for i in real if i.squares == wanted and i.what == entry.get("what")), None)
        if match is not None:
            real.remove(match)
            kept.append(match)
    return tuple(kept)


def _exchanged(state: GameState, seat: int) -> bool:
    """Whether `seat` gave tiles back this round while it is on (once over, every exchange is shown)."""
    return not state.is_over and any(
        t.player == seat and isinstance(t.move, Exchange) and t.move.tiles for t in state.turns
    )


def legal_verbs(state: GameState, seat: int) -> list[str]:
    """What `seat` may do now, as its state tells it (`legal`): "play" when its rack holds a legal play,
    "pass" and "exchange" when the rules allow them (rules.md 4: only to a player who cannot play, unless
    exchange=any-time; no exchange from an empty bag); none when it is not its turn. The plays themselves
    are not sent: a rack may have thousands, and the board and the rack a seat is sent are all a client's
    own engine needs to list them."""
    if state.is_over or state.current != seat:
        return []
    verbs = ["play"] if has_legal_play(state.board, state.racks[seat]) else []
    if state.may_pass(seat):
        verbs += ["pass", "exchange"] if state.bag_size(seat) else ["pass"]
    return verbs


def compact(table: Table) -> str:
    """A table's save as the server keeps it: the one format, without the spaces of a file."""
    return json.dumps(table.save_data(), separators=(",", ":"))


def items_json(items: Sequence[Item]) -> list[dict[str, Any]]:
    return [{"what": i.what, "squares": sorted(str(s) for s in i.squares), "points": i.points} for i in items]


class TilesGame:
    """The tile game's part of an online table (the registry's `ROOM` part of it)."""

    name = "tiles"
    levels = tuple(TILE_LEVELS)  # the bots that may sit at its tables

    @staticmethod
    def bot_seat(level: str) -> Seat:
        """A bot's seat, named as a table at one window names it: by its level ("Medium")."""
        return Seat.bot(level)

    def __init__(self, table: Table) -> None:
        self.table = table
        self.stand_ins: dict[tuple[int, int], str] = {}  # (round, turn) -> why a stand-in made that turn
        # the match as every seat without an exchange of its own this round sees it, made once per change
        # (the table's Match is a new value at every change) rather than once per seat
        self._shared: tuple[Match, dict[str, Any]] | None = None

    @classmethod
    def start(cls, seats: Sequence[Seat], rules: str, seed: int) -> TilesGame:
        return cls(Table.new(seats, read_rules(rules), seed))

    @classmethod
    def check(cls, seats: int, rules: str) -> None:
        """ValueError in words when a table of `seats` with `rules` cannot be played."""
        options = read_rules(rules)
        if not 2 <= seats <= 4:
            raise ValueError(f"the tile game is played by 2 to 4 players, not {seats}")
        if options.solitaire and seats != 2:
            raise ValueError("Solitaire is played by two players, dark against light")

    @classmethod
    def load(cls, text: str) -> TilesGame:
        return cls(load_table(text))

    def dump(self) -> str:
        return compact(self.table)

    @property
    def chooser(self) -> Callable[[BotRequest[Any]], Any]:
        return choose_tile_move

    # --- the questions ---

    @property
    def to_move(self) -> int | None:
        return self.table.to_move

    @property
    def round_over(self) -> bool:
        return self.table.round_over

    @property
    def over(self) -> bool:
        return self.table.round_over and self.table.match_over

    @property
    def begun(self) -> bool:
        return bool(self.table.match.finished or self.table.state.turns)

    @property
    def resigned(self) -> int | None:
        return self.table.match.resigned

    def _stood_in(self) -> dict[int, str]:
        """The turns of the round in play a stand-in made: turn -> why."""
        round_index = len(self.table.match.finished)
        return {t: why for (r, t), why in self.stand_ins.items() if r == round_index}

    def scores(self) -> list[int]:
        return list(self.table.match.totals) if self.table.options.rounds > 1 else list(self.table.state.scores)

    def winners(self) -> list[int]:
        if not self.over:
            return []
        if self.table.options.rounds > 1:
            return list(self.table.match.winners)
        outcome = self.table.state.outcome
        return [] if outcome is None else list(outcome.winners)

    def shown(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) is sent: the match as the table sees it, its rack, what it may do
        on its turn, whether it may call Joker or take back its turn, and once the round is over its whole
        record."""
        table = self.table
        told: dict[str, Any] = {
            "match": self._match_json(seat),
            "to_move": table.to_move,
            "hints": table.hints,
        }
        if seat is not None:
            told["rack"] = format_tiles(table.state.racks[seat])
            told["legal"] = legal_verbs(table.state, seat)
            told["may_call"] = table.may_call(seat)
            told["can_undo"] = table.can_undo(seat)
            if table.last is not None and table.last.player == seat and table.last.claimed:
                told["claimed"] = items_json(table.last.claimed)
        if table.round_over:
            told["record"] = save_table(self._record())
        return told

    def _match_json(self, seat: int | None) -> dict[str, Any]:
        """The match as `seat` may see it: the one everyone is shown, unless `seat` exchanged tiles this
        round (the only hidden thing it may see: which tiles it gave back)."""
        match = self.table.match
        if seat is not None and _exchanged(match.game, seat):
            return match_json(public_match(match, (seat,), self.stand_ins))
        if self._shared is None or self._shared[0] is not match:
            self._shared = (match, match_json(public_match(match, stand_ins=self.stand_ins)))
        return self._shared[1]

    def _record(self) -> Table:
        """The round over, every rack and bag (a match not over keeps its seed back, saved as null: it
        deals the next rounds' bags; the record still loads, every round so far in it)."""
        table = self.table
        if table.match_over:
            return table
        withheld = replace(table.match, seed=0, seed_withheld=True)
        return Table(table.seats, withheld, table.history, undos=table.undos, hints=table.hints)

    # --- the acts ---

    def act(self, seat: int, message: dict[str, Any]) -> None:
        """`seat` moves as `message` says; IllegalMove in words."""
        table = self.table
        if table.to_move != seat:
            raise IllegalMove("it is not your turn" if table.to_move is not None else "the round is over")
        try:
            move = parse_move(message["move"][:400])
        except NotationError as e:
            raise IllegalMove(str(e)) from None
        declared = message.get("declared")
        if declared is not None and not 0 <= declared <= 10_000:
            raise IllegalMove("a declaration is a number of points from 0")
        claimed = claimed_items(table, move, message.get("claimed") or ())
        table.play(move, declared, claimed)

    def call(self, seat: int) -> None:
        self.table.call_joker(seat)

    def next_round(self) -> None:
        if not self.table.round_over or self.table.match_over:
            raise IllegalMove("there is no next round now")
        self.table.next_round()

    def undo(self, seat: int) -> None:
        self.table.undo(seat)
        here, turns = len(self.table.match.finished), len(self.table.state.turns)
        self.stand_ins = {(r, t): w for (r, t), w in self.stand_ins.items() if r < here or t < turns}

    def resign(self, seat: int) -> None:
        self.table.resign(seat)

    def undo_check(self, seat: int) -> None:
        self.table.undo_turns(seat)

    def count_hint(self) -> None:
        self.table.count_hint()

    # --- what the server does by itself ---

    def bot_request(self) -> BotRequest[Any] | None:
        return self.table.bot_request() if self.table.bot_to_move else None

    def play_bot(self, move: Move, request: BotRequest[Any]) -> bool:
        """The bot's move for `request`; False when the table has moved on since it was asked."""
        if request.turn != self.table.turn or self.table.to_move != request.seat:
            return False
        self.table.play_bot(move, request)
        return True

    def stand_in(self, seat: int, level: str | None, why: str = "timer") -> str:
        """Move for a person who is away or out of time: a bot of `level` chooses (None: they pass). The
        rules allow a pass only to a player with no legal play (rules.md 4, unless exchange=any-time),
        and an exchange only then too, so a person who could play is not passed for: the weakest bot
        plays for them (its move is the table's own chance, declared at its true score). What was done,
        as a sentence of the table's about them ("" when it was not `seat`'s turn)."""
        table = self.table
        if table.to_move != seat:
            return ""
        turn = (len(table.match.finished), len(table.state.turns))
        done = self._stand_in_move(seat, level)
        self.stand_ins[turn] = why  # made: the table is told which turns were not the person's own
        return done

    def _stand_in_move(self, seat: int, level: str | None) -> str:
        table = self.table
        if level is None:
            if table.state.may_pass():
                table.play(Pass())
                return "They passed"
            level = STAND_IN_FOR_PASS
            why = "They could play, and only a player who cannot play may pass, so the"
        else:
            why = "The"
        request = self.stand_in_request(seat, level or DEFAULT_LEVEL)
        assert request is not None  # `seat` is to move
        move = choose_tile_move(request)
        table.play(move)
        done = "passed" if isinstance(move, Pass) else "exchanged tiles" if isinstance(move, Exchange) else "played"
        return f"{why} {request.level} bot {done} for them"

    def stand_in_request(self, seat: int, level: str) -> BotRequest[Any] | None:
        """What a bot of `level` moving for the person at `seat` must decide (None: not their turn). Its
        seed is the table's own chance for that turn: the same table, the same move."""
        table = self.table
        if table.to_move != seat:
            return None
        rng = chance(table.match.seed, len(table.match.finished), len(table.state.turns), f"stand-in/{seat}")
        return BotRequest(seat, level, table.view(seat), rng.getrandbits(31), table.turn)

    def play_stand_in(self, move: Move, request: BotRequest[Any]) -> bool:
        """The move chosen for `request` made for its person, as they would make it (a play at its true
        score); False when the table has moved on since it was asked."""
        if request.turn != self.table.turn or self.table.to_move != request.seat:
            return False
        self.table.play(move)
        return True

    def summary(self) -> dict[str, Any]:
        """What anyone with the table's code may read: round, scores, whose turn, how it ended."""
        table = self.table
        state = table.state
        outcome = state.outcome
        return {
            "round": table.match.round if table.options.rounds > 1 else 1,
            "rounds": table.options.rounds,
            "scores": self.scores(),
            "to_move": table.to_move,
            "turns": len(state.turns),
            "ended": None if outcome is None or not self.over else outcome.reason.value,
            "winners": self.winners(),
        }
