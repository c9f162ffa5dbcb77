"""The replay of a game of cribbage from its record (`CribbageState.record()`: seed, names, options, moves).

The deals come from the seed, so the moves alone replay the game exactly; a rule added since a record was
made is read as it was then (`unnamed_end_on_answer`), so that the old records replay as they were played.
"""

from __future__ import annotations

from collections.abc import Mapping

from cribtiles.quoting import quoted

from .cards import CardError
from .game import RECORD_GAME, RECORD_VERSION, CribbageState, new_game
from .moves import CribbageError, parse_move
from .options import CribbageOptions, Variant, unnamed_end_on_answer

_NUMBERS = {2: "two", 3: "three", 4: "four"}


def _field(record: Mapping[str, object], key: str, kind: type) -> object:
    value = record.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
        raise CribbageError(f"this record of a cribbage game is damaged: its {key} is missing or wrong")
    return value


def replay(record: Mapping[str, object]) -> CribbageState:
    """The state a record leads to, every move checked; a CribbageError in words if it cannot be replayed."""
    if record.get("game") != RECORD_GAME or record.get("version") != RECORD_VERSION:
        raise CribbageError("this is not a record of a classic cribbage game this version can read")
    seed = _field(record, "seed", int)
    names = _field(record, "names", list)
    options = _field(record, "options", dict)
    moves = _field(record, "moves", list)
    assert isinstance(seed, int) and isinstance(names, list) and isinstance(options, dict) and isinstance(moves, list)
    try:
        variant = Variant(options.get("variant", Variant.SIX_CARD))
    except ValueError:
        raise CribbageError(
            "this record of a cribbage game is damaged: it names no variant this version knows"
        ) from None
    if len(names) != variant.players or not all(isinstance(n, str) for n in names):
        raise CribbageError(
            f"this record of a cribbage game is damaged: it must name {_NUMBERS[variant.players]} players"
        )
    muggins, play_muggins = bool(options.get("muggins", False)), bool(options.get("play_muggins", False))
    try:
        chosen = CribbageOptions(
            muggins=muggins,
            target=int(options.get("target", 121)),
            play_muggins=play_muggins,
            manual_count=bool(options.get("manual_count", False)),
            variant=variant,
            # a record from before it: a count that reached the target ended the game at once, as it was played
            end_on_answer=bool(options.get("end_on_answer", unnamed_end_on_answer(muggins, play_muggins))),
        )
    except (TypeError, ValueError) as e:
        raise CribbageError(f"this record of a cribbage game is damaged: its options are wrong ({e})") from None
    try:
        state = new_game(seed, tuple(names), chosen)
    except ValueError as e:  # a name too long, or holding a control character
        raise CribbageError(f"this record of a cribbage game is damaged: {e}") from None
    for number, text in enumerate(moves, start=1):
        if not isinstance(text, str):
            raise CribbageError(f"this record of a cribbage game is damaged: move {number} is not text")
        try:
            state = state.apply(parse_move(text))
        except (CardError, CribbageError) as e:
            raise CribbageError(f"move {number} of the record ({quoted(text)}) cannot be played: {e}") from None
    resigned = record.get("resigned")
    if resigned is not None:
        if type(resigned) is not int:
            raise CribbageError("this record of a cribbage game is damaged: who gave it up is not a player")
        try:
            state = state.resign(resigned)
        except CribbageError as e:
            raise CribbageError(f"this record of a cribbage game cannot have been given up: {e}") from None
    return state
