"""The table both games share: seats of people and bots at any level, whose turn it is, one `BotRequest`
and one seeded generator for a bot's decision, taking back where the game allows it, and the envelope of
a save. Each game's table (`model.Table`, `cribbage_table.CribbageTable`) adds only what is its own.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from cribtiles.games import GAMES

from .seats import Seat

#: The one save format of a table, whatever its game: an envelope naming the game and its version.
SAVE_FORMAT = "cribtiles table"
SAVE_VERSION = 2

V = TypeVar("V")


class SaveRefused(ValueError):
    """A save a game's table cannot use, in plain words; `whose` goes before them when a player is told
    (`saves.unusable`), for a game whose words do not say which game's save it was."""

    whose: ClassVar[str] = ""


M = TypeVar("M")
R = TypeVar("R")


@dataclass(frozen=True)
class BotRequest(Generic[V]):
    """A bot's move to be chosen: by which seat, at which level, from what it may see, with what seed,
    after how many turns (an answer chosen for another turn is stale)."""

    seat: int
    level: str
    view: V
    seed: int
    turn: int

    @property
    def ply(self) -> int:
        """The moves made before it (cribbage's name for `turn`)."""
        return self.turn


def decision_rng(*key: object) -> random.Random:
    """The generator of one decision, seeded by its key's parts joined with "/" (a game's name, its
    seed, where in the game): a seed and the same moves give the bots the same choices, whoever drives
    the game (string seeding is stable across processes).

    >>> decision_rng("cribtiles-cribbage", 5, 12).random() == random.Random("cribtiles-cribbage/5/12").random()
    True
    """
    return random.Random("/".join(str(part) for part in key))


@dataclass(frozen=True)
class Envelope:
    """A save read as far as the table goes: its game's name, the seats, the marks, and the whole
    object (the game's own part is read by that game's table)."""

    game: str
    seats: tuple[Seat, ...]
    marks: tuple[int, int]  # plays taken back, hints asked for
    data: Mapping[str, Any]


class GameTable(ABC, Generic[V, M, R]):
    """A game at the table, of views `V`, moves `M` and what a move's making returns `R`. Its state
    changes only through its methods; the turn loop is the same for every game and every driver: ask
    who is to move; for a bot take its `bot_request`, have the move chosen and hand it to `play_bot`."""

    #: The game's name in the registry (`cribtiles.games.GAMES`) and in saves.
    game: ClassVar[str]
    #: The words refusing a bot's move, or a request for one, when no bot is to move.
    not_bots_turn: ClassVar[str] = "it is not a bot's turn"

    def __init__(self, seats: Sequence[Seat], *, undos: int = 0, hints: int = 0) -> None:
        if self.game not in GAMES:
            raise ValueError(f"there is no game called {self.game!r}")
        self.seats = tuple(seats)
        # marks kept with the game (and its save): plays taken back, hints asked for
        self.undos = undos
        self.hints = hints

    # --- what each game answers ---

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose turn it is, None when nobody is to move (the game or its round is over)."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def turn(self) -> int:
        """The turns made so far (of the round in play): a bot's answer is for one of them."""

    @abstractmethod
    def view(self, seat: int) -> V:
        """What `seat` may see."""

    @abstractmethod
    def _request_seed(self) -> int:
        """The seed of the bot's decision now."""

    @abstractmethod
    def _refusal(self, words: str) -> Exception:
        """The game's own error for a move refused, in words."""

    @abstractmethod
    def _play_bot(self, seat: int, move: M) -> R:
        """The bot at `seat` (to move) makes `move`."""

    @abstractmethod
    def save_body(self) -> dict[str, Any]:
        """The game's own part of the save (its record)."""

    # --- the questions ---

    @property
    def game_title(self) -> str:
        return GAMES[self.game].title

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def people(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.is_person)

    @property
    def bot_to_move(self) -> bool:
        p = self.to_move
        return p is not None and self.seats[p].is_bot

    @property
    def person_to_move(self) -> bool:
        p = self.to_move
        return p is not None and self.seats[p].is_person

    # --- bots ---

    def bot_request(self) -> BotRequest[V]:
        """What the bot to move must decide."""
        p = self.to_move
        level = None if p is None else self.seats[p].level
        if p is None or level is None:
            raise self._refusal(self.not_bots_turn)
        return BotRequest(p, level, self.view(p), self._request_seed(), self.turn)

    def play_bot(self, move: M, request: BotRequest[V] | None = None) -> R:
        """The bot to move makes `move`, chosen for `request` (None: for now); refused when it is not a
        bot's turn or the game has moved on since the request."""
        p = self.to_move
        if p is None or not self.seats[p].is_bot:
            raise self._refusal(self.not_bots_turn)
        if request is not None and request.turn != self.turn:
            raise self._refusal("that move was chosen for another turn")
        return self._play_bot(p, move)

    # --- taking back ---

    def can_undo(self, seat: int) -> bool:
        """Whether `seat` may take back its last turn now: never, unless the game allows it."""
        return False

    def undo(self, seat: int) -> int:
        """Take back `seat`'s last turn (the number of turns taken back), where the game allows it."""
        raise self._refusal(f"a move of {self.game_title} is not taken back")

    def count_hint(self) -> int:
        """Count one hint asked for: the game keeps the mark in its save. The hints so far."""
        self.hints += 1
        return self.hints

    # --- the save ---

    def save_data(self) -> dict[str, Any]:
        """The save: the envelope (format, version, game, seats, marks) around the game's own part."""
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "seats": [s.as_dict() for s in self.seats],
        }
        if self.undos or self.hints:  # absent in a game without them, as in saves written before them
            data["marks"] = {"undos": self.undos, "hints": self.hints}
        return data | self.save_body()

    def to_json(self) -> str:
        return json.dumps(self.save_data(), indent=1)


def is_envelope(data: object) -> bool:
    """Whether `data` is a save in the one format (of any version)."""
    return isinstance(data, Mapping) and data.get("format") == SAVE_FORMAT


def read_envelope(data: Mapping[str, Any]) -> Envelope:
    """The envelope of a save in the one format; a ValueError in words when it is damaged (the caller
    words it as its game's error)."""
    if data.get("version") != SAVE_VERSION:
        raise ValueError(
            f"this game was saved in another version of Crib Tiles (this one reads version {SAVE_VERSION})"
        )
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"the saved game is damaged: it names no game of {', '.join(GAMES)}")
    seats = data.get("seats")
    if not isinstance(seats, list):
        raise ValueError("the saved game is damaged: its seats are missing")
    try:
        parsed = tuple(Seat.from_dict(s) for s in seats)
    except ValueError as e:
        raise ValueError(f"the saved game is damaged: {e}") from None
    return Envelope(game, parsed, read_marks(data.get("marks", {})), data)


def read_marks(marks: object) -> tuple[int, int]:
    """The plays taken back and the hints asked for, from a save's `marks` (absent: none)."""
    if not isinstance(marks, dict):
        raise ValueError("the saved game is damaged: its marks are not a table of counts")
    counts = []
    for key in ("undos", "hints"):
        n = marks.get(key, 0)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 1_000_000:
            raise ValueError(f"the saved game is damaged: its count of {key} is not a number of times")
        counts.append(n)
    return counts[0], counts[1]
