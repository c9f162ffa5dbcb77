"""Every turn of a game as the table tells it: the rules' turn, the board before it, its breakdown
(scored once, when the turn is recorded), what its player pointed at when counting it under the Joker
rule, and the Joker calls made on it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from cribtiles.rules.board import Board
from cribtiles.rules.game import END_BLOCKED, END_IDLE, END_LOCKED, END_OUT, GameState, JokerCall, Outcome, Turn
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import PlayScore

from .joker import Item
from .public import PublicState


@dataclass(frozen=True)
class TurnRecord:
    number: int  # its index among the game's turns
    turn: Turn
    board_before: Board
    score: PlayScore | None  # the true breakdown of a play (None for a pass or an exchange)
    calls: tuple[JokerCall, ...] = ()  # "Joker!" called on it, in order
    # Joker: the combinations its player pointed at when declaring (none when a number was typed, a
    # bot declared, or the game was resumed: the record keeps only the number)
    claimed: tuple[Item, ...] = ()

    @property
    def player(self) -> int:
        return self.turn.player

    @property
    def is_play(self) -> bool:
        return self.score is not None

    @property
    def declared(self) -> int:
        """What the player claimed for it (its true score unless the Joker rule let them miscount)."""
        return self.turn.points

    @property
    def worth(self) -> int:
        """What the play scores, from its breakdown (0 for a pass or an exchange). Not the turn's
        `true_points`, which what a table shows withholds while the play may be called on."""
        return self.score.total if self.score is not None else 0

    @property
    def unclaimed(self) -> int:
        """Points the player left and nobody has taken yet."""
        taken = sum(c.points for c in self.calls if c.points > 0 and not c.taken)
        return max(0, self.worth - self.turn.points - taken)

    @property
    def overclaimed(self) -> int:
        """Points the player claimed beyond the play's score and nobody has called yet."""
        return max(0, self.turn.points - self.worth - self.taken)

    @property
    def taken(self) -> int:
        """Points a call took back from the player for claiming more than the play scores."""
        return sum(c.taken for c in self.calls)

    @property
    def kept(self) -> int:
        """What the play finally gave its player: the declaration, less what a call took back."""
        return self.declared - self.taken

    @property
    def board_after(self) -> Board:
        if isinstance(self.turn.move, Play):
            return self.board_before.place(self.turn.move.placements)
        return self.board_before

    def with_call(self, call: JokerCall) -> TurnRecord:
        return replace(self, calls=(*self.calls, call))


def record_turn(before: GameState, turn: Turn, claimed: tuple[Item, ...] = ()) -> TurnRecord:
    """The record of `turn`, just made from the position `before` (`claimed`: what its player
    pointed at to declare it)."""
    move = turn.move
    score = before.scorer.score(before.board, move) if isinstance(move, Play) else None
    return TurnRecord(len(before.turns), turn, before.board, score, claimed=claimed if score is not None else ())


def history_of(state: GameState | PublicState) -> tuple[TurnRecord, ...]:
    """The records of every turn of `state` (a resumed game, or a round as a table shows it): each play
    scored once, on its own board."""
    calls: dict[int, list[JokerCall]] = {}
    for turns_before, call in state.calls:
        calls.setdefault(turns_before - 1, []).append(call)
    board = Board.empty()
    records = []
    for i, turn in enumerate(state.turns):
        move = turn.move
        score = state.scorer.score(board, move) if isinstance(move, Play) else None
        records.append(TurnRecord(i, turn, board, score, tuple(calls.get(i, ()))))
        if isinstance(move, Play):
            board = board.place(move.placements)
    return tuple(records)


def why_it_ended(outcome: Outcome, names: tuple[str, ...]) -> str:
    """Why a round ended, in a sentence, naming a player by `names` (as the caller calls them).

    >>> from cribtiles.rules.game import EndReason
    >>> why_it_ended(Outcome(EndReason.OUT, 1, (3, 0), (90, 101), (1,)), ("You", "Hard"))
    'Hard went out with the bag empty.'
    >>> why_it_ended(Outcome(EndReason.LOCKED, None, (10, 10), (40, 52), (1,)), ("You", "Hard"))
    'Locked board: nobody can play, nor could for two rounds.'
    >>> why_it_ended(Outcome(EndReason.RESIGNED, None, (0, 0), (40, 52), (1,)), ("Ann", "Ben"))
    'Ann resigned: the game ends, no rack is counted.'
    """
    if outcome.reason is END_OUT and outcome.went_out is not None:
        return f"{names[outcome.went_out]} went out with the bag empty."
    if outcome.reason is END_BLOCKED:
        return "The bag is empty and nobody can play."
    if outcome.reason is END_LOCKED:
        return "Locked board: nobody can play, nor could for two rounds."
    if outcome.reason is END_IDLE:
        return "Nobody has played for three rounds."
    if outcome.resigned is not None:
        return f"{names[outcome.resigned]} resigned: the game ends, no rack is counted."
    return ""
