"""The moves of classic cribbage and their notation: "discard 5H JD", "play 7C", "go", "count 12", "muggins",
"no muggins" (or "let stand").

`parse_move(str(move)) == move` for every move; bad notation is a CardError, an illegal move a CribbageError.
"""

from __future__ import annotations

from dataclasses import dataclass

from cribtiles.quoting import quoted

from .cards import Card, CardError, format_cards, parse_card, parse_cards


class CribbageError(ValueError):
    """A move the rules do not allow at this point of the game; the message says why in plain words."""


@dataclass(frozen=True)
class Discard:
    """Lay cards from the hand away to the dealer's crib: two of six (or of five in five-card cribbage), one
    of five with three or four players."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"discard {format_cards(self.cards)}"


@dataclass(frozen=True)
class PlayCard:
    """Lay a card in the play, adding its value to the count; `claim` None pegs what it scores exactly.

    Under muggins in the play a player says what the card scores ("play 5C 2"): a call may follow."""

    card: Card
    claim: int | None = None

    def __str__(self) -> str:
        return f"play {self.card}" if self.claim is None else f"play {self.card} {self.claim}"


@dataclass(frozen=True)
class Go:
    """Say "go": it is your turn in the play and no card you hold keeps the count at 31 or below."""

    def __str__(self) -> str:
        return "go"


@dataclass(frozen=True)
class Count:
    """Count your hand (or your crib) in the show; `declared` None counts it exactly.

    With the muggins option a player says a number, right or wrong, and the opponent may call it."""

    declared: int | None = None

    def __str__(self) -> str:
        return "count" if self.declared is None else f"count {self.declared}"


@dataclass(frozen=True)
class Muggins:
    """After an opponent's count said aloud (muggins option): call it wrong, taking the points missed or
    said over, or let it stand."""

    claim: bool

    def __str__(self) -> str:
        return "muggins" if self.claim else "no muggins"


Move = Discard | PlayCard | Go | Count | Muggins


def parse_move(text: str) -> Move:
    """A move from its notation.

    >>> parse_move("discard 5h 10d"), parse_move("count 12"), parse_move(" Go ")
    (Discard(cards=(Card(5H), Card(TD))), Count(declared=12), Go())
    """
    words = text.split()
    if not words:
        raise CardError("an empty move: write discard, play, go, count or muggins")
    words[0] = words[0].lower()  # the cards keep their case, for the error to quote them as written
    verb, rest = words[0], " ".join(words[1:])
    if verb == "discard":
        cards = parse_cards(rest)
        if len(cards) not in (1, 2):
            raise CardError(
                f"{quoted(text.strip())}: a discard lays two cards in the crib, like 'discard 5H JD' "
                "(one with three or four players, like 'discard 5H')"
            )
        return Discard(tuple(cards))
    if verb == "play":
        if len(words) == 3 and _number(words[2]):
            return PlayCard(parse_card(words[1]), int(words[2]))
        if len(words) != 2:
            raise CardError(
                f"{quoted(text.strip())}: play one card, like 'play 7C' (or 'play 7C 2', saying it scores 2)"
            )
        return PlayCard(parse_card(words[1]))
    if words == ["go"]:
        return Go()
    if verb == "count":
        if not rest:
            return Count()
        if len(words) == 2 and _number(words[1]):
            return Count(int(words[1]))
        raise CardError(f"{quoted(text.strip())}: write 'count' for the exact count, or 'count N' with N a number")
    if words == ["muggins"]:
        return Muggins(True)
    if [w.lower() for w in words] in (["no", "muggins"], ["let", "stand"]):  # the story tells it "let stand"
        return Muggins(False)
    raise CardError(f"{quoted(text.strip())} is not a move: write discard, play, go, count, muggins or no muggins")


def _number(word: str) -> bool:
    return word.isascii() and word.isdigit() and len(word) <= 3
