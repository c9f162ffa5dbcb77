"""Classic cribbage's part of the ledger: a finished game summed up (the seats, the scores, the margin,
every hand and crib counted in the show, in a `GameSummary` of `Game.CRIBBAGE`) and its statistics, by bot
level, which `ledger.statistics` draws with the tile game's.

A hand's points are what its cards make with the starter, whatever its owner counted (under muggins a
player may count short: `declared` keeps what was said, and the person's misses are summed apart).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cribtiles.bot.cribbage.levels import LEVELS
from cribtiles.cribbage.cards import format_cards
from cribtiles.cribbage.events import EventKind
from cribtiles.cribbage.game import CribbageState
from cribtiles.cribbage.moves import Count, parse_move
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.cribbage.peg import PegKind
from cribtiles.cribbage.record import replay
from cribtiles.cribbage.show import score_show
from cribtiles.quoting import quoted

from ..game_summary import (
    SIX_CARD,
    Counting,
    CribbageDetails,
    Game,
    GameSummary,
    Result,
    ShowCount,
    level_order,
)

ALL = "all"  # the level of the statistics' total line


def game_key(record: Mapping[str, object], person: int | None, level: str | None) -> str:
    """A digest of a game as it was played (its record, the person's seat, the bot's level; for two people,
    neither: the same game whichever of them records it): nothing else, not the time, so a game recorded
    twice is known."""
    text = json.dumps({"record": record, "person": person, "level": level}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def summarize_cribbage(
    state: CribbageState, person: int, level: str | None, finished_at: str, marks: tuple[int, int] = (0, 0)
) -> GameSummary:
    """The summary of the finished game `state`, the person at seat `person` against the bot of `level`
    (None: against another person, online), with its `marks` (moves taken back, hints asked for);
    ValueError while the game is still played. The game is replayed from its record to see every count."""
    outcome = state.outcome
    if outcome is None:
        raise ValueError("the game is not over yet")
    if person not in range(state.players) or isinstance(person, bool):
        seats = "0 or 1" if state.players == 2 else f"0 to {state.players - 1}"
        raise ValueError(f"the person sits at seat {seats}, not {quoted(person)}")
    record = state.record()
    shows: list[ShowCount] = []
    pegged = [0] * state.players
    called = [0] * state.players  # the points each took by calling muggins
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
            elif event.kind is EventKind.MUGGINS:
                called[event.player] += event.points
    details = CribbageDetails(
        muggins=state.options.muggins or state.options.play_muggins,  # the history marks either kind
        target=state.options.target,
        margin=outcome.margin_kind,
        deals=state.deal_number,
        pegged=tuple(pegged),
        shows=tuple(shows),
        undos=marks[0],
        hints=marks[1],
        counting=counting_of(state.options),
        muggins_won=tuple(called),
        variant=state.options.variant.value,
    )
    return GameSummary(
        id=0,
        key=game_key(record, person if level is not None else None, level),
        game=Game.CRIBBAGE,
        finished_at=finished_at,
        seed=state.seed,
        seats=tuple((name, None if seat == person else level) for seat, name in enumerate(state.names)),
        scores=tuple(outcome.scores[state.side_of(p)] for p in range(state.players)),  # each seat its side's
        winners=outcome.winners,  # the players (partners both); `scores` are the sides'
        record=json.dumps(record, separators=(",", ":")),
        details=details,
    )


def counting_of(options: CribbageOptions) -> Counting:
    """How the show of a game under `options` is counted (muggins rules it when chosen)."""
    if options.muggins:
        return Counting.MUGGINS
    return Counting.MANUAL if options.manual_count else Counting.AUTO


# --- statistics ---

#: The hands a player remembers: 24 and over (a 24 is four 6s with a 3, 3 3 3 9 9 ...), and the 29.
BIG_HAND, MOST = 24, 29


@dataclass(frozen=True)
class CribbageLine:
    """The figures of the games against one bot level (`ALL` in the total), from the person's side.

    Skunks given are games the person won by a lurch, taken those the bot did (a double skunk counts in
    both its own figure and the skunks'), so the games won and lost by the rule book, a skunk two games and a
    double skunk three, are `wins + skunks_given + double_skunks_given` and the like. Hands are the person's
    own four-card hands counted in the show, cribs the cribs the person dealt; `best_hand_cards` are the best
    hand's cards ("" when no hand was counted). `average_pegged` is the person's points in the play per game,
    `average_pegged_deal` per deal (`deals`, the deals begun). `big_hands` and `twenty_nines` count the
    person's hands and cribs of 24 or more and of 29.

    The muggins calls were stored from schema 7 on: `muggins_won` (the points the person took by calling
    the bot's wrong counts) and `muggins_lost` (the points the bot took on the person's) are over the
    `muggins_games` games played with muggins that have them (older games are not counted in them).
    `corrected` is the person's counts corrected in the `manual_games` counted by hand."""

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
    deals: int = 0
    average_pegged_deal: float | None = None
    big_hands: int = 0
    twenty_nines: int = 0
    muggins_games: int = 0
    muggins_won: int = 0
    muggins_lost: int = 0
    manual_games: int = 0
    corrected: int = 0

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
    """One line per bot level (weakest first) and the total over them, of the games without undos or
    hints; the same of the games with them (`marked`: counted apart, as the tile game's); the number of
    games (both kinds)."""

    lines: tuple[CribbageLine, ...]
    total: CribbageLine | None
    games: int
    marked: tuple[CribbageLine, ...] = ()
    marked_total: CribbageLine | None = None
    variants: tuple[CribbageLine, ...] = ()


def cribbage_statistics(games: Sequence[GameSummary]) -> CribbageStats:
    """The statistics of games of cribbage `games`, given in the order they were played (the history gives
    them so), by the bot's level. A game of two people (online) is in the history, not in these figures,
    which are the person's against the bots.

    The lines by level are of the standard game, six-card cribbage of two, alone: another game's hands,
    pegging and margins are not its (a hand of three, a crib with a card from the pack, points pegged by
    three). Each other variant has one line of its own (`variants`, its `level` the variant's name, in the
    order of `VARIANT_ORDER`), over all its games against bots, with undos and hints or without; `games`
    counts every game of every variant."""
    games = [g for g in games if g.result is not Result.PEOPLE_ONLY]
    six = [g for g in games if g.cribbage.variant == SIX_CARD]
    clean = [g for g in six if not g.cribbage.marked]
    marked = [g for g in six if g.cribbage.marked]
    others: dict[str, list[GameSummary]] = {}
    for g in games:
        if g.cribbage.variant != SIX_CARD:
            others.setdefault(g.cribbage.variant, []).append(g)
    return CribbageStats(
        lines=_level_lines(clean),
        total=cribbage_line(ALL, clean) if clean else None,
        games=len(games),
        marked=_level_lines(marked),
        marked_total=cribbage_line(ALL, marked) if marked else None,
        variants=tuple(cribbage_line(v, others[v]) for v in sorted(others, key=_variant_order)),
    )


#: The variants after the standard game, in the order the New game screen offers them.
VARIANT_ORDER = ("five-card", "three-player", "partnership")


def _variant_order(variant: str) -> tuple[int, str]:
    return (VARIANT_ORDER.index(variant), "") if variant in VARIANT_ORDER else (len(VARIANT_ORDER), variant)


def _level_lines(games: Sequence[GameSummary]) -> tuple[CribbageLine, ...]:
    """A line per bot level of `games`, weakest first."""
    groups: dict[str, list[GameSummary]] = {}
    for g in games:
        groups.setdefault(g.opponent, []).append(g)
    return tuple(
        cribbage_line(level, groups[level]) for level in sorted(groups, key=lambda lv: level_order(LEVELS, lv))
    )


def _mean(values: Sequence[int]) -> float | None:
    return sum(values) / len(values) if values else None


def cribbage_line(level: str, games: Sequence[GameSummary]) -> CribbageLine:
    """The figures of games of cribbage `games` (at least one), in the order they were played."""
    hands = [h for g in games for h in g.cribbage.hands_of(g.person)]
    cribs = [c.points for g in games for c in g.cribbage.cribs_of(g.person)]
    best = max(hands, key=lambda h: h.points, default=None)  # the first of the best, in the order played
    shown = [s.points for g in games for s in g.cribbage.shows if s.owner == g.person]
    called = [g for g in games if g.cribbage.counting_rule is Counting.MUGGINS and g.cribbage.muggins_won]
    manual = [g for g in games if g.cribbage.counting_rule is Counting.MANUAL]
    deals = sum(g.cribbage.deals for g in games)
    pegged = sum(g.cribbage.pegged[g.person] for g in games)
    won = [g for g in games if g.result is Result.WIN]
    lost = [g for g in games if g.result is not Result.WIN]
    return CribbageLine(
        level=level,
        games=len(games),
        wins=len(won),
        losses=len(lost),
        skunks_given=sum(g.cribbage.skunk for g in won),
        double_skunks_given=sum(g.cribbage.double_skunk for g in won),
        skunks_taken=sum(g.cribbage.skunk for g in lost),
        double_skunks_taken=sum(g.cribbage.double_skunk for g in lost),
        average_score=sum(g.scores[g.person] for g in games) / len(games),
        hands=len(hands),
        average_hand=_mean([h.points for h in hands]),
        best_hand=None if best is None else best.points,
        best_hand_cards="" if best is None else best.words,
        cribs=len(cribs),
        average_crib=_mean(cribs),
        best_crib=max(cribs, default=None),
        average_pegged=sum(g.cribbage.pegged[g.person] for g in games) / len(games),
        missed=sum(g.cribbage.missed(g.person) for g in games),
        longest_streak=_longest_streak([g.result is Result.WIN for g in games]),
        deals=deals,
        average_pegged_deal=pegged / deals if deals else None,
        big_hands=sum(1 for p in shown if p >= BIG_HAND),
        twenty_nines=shown.count(MOST),
        muggins_games=len(called),
        muggins_won=sum(_calls(g)[0] for g in called),
        muggins_lost=sum(_calls(g)[1] for g in called),
        manual_games=len(manual),
        corrected=sum(g.cribbage.corrected(g.person) for g in manual),
    )


def _calls(g: GameSummary) -> tuple[int, int]:
    """(the points the person took by muggins, the points taken from the person); (0, 0) unknown. With
    three or four, the points taken from the person are every other side's calls (a call is answered by
    the next opponent round: near enough, as their calls on each other are rare)."""
    won = g.cribbage.muggins_won or (0,) * len(g.seats)
    person = g.person
    partner = (person + 2) % 4 if len(g.seats) == 4 else person
    return won[person], sum(w for seat, w in enumerate(won) if seat not in (person, partner))


def _longest_streak(won: Sequence[bool]) -> int:
    best = run = 0
    for w in won:
        run = run + 1 if w else 0
        best = max(best, run)
    return best
