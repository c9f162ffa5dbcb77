"""A finished (or saved) game of cribbage replayed: the session the window steps through (read only, at
any move of the record) and the whole game in words, deal by deal, for `cribtiles replay FILE --text`.
Pure code: the game is rebuilt from its record, every move checked by the engine."""

from __future__ import annotations

import json

from cribtiles.cribbage.cards import format_cards
from cribtiles.cribbage.game import CribbageState, describe_cut
from cribtiles.cribbage.moves import CribbageError, Move, parse_move
from cribtiles.cribbage.options import Variant
from cribtiles.rules.errors import IllegalMove

from ..game_summary import GameSummary
from ..seats import Seat
from .public import PublicMove
from .session import CribbageSession, InlineThinker
from .table import CribbageSaveError, CribbageTable

#: What a replay answers to any move.
READ_ONLY = "this is a replay: nothing in it can be played"


class ReplaySession(CribbageSession):
    """The game of `table` as it stood after `ply` moves, read only: nobody moves in it, no bot thinks,
    nothing is kept (the window's cribbage scene draws it as it would draw the game at that moment)."""

    def __init__(self, table: CribbageTable, ply: int) -> None:
        super().__init__(table.at_ply(ply), InlineThinker(), None)
        self.final = table

    @property
    def thinking(self) -> bool:
        return False

    def act(self, seat: int, action: Move) -> PublicMove | None:
        raise CribbageError(READ_ONLY)

    def can_undo(self, seat: int) -> bool:
        return False

    def undo(self, seat: int) -> tuple[Move, ...]:
        raise IllegalMove(READ_ONLY)

    def poll(self) -> Move | None:
        return None

    def land(self) -> PublicMove:
        raise IllegalMove(READ_ONLY)

    def save(self) -> None:
        """Nothing is kept: the game is in its file, or the history, as it was."""

    def finish(self) -> None:
        """A replayed game is in the history already (or was never played here)."""


def past_cribbage_table(game: GameSummary) -> CribbageTable:
    """The table of a game of cribbage of the history, rebuilt from its record with its seats and marks
    (to replay it); a CribbageSaveError in words when the record cannot be replayed."""
    seats = tuple(Seat(name, level) for name, level in game.seats)
    table = CribbageTable.from_record(json_record(game.record), seats)
    table.undos, table.hints = game.cribbage.undos, game.cribbage.hints
    return table


def json_record(text: str) -> object:
    """A record kept as JSON text, read (a CribbageSaveError in words when it is not JSON)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise CribbageSaveError(f"its record is not valid JSON ({str(e)[:60]})") from None


def replay_words(table: CribbageTable) -> str:
    """The whole game of `table` in words: each deal's hands as dealt, every move and what it scored, the
    scores after each deal and the result (a record holds every hand: a replay shows everything)."""
    names = table.state.names
    at = table.at_ply(0)
    variant = table.options.variant
    what = "Cribbage" if variant is Variant.SIX_CARD else f"Cribbage ({variant.words})"
    out = [f"{what}: {_sides(at.state)}, to {table.options.target} (seed {table.state.seed})."]
    out += [f"  {line}" for line in describe_cut(at.state)]
    out += [f"      +{e.points} {names[e.player]}: {e.words}" for e in at.state.events if e.points]
    deal = 0
    for text in table.state.log:
        state = at.state
        if state.deal_number != deal:
            deal = state.deal_number
            out.append("")
            deals = "deal" if names[state.dealer] == "You" else "deals"
            out.append(f"Deal {deal}: {names[state.dealer]} {deals}; the scores are {_scores(state)}.")
            for p in range(state.players):
                holds = "hold" if names[p] == "You" else "holds"
                out.append(f"  {names[p]} {holds} {format_cards(state.hands[p])}.")
            if state.crib:
                out.append(f"  The crib takes {format_cards(state.crib)} from the deck.")
        happening = at.replay_move(parse_move(text))
        out.append(f"  {happening.words}")
        if state.starter is None and at.state.starter is not None and at.state.deal_number == deal:
            out.append(f"  The starter is {at.state.starter}.")
        out += [f"      +{e.points} {names[e.player]}: {e.words}" for e in happening.events if e.points]
    outcome = table.state.outcome
    if outcome is not None and outcome.resigned is not None and not at.is_over:
        at.state = at.state.resign(outcome.resigned)  # given up after its last move
    summary = at.summary()
    out.append("")
    if summary is None:
        out.append(f"The game was left at {_scores(at.state)}, after {len(at.state.log)} moves.")
    else:
        out += [summary.words, summary.margin_words]
    return "\n".join(out)


def _side_names(state: CribbageState) -> list[str]:
    """Each side's name: a player's, or partners' together ("You and North")."""
    names = state.names
    return [
        " and ".join(names[p] for p in range(state.players) if state.side_of(p) == side)
        for side in range(len(state.scores))
    ]


def _sides(state: CribbageState) -> str:
    """Who plays whom: "You against Hard bot"; "You, West and East"; "You and North against West and East"."""
    sides = _side_names(state)
    if len(sides) == 2:
        return f"{sides[0]} against {sides[1]}"
    return ", ".join(sides[:-1]) + f" and {sides[-1]}"


def _scores(state: CribbageState) -> str:
    return ", ".join(f"{name} {score}" for name, score in zip(_side_names(state), state.scores, strict=True))
