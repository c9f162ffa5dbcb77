"""Classic cribbage's tutorial: one guided deal from a fixed seed, every move of it scripted (yours and
the bot's), and the steps that walk through it: the discard to the bot's crib, the lead, a fifteen in the
play, the bot's go and your point for it, its pair and last card, then the show, hand by hand. Pure: no pygame.

The window plays the scripted deal through the ordinary cribbage table (the same model, the engine's own
scoring) and holds the player to the move each step asks for, so the deal is the same every time.
"""

from __future__ import annotations

from dataclasses import dataclass

from cribtiles.cribbage.moves import Discard, Move, parse_move
from cribtiles.cribbage.options import CribbageOptions

from .table import CribbageTable

#: The seed of the tutorial's game: the cut makes the bot deal, so you lead, and deals you A 2 3 4 9 Q.
SEED = 7
LEVEL = "medium"
PERSON = 0
#: Every move of the first deal in order, yours and the bot's, down to the crib's count.
SCRIPT = (
    "discard 9C QC",  # you, the non-dealer, first
    "discard AC 2H",
    "play 2S",
    "play 9S",
    "play 4S",  # 15: fifteen two
    "play 6D",
    "play AH",
    "go",  # the bot at 22 holds two tens
    "play 3H",  # 25, and nobody can lay: go for one
    "play TC",
    "play TS",  # a pair, and the last card
    "count",  # your hand: 8
    "count",  # the bot's hand: 4
    "count",  # the bot's crib: 0
)


@dataclass(frozen=True)
class Step:
    """What the tutorial says from move `ply` on (until the next step's ply), and the move it asks of you
    there, in notation ("" while the bot moves or the show is counted for it)."""

    ply: int
    title: str
    text: str
    asks: str = ""


STEPS = (
    Step(
        0,
        "Your six cards",
        "The bot cut the lower card and deals: the crib is the bot's. Two of your six go to it, so give it "
        "cards that do it little good and keep the four that score: A 2 3 4 is a run already. Click 9 of "
        "clubs and Q of clubs (or drag them to the crib), then Discard.",
        "discard 9C QC",
    ),
    Step(
        1,
        "The bot discards",
        "The bot lays its two in its crib. Then the starter is turned up: it counts with every hand in the show.",
    ),
    Step(
        2,
        "You lead",
        "The non-dealer lays the first card of the play. A low card is a safe lead: no card makes 15 with it "
        "at once. Lay the 2 of spades (click it or drag it to the play).",
        "play 2S",
    ),
    Step(3, "The count", "The bot lays a 9: the count is 2 + 9 = 11."),
    Step(
        4,
        "Fifteen two",
        "A card that brings the count to 15 scores 2. The count is 11: lay the 4 of spades for fifteen two.",
        "play 4S",
    ),
    Step(5, "The count goes on", "The bot lays a 6: the count is 21. It may never pass 31."),
    Step(6, "Lay the ace", "Lay the ace of hearts: the count is 22.", "play AH"),
    Step(7, "Go", "The bot holds only tens, and 22 + 10 is 32: it cannot lay, so it says go."),
    Step(
        8,
        "A point for the go",
        "After a go you lay what you can: your 3 makes 25. Then nobody can lay, and the last to lay pegs 1 "
        "for the go. Lay the 3 of hearts.",
        "play 3H",
    ),
    Step(
        9,
        "A new count",
        "The count starts again at 0. The bot lays its two tens: the second pairs the first (2), and the last "
        "card of the play scores 1.",
    ),
    Step(
        11,
        "The show: your hand",
        "Each hand is counted with the starter, the non-dealer's first. Yours, A 2 3 4 with the king: two "
        "fifteens (2 + 3 + K, A + 4 + K) and a run of four: 8. Count it (Enter or Count).",
        "count",
    ),
    Step(
        12,
        "The bot's hand and crib",
        "Then the dealer's hand, then its crib. Go on (Enter) to see each counted: a fifteen and a pair in "
        "its hand, nothing in the crib you gave it.",
    ),
)

DONE = Step(
    len(SCRIPT),
    "That is a deal",
    "Deals go on like this, the deal passing to and fro, until someone reaches 121. You lead 11 to 7. "
    "Escape leaves the tutorial; Cribbage on the title screen plays a whole game, and Rules (Tab) has "
    "every rule with examples.",
)


def tutorial_table() -> CribbageTable:
    """The tutorial's game before its first move: you at seat 0 against the bot, no muggins."""
    return CribbageTable.new(SEED, LEVEL, CribbageOptions(), PERSON)


def scripted(ply: int) -> Move | None:
    """The script's move after `ply` moves, or None past its end (the tutorial is over)."""
    return parse_move(SCRIPT[ply]) if 0 <= ply < len(SCRIPT) else None


def step_at(ply: int) -> Step:
    """The step in force after `ply` moves (DONE once the scripted deal is over)."""
    if ply >= len(SCRIPT):
        return DONE
    return [s for s in STEPS if s.ply <= ply][-1]


def same_move(a: Move, b: Move) -> bool:
    """Whether two moves are the same (two cards discarded in either order are)."""
    if isinstance(a, Discard) and isinstance(b, Discard):
        return set(a.cards) == set(b.cards)
    return a == b


def why_not(ply: int, move: Move) -> str:
    """Why the tutorial does not take `move` as the move after `ply` moves ("" when it does)."""
    wanted = scripted(ply)
    if wanted is None:
        return "The tutorial's deal is over: Escape leaves it."
    if same_move(move, wanted):
        return ""
    return f"The tutorial asks for: {wanted}. {step_at(ply).title}: see the words on the right."
