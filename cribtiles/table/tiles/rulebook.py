"""The rule book as pages a player steps through: each page a title, a few paragraphs and examples.

Every example is real tiles in the engine's notation, scored (or refused) by the engine itself, and
carries the figure its page states, so the pages cannot drift from the rules: tests hold each stated
figure to the engine's, and `examples_markdown()` is the section of docs/rules.md that lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from cribtiles.rules.board import Board
from cribtiles.rules.errors import IllegalMove, NotationError
from cribtiles.rules.hands import score_hand
from cribtiles.rules.moves import Play, parse_move, parse_rack
from cribtiles.rules.options import OPTIONS
from cribtiles.rules.scorer import STANDARD_SCORER
from cribtiles.rules.scoring import PlayScore, ScoredLine
from cribtiles.rules.tiles import Tile


class ExampleKind(StrEnum):
    """What an example shows: a hand alone, a play on a board, or a rack counted off at the end."""

    HAND = "hand"  # tiles laid as one line: its hand score, no bonuses
    PLAY = "play"  # a play on a board (empty: the first play), bonuses included
    RACK = "rack"  # tiles left on a rack at the end: what they cost


@dataclass(frozen=True)
class Example:
    """One illustrated example. `tiles` is a play in notation (`f7=4L g7=5D`), or for a rack the
    tiles (`KD 6L AL`); `board` the tiles already on the board. `stated` is the figure the page
    gives (for a rack, the points lost); None means the example is refused, and `why` then says by
    what (the engine's own words come from `outcome`)."""

    caption: str
    tiles: str
    stated: int | None
    board: str = ""
    kind: ExampleKind = ExampleKind.PLAY

    @property
    def legal(self) -> bool:
        return self.stated is not None

    @property
    def before(self) -> Board:
        """The board before the example's play (empty for a hand, a rack or a first play)."""
        if not self.board:
            return Board.empty()
        move = parse_move(self.board)
        assert isinstance(move, Play)
        return Board.empty().place(move.placements)

    @property
    def rack(self) -> tuple[Tile, ...]:
        return parse_rack(self.tiles) if self.kind is ExampleKind.RACK else ()

    def outcome(self) -> Outcome:
        return _outcome(self)


@dataclass(frozen=True)
class Outcome:
    """What the engine makes of an example: the score and breakdown, or the refusal in words."""

    total: int | None  # the engine's figure; None when refused
    score: PlayScore | None  # the breakdown of a hand or a play
    refusal: str  # IllegalMove's or NotationError's message; "" when accepted


#: The rule book's examples are scored by the standard rules (its page of optional rules says what each
#: option changes; the help page and the rules strip say which are in force in a game).
SCORER = STANDARD_SCORER


@cache
def _outcome(example: Example) -> Outcome:
    if example.kind is ExampleKind.RACK:
        return Outcome(sum(t.value for t in example.rack), None, "")
    try:
        move = parse_move(example.tiles)
        if not isinstance(move, Play):
            raise NotationError(f"{example.tiles!r} is not a play of tiles")
        score = SCORER.score(example.before, move)
    except (IllegalMove, NotationError) as e:
        return Outcome(None, None, str(e))
    if example.kind is ExampleKind.HAND:  # the line alone, as a hand: no first-play or other bonus
        (line,) = (sl for sl in score.lines if len(sl.line.tiles) == len(move.placements))
        hand = score_hand(line.line.ranks)
        score = PlayScore(move, (ScoredLine(line.line, hand, line.placed),), ())
    return Outcome(score.total, score, "")


@dataclass(frozen=True)
class Page:
    title: str
    paragraphs: tuple[str, ...]
    examples: tuple[Example, ...] = ()


HAND, RACK = ExampleKind.HAND, ExampleKind.RACK


def _hand(caption: str, ranks_and_colours: str, stated: int | None) -> Example:
    """A hand laid along row 7 from column d: `4L 5D 6L` -> d7=4L e7=5D f7=6L."""
    tiles = ranks_and_colours.split()
    play = " ".join(f"{'defgh'[i]}7={t}" for i, t in enumerate(tiles))
    return Example(caption, play, stated, kind=HAND)


ROW_456 = "f7=4L g7=5D h7=6L"

PAGES: tuple[Page, ...] = (
    Page(
        "Contents",
        (
            "Crib Tiles is Kings Cribbage: lay tiles in rows and columns as in a crossword game, and "
            "score every line like a cribbage hand. Choose a page, or step through them with the arrows.",
        ),
    ),
    Page(
        "What a hand is",
        (
            "A line is 2 to 5 tiles side by side in a row or a column. Diagonals never count.",
            "Every line on the board is a cribbage hand: it scores for its fifteens, pairs and runs, "
            "in any order. No flushes, no nobs.",
            "A line must score, and every tile in it must count for something.",
        ),
        (
            _hand("4 5 6: a fifteen (2) and a run of three (3) = 5", "4L 5D 6L", 5),
            _hand("J 4 scores nothing: not allowed", "JL 4D", None),
        ),
    ),
    Page(
        "Fifteens",
        (
            "Every different group of tiles that adds up to 15 scores 2. (our choice) The sheet leaves "
            "this figure blank; 2 is cribbage's.",
            "A counts 1, 2 to 10 their face, J Q K count 10.",
        ),
        (
            _hand("7 + 8 = 15: 2", "7L 8D", 2),
            _hand("A + 4 + 10 = 15: 2", "AL 4D TL", 2),
            _hand("5 + 10 and 5 + K: two fifteens = 4", "5D TL KD", 4),
        ),
    ),
    Page(
        "Pairs",
        (
            "Every pair of tiles of the same rank scores 2. Three of a kind hold 3 pairs, four of a "
            "kind 6, five of a kind 10.",
            "(our choice) The sheet gives 12 for four of a kind and leaves three and five of a kind "
            "blank: 2 a pair, as in cribbage, makes them 6 and 20.",
            "Pairs go by rank: 10 J Q K are four different ranks, and hold no pair.",
        ),
        (
            _hand("a pair: 2", "8L 8D", 2),
            _hand("three of a kind: 6", "8L 8D 8L", 6),
            _hand("four of a kind: 12", "8L 8D 8L 8D", 12),
            _hand("five of a kind: 20", "8L 8D 8L 8D 8L", 20),
        ),
    ),
    Page(
        "Runs",
        (
            "Three or more consecutive ranks make a run, in any order on the board: a point a tile. "
            "(our choice) The sheet leaves the run of four blank: 4, as in cribbage.",
            "The order is A 2 3 ... 10 J Q K. The ace is low only: Q K A is not a run.",
        ),
        (
            _hand("5 3 4: a run of three = 3", "5L 3D 4L", 3),
            _hand("3 4 5 6: a run of four (4) and the fifteen 4 + 5 + 6 (2) = 6", "3L 4D 5L 6D", 6),
            _hand("3 4 5 6 7: a run of five (5) and two fifteens (4) = 9", "3L 4D 5L 6D 7L", 9),
            _hand("Q K A scores nothing: not allowed", "QL KD AL", None),
        ),
    ),
    Page(
        "Double, triple and double-double runs",
        (
            "When a rank of a run is there twice, there are two runs; three times, three runs. Each "
            "run counts in full, and the pairs count as well.",
            "Runs alone: 3 4 4 5 scores 6 (two runs of three), 4 5 5 5 6 scores 9 (three runs of "
            "three), 4 4 5 6 6 scores 12 (four runs of three), 3 4 4 5 6 scores 8 (two runs of four).",
        ),
        (
            _hand("3 4 4 5: runs 6 + a pair 2 = 8", "3L 4D 4L 5D", 8),
            _hand("4 5 5 5 6: runs 9 + pairs 6 + fifteens 8 = 23", "4L 5D 5L 5D 6L", 23),
            _hand("4 4 5 6 6: runs 12 + pairs 4 + fifteens 8 = 24", "4L 4D 5L 6D 6L", 24),
            _hand("3 4 4 5 6: runs 8 + a pair 2 + fifteens 4 = 14", "3L 4D 4L 5D 6L", 14),
        ),
    ),
    Page(
        "The first play",
        (
            "The lowest tile drawn plays first. The first play uses 2 to 5 tiles in one line and may "
            "go anywhere on the board: there is no start square, only the name patch in the top-left "
            "corner is out of play.",
            "The first play scores 10 points more.",
        ),
        (
            Example("4 5 6 anywhere: 5, and 10 for the first play = 15", ROW_456, 15),
            Example("one tile cannot open the game", "g7=5D", None),
        ),
    ),
    Page(
        "What is legal and what is not",
        (
            "After the first play, lay 1 to 5 tiles in one row or one column, with no gaps except "
            "squares already filled, touching a tile on the board.",
            "Every line your tiles touch scores whole, old tiles and all, and must stay a valid hand: "
            "at most 5 tiles, every tile counting. Two hands may be joined into one line.",
        ),
        (
            Example("4 5 6 extended by a 5: the whole line scores again = 12", "i7=5D", 12, board=ROW_456),
            Example("the 8 adds nothing to 4 5 6 8", "i7=8D", None, board=ROW_456),
            Example(
                "a sixth tile in one line",
                "k7=3L",
                None,
                board="f7=4L g7=5D h7=6L i7=5D j7=4D",
            ),
            Example("tiles must touch the board", "j7=7L k7=8D", None, board=ROW_456),
            Example(
                "a 9 joins 5 5 and 7 8: a pair 2 + a fifteen 2 + a run 3 = 7",
                "f7=9D",
                7,
                board="d7=5L e7=5D g7=7D h7=8L",
            ),
        ),
    ),
    Page(
        "Bonuses",
        (
            "Three bonuses of 10 points each: the first play of the game; all five tiles laid in one "
            "turn; and each line of exactly five tiles, all light or all dark, that holds a tile you laid.",
            "(our choice) They add up (the sheet does not say): a first play of five tiles of one colour "
            "earns all three, +30.",
        ),
        (
            Example(
                "A 2 3 4 5 all light as the first play: 7 + 10 + 10 + 10 = 37",
                "e7=AL f7=2L g7=3L h7=4L i7=5L",
                37,
            ),
            Example(
                "5 4 completing 4 5 6 5 4 all dark: 24 + 10 one colour = 34",
                "i7=5D j7=4D",
                34,
                board="f7=4D g7=5D h7=6D",
            ),
        ),
    ),
    Page(
        "6s and 9s",
        (
            "A 6 turned round is a 9: on your rack a 6 and a 9 of one colour are the same tile, and you "
            "choose which way up to lay it. Once on the board it stays as you laid it.",
            "For the draw to start and for the count at the end, a 6/9 counts 6.",
        ),
        (
            Example("laid as a 9 after 4 5 6: fifteens 4 + run 3 = 7", "i7=9D", 7, board=ROW_456),
            Example("laid as a 6: runs 6 + a pair 2 + fifteens 4 = 12", "i7=6D", 12, board=ROW_456),
        ),
    ),
    Page(
        "Exchanges and passing",
        (
            "When you cannot play, you pass; you may also exchange 1 to 5 tiles with the bag (no more "
            "than it holds). You draw the new tiles first, then yours go back and the bag is shuffled. "
            "Either way the turn scores nothing.",
            "After a play you draw back up to 5 tiles while the bag lasts.",
        ),
    ),
    Page(
        "The end of the game",
        (
            "When the bag is empty, the game ends at once when a player plays their last tile, or when "
            "nobody can play.",
            "(our choice) So that every game ends, it also ends, tiles in the bag or not, when for two "
            "rounds in a row nobody could play and nobody can play now (a locked board), or, where "
            "passing by choice is allowed, after three rounds in a row without a play. If an exchange "
            "has just brought someone a tile that fits, the game goes on.",
            "Everyone then loses the count of the tiles left on their rack: A 1, J Q K 10, a 6/9 6. "
            "The player who went out gains nothing from the others. Highest score wins; a tie shares "
            "the win.",
        ),
        (
            Example("K 6 A left on the rack: 10 + 6 + 1 = 17 off", "KD 6L AL", 17, kind=RACK),
            Example("9 Q left: the 6/9 counts 6, so 6 + 10 = 16 off", "9D QL", 16, kind=RACK),
        ),
    ),
    Page(
        "The optional rules",
        tuple(p for row in OPTIONS for p in row.book()),  # Solitaire has the next page
    ),
    Page(
        "Solitaire",
        (
            "The dark and the light tiles go into two bags and play each other: Dark and Light take "
            "turns, each drawing only from its own bag, under the same rules. One person may play both "
            "sides, or one side against a bot.",
            "The game ends when both bags are empty and a side has played its last tile, or neither side can play.",
        ),
    ),
    Page(
        "Writing moves down",
        (
            "For the text mode. A square is a column a to m and a row 1 to 13: f7. A tile is a rank "
            "A 2 3 4 5 6 7 8 9 T J Q K (10 for T is fine) and L for light or D for dark: 5D, TL.",
            "A play lists square=tile with spaces between: f7=4L g7=5D h7=6L. Also pass, and exchange 4L 5D 9D.",
        ),
        (
            Example("written right: 15 as a first play", ROW_456, 15),
            Example("a comma between placements", "f7=4L,g7=5D", None),
            Example("a tile missing after the =", "f7=", None),
            Example("an ace is written A, not 1", "f7=1L g7=4D", None),
        ),
    ),
)

CONTENTS = 0


def contents() -> tuple[str, ...]:
    """The titles of the pages after the contents page, in order."""
    return tuple(p.title for p in PAGES[CONTENTS + 1 :])


def all_examples() -> tuple[tuple[Page, Example], ...]:
    return tuple((page, ex) for page in PAGES for ex in page.examples)


def describe(example: Example) -> str:
    """One example in words, as docs/rules.md lists it: tiles, board, and what the engine makes of it."""
    out = example.outcome()
    where = f" after `{example.board}`" if example.board else ""
    if example.kind is ExampleKind.RACK:
        what = f"rack `{example.tiles}`"
        result = f"**-{out.total}**"
    elif example.kind is ExampleKind.HAND:
        what = f"hand `{' '.join(w.partition('=')[2] for w in example.tiles.split())}`"
        result = f"**{out.total}**" if out.refusal == "" else f"refused: {out.refusal}"
    else:
        what = f"`{example.tiles}`{where}"
        result = f"**{out.total}**" if out.refusal == "" else f"refused: {out.refusal}"
    return f"- {example.caption} — {what} → {result}"


BEGIN = "<!-- rulebook examples: begin (made by cribtiles.table.tiles.rulebook.examples_markdown) -->"
END = "<!-- rulebook examples: end -->"


def examples_markdown() -> str:
    """The examples of every page, as the section of docs/rules.md between BEGIN and END."""
    lines = [BEGIN, ""]
    for page in PAGES:
        if page.examples:
            lines.append(f"**{page.title}**")
            lines.append("")
            lines.extend(describe(ex) for ex in page.examples)
            lines.append("")
    lines.append(END)
    return "\n".join(lines)


def with_examples(markdown: str) -> str:
    """`markdown` (docs/rules.md) with its examples section made again from the pages."""
    head, begin, rest = markdown.partition(BEGIN)
    if not begin:
        raise ValueError("docs/rules.md has no rulebook examples section")
    _, end, tail = rest.partition(END)
    if not end:
        raise ValueError("docs/rules.md's rulebook examples section has no end")
    return head + examples_markdown() + tail
