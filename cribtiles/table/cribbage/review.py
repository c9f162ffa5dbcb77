"""The review of a game of classic cribbage: every discard and every card laid, seen from that player's
own view at that moment, against the best found. A discard is weighed by the discard advisor (the kept
hand's exact mean show over the starters left, the crib's worth from Hard's table): its "expected points
lost" is the best total less the chosen one. A card laid is weighed by Hard's look-ahead (the opponent's
cards guessed from what the player has seen, the rest of the play played out on each guess): its "play's
points lost" is the best card's mean difference of points less the chosen card's.

Pure: the guesses a card is weighed over (the budget) and the random generator are passed in, and a seed
reproduces a review. Nothing hidden is used: each decision is weighed from `CribbageState.view` of the
player who made it, its guesses drawn from a generator seeded by the review's seed and the move's place
in the game only. Two-player games only (six-card or five-card, whose play goes once to 31): three or
four players are refused in words.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from cribtiles.bot.cribbage.advisor import AdviceError, DiscardAdvice, advise_view
from cribtiles.bot.cribbage.guess import guess_hands, opponent_gone
from cribtiles.bot.cribbage.peg import Solver, card_totals, points_now
from cribtiles.cribbage.cards import Card, format_cards
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.moves import Discard, Move, PlayCard, parse_move
from cribtiles.cribbage.options import Phase, Variant
from cribtiles.quoting import quoted

from ..misses import biggest_misses

#: Guesses at the opponent's hand a card laid is weighed over by default (Hard lays its own card over 24;
#: more here, as a review has the time, so that its figures are steadier).
DEFAULT_GUESSES = 64
#: Values closer than this are equal (a tie goes to the decision made: nothing was lost).
TIE = 1e-9
#: The options of a record this review knows: a record naming another is refused.
KNOWN_OPTIONS = frozenset({"muggins", "play_muggins", "target", "manual_count", "variant", "end_on_answer"})
#: The variants reviewed: the two-player ones (a record without a variant is six-card).
REVIEWED = (Variant.SIX_CARD.value, Variant.FIVE_CARD.value)
PLAYERS = 2

Progress = Callable[[int, int], None]


class ReviewRefused(ValueError):
    """The game cannot be reviewed here (a variant this review does not know): said in words."""


class Kind(StrEnum):
    DISCARD = "discard"
    PLAY = "play"


@dataclass(frozen=True)
class DiscardReview:
    """A discard against the advisor's list (`advice`, best first; `chosen` indexes it)."""

    number: int  # the decision's index in the review
    ply: int  # the move's index in the record
    deal: int
    player: int
    own_crib: bool
    scores: tuple[int, ...]  # before the deal's play
    dealt: tuple[Card, ...]
    advice: tuple[DiscardAdvice, ...]
    chosen_at: int

    kind = Kind.DISCARD

    @property
    def chosen(self) -> DiscardAdvice:
        return self.advice[self.chosen_at]

    @property
    def best(self) -> DiscardAdvice:
        return self.advice[0]

    @property
    def value_lost(self) -> float:
        """Expected points lost: the best total less the chosen one (0 when the chosen is as good)."""
        lost = self.best.total - self.chosen.total
        return lost if lost > TIE else 0.0

    @property
    def is_best(self) -> bool:
        return self.value_lost == 0.0

    def words(self, name: str = "") -> str:
        """'Kept 5H 5D JS QC, laid 8H 2S: expected 8.9; best kept 5H 5D JS 8H, laid QC 2S: expected 10.2:
        1.3 lost' (the crib counted in the expectation: for the player, or against them)."""
        chosen, best = self.chosen, self.best
        said = f"Kept {format_cards(chosen.kept)}, laid {format_cards(chosen.thrown)}: expected {chosen.total:.1f}"
        if self.is_best:
            return f"{said}, the best discard."
        return (
            f"{said}; best kept {format_cards(best.kept)}, laid {format_cards(best.thrown)}: "
            f"expected {best.total:.1f}: {self.value_lost:.1f} lost."
        )


@dataclass(frozen=True)
class CardWeighed:
    """A card that could be laid: what it scores now and its mean difference of points over the rest of
    the play (Hard's look-ahead over the guesses)."""

    card: Card
    points: int
    value: float


@dataclass(frozen=True)
class PlayReview:
    """A card laid against the others that fitted (`weighed`, best first; cards of one rank weigh alike)."""

    number: int
    ply: int
    deal: int
    player: int
    own_crib: bool
    scores: tuple[int, ...]
    hand: tuple[Card, ...]  # the cards held before laying
    pile: tuple[Card, ...]  # the cards since the count was last reset
    count: int
    played: Card
    weighed: tuple[CardWeighed, ...]
    samples: int  # the guesses behind the values (0: only one rank fitted, nothing to weigh)

    kind = Kind.PLAY

    def _of(self, card: Card) -> CardWeighed:
        return next(w for w in self.weighed if w.card.rank == card.rank)

    @property
    def chosen(self) -> CardWeighed:
        return self._of(self.played)

    @property
    def best(self) -> CardWeighed:
        return self.weighed[0]

    @property
    def value_lost(self) -> float:
        """The play's points lost: the best card's value less the chosen card's (0 when as good)."""
        lost = self.best.value - self.chosen.value
        return lost if lost > TIE else 0.0

    @property
    def is_best(self) -> bool:
        return self.value_lost == 0.0

    def words(self, name: str = "") -> str:
        """'Held 5H 8C 9D on 7S (count 7), laid 8C: 2 now, worth +1.4 over the play; best 9D: ... 0.8 lost'."""
        on = f"on {format_cards(self.pile)} (count {self.count})" if self.pile else "to lead"
        chosen, best = self.chosen, self.best
        said = (
            f"Held {format_cards(self.hand)} {on}, laid {self.played}: {chosen.points} now, "
            f"{chosen.value:+.1f} over the play"
        )
        if self.is_best:
            return f"{said}, the best card."
        return f"{said}; best {best.card}: {best.points} now, {best.value:+.1f}: {self.value_lost:.1f} lost."


Decision = DiscardReview | PlayReview


@dataclass(frozen=True)
class PlayerTotals:
    player: int
    discards: int
    best_discards: int
    discard_lost: float  # expected points lost in the discards
    plays: int
    best_plays: int
    play_lost: float  # points lost in the play

    @property
    def decisions(self) -> int:
        return self.discards + self.plays

    @property
    def accuracy(self) -> float:
        """The share of decisions that were the best found (1 when there were none)."""
        return (self.best_discards + self.best_plays) / self.decisions if self.decisions else 1.0

    def words(self) -> str:
        """'the best discard 7 of 9, 1.6 expected points lost; the best card 20 of 27, 3.2 points lost (79%)'."""
        return (
            f"the best discard {self.best_discards} of {self.discards}, {self.discard_lost:.1f} expected points "
            f"lost; the best card {self.best_plays} of {self.plays}, {self.play_lost:.1f} points lost in the play "
            f"({self.accuracy:.0%} best)"
        )


@dataclass(frozen=True)
class CribbageReview:
    """A whole game reviewed: every decision in the order made, each one's scores just after it (a chart
    of the scores over the decisions), the final (or last) scores."""

    decisions: tuple[Decision, ...]
    names: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    finals: tuple[int, ...]
    guesses: int
    complete: bool

    def biggest_misses(self, n: int) -> tuple[Decision, ...]:
        """The `n` decisions that lost most, biggest first (ties: the earlier); none that lost nothing."""
        return biggest_misses(self.decisions, n, lambda d: (d.value_lost,), lambda d: (d.number,))

    def totals(self) -> tuple[PlayerTotals, ...]:
        out = []
        for p in range(PLAYERS):
            discards = [d for d in self.decisions if d.player == p and isinstance(d, DiscardReview)]
            plays = [d for d in self.decisions if d.player == p and isinstance(d, PlayReview)]
            out.append(
                PlayerTotals(
                    p,
                    len(discards),
                    sum(1 for d in discards if d.is_best),
                    sum(d.value_lost for d in discards),
                    len(plays),
                    sum(1 for d in plays if d.is_best),
                    sum(d.value_lost for d in plays),
                )
            )
        return tuple(out)


# --- the variants refused ---


def refusal(record: Mapping[str, object]) -> str:
    """Why a cribbage record cannot be reviewed here, in words ("" when it can): two players (six-card or
    five-card), the options this version knows."""
    names = record.get("names")
    if isinstance(names, list) and len(names) != PLAYERS:
        return f"The review takes two-player cribbage only; this game had {len(names)} players."
    options = record.get("options")
    if isinstance(options, dict):
        other = sorted(str(k) for k in options if k not in KNOWN_OPTIONS)
        if other:
            return f"The review takes classic two-player cribbage only, not a game with {', '.join(other)}."
        variant = options.get("variant", Variant.SIX_CARD.value)
        if variant not in REVIEWED:
            return f"The review takes two-player cribbage (six-card or five-card) only, not {quoted(variant)}."
    return ""


# --- weighing one decision ---


def review_discard(before: CribbageState, move: Discard, number: int = 0, ply: int = 0) -> DiscardReview:
    """The discard `move` of the player to act in `before`, against the advisor's list from their view."""
    player = before.current_player
    assert player is not None
    view = before.view(player)
    try:
        advice = advise_view(view)
    except AdviceError as e:
        raise ReviewRefused(f"That discard cannot be weighed: {e}.") from e
    own = view.side_of(view.dealer) == view.side_of(player)
    thrown = set(move.cards)
    chosen_at = next(i for i, a in enumerate(advice) if set(a.thrown) == thrown)
    return DiscardReview(number, ply, view.deal_number, player, own, view.scores, view.hand, advice, chosen_at)


def review_card(
    before: CribbageState,
    move: PlayCard,
    rng: random.Random,
    guesses: int,
    number: int = 0,
    ply: int = 0,
    solver: Solver | None = None,
) -> PlayReview:
    """The card `move` laid by the player to act in `before`, against every card that fitted: each
    weighed by Hard's look-ahead over `guesses` guesses at the opponent's hand, drawn from the player's
    view with `rng` (`solver`: one that keeps the positions solved for the deal's other cards, from
    that player's seat)."""
    player = before.current_player
    assert player is not None
    view = before.view(player)
    drawn = guess_hands(view, guesses, rng)
    once = view.options.variant.play_once  # five-card: the play ends at its first 31 or go
    totals = card_totals(view.hand, view.pile, opponent_gone(view), drawn, solver=solver or Solver(once))
    many = len(totals) > 1
    weighed = [
        CardWeighed(card, points_now(view.pile, card), total / len(drawn) if many and drawn else 0.0)
        for card, total in totals.values()
    ]
    # best first: the higher value, then more points now, then the higher card (Hard's order among equals)
    weighed.sort(key=lambda w: (-round(w.value, 9), -w.points, -w.card.value, -w.card.rank))
    chosen = next(w for w in weighed if w.card.rank == move.card.rank)
    if chosen.value >= weighed[0].value - TIE:  # a tie goes to the card laid: nothing was lost
        weighed.remove(chosen)
        weighed.insert(0, chosen)
    return PlayReview(
        number,
        ply,
        view.deal_number,
        player,
        view.dealer == player,
        view.scores,
        view.hand,
        view.pile,
        view.count,
        move.card,
        tuple(weighed),
        len(drawn) if many else 0,
    )


def decision_rng(base: int, ply: int) -> random.Random:
    """The guesses of one decision, from the review's seed and the move's place in the record only."""
    return random.Random(f"cribtiles-cribbage-review/{base}/{ply}")


# --- the whole game ---


def start_of(state: CribbageState) -> CribbageState:
    """The game `state` is a moment of, as it was dealt (its seed, names and options)."""
    return new_game(state.seed, state.names, state.options)


def review_game(
    state: CribbageState,
    rng: random.Random,
    guesses: int = DEFAULT_GUESSES,
    progress: Progress | None = None,
    players: Sequence[int] = (0, 1),
) -> CribbageReview:
    """Every discard and every card laid in `state`'s game (the players' in `players`), each from its
    player's view; `progress(done, total)` before the first and after each decision weighed."""
    why = refusal(state.record())
    if why:
        raise ReviewRefused(why)
    base = rng.getrandbits(64)
    total = len(decision_plies(state, players))
    if progress is not None:
        progress(0, total)
    decisions: list[Decision] = []
    scores: list[tuple[int, ...]] = []
    at = start_of(state)
    solvers: dict[tuple[int, int], Solver] = {}  # each deal's, from each seat: the positions solved kept
    for ply, text in enumerate(state.log):
        move = parse_move(text)
        before, at = at, at.apply(move)
        if not _reviewed(before, move, players):
            continue
        number = len(decisions)
        if isinstance(move, Discard):
            decisions.append(review_discard(before, move, number, ply))
            solvers = {}
        else:
            assert isinstance(move, PlayCard) and before.current_player is not None
            once = before.options.variant.play_once
            solver = solvers.setdefault((before.deal_number, before.current_player), Solver(once))
            decisions.append(review_card(before, move, decision_rng(base, ply), guesses, number, ply, solver))
        # a card said aloud (muggins) is pegged past the target until its answer: kept at it, as the end keeps it
        scores.append(tuple(min(score, at.options.target) for score in at.scores))
        if progress is not None:
            progress(len(decisions), total)
    return CribbageReview(
        decisions=tuple(decisions),
        names=state.names,
        scores=tuple(scores),
        finals=state.scores,
        guesses=guesses,
        complete=state.is_over,
    )


def _reviewed(before: CribbageState, move: Move, players: Sequence[int]) -> bool:
    """A discard or a card laid (not an answer to a call) by one of `players`."""
    if before.claim is not None or before.current_player not in players:
        return False
    return (isinstance(move, Discard) and before.phase is Phase.DISCARD) or (
        isinstance(move, PlayCard) and before.phase is Phase.PLAY
    )


def decision_plies(state: CribbageState, players: Sequence[int] = (0, 1)) -> list[int]:
    """The plies of the decisions a review of `state` weighs."""
    at = start_of(state)
    found = []
    for ply, text in enumerate(state.log):
        move = parse_move(text)
        if _reviewed(at, move, players):
            found.append(ply)
        at = at.apply(move)
    return found
