"""Classic cribbage at an online table: a `CribbageTable` judged by the server, what each seat is sent of
it (the public game and its own view: never another hand before it is shown, the crib before it is
counted, the deck's order, or the seed before the game is over), and its rules from text (issue 31): every
variant, of two, three or four seats (issue 44)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from cribtiles.bot.cribbage.levels import LEVELS as CRIB_LEVELS
from cribtiles.cribbage.cards import CardError
from cribtiles.cribbage.events import Outcome
from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import CribbageError, Move, Muggins, parse_move
from cribtiles.cribbage.options import CribbageOptions, Variant
from cribtiles.quoting import quoted
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.core import BotRequest
from cribtiles.table.cribbage.open_call import told_scores
from cribtiles.table.cribbage.public import public_data, public_for, seat_view, view_data
from cribtiles.table.cribbage.table import CribbageTable, bot_name, choose
from cribtiles.table.seats import Seat

#: The level of the bot that moves for a person out of time or away: cribbage has no pass, so one
#: moves for them whichever the table chose.
STAND_IN_LEVEL = "easy"
SWITCHES = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


def read_rules(text: str) -> CribbageOptions:
    """Cribbage's house rules from `--rules` text ("muggins=on,play_muggins=on,target=61,variant=three-player";
    unnamed ones keep their defaults); ValueError in words."""
    chosen: dict[str, Any] = {}
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        name, eq, value = item.partition("=")
        name, value = name.lower().replace("-", "_"), value.lower()
        if not eq:
            raise ValueError(f"{quoted(item)}: write the rules as name=value, like muggins=on")
        if name in ("muggins", "play_muggins"):
            if value not in SWITCHES:
                raise ValueError(f"{name} is on or off, not {quoted(value)}")
            chosen[name] = SWITCHES[value]
        elif name == "target":
            if not (value.isascii() and value.isdigit() and len(value) <= 4):
                raise ValueError(f"target is a number of points, not {quoted(value)}")
            chosen[name] = int(value)
        elif name == "variant":
            variant = next((v for v in Variant if value in (v.value, v.words)), None)
            if variant is None:
                raise ValueError(f"cribbage has no variant {quoted(value)} ({', '.join(v.value for v in Variant)})")
            chosen[name] = variant
        else:
            raise ValueError(f"cribbage has no rule {quoted(name)} (muggins, play_muggins, target, variant)")
    return CribbageOptions(**chosen)  # a target out of range: ValueError in words


def _judged(words: Exception) -> IllegalMove:
    """The engine's refusal as the server's (its words kept)."""
    return IllegalMove(str(words))


class CribbageGame:
    """Cribbage's part of an online table. Its words name every player (they reach every seat and any
    spectator), never "you"."""

    name = "cribbage"
    levels = tuple(CRIB_LEVELS)  # the bots that may sit at its tables

    @staticmethod
    def bot_seat(level: str) -> Seat:
        """A bot's seat, named as a table at one window names it: as a bot ("Medium bot")."""
        return Seat(bot_name(level), level)

    def __init__(self, table: CribbageTable) -> None:
        self.table = table
        self.stand_ins: dict[tuple[int, int], str] = {}  # (0, the game's move number) -> why a stand-in made it

    @classmethod
    def start(cls, seats: Sequence[Seat], rules: str, seed: int) -> CribbageGame:
        names = tuple(seat.name for seat in seats)
        state = new_game(seed, names, read_rules(rules))
        return cls(CribbageTable(state, seats=seats, by_name=True))

    @classmethod
    def check(cls, seats: int, rules: str) -> None:
        """ValueError in words when a table of `seats` with `rules` cannot be played: each variant has its
        seats (two; three for three players; four for partners, who sit across: seats 1 and 3 against 2 and 4)."""
        variant = read_rules(rules).variant
        if seats != variant.players:
            players = {2: "two", 3: "three", 4: "four"}[variant.players]
            raise ValueError(f"{variant.value} cribbage is played by {players}, not {seats}")

    @classmethod
    def load(cls, text: str) -> CribbageGame:
        return cls(CribbageTable.from_json(text, by_name=True))

    def dump(self) -> str:
        return json.dumps(self.table.save_data(), separators=(",", ":"))

    @property
    def chooser(self) -> Callable[[BotRequest[Any]], Any]:
        return choose

    # --- the questions ---

    @property
    def to_move(self) -> int | None:
        return self.table.to_move

    @property
    def round_over(self) -> bool:
        return self.table.is_over  # one game, no rounds

    @property
    def over(self) -> bool:
        return self.table.is_over

    @property
    def begun(self) -> bool:
        return self.table.ply > 0

    @property
    def resigned(self) -> int | None:
        outcome = self.table.state.outcome
        return None if outcome is None else outcome.resigned

    def shown(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) is sent: the game as the whole table sees it, and its own
        view; whether it may call muggins now and what it may do once it lets the other's score stand;
        the whole record (its seed, every hand) only once the game is over."""
        table = self.table
        made = {t: why for (_, t), why in self.stand_ins.items()}
        told: dict[str, Any] = {
            "public": public_data(public_for(table, seat, made)),
            "to_move": table.to_move,
            "hints": table.hints,
            "undos": table.undos,
        }
        if seat is not None:
            may_call = table.call_open_to(seat) is not None
            told["view"] = view_data(seat_view(table, seat))
            told["may_call"] = may_call
            told["can_undo"] = self._undo_refusal(seat) == ""
            if may_call:  # else the view's legal moves are these
                told["after_answer"] = [str(m) for m in table.legal_after_answer(seat)]
        if table.is_over:
            told["record"] = self.dump()
        return told

    # --- the acts ---

    def act(self, seat: int, message: dict[str, Any]) -> None:
        """`seat` moves as `message` says ("play 7C", "count 12", "muggins"); IllegalMove in words."""
        if message.get("declared") is not None or message.get("claimed"):
            raise IllegalMove("a count in cribbage is said in its move, like 'count 12'")
        try:
            move = parse_move(message["move"][:100])
        except CardError as e:
            raise _judged(e) from None
        self._play(seat, move)

    def _play(self, seat: int, move: Move) -> None:
        try:
            self.table.play(move, seat)
        except CribbageError as e:
            raise _judged(e) from None

    def call(self, seat: int) -> None:
        """Muggins! from `seat` on the other's score said aloud."""
        if self.table.call_open_to(seat) is None:
            raise IllegalMove("there is no count of the other player's to call muggins on now")
        self._play(seat, Muggins(True))

    def next_round(self) -> None:
        raise IllegalMove("a game of cribbage has no rounds: it is played to its target")

    def _undo_refusal(self, seat: int) -> str:
        """Why `seat` may not take back its last decision now, in words ("" when it may): the table's rules
        (a person's own decision, with the moves after it, before another person moves, the game not
        over), and nothing come to light since it (`CribbageTable.came_to_light`: the starter cut, another's
        card laid, a hand shown, a count answered), so that no one decides again knowing more."""
        table = self.table
        try:
            taken = table.undo_moves(seat)
        except CribbageError as e:
            return str(e)
        made = 0 if seat in table.ahead else len(taken)  # crib cards laid ahead: nothing made yet
        seen = table.came_to_light(seat, made)
        return f"{seen}: a move is taken back online only before anything new comes to light" if seen else ""

    def undo_check(self, seat: int) -> None:
        why = self._undo_refusal(seat)
        if why:
            raise IllegalMove(why)

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last decision and the moves after it (its forced moves, the bots' replies):
        the game replayed from its seed to the state it decided from; IllegalMove in words."""
        self.undo_check(seat)
        self.table.undo(seat)
        made = self.table.ply
        self.stand_ins = {key: why for key, why in self.stand_ins.items() if key[1] < made}

    def count_hint(self) -> None:
        self.table.count_hint()

    def resign(self, seat: int) -> None:
        try:
            self.table.resign(seat)
        except CribbageError as e:
            raise _judged(e) from None

    # --- what the server does by itself ---

    def bot_request(self) -> BotRequest[Any] | None:
        return self.table.bot_request() if self.table.bot_to_move else None

    def play_bot(self, move: Move, request: BotRequest[Any]) -> bool:
        """The bot's move for `request`; False when the table has moved on since it was asked."""
        if self.table.to_move != request.seat:
            return False
        return self.table.play_bot(move, request.turn) is not None

    def stand_in(self, seat: int, level: str | None, why: str = "timer") -> str:
        """Move for a person who is away or out of time: a bot of `level` chooses (cribbage has no pass:
        None is the stand-in's level too). What was done, as a sentence of the table's about them ("" when it
        was not `seat`'s turn)."""
        table = self.table
        if table.to_move != seat or not table.seats[seat].is_person:
            return ""
        request = self.stand_in_request(seat, level or STAND_IN_LEVEL)
        assert request is not None  # `seat` is a person's, to move
        before = table.ply
        self._play(seat, choose(request))
        for ply in range(before, table.ply):  # a score let stand by laying on is the stand-in's too
            self.stand_ins[0, ply] = why
        why = "The" if level else "Cribbage has no pass, so the"
        return f"{why} {request.level} bot moved for them"

    def stand_in_request(self, seat: int, level: str) -> BotRequest[Any] | None:
        """What a bot of `level` moving for the person at `seat` must decide (None: not their turn)."""
        table = self.table
        if table.to_move != seat or not table.seats[seat].is_person:
            return None
        return BotRequest(seat, level, table.view(seat), table.state.seed, table.ply)

    def play_stand_in(self, move: Move, request: BotRequest[Any]) -> bool:
        """The move chosen for `request` made for its person; False when the game has moved on since."""
        if self.table.to_move != request.seat or self.table.ply != request.turn:
            return False
        self._play(request.seat, move)
        return True

    def summary(self) -> dict[str, Any]:
        """What anyone with the table's code may read: the deal, each seat's score (partners' their side's),
        whose turn, how it ended and the seats that won (partners both)."""
        state = self.table.state
        outcome = state.outcome
        sides = told_scores(state.scores, state.claim, state.side_of)  # a count open to a call: before it
        return {
            "deal": state.deal_number,
            "target": state.options.target,
            "scores": [sides[state.side_of(seat)] for seat in range(state.players)],
            "to_move": self.table.to_move,
            "turns": self.table.ply,
            "ended": None if outcome is None else _ended(outcome),
            "winners": [] if outcome is None else list(outcome.winners),
        }


def _ended(outcome: Outcome) -> str:
    """How a game of cribbage ended, as a status tells it: given up, or its margin."""
    return "resigned" if outcome.resigned is not None else str(outcome.margin_kind)
