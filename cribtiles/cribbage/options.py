"""The settings of a game of classic cribbage (the variant, house rules, the target) and the phases of a deal."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple


class _Shape(NamedTuple):
    players: int
    dealt: int
    to_crib: int
    from_deck: int
    sides: int
    words: str


class Variant(StrEnum):
    """Which cribbage: the standard two-player six-card game, two-player five-card cribbage, three players,
    or four players in two partnerships (partners sit across: players 0 and 2 against 1 and 3).

    Each knows its shape: how many play (`players`), the cards dealt to each (`dealt`), the cards each lays
    away to the crib (`to_crib`), the cards the dealer adds to the crib from the deck (`from_deck`: one in the
    three-player game, so every crib holds four), the cards of a shown hand (`kept`), the scoring sides
    (`sides`) and its name for menus (`words`).

    >>> [(v.players, v.dealt, v.to_crib, v.from_deck, v.kept, v.sides) for v in Variant]
    [(2, 6, 2, 0, 4, 2), (2, 5, 2, 0, 3, 2), (3, 5, 1, 1, 4, 3), (4, 5, 1, 0, 4, 2)]
    """

    SIX_CARD = "six-card"
    FIVE_CARD = "five-card"
    THREE = "three-player"
    PARTNERSHIP = "partnership"

    @property
    def _shape(self) -> _Shape:
        return _SHAPES[self]

    @property
    def players(self) -> int:
        return self._shape.players

    @property
    def dealt(self) -> int:
        return self._shape.dealt

    @property
    def to_crib(self) -> int:
        return self._shape.to_crib

    @property
    def from_deck(self) -> int:
        return self._shape.from_deck

    @property
    def kept(self) -> int:
        """The cards of a hand in the show (the crib always holds four)."""
        return self.dealt - self.to_crib

    @property
    def sides(self) -> int:
        return self._shape.sides

    @property
    def words(self) -> str:
        return self._shape.words

    def side_of(self, player: int) -> int:
        """The scoring side of `player`: partners (0 and 2, 1 and 3) share one; otherwise each is their own."""
        return player % self.sides

    @property
    def play_once(self) -> bool:
        """Five-card cribbage plays to 31 (or a go) once a deal: the cards left are not played."""
        return self is Variant.FIVE_CARD


_SHAPES = {
    Variant.SIX_CARD: _Shape(2, 6, 2, 0, 2, "six-card"),
    Variant.FIVE_CARD: _Shape(2, 5, 2, 0, 2, "five-card"),
    Variant.THREE: _Shape(3, 5, 1, 1, 3, "three players"),
    Variant.PARTNERSHIP: _Shape(4, 5, 1, 0, 2, "four: partnerships"),
}


class Phase(StrEnum):
    """Where a deal stands: discarding to the crib, the play, the show; or the game is over."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"


@dataclass(frozen=True)
class CribbageOptions:
    """The variant (`Variant`, two-player six-card by default), and house rules: muggins (each player
    counts their own hand and crib aloud, and the opponent may call a wrong count), muggins in the play too
    (each card's score said aloud: `play_muggins`), the target score, and counting by hand without muggins
    (`manual_count`: each player says what their own hand and crib make, and a wrong count is corrected, the
    cards' worth pegged, no points lost; with muggins on, muggins rules the count and this is ignored).

    `end_on_answer` is when a game under muggins ends: a score said aloud that reaches the target waits for
    its answer like any other, and the game ends once it is answered (every new game). Off, as in the
    records made before it, what such a count pegged ended the game at once, so one said to reach the target
    and left open to a call was known to be over: a sure call (issue 43). Without muggins it changes nothing."""

    muggins: bool = False
    target: int = 121  # five-card cribbage is normally played to 61: the caller says so; any variant may
    play_muggins: bool = False
    manual_count: bool = False
    variant: Variant = Variant.SIX_CARD
    end_on_answer: bool = True

    @property
    def counted_by_hand(self) -> bool:
        """Whether each player says their own count in the show (muggins, or by hand without it)."""
        return self.muggins or self.manual_count

    def __post_init__(self) -> None:
        if not 31 <= self.target <= 1000:
            raise ValueError(f"a game is played to 31 to 1000 points, not {self.target}")


def unnamed_end_on_answer(muggins: bool, play_muggins: bool) -> bool:
    """What `end_on_answer` is for a record (or a value sent) that does not name it: under muggins, False,
    the rule of the records made before it; without muggins, where it changes nothing, True, as a new
    game's. A record names it only when it is not this, so the records of before read as they were played.

    >>> unnamed_end_on_answer(True, False), unnamed_end_on_answer(False, False)
    (False, True)
    """
    return not (muggins or play_muggins)


def named_end_on_answer(options: CribbageOptions) -> dict[str, bool]:
    """`end_on_answer` as a record writes it: {} when a record without it means the same
    (`unnamed_end_on_answer`), else {"end_on_answer": its value}.

    >>> named_end_on_answer(CribbageOptions(muggins=True)), named_end_on_answer(CribbageOptions())
    ({'end_on_answer': True}, {})
    """
    if options.end_on_answer == unnamed_end_on_answer(options.muggins, options.play_muggins):
        return {}
    return {"end_on_answer": options.end_on_answer}


_ON, _OFF = {"on", "yes", "true"}, {"off", "no", "false"}


def unusual_words(text: str) -> tuple[list[str], list[str]]:
    """A table's rules (`--rules` text, as its creator sent it) in words, as a list of tables shows them:
    its variant (none for the six-card game) and each rule that differs from the usual; text that is not
    rules as the window writes them comes back as it came (cut short).

    >>> unusual_words("muggins=on,play_muggins=off,target=121,variant=three-player")
    (['three players'], ['muggins'])
    >>> unusual_words("muggins=off,play_muggins=on,target=61,variant=five-card")
    (['five-card'], ['muggins in the play', 'to 61'])
    >>> unusual_words("muggins=maybe"), unusual_words("")
    (([], ['muggins=maybe']), ([], []))
    """
    told = dict(item.partition("=")[::2] for item in text.replace(" ", "").lower().split(",") if item)
    six = Variant.SIX_CARD.value
    variant = next((v for v in Variant if told.get("variant", six) in (v.value, v.words)), None)
    switches = [told.get(key, "off") for key in ("muggins", "play_muggins")]
    target = told.get("target", "121")
    known = set(told) <= {"muggins", "play_muggins", "target", "variant"} and target.isdigit()
    if variant is None or not known or not set(switches) <= _ON | _OFF:
        return [], [text[:60]] if text else []
    said = [name for name, on in zip(("muggins", "muggins in the play"), switches, strict=True) if on in _ON]
    if target != "121":
        said.append(f"to {target[:4]}")
    return ([variant.words] if variant is not Variant.SIX_CARD else []), said
