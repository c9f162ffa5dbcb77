"""The ledger of finished games of classic cribbage: one summary of each (the seats, the scores, the
margin, every hand and crib counted in the show) and the statistics drawn from many of them, by bot level.

A hand's points are what its cards make with the starter, whatever its owner counted (under muggins a
player may count short: `declared` keeps what was said, and the person's misses are summed apart).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cribtiles.bot.cribbage_levels import LEVELS
from cribtiles.cribbage.cards import format_cards
from cribtiles.cribbage.events import EventKind, MarginKind
from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.moves import Count, parse_move
from cribtiles.cribbage.peg import PegKind
from cribtiles.cribbage.record import replay
from cribtiles.cribbage.show import score_show
from cribtiles.quoting import quoted

#: The bot levels in the order the statistics list them, the ladder's own (a level this version does not
#: know, from a history written by another, goes last).
LEVEL_ORDER = LEVELS
ALL = "all"  # the level of the statistics' total line

#: The show's three counts of a deal, by `ShowCount.step`.
STEP_WORDS = ("the non-dealer's hand", "the dealer's hand", "the crib")


@dataclass(frozen=True)
class ShowCount:
    """One count of the show: the deal, which of its three counts (0 the non-dealer's hand, 1 the dealer's,
    2 the crib), whose, the four cards and the starter (in notation), what they make and what was counted."""

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


@dataclass(frozen=True)
class CribbageGame:
    """A finished game of cribbage as the history keeps it.

    `person` is the person's seat (the other is the bot of `level`); `pegged` what each seat scored in the
    play (go and last card included, his heels not); `shows` every count made, in order (a game that ends
    mid-play or mid-show lacks the counts never made). `record` is the engine's record as JSON, from which
    the game is replayed exactly; `key` a digest of the game itself, so the same game recorded twice is
    known; `id` is 0 until it is stored."""

    id: int
    key: str
    finished_at: str  # ISO 8601 local time to the second
    seed: int
    level: str
    muggins: bool
    target: int
    person: int
    names: tuple[str, str]
    scores: tuple[int, int]
    winner: int
    margin: MarginKind
    deals: int
    pegged: tuple[int, int]
    shows: tuple[ShowCount, ...]
    record: str

    def __post_init__(self) -> None:
        if self.person not in (0, 1) or self.winner not in (0, 1):
            raise ValueError(f"the seats are 0 and 1, not {self.person} and {self.winner}")
        if any(s.owner not in (0, 1) for s in self.shows):
            raise ValueError("a count of the show is owned by no seat of the game")

    @property
    def bot(self) -> int:
        return 1 - self.person

    @property
    def person_won(self) -> bool:
        return self.winner == self.person

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

    @property
    def missed(self) -> int:
        """The points the person's own counts fell short of their cards (muggins)."""
        return sum(max(0, s.points - s.declared) for s in self.shows if s.owner == self.person)  # not an over-count


def game_key(record: Mapping[str, object], person: int, level: str) -> str:
    """A digest of a game as it was played (its record, the person's seat, the bot's level): nothing else,
    not the time, so a game recorded twice is known."""
    text = json.dumps({"record": record, "person": person, "level": level}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def summarize_cribbage(state: CribbageState, person: int, level: str, finished_at: str) -> CribbageGame:
    """The summary of the finished game `state`, the person at seat `person` against the bot of `level`;
    ValueError while the game is still played. The game is replayed from its record to see every count."""
    outcome = state.outcome
    if outcome is None:
        raise ValueError("the game is not over yet")
    if person not in (0, 1):
        raise ValueError(f"the person sits at seat 0 or 1, not {quoted(person)}")
    record = state.record()
    shows: list[ShowCount] = []
    pegged = [0, 0]
    at = replay({**record, "moves": []})
    for text in state.log:
        move = parse_move(text)
        if isinstance(move, Count) and at.starter is not None:
            cards, crib = at.show_cards(at.show_step)
            points = score_show(cards, at.starter, crib).total
            declared = points if move.declared is None else move.declared
            owner = at.show_owner(at.show_step)
            shows.append(
                ShowCount(
                    at.deal_number, at.show_step, owner, crib, format_cards(cards), str(at.starter), points, declared
                )
            )
        at = at.apply(move)
        for event in at.events:
            if isinstance(event.kind, PegKind) or event.kind is EventKind.CLAIM:  # a card's score said aloud too
                pegged[event.player] += event.points
    return CribbageGame(
        id=0,
        key=game_key(record, person, level),
        finished_at=finished_at,
        seed=state.seed,
        level=level,
        muggins=state.options.muggins or state.options.play_muggins,  # the history marks either kind
        target=state.options.target,
        person=person,
        names=state.names,
        scores=outcome.scores,
        winner=outcome.winner,
        margin=outcome.margin_kind,
        deals=state.deal_number,
        pegged=(pegged[0], pegged[1]),
        shows=tuple(shows),
        record=json.dumps(record, separators=(",", ":")),
    )


# --- statistics ---


@dataclass(frozen=True)
class CribbageLine:
    """The figures of the games against one bot level (`ALL` in the total), from the person's side.

    Skunks given are games the person won by a lurch, taken those the bot did (a double skunk counts in
    both its own figure and the skunks'), so the games won and lost by the rule book, a skunk two games and a
    double skunk three, are `wins + skunks_given + double_skunks_given` and the like. Hands are the person's
    own four-card hands counted in the show, cribs the cribs the person dealt; `best_hand_cards` are the best
    hand's cards ("" when no hand was counted). `average_pegged` is the person's points in the play per game."""

    level: str
    games: int
    wins: int
    losses: int
    skunks_given: int
    double_skunks_given: int
    skunks_taken: int
    double_skunks_taken: int
    average_score: float
    hands: int
    average_hand: float | None
    best_hand: int | None
    best_hand_cards: str
    cribs: int
    average_crib: float | None
    best_crib: int | None
    average_pegged: float
    missed: int
    longest_streak: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def games_won_by_the_book(self) -> int:
        """The games won as the rule book counts them: a win one, a skunk two, a double skunk three."""
        return self.wins + self.skunks_given + self.double_skunks_given

    @property
    def games_lost_by_the_book(self) -> int:
        """The games lost so counted: a skunk taken two, a double skunk taken three."""
        return self.losses + self.skunks_taken + self.double_skunks_taken


@dataclass(frozen=True)
class CribbageStats:
    """One line per bot level (weakest first), the total over them, and the number of games."""

    lines: tuple[CribbageLine, ...]
    total: CribbageLine | None
    games: int


def _level_order(level: str) -> tuple[int, str]:
    return (LEVEL_ORDER.index(level), "") if level in LEVEL_ORDER else (len(LEVEL_ORDER), level)


def cribbage_statistics(games: Sequence[CribbageGame]) -> CribbageStats:
    """The statistics of `games`, given in the order they were played (the history gives them so)."""
    groups: dict[str, list[CribbageGame]] = {}
    for g in games:
        groups.setdefault(g.level, []).append(g)
    return CribbageStats(
        lines=tuple(cribbage_line(level, groups[level]) for level in sorted(groups, key=_level_order)),
        total=cribbage_line(ALL, games) if games else None,
        games=len(games),
    )


def _mean(values: Sequence[int]) -> float | None:
    return sum(values) / len(values) if values else None


def cribbage_line(level: str, games: Sequence[CribbageGame]) -> CribbageLine:
    """The figures of `games` (at least one), in the order they were played."""
    hands = [h for g in games for h in g.hands_of(g.person)]
    cribs = [c.points for g in games for c in g.cribs_of(g.person)]
    best = max(hands, key=lambda h: h.points, default=None)  # the first of the best, in the order played
    won = [g for g in games if g.person_won]
    lost = [g for g in games if not g.person_won]
    return CribbageLine(
        level=level,
        games=len(games),
        wins=len(won),
        losses=len(lost),
        skunks_given=sum(g.skunk for g in won),
        double_skunks_given=sum(g.double_skunk for g in won),
        skunks_taken=sum(g.skunk for g in lost),
        double_skunks_taken=sum(g.double_skunk for g in lost),
        average_score=sum(g.scores[g.person] for g in games) / len(games),
        hands=len(hands),
        average_hand=_mean([h.points for h in hands]),
        best_hand=None if best is None else best.points,
        best_hand_cards="" if best is None else best.words,
        cribs=len(cribs),
        average_crib=_mean(cribs),
        best_crib=max(cribs, default=None),
        average_pegged=sum(g.pegged[g.person] for g in games) / len(games),
        missed=sum(g.missed for g in games),
        longest_streak=_longest_streak([g.person_won for g in games]),
    )


def _longest_streak(won: Sequence[bool]) -> int:
    best = run = 0
    for w in won:
        run = run + 1 if w else 0
        best = max(best, run)
    return best
