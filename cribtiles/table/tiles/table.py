"""A game of Kings Cribbage in progress at a table: the match and its round in play, every turn's record,
the Joker manners of the bots, over what every game's table shares (`core.GameTable`: the seats, the turn
loop, the bots' requests, the save's envelope). One turn loop for every driver: the window, the text
mode, the arena.

A driver asks whose turn it is; for a bot it takes a `BotRequest` (what the bot may see, and the seed
of its move), has the move chosen (at once, in a thread, in a process) and hands it to `play_bot`; for
a person it hands the person's move to `play`. After every play the other bots at the table may call
"Joker", each by its level's manners; a person calls with `call_joker`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeAlias

from cribtiles.bot.tiles.base import JokerManners
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.bot.tiles.levels import level as level_named
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState, JokerCall, PlayerView, new_game
from cribtiles.rules.match import Match
from cribtiles.rules.moves import Move, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import match_data, record_of, replay

from .. import core
from ..core import GameTable, decision_rng
from ..seats import Seat
from .history import TurnRecord, history_of, record_turn
from .joker import Item
from .seen import SeenScore, seen_in

log = logging.getLogger("cribtiles.table")


#: A tile bot's move to be chosen (the one `core.BotRequest`, of the tile game's views).
BotRequest: TypeAlias = core.BotRequest[PlayerView]


def chance(seed: int, round_index: int, turn: int, what: str) -> random.Random:
    """A generator for one decision of a game, derived from the match's seed: a seed replays a whole
    match, bots' slips under the Joker rule included, whoever drives it."""
    return decision_rng("cribtiles-table", seed, round_index, turn, what)


def log_position(state: GameState, turns: int) -> int:
    """How many of the record's actions (`state.log`) come before turn `turns` of `state`: its turns
    before it and the Joker calls made on them. `turns == len(state.turns)`: the whole log."""
    if not 0 <= turns <= len(state.turns):
        raise ValueError(f"the game has {len(state.turns)} turns, not {turns}")
    if turns == len(state.turns):
        return len(state.log)
    return turns + sum(1 for before, _ in state.calls if before <= turns)


def state_before(state: GameState, turns: int) -> GameState:
    """The game as it stood just before turn `turns` (0: as dealt), rebuilt from its record: the
    actions up to that point replayed from the seed, so that racks and bag are those of that moment."""
    return replay(record_of(state), log_position(state, turns))


def start_match(seats: Sequence[Seat], options: RuleOptions, seed: int) -> Match:
    """The match for `seats`: a single game's bag comes from `seed` itself, a match's rounds from seeds
    derived from it (`Match.start`)."""
    names = tuple(s.name for s in seats)
    if options.rounds > 1:
        return Match.start(len(seats), options, seed, None if options.solitaire else names)
    game = new_game(len(seats), options, seed, None if options.solitaire else names)
    return Match(options, seed, game.names, (), game)


class Table(GameTable[PlayerView, Move, TurnRecord]):
    """The one model of a game of Kings Cribbage at the table. Its state changes only through its methods."""

    game = "tiles"

    def __init__(
        self,
        seats: Sequence[Seat],
        match: Match,
        history: Sequence[TurnRecord] | None = None,
        *,
        undos: int = 0,
        hints: int = 0,
    ) -> None:
        if len(seats) != len(match.names):
            raise ValueError(f"{len(match.names)} players need {len(match.names)} seats, not {len(seats)}")
        for s in seats:
            if s.level is not None:
                level_named(s.level)  # a ValueError in words for a level the tile game has not
        # the marks (plays taken back, hints asked for): the history counts a game with either apart
        super().__init__(seats, undos=undos, hints=hints)
        self.match = match
        self.history: list[TurnRecord] = list(history) if history is not None else list(history_of(match.game))

    @classmethod
    def new(cls, seats: Sequence[Seat], options: RuleOptions | None = None, seed: int = 0) -> Table:
        options = options or RuleOptions()
        match = start_match(seats, options, seed)
        if options.solitaire:  # the sides are Dark and Light, whoever sits at them
            seats = [replace(s, name=n) for s, n in zip(seats, match.names, strict=True)]
        return cls(seats, match)

    # --- the questions ---

    @property
    def state(self) -> GameState:
        """The round in play (or the last one, once the match is over)."""
        return self.match.game

    @property
    def options(self) -> RuleOptions:
        return self.match.options

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, None when the round is over."""
        return None if self.state.is_over else self.state.current

    @property
    def turn(self) -> int:
        """The turns of the round in play so far."""
        return len(self.state.turns)

    @property
    def is_over(self) -> bool:
        """The whole match (a single game: the game) is over."""
        return self.round_over and self.match_over

    @property
    def round_over(self) -> bool:
        return self.state.is_over

    @property
    def match_over(self) -> bool:
        return self.match.is_over

    @property
    def next_is_round(self) -> bool:
        """The round is over and the match has rounds still to play."""
        return self.round_over and not self.match_over

    @property
    def last(self) -> TurnRecord | None:
        return self.history[-1] if self.history else None

    def view(self, seat: int) -> PlayerView:
        return self.state.view(seat)

    def manners(self, seat: int) -> JokerManners:
        level = self.seats[seat].level
        return level_named(level).manners if level is not None else JokerManners()

    def _chance(self, what: str) -> random.Random:
        return chance(self.match.seed, len(self.match.finished), len(self.state.turns), what)

    # --- bots ---

    def _request_seed(self) -> int:
        return self._chance("move").getrandbits(31)

    def _refusal(self, words: str) -> Exception:
        return IllegalMove(words)

    def _play_bot(self, p: int, move: Move) -> TurnRecord:
        """The bot to move makes `move` (declaring its score by its manners); an illegal move, which a
        bot should never make, is logged and replaced by the best-scoring one."""
        declared = None
        if isinstance(move, Play) and self.options.joker:
            declared = self.manners(p).declare(self.view(p), move, self._chance(f"declare/{p}"))
        try:
            return self._apply(move, declared)
        except IllegalMove as e:
            log.error("the %s bot chose an illegal move (%s): %s", self.seats[p].level, move, e)
            fallback = greedy_move(self.view(p), self._chance("fallback"))
            return self._apply(fallback, None)

    # --- people ---

    def play(self, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> TurnRecord:
        """The person to move makes `move`, declaring `declared` under the Joker rule (None: its true
        score; `claimed`: the combinations they pointed at to count it, kept to be shown while the
        play may still be called). IllegalMove, in words, when the rules refuse it."""
        p = self.to_move
        if p is None:
            raise IllegalMove("the round is over")
        if not self.seats[p].is_person:
            raise IllegalMove(f"it is {self.seats[p].name}'s turn")
        if declared is not None and not self.options.joker:
            raise IllegalMove("the Joker rule is not in play: a play scores what it is worth, nothing is declared")
        return self._apply(move, declared, claimed)

    def may_call(self, seat: int) -> bool:
        """Whether `seat` may call "Joker" now: on another player's play, until the next player acts.
        A person may not once the round is over (the last play's score shows then: `seen.py`); the
        bots' calls on it are made as it lands."""
        return self._call_open(seat) and (self.seats[seat].is_bot or not self.round_over)

    def _call_open(self, seat: int) -> bool:
        last = self.last
        return (
            self.options.joker
            and last is not None
            and last.is_play
            and last.player != seat
            and last.number == len(self.state.turns) - 1
            and not any(c.caller == seat for c in last.calls)
        )

    def call_joker(self, seat: int) -> JokerCall:
        """`seat` calls "Joker" on the last play: it takes the points left unclaimed, or those declared
        beyond its score (from its player), or loses 5."""
        if not self.may_call(seat):
            raise IllegalMove("you can call Joker only on another player's play, before the next player acts")
        self.match = replace(self.match, game=self.state.call_joker(seat))
        call = self.state.calls[-1][1]
        self.history[-1] = self.history[-1].with_call(call)
        return call

    def resign(self, seat: int) -> None:
        """The person at `seat` gives the game (a match: the whole match) up: the others win at once.
        IllegalMove in words when the round is over already or `seat` is no person's."""
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_person:
            raise IllegalMove("only a person at the table resigns")
        if self.round_over:
            raise IllegalMove("the round is over: there is nothing to resign")
        self.match = self.match.resign(seat)

    # --- the turn loop ---

    def seen(self, record: TurnRecord) -> SeenScore | None:
        """The score of `record`'s play as the people at the table may see it now (None for a pass or
        an exchange): under the Joker rule only its declaration until its call window closes."""
        return seen_in(self.state, record)

    def _apply(self, move: Move, declared: int | None, claimed: tuple[Item, ...] = ()) -> TurnRecord:
        before = self.state
        after = before.apply(move, declared)
        record = record_turn(before, after.turns[-1], claimed if isinstance(move, Play) else ())
        self.match = replace(self.match, game=after)
        self.history.append(record)
        if record.is_play and self.options.joker:
            self._bots_call(record.player)
        return self.history[-1]

    def _bots_call(self, mover: int) -> None:
        """After a play the bots at the table, in seat order from the mover's left, may call "Joker"."""
        n = len(self.seats)
        for k in range(1, n):
            caller = (mover + k) % n
            if not (self.seats[caller].is_bot and self.may_call(caller)):
                continue
            if self.manners(caller).should_call(self.view(caller), self._chance(f"call/{caller}")):
                self.call_joker(caller)

    # --- taking back ---

    def undo_turns(self, seat: int) -> tuple[TurnRecord, ...]:
        """The turns that `undo(seat)` would take back, oldest first: `seat`'s last turn of the round
        and every bot's turn after it. IllegalMove, in words, when it may not be taken back."""
        if not 0 <= seat < len(self.seats):
            raise IllegalMove(f"there is no seat {seat + 1} at this table")
        if not self.seats[seat].is_person:
            raise IllegalMove("only a person takes back a play; a bot's moves stand")
        if self.round_over:  # it went into the history as it was played, and stays so
            what = "round" if self.options.rounds > 1 else "game"
            raise IllegalMove(
                f"the {what} is over: it is kept as it was played, and a finished {what} is not taken back"
            )
        turns = self.state.turns
        mine = next((i for i in range(len(turns) - 1, -1, -1) if turns[i].player == seat), None)
        if mine is None:
            name = self.seats[seat].name
            who = "you have" if name == "You" else f"{name} has"
            rounds = " (a round that is over stays as it was played)" if self.match.finished else ""
            raise IllegalMove(f"{who} no turn to take back in this round{rounds}")
        for i in range(mine + 1, len(turns)):
            other = turns[i].player
            if self.seats[other].is_person:
                raise IllegalMove(
                    f"{self.seats[other].name} has moved since: a turn is taken back only before another person moves"
                )
        for before, call in self.state.calls:
            if before > mine and call.caller != seat and self.seats[call.caller].is_person:
                raise IllegalMove(
                    f"{self.seats[call.caller].name} has called Joker since: "
                    "a turn is taken back only before another person acts"
                )
        if len(self.history) != len(turns):  # a table built with a partial history: rebuild it
            self.history = list(history_of(self.state))
        return tuple(self.history[mine:])

    def can_undo(self, seat: int) -> bool:
        """Whether `seat` may take back its last turn now (see `undo`)."""
        try:
            self.undo_turns(seat)
        except IllegalMove:
            return False
        return True

    def undo(self, seat: int) -> int:
        """Take back `seat`'s last turn of the round in play (a play, an exchange or a pass) and every
        bot's turn after it, with the Joker calls made on them; the number of turns taken back.

        The round is rebuilt from its record (the actions before that turn replayed from the seed), so
        racks and bag are exactly as they were, and a bot given the same turn again plays the same
        move. Refused (IllegalMove) for a bot, for a seat without a turn in this round, once another
        person has moved (or called Joker) after it, and once the round is over: a finished game went
        into the history as it was played."""
        taken = self.undo_turns(seat)
        first = taken[0].number
        self.match = replace(self.match, game=state_before(self.state, first))
        self.history = self.history[:first]
        self.undos += 1
        return len(taken)

    def next_round(self) -> None:
        """Start the next round of the match, once a round is over."""
        self.match = self.match.next_round()
        self.history = []

    # --- the save ---

    def save_body(self) -> dict[str, Any]:
        """The match of several rounds, or the single game's record."""
        if self.options.rounds > 1:
            return {"match": match_data(self.match)}
        return {"record": record_of(self.match.game).as_data()}
