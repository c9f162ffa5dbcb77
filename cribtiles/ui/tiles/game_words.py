"""The table's messages in words: who starts and why, what an undo took back, a message as a sentence,
the round's end, a turn a stand-in made (time ran out, or its player away too long) and a move done."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.options import Start
from cribtiles.table.tiles.history import TurnRecord
from cribtiles.table.tiles.public import PublicMatch, PublicState


def sentence(text: str) -> str:
    """A message as a sentence: its first letter a capital, a full stop at its end."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def draw_words(state: PublicState, name_of: Callable[[int], str]) -> str:
    """Who starts and why: each player's tile of the draw for the start (`name_of` names a seat, "You"
    for the only person at a table of bots)."""
    high = state.options.start == Start.HIGH
    parts = []
    for draws in state.start_draws:
        parts.append(", ".join(f"{'you' if name_of(p) == 'You' else state.names[p]} drew a {t.word}" for p, t in draws))
    who = "You start" if name_of(state.starter) == "You" else f"{state.names[state.starter]} starts"
    rule = "the highest" if high else "the lowest"
    again = "; tied, they drew again: " if len(parts) > 1 else ""
    return f"{parts[0][0].upper()}{parts[0][1:]}{again}{'; '.join(parts[1:])}. {who}: {rule} tile plays first."


def took_back_words(taken: Sequence[TurnRecord], whose: str, names: Sequence[str], also: str | None = None) -> str:
    """What an undo took back, in a sentence: "Took back your play f7=5D g7=TL and Hard's reply".
    `whose` is "your" or "Ann's"; `names` name the seats; `also` a bot whose reply was on its way."""
    mine = taken[0]
    move = mine.turn.move
    if isinstance(move, Play):
        what = f"{whose} play {move}"
    elif isinstance(move, Exchange):
        n = mine.turn.drawn
        what = f"{whose} exchange of {n} tile{'s' if n != 1 else ''}"
    else:
        what = f"{whose} pass"
    bots: list[str] = []
    for record in taken[1:]:
        if names[record.player] not in bots:
            bots.append(names[record.player])
    if also is not None and also not in bots:
        bots.append(also)
    if len(bots) == 1:
        what += f" and {bots[0]}'s reply"
    elif bots:
        what += f" and the replies of {', '.join(bots[:-1])} and {bots[-1]}"
    return f"Took back {what}."


def round_words(match: PublicMatch, you: int | None) -> str:
    """The next round of a match begins: which, and the running totals ("You" for `you`)."""
    totals = " · ".join(
        f"{'You' if p == you else n} {t}" for p, (n, t) in enumerate(zip(match.names, match.totals, strict=True))
    )
    return f"Round {match.round} of {match.options.rounds}. Running totals: {totals}."


def stand_in_words(why: str, who: str, did: str = "played") -> str:
    """A move the table's stand-in made for `who` ("You" or a name), told as such, not as theirs.

    >>> stand_in_words("timer", "You")
    'A bot played for you (your time ran out)'
    >>> stand_in_words("away", "Ben", "passed")
    'A bot passed for Ben (Ben was away too long)'
    """
    you = who == "You"
    reason = "time ran out" if why == "timer" else "was away too long"
    if you:
        reason = "your time ran out" if why == "timer" else "you were away too long"
    elif why == "timer":
        reason = f"{who}'s time ran out"
    else:
        reason = f"{who} {reason}"
    return f"A bot {did} for {'you' if you else who} ({reason})"


def did_words(move: Move) -> str:
    """What a move did, as a verb: "played", "passed", "exchanged tiles"."""
    return "played" if isinstance(move, Play) else "exchanged tiles" if isinstance(move, Exchange) else "passed"
