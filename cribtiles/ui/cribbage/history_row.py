"""A game of cribbage's row on the History screen (its `HISTORY_ROW` part in `cribtiles.games`): when it
ended, marked as cribbage with its variant, bots and rules, the players with their final scores, whether the
person's side won, and its marks (a skunk, who resigned, undos, hints)."""

from __future__ import annotations

from cribtiles.table.game_summary import GameSummary, Result

from ..history_parts import WON, resigned, when
from ..paint import CREAM, DIM, GOLD
from ..screens import Cells


def cells(game: GameSummary) -> Cells:
    """The row's five cells and their colours (a game won in green; two people online: neither word)."""
    person_won = game.result is Result.WIN
    won = "won" if person_won else "" if game.result is Result.PEOPLE_ONLY else "lost"
    colours = (DIM, CREAM, CREAM, WON if person_won else CREAM, GOLD)
    return (when(game), cribbage_what(game), cribbage_players(game), won, cribbage_marks(game)), colours


def cribbage_what(game: GameSummary) -> str:
    """'Cribbage · medium', with the variant, muggins or another target when played so ('Cribbage · three
    players · easy+hard · to 61')."""
    d = game.cribbage
    rules = [word for word, on in (("muggins", d.muggins), (f"to {d.target}", d.target != 121)) if on]
    levels = "+".join(dict.fromkeys(game.opponent.split("+")))  # three bots of one level: that level once
    return " · ".join(["Cribbage", *([d.variant_words] if d.variant_words else []), levels, *rules])


def cribbage_players(game: GameSummary) -> str:
    """'» You 121 · Medium bot 84', in seat order, the winner marked."""
    return " · ".join(
        f"{'» ' if i in game.winners else ''}{name} {score}"
        for i, ((name, _), score) in enumerate(zip(game.seats, game.scores, strict=True))
    )


def cribbage_marks(game: GameSummary) -> str:
    """'skunk' or 'double skunk' when the loser fell short of 91 or 61; the undos and hints, as a tile
    game's: 'skunk, 2 undos'."""
    d = game.cribbage
    out = [d.margin.value] if d.skunk and game.resigned is None else []  # a game given up counts no skunk
    out += resigned(game)
    out += [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((d.undos, "undo"), (d.hints, "hint")) if n]
    return ", ".join(out)
