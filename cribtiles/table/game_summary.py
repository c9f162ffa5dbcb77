"""One finished game as the history keeps it, for both games: who sat where, the final scores, the result
for the people, the record to replay it from, and the game's own details (the tile game's marks, mode
and rounds; cribbage's margin, points pegged and every count of its show).

Whose games are "yours": the people at the table, taken together. With one person that is that person;
with several people and bots, the people win when the winners are all people, tie when people share the
win with a bot, and lose when only bots won. A game of people only (a hot-seat game, or one person at
both sides of Solitaire) is its own group, "people": there is nobody to win against. A game of bots only
was watched, not played: it stays in the history and is left out of the statistics.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from cribtiles.bot.tiles.levels import LEVELS as TILE_LEVELS
from cribtiles.cribbage.events import MarginKind
from cribtiles.games import LADDER, RESULT, game_named
from cribtiles.quoting import quoted
from cribtiles.rules.options import Mode, RuleOptions

PEOPLE = "people"  # the opponent of a game of people only
#: Cribbage's standard game, two players with six cards each (`cribtiles.cribbage.options.Variant`'s value):
#: every game stored before the variants (schema 8) was one.
SIX_CARD = "six-card"
#: The other variants as the History names them (a variant of a newer version by its value).
VARIANT_WORDS = {"five-card": "five-card", "three-player": "three players", "partnership": "partnerships"}
MODES = tuple(Mode)


class Game(StrEnum):
    """Which game a summary is of (its name in `cribtiles.games.GAMES` and in the history's `game` column)."""

    TILES = "tiles"
    CRIBBAGE = "cribbage"


class Result(StrEnum):
    """How a finished game went for the people at the table."""

    WIN = "win"  # the winners are all people
    TIE = "tie"  # people share the win with a bot
    LOSS = "loss"  # only bots won
    PEOPLE_ONLY = "people only"  # nobody to win against: a game of people only
    WATCHED = "watched"  # bots only: nobody's game
    UNFINISHED = "unfinished"  # left unfinished when a new game was started over it: not counted


@dataclass(frozen=True)
class TileDetails:
    """The tile game's own figures: `best_play` the most a person scored for one play and `highest_line`
    the most a single line scored in a person's play (0 when no person played)."""

    mode: str  # "standard" or "solitaire"
    options: str  # RuleOptions.to_text()
    rounds: int
    turns: int
    undos: int
    hints: int
    best_play: int
    highest_line: int

    @property
    def marked(self) -> bool:
        """Plays were taken back or hints asked for."""
        return self.undos > 0 or self.hints > 0

    @property
    def is_match(self) -> bool:
        return self.rounds > 1

    @property
    def planned_rounds(self) -> int:
        """The rounds its rules asked for (an unfinished match played fewer); `rounds` when unreadable."""
        try:
            return RuleOptions.parse(self.options).rounds if self.options else self.rounds
        except ValueError:
            return self.rounds


@dataclass(frozen=True)
class ShowCount:
    """One count of cribbage's show: the deal, which of its counts (two players: 0 the non-dealer's hand, 1
    the dealer's, 2 the crib; three or four: a hand each round from the dealer's left, then the crib), whose,
    the cards (four, three in five-card's hand) and the starter (in notation), what they make and what was
    counted (under muggins a player may count short)."""

    deal: int
    step: int
    owner: int
    crib: bool
    cards: str  # "5H 5D 5S JC"
    starter: str  # "5C"
    points: int
    declared: int

    @property
    def words(self) -> str:
        """'5H 5D 5S JC with 5C'."""
        return f"{self.cards} with {self.starter}"


class Counting(StrEnum):
    """Who counts the hands and cribs in the show, and what a wrong count costs."""

    AUTO = "auto"  # the table counts every hand and crib
    MANUAL = "manual"  # each player counts their own; a wrong count is corrected, no points lost
    MUGGINS = "muggins"  # each counts their own aloud; the opponent may call a wrong count (muggins!)


@dataclass(frozen=True)
class CribbageDetails:
    """Classic cribbage's own figures: `pegged` what each seat scored in the play (go and last card
    included, his heels not); `shows` every count made, in order (a game that ends mid-play or mid-show
    lacks the counts never made). `counting` and `muggins_won` (the points each seat took by calling
    muggins) are stored since schema 7: None for a game stored before (its counting is then known only as
    far as the muggins mark says: `counting_rule`)."""

    muggins: bool
    target: int
    margin: MarginKind
    deals: int
    pegged: tuple[int, ...]
    shows: tuple[ShowCount, ...]
    undos: int = 0  # moves taken back against the bot
    hints: int = 0  # hints asked for
    counting: Counting | None = None
    muggins_won: tuple[int, ...] | None = None
    variant: str = SIX_CARD  # which cribbage (`Variant`'s value), stored since schema 8

    @property
    def variant_words(self) -> str:
        """The variant as the lists name it ("three players"); "" for six-card cribbage, the standard."""
        return "" if self.variant == SIX_CARD else VARIANT_WORDS.get(self.variant, self.variant)

    @property
    def marked(self) -> bool:
        """Moves were taken back or hints asked for: the game is counted apart, as the tile game's."""
        return self.undos > 0 or self.hints > 0

    @property
    def counting_rule(self) -> Counting:
        """How the show was counted; for a game stored before schema 7, from its muggins mark (which marked
        muggins in the play too: such a game's show may have been counted by the table)."""
        if self.counting is not None:
            return self.counting
        return Counting.MUGGINS if self.muggins else Counting.AUTO

    @property
    def skunk(self) -> bool:
        """Won by a lurch (the loser under 91), doubled or not."""
        return self.margin is not MarginKind.WIN

    @property
    def double_skunk(self) -> bool:
        return self.margin is MarginKind.DOUBLE_SKUNK

    def hands_of(self, seat: int) -> tuple[ShowCount, ...]:
        """The four-card hands `seat` counted (not its cribs)."""
        return tuple(s for s in self.shows if s.owner == seat and not s.crib)

    def cribs_of(self, seat: int) -> tuple[ShowCount, ...]:
        return tuple(s for s in self.shows if s.owner == seat and s.crib)

    def missed(self, seat: int) -> int:
        """The points `seat`'s own counts fell short of their cards (muggins; an over-count is no miss).
        Counted by hand without muggins, a short count is corrected and costs nothing: no miss."""
        if self.counting_rule is Counting.MANUAL:
            return 0
        return sum(max(0, s.points - s.declared) for s in self.shows if s.owner == seat)

    def corrected(self, seat: int) -> int:
        """How many of `seat`'s own counts were wrong and corrected (counted by hand without muggins)."""
        if self.counting_rule is not Counting.MANUAL:
            return 0
        return sum(1 for s in self.shows if s.owner == seat and s.declared != s.points)


Details = TileDetails | CribbageDetails
_KINDS: dict[Game, type[TileDetails] | type[CribbageDetails]] = {
    Game.TILES: TileDetails,
    Game.CRIBBAGE: CribbageDetails,
}


@dataclass(frozen=True)
class GameSummary:
    """One finished game (or whole match) of either game, as the history keeps it.

    `seats` are (name, bot level or None for a person); `scores` the final scores (a match's totals),
    `winners` the seats that won (ties share; the leaders of a game kept `unfinished`). `record` is the
    table's save, from which the game is rebuilt exactly. `key` is a digest of the game itself, so the same
    finished game recorded twice has the same key; `id` is 0 until it is stored."""

    id: int
    key: str
    game: Game
    finished_at: str  # ISO 8601 local time to the second: 2026-11-30T14:05:09
    seed: int
    seats: tuple[tuple[str, str | None], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    record: str
    details: Details
    unfinished: bool = False  # kept as it stood when a new game was started over it

    def __post_init__(self) -> None:
        if len(self.scores) != len(self.seats) or not self.seats:
            raise ValueError(f"{len(self.seats)} seats need as many scores, not {len(self.scores)}")
        if not self.winners or any(not 0 <= w < len(self.seats) for w in self.winners):
            raise ValueError(f"the winners {self.winners} are not seats of the game")
        if not isinstance(self.details, _KINDS[self.game]):
            raise ValueError(f"a game of {self.game} has not the details of one")
        if isinstance(self.details, TileDetails):
            if self.details.mode not in MODES:
                raise ValueError(f"there is no mode {quoted(self.details.mode)}")
            if any(level is not None and level not in TILE_LEVELS for _, level in self.seats):
                raise ValueError("a seat has a bot level this version does not know")
        else:
            if not 2 <= len(self.seats) <= 4 or not self.people:
                raise ValueError("a game of cribbage is of two to four players, a person among them")
            side = (self.winners[0], self.winners[0] + 2) if len(self.seats) == 4 else self.winners[:1]
            if self.winners != side:  # partners (across the table: seats 0 and 2, 1 and 3) win together
                raise ValueError(f"one side wins a game of cribbage, not seats {self.winners}")
            if len(self.details.pegged) != len(self.seats):
                raise ValueError(f"{len(self.seats)} seats need as many points pegged, not {len(self.details.pegged)}")
            if any(not 0 <= s.owner < len(self.seats) for s in self.details.shows):
                raise ValueError("a count of the show is owned by no seat of the game")

    @property
    def tiles(self) -> TileDetails:
        """The tile game's details; TypeError for a game of cribbage (a bug of the caller)."""
        if not isinstance(self.details, TileDetails):
            raise TypeError(f"game {self.id} is not a tile game")
        return self.details

    @property
    def cribbage(self) -> CribbageDetails:
        """Cribbage's details; TypeError for a tile game (a bug of the caller)."""
        if not isinstance(self.details, CribbageDetails):
            raise TypeError(f"game {self.id} is not a game of cribbage")
        return self.details

    @cached_property
    def resigned(self) -> int | None:
        """The seat that gave the game up (online), as its record says; None when nobody did. Read once."""
        try:
            return _resigned_in(json.loads(self.record), len(self.seats))
        except (ValueError, RecursionError):  # a record the history could not read is not told about here
            return None

    @property
    def people(self) -> tuple[int, ...]:
        """The seats of people."""
        return tuple(i for i, (_, level) in enumerate(self.seats) if level is None)

    @property
    def bots(self) -> tuple[int, ...]:
        return tuple(i for i, (_, level) in enumerate(self.seats) if level is not None)

    @property
    def person(self) -> int:
        """The first person's seat (cribbage's person; ValueError with nobody at the table)."""
        if not self.people:
            raise ValueError("nobody played this game")
        return self.people[0]

    @property
    def opponent(self) -> str:
        """The bot levels at the table, weakest first ("hard", "easy+hard"), or "people" with no bot: in the
        order of the game's ladder (`LADDER`; a level this version does not know, from a history written by
        another, goes last)."""
        ladder: tuple[str, ...] = game_named(self.game).part(LADDER)
        levels = sorted((level for _, level in self.seats if level is not None), key=lambda lv: level_order(ladder, lv))
        return "+".join(levels) if levels else PEOPLE

    @property
    def result(self) -> Result:
        """How the game went for the people at the table (see the module's notes; whether people who share
        the win with a bot tied is the game's own: its `RESULT`)."""
        people, bots = self.people, self.bots
        if self.unfinished:
            return Result.UNFINISHED
        if not people:
            return Result.WATCHED
        if not bots:
            return Result.PEOPLE_ONLY
        result: Result = game_named(self.game).part(RESULT)(set(self.winners), set(people))
        return result

    @property
    def people_scores(self) -> tuple[int, ...]:
        return tuple(self.scores[p] for p in self.people)

    @property
    def margin(self) -> int:
        """By how much the winners led the best of the others (0 on a tie of everyone)."""
        best = max(self.scores)
        rest = [s for s in self.scores if s != best]
        return best - max(rest) if rest else 0

    @property
    def rounds_words(self) -> str:
        """ "match of 3", or for a match left unfinished "round 2 of 3" ("" for a single game or cribbage)."""
        if not isinstance(self.details, TileDetails):
            return ""
        d = self.details
        if self.unfinished and d.planned_rounds > 1:
            return f"round {d.rounds} of {d.planned_rounds}"
        return f"match of {d.rounds}" if d.is_match else ""


def level_order(ladder: tuple[str, ...], level: str) -> tuple[int, str]:
    """Where `level` stands on `ladder` (weakest first); a level not on it after them all, by name."""
    return (ladder.index(level), "") if level in ladder else (len(ladder), level)


def _resigned_in(data: object, seats: int) -> int | None:
    """The seat a record's `resigned` names (a tile game's in its last round, a game of cribbage's at its
    top), looked for at any depth; None when none does.

    >>> _resigned_in({"match": {"games": [{"moves": []}, {"resigned": 1}]}}, 2), _resigned_in({"resigned": 5}, 2)
    (1, None)
    """
    found: int | None = None
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            seat = item.get("resigned")
            if type(seat) is int and 0 <= seat < seats:
                found = seat
            todo.extend(v for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            todo.extend(v for v in item if isinstance(v, (dict, list)))
    return found
