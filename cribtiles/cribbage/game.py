"""The state of a game of classic two-player cribbage: deal, discard, the play to 31, the show, 121 up.

An immutable `CribbageState` answers who acts (`current`), `legal_actions()` and `apply(move)`; chance (the
cut for deal, each deal's shuffle) comes from the seed, so a seed and the same moves replay a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from cribtiles.names import name_problem
from cribtiles.quoting import quoted

from .cards import DECK, JACK, Card
from .deal import Deal, cut_for_deal, first_dealer
from .events import EventKind, Outcome, ScoreEvent, outcome_of
from .moves import Count, CribbageError, Discard, Go, Move, Muggins, PlayCard
from .muggins import MOST_PEGGED, MOST_SHOWN, Claim, ClaimKind, call_points
from .options import CribbageOptions, Phase
from .peg import MAX_COUNT, PegItem, PegKind, item_words, peg_items, peg_points
from .show import item_words as show_words
from .show import score_show, show_total
from .view import CribbageView, ShownHand

RECORD_GAME = "classic cribbage"
RECORD_VERSION = 1
#: The show's three counts, in order: the non-dealer's hand, the dealer's hand, the dealer's crib.
SHOW_COUNTS = 3


def _set(
    pair: tuple[tuple[Card, ...], tuple[Card, ...]], player: int, value: tuple[Card, ...]
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    return (value, pair[1]) if player == 0 else (pair[0], value)


def _flag(flags: tuple[bool, bool], player: int, value: bool) -> tuple[bool, bool]:
    return (value, flags[1]) if player == 0 else (flags[0], value)


@dataclass(frozen=True)
class CribbageState:
    """A game of cribbage at one moment. Players are 0 and 1; `apply` returns the next state."""

    seed: int
    names: tuple[str, str]
    options: CribbageOptions
    cut_for_deal: tuple[tuple[Card, Card], ...]  # each round of the cut (ties cut again), the last decides
    scores: tuple[int, int] = (0, 0)
    dealer: int = 0
    deal_number: int = 1
    phase: Phase = Phase.DISCARD
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())  # the cards each still holds
    discards: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())  # what each laid in the crib
    discarded: tuple[bool, bool] = (False, False)
    shown: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())  # the four cards each kept for the show
    crib: tuple[Card, ...] = ()
    starter: Card | None = None
    turn: int = 0  # who lays next in the play
    pile: tuple[Card, ...] = ()  # the cards since the count was last reset, in order
    count: int = 0
    gone: tuple[bool, bool] = (False, False)  # who has said go since the last reset
    played: tuple[tuple[int, Card], ...] = ()  # every card laid this deal
    show_step: int = 0  # how many of the show's three counts are done
    claim: Claim | None = None  # a score said aloud (muggins), open to the opponent's call until they answer
    events: tuple[ScoreEvent, ...] = ()
    log: tuple[str, ...] = ()
    outcome: Outcome | None = None
    stock: tuple[Card, ...] = field(default=(), repr=False)  # the undealt cards, in order: never in a view

    def _with(self, **changes: object) -> CribbageState:
        """A copy with some fields changed: dataclasses.replace, less its checks, which took 2/3 of a move."""
        new = object.__new__(CribbageState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    # --- who acts, and what they may do ---

    @property
    def pone(self) -> int:
        """The non-dealer."""
        return 1 - self.dealer

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def returns(self) -> tuple[float, ...]:
        """1 for the winner once the game is over, 0 for the loser and for both before."""
        return self.outcome.returns() if self.outcome else (0.0, 0.0)

    def show_owner(self, step: int) -> int:
        return self.pone if step == 0 else self.dealer

    def show_cards(self, step: int) -> tuple[tuple[Card, ...], bool]:
        """The cards of the show's count number `step` (0-2) and whether they are the crib."""
        if step == SHOW_COUNTS - 1:
            return self.crib, True
        return self.shown[self.show_owner(step)], False

    @property
    def current_player(self) -> int | None:
        """Who must act: in the discard the first who has not discarded, the non-dealer first."""
        if self.claim is not None:
            return 1 - self.claim.counter  # the opponent answers a score said aloud before anything else
        if self.phase is Phase.DISCARD:
            return self.pone if not self.discarded[self.pone] else self.dealer
        if self.phase is Phase.PLAY:
            return self.turn
        if self.phase is Phase.SHOW:
            return self.show_owner(self.show_step)
        return None

    def can_lay(self, player: int) -> bool:
        return any(self.count + c.value <= MAX_COUNT for c in self.hands[player])

    def legal_actions(self) -> tuple[Move, ...]:
        player = self.current_player
        if player is None:
            return ()
        if self.claim is not None:
            return (Muggins(True), Muggins(False))
        if self.phase is Phase.DISCARD:
            return tuple(Discard((a, b)) for a, b in combinations(self.hands[player], 2))
        if self.phase is Phase.PLAY:
            fits = tuple(PlayCard(c) for c in self.hands[player] if self.count + c.value <= MAX_COUNT)
            if fits and self.options.play_muggins:  # any score may be said: the list tells nothing of the cards
                fits += tuple(PlayCard(m.card, n) for m in fits for n in range(MOST_PEGGED + 1))
            return fits or (Go(),)
        if not self.options.counted_by_hand:
            return (Count(),)
        return (Count(), *(Count(n) for n in range(MOST_SHOWN + 1)))

    # --- moves ---

    def apply(self, move: Move) -> CribbageState:
        """The state after `move` by the player to act; a CribbageError in words if the rules forbid it."""
        player = self.current_player
        if player is None:
            raise CribbageError("the game is over")
        events: list[ScoreEvent] = []
        if self.claim is not None:
            state = self._call(player, move, self.claim, events)
        elif self.phase is Phase.DISCARD:
            state = self._discard(player, move, events)
        elif self.phase is Phase.PLAY:
            state = self._play(player, move, events)
        else:
            state = self._show(player, move, events)
        return state._with(events=tuple(events), log=(*self.log, str(move)))

    def _wrong(self, move: Move, wanted: str) -> CribbageError:
        return CribbageError(f"it is time to {wanted}, not to {str(move).split()[0]}")

    def _discard(self, player: int, move: Move, events: list[ScoreEvent]) -> CribbageState:
        if not isinstance(move, Discard):
            raise self._wrong(move, "lay two cards in the crib (discard)")
        a, b = move.cards
        hand = self.hands[player]
        if a == b:
            raise CribbageError(f"lay two different cards in the crib, not {a} twice")
        for card in move.cards:
            if card not in hand:
                raise CribbageError(f"you do not hold the {card.name} ({card})")
        kept = tuple(c for c in hand if c not in move.cards)
        state = self._with(
            hands=_set(self.hands, player, kept),
            shown=_set(self.shown, player, kept),
            discards=_set(self.discards, player, move.cards),
            discarded=_flag(self.discarded, player, True),
            crib=(*self.crib, *move.cards),
        )
        if not all(state.discarded):
            return state
        starter = self.stock[0]
        state = state._with(starter=starter, phase=Phase.PLAY, turn=self.pone)
        if starter.rank == JACK:
            state = state._peg(ScoreEvent(self.dealer, 2, EventKind.HEELS, (starter,), "two for his heels"), events)
        return state

    def _play(self, player: int, move: Move, events: list[ScoreEvent]) -> CribbageState:
        if isinstance(move, Go):
            if self.can_lay(player):
                card = next(c for c in self.hands[player] if self.count + c.value <= MAX_COUNT)
                raise CribbageError(f"no go: the {card.name} keeps the count at {MAX_COUNT} or below")
            return self._with(gone=_flag(self.gone, player, True))._settle(player, events)
        if not isinstance(move, PlayCard):
            raise self._wrong(move, "lay a card in the play, or say go")
        card = move.card
        if card not in self.hands[player]:
            raise CribbageError(f"you do not hold the {card.name} ({card})")
        if self.count + card.value > MAX_COUNT:
            raise CribbageError(
                f"the count is {self.count}: the {card.name} would make it {self.count + card.value}, over {MAX_COUNT}"
            )
        state = self._with(
            hands=_set(self.hands, player, tuple(c for c in self.hands[player] if c != card)),
            pile=(*self.pile, card),
            count=self.count + card.value,
            played=(*self.played, (player, card)),
        )
        claim = None
        if self.options.play_muggins:
            said = peg_points(state.pile) if move.claim is None else move.claim
            if not 0 <= said <= MOST_PEGGED:
                raise CribbageError(f"a card scores 0 to {MOST_PEGGED} in the play: say a number in between")
            claim = Claim(player, said, ClaimKind.PLAY, state.pile)
            if claim.pegged:
                event = ScoreEvent(player, claim.pegged, EventKind.CLAIM, state.pile[-1:], f"says {said}")
                state = state._peg(event, events)
        else:
            items = peg_items(state.pile)
            worth = sum(item.points for item in items)
            if move.claim is not None and move.claim != worth:
                raise CribbageError(f"the {card.name} scores {worth}, not {move.claim}: the play is pegged exactly")
            for item in items:
                state = state._peg(ScoreEvent(player, item.points, item.kind, item.cards, item_words(item)), events)
                if state.is_over:
                    return state
        if state.is_over:
            return state
        if state.count == MAX_COUNT:
            state = state._with(pile=(), count=0, gone=(False, False))
        if claim is not None:
            return state._with(claim=claim)  # the play goes on once the opponent has answered
        return state._settle(player, events)

    def _settle(self, last: int, events: list[ScoreEvent]) -> CribbageState:
        """After `last` laid a card or said go: who lays next, or the go point and a new count, or the show."""
        other = 1 - last
        if not self.hands[0] and not self.hands[1]:
            state = self
            if self.pile:  # the last card of the play scores 1, unless it made 31 (that scored 2 already)
                layer, card = self.played[-1]
                item = PegItem(PegKind.LAST_CARD, (card,), 1)
                state = self._peg(ScoreEvent(layer, 1, item.kind, item.cards, item_words(item)), events)
                if state.is_over:
                    return state
            return state._with(phase=Phase.SHOW, pile=(), count=0, gone=(False, False), show_step=0)
        if not self.pile:  # the count was reset by a 31: the player after the one who laid it leads
            return self._with(turn=other if self.hands[other] else last)
        if self.hands[other] and not self.gone[other] and (self.can_lay(other) or self.can_lay(last)):
            return self._with(turn=other)
        if self.can_lay(last) and not self.gone[last]:
            return self._with(turn=last)
        # nobody can lay: the one who laid the last card pegs the go, and the count starts again
        layer, card = self.played[-1]
        item = PegItem(PegKind.GO, (card,), 1)
        state = self._peg(ScoreEvent(layer, 1, item.kind, item.cards, item_words(item)), events)
        if state.is_over:
            return state
        leader = 1 - layer if self.hands[1 - layer] else layer
        return state._with(pile=(), count=0, gone=(False, False), turn=leader)

    def _call(self, player: int, move: Move, claim: Claim, events: list[ScoreEvent]) -> CribbageState:
        """The answer to a score said aloud: a call (the difference to the caller, or the price of a wrong
        call to the counter) or letting it stand; then the play or the show goes on."""
        if not isinstance(move, Muggins):
            raise self._wrong(move, f"call muggins on the {claim.what} just counted, or let it stand")
        state = self._with(claim=None)
        if move.claim:
            to_caller, to_counter = call_points(claim)
            if to_caller:
                how = "missed" if claim.declared < claim.worth else "said over"
                words = f"muggins: {to_caller} {how}"
                state = state._peg(ScoreEvent(player, to_caller, EventKind.MUGGINS, claim.cards, words), events)
            else:
                words = f"a wrong call: {to_counter} to the counter"
                state = state._peg(
                    ScoreEvent(claim.counter, to_counter, EventKind.WRONG_CALL, claim.cards, words), events
                )
        if state.is_over:
            return state
        if claim.kind is ClaimKind.PLAY:
            return state._settle(claim.counter, events)
        return state._after_count()

    def _show(self, player: int, move: Move, events: list[ScoreEvent]) -> CribbageState:
        if not isinstance(move, Count):
            raise self._wrong(move, "count the " + ("crib" if self.show_step == SHOW_COUNTS - 1 else "hand"))
        cards, crib = self.show_cards(self.show_step)
        assert self.starter is not None
        state = self._with(show_step=self.show_step + 1)
        declared = move.declared
        if self.options.muggins:  # the count said aloud, pegged as one, the breakdown kept until the call
            if declared is not None and not 0 <= declared <= MOST_SHOWN:
                raise CribbageError(f"a hand or crib makes 0 to {MOST_SHOWN}: say a number in between")
            said = show_total(cards, self.starter, crib) if declared is None else declared
            claim = Claim(player, said, ClaimKind.SHOW, cards, self.starter, crib)
            if claim.pegged:
                event = ScoreEvent(player, claim.pegged, EventKind.COUNT, cards, f"counts {said}")
                state = state._peg(event, events)
            return state if state.is_over else state._with(claim=claim)
        score = score_show(cards, self.starter, crib)
        if self.options.manual_count:  # counted by hand: any count may be said, the cards' worth is pegged
            if declared is not None and not 0 <= declared <= MOST_SHOWN:
                raise CribbageError(f"a hand or crib makes 0 to {MOST_SHOWN}: say a number in between")
        elif declared is not None and declared != score.total:
            raise CribbageError(
                f"the {'crib' if crib else 'hand'} makes {score.total}, not {declared}: count it exactly"
            )
        for item in score.items:
            words = f"{show_words(item)} for {item.points}"
            state = state._peg(ScoreEvent(player, item.points, item.kind, item.cards, words), events)
        return state._after_count()

    def _after_count(self) -> CribbageState:
        if self.is_over or self.show_step < SHOW_COUNTS:
            return self
        return _deal(self, self.deal_number + 1, 1 - self.dealer)

    def _peg(self, event: ScoreEvent, events: list[ScoreEvent]) -> CribbageState:
        """Peg one event's points; the game ends the moment a score reaches the target (kept at it)."""
        if self.is_over:
            return self
        events.append(event)
        target = self.options.target
        score = min(target, self.scores[event.player] + event.points)
        scores = (score, self.scores[1]) if event.player == 0 else (self.scores[0], score)
        if score < target:
            return self._with(scores=scores)
        return self._with(scores=scores, phase=Phase.OVER, outcome=outcome_of(scores, event.player, target))

    # --- views and records ---

    def view(self, player: int) -> CribbageView:
        """What `player` may see: never the other hand, the crib before its count, or the deck."""
        if player not in (0, 1):
            raise ValueError(f"players are 0 and 1, not {quoted(player)}")
        counted = self.show_step if self.phase in (Phase.SHOW, Phase.OVER) else 0
        shown_hands = tuple(ShownHand(self.show_owner(s), *self.show_cards(s)) for s in range(counted))
        seen = {*self.hands[player], *self.shown[player], *self.discards[player], *(c for _, c in self.played)}
        seen.update(c for hand in shown_hands for c in hand.cards)
        if self.starter is not None:
            seen.add(self.starter)
        current = self.current_player
        opponent = 1 - player
        return CribbageView(
            player=player,
            names=self.names,
            options=self.options,
            scores=self.scores,
            dealer=self.dealer,
            deal_number=self.deal_number,
            phase=self.phase,
            hand=self.hands[player],
            kept=self.shown[player],
            discards=self.discards[player],
            crib_size=len(self.crib),
            starter=self.starter,
            pile=self.pile,
            count=self.count,
            played=self.played,
            opponent_cards_left=len(self.hands[opponent]),
            opponent_discarded=self.discarded[opponent],
            shown_hands=shown_hands,
            show_step=self.show_step,
            claim=self.claim,
            to_count=self.show_cards(self.show_step)[0] if self.phase is Phase.SHOW and self.claim is None else (),
            current_player=current,
            legal=self.legal_actions() if current == player else (),
            events=self.events,
            outcome=self.outcome,
            cut_for_deal=self.cut_for_deal,
            unseen=tuple(sorted(c for c in DECK if c not in seen)),
        )

    def record(self) -> dict[str, object]:
        """The game as JSON-able data (seed, names, options, moves): replay(state.record()) == state."""
        return {
            "game": RECORD_GAME,
            "version": RECORD_VERSION,
            "seed": self.seed,
            "names": list(self.names),
            "options": {
                "muggins": self.options.muggins,
                "play_muggins": self.options.play_muggins,
                "target": self.options.target,
                **({"manual_count": True} if self.options.manual_count else {}),  # older records lack it
            },
            "moves": list(self.log),
        }


def _deal(state: CribbageState, number: int, dealer: int) -> CribbageState:
    """A fresh shuffle from (seed, deal number): six cards each, one at a time, the non-dealer first."""
    cards = Deal(state.seed, number, dealer)
    return state._with(
        dealer=dealer,
        deal_number=number,
        phase=Phase.DISCARD,
        hands=cards.hands,
        discards=((), ()),
        discarded=(False, False),
        shown=((), ()),
        crib=(),
        starter=None,
        turn=1 - dealer,
        pile=(),
        count=0,
        gone=(False, False),
        played=(),
        show_step=0,
        claim=None,
        stock=cards.stock,
    )


def new_game(
    seed: int, names: tuple[str, str] = ("You", "Bot"), options: CribbageOptions | None = None
) -> CribbageState:
    """A new game: the cut for deal (low deals) and the first deal.

    >>> state = new_game(7)
    >>> state.phase, len(state.hands[0]), len(state.hands[1]), state.current_player == 1 - state.dealer
    (<Phase.DISCARD: 'discard'>, 6, 6, True)
    """
    for problem in filter(None, map(name_problem, names)):
        raise ValueError(problem)
    cuts = cut_for_deal(seed)
    state = CribbageState(seed=seed, names=names, options=options or CribbageOptions(), cut_for_deal=cuts)
    return _deal(state, 1, first_dealer(cuts))


def describe_cut(state: CribbageState) -> list[str]:
    """The cut for deal in words, one line a round."""
    lines = []
    dealer = state.names[first_dealer(state.cut_for_deal)]
    for a, b in state.cut_for_deal:
        line = f"{state.names[0]} cut {a}, {state.names[1]} cut {b}"
        lines.append(line + (": a tie, cut again" if a.rank == b.rank else f": the lower card deals, {dealer}"))
    return lines
