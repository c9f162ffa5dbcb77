"""What the people at a table may see of a play's score. Under the Joker rule, while "Joker" may still
be called on a play, only what its player declared; once its call window closes, the true breakdown,
how the declaration stood against it and the calls made on it. The window, its replays and the text
mode all ask here; the bots keep their own view (`GameState.view`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cribtiles.rules.board import Board, Square
from cribtiles.rules.game import GameState, JokerCall, call_window_open
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import PlayScore
from cribtiles.rules.tiles import rank_word

from .history import TurnRecord
from .joker import Item
from .public import PublicState


def window_open(state: GameState | PublicState, record: TurnRecord) -> bool:
    """Whether "Joker" may still be called on `record`'s play, so that its score stays hidden: under
    the Joker rule, a play that is the round's last turn, not called on yet, in a round not over
    (`call_window_open`, the rule the public value and the players' views keep too)."""
    last = record.number == len(state.turns) - 1
    return (
        last
        and record.is_play
        and not record.calls
        and call_window_open(state.options, state.turns, state.calls, state.is_over)
    )


@dataclass(frozen=True)
class ClaimedRow:
    """One combination a player pointed at when declaring: its words, squares and points."""

    words: str
    squares: tuple[Square, ...]
    points: int


@dataclass(frozen=True)
class SeenScore:
    """A play's score as the people at the table see it now. `score` is the true breakdown, None while
    the play's call window is open; `claimed` is what its player pointed at (nothing when a number was
    typed); `calls` the Joker calls made on it."""

    number: int
    player: int
    play: Play
    declared: int
    joker: bool
    score: PlayScore | None
    claimed: tuple[ClaimedRow, ...] = ()
    calls: tuple[JokerCall, ...] = ()

    @property
    def hidden(self) -> bool:
        return self.score is None

    @property
    def standing(self) -> str:
        """How the declaration stood against the true score, once it shows: "declared 10, 2
        unclaimed"; "" without the Joker rule or while hidden."""
        if not self.joker or self.score is None:
            return ""
        error = self.score.total - self.declared
        if error > 0:
            return f"declared {self.declared}, {error} unclaimed"
        if error < 0:
            return f"declared {self.declared}, {-error} more than it scores"
        return f"declared {self.declared}, all it scores"


def claimed_rows(items: Sequence[Item], board: Board) -> tuple[ClaimedRow, ...]:
    """The combinations pointed at, in words with their tiles and squares: "fifteen 5+K: f7 g7"."""
    rows = []
    for item in items:
        squares = tuple(sorted(item.squares))
        ranks = [rank_word(t.rank) for sq in squares if (t := board[sq]) is not None]
        where = " ".join(str(sq) for sq in squares)
        words = (
            f"fifteen {'+'.join(ranks)}: {where}"
            if item.what == "fifteen"
            else f"{item.what}  {' '.join(ranks)}: {where}"
        )
        rows.append(ClaimedRow(words, squares, item.points))
    return tuple(rows)


def seen_score(record: TurnRecord, joker: bool, open_window: bool) -> SeenScore | None:
    """The score of `record`'s play as the people at the table may see it (None for a pass or an
    exchange): under the Joker rule with its call window open, only the declaration."""
    if record.score is None or not isinstance(record.turn.move, Play):
        return None
    hide = joker and open_window
    return SeenScore(
        number=record.number,
        player=record.player,
        play=record.turn.move,
        declared=record.declared,
        joker=joker,
        score=None if hide else record.score,
        claimed=claimed_rows(record.claimed, record.board_after) if joker else (),
        calls=record.calls,
    )


def seen_in(state: GameState | PublicState, record: TurnRecord) -> SeenScore | None:
    """`seen_score` of a turn of the round `state`, its window as it stands in that round."""
    return seen_score(record, state.options.joker, window_open(state, record))


def _whose(names: Sequence[str], player: int) -> str:
    return "your" if names[player] == "You" else f"{names[player]}'s"


def _s(n: int) -> str:
    return "" if abs(n) == 1 else "s"


def call_words(call: JokerCall, player: int, names: Sequence[str]) -> str:
    """A Joker call on `player`'s play in a sentence, naming seats by `names` ("You" for the person):
    who called, on whose play, and how the points moved."""
    caller = names[call.caller]
    you = caller == "You"
    whose = _whose(names, player)
    if call.taken:
        them = "you" if names[player] == "You" else names[player]
        return (
            f"{caller} called Joker on {whose} play, declared {call.taken} point{_s(call.taken)} over its "
            f"score, and took them from {them}."
        )
    if call.points > 0:
        return f"{caller} called Joker on {whose} play and took {call.points} unclaimed point{_s(call.points)}."
    who, lose = ("you", "lose") if you else (caller, "loses")
    return f"{caller} called Joker on {whose} play, but nothing was missed: {who} {lose} {-call.points} points."


def call_row(call: JokerCall, player: int, names: Sequence[str]) -> tuple[str, str]:
    """A Joker call as one short row of a list: its words and the caller's points ("+2", "-5")."""
    caller = names[call.caller]
    if call.taken:
        return f"{caller} called Joker: {names[player]} -{call.taken}", f"+{call.points}"
    if call.points > 0:
        return f"{caller} called Joker on {_whose(names, player)} play", f"+{call.points}"
    return f"{caller} called Joker: nothing missed", str(call.points)
