"""The state of a game of classic cribbage: deal, discard, the play to 31, the show, 121 up; two players
(six-card or five-card), three players, or four in two partnerships (`Variant`).

Everything goes clockwise from the dealer's left: the deal, the discard, the lead and the show; player
(dealer + 1) % N first, the dealer last, then the dealer's crib. The deal passes to the left.

The variants' rules ([choice]: ours, where the rules leave it open or the books differ):
- three players: five cards each, one each to the crib, and the top card of the deck to the crib [choice: it
  is dealt face down with the hands, the card after the last one dealt, rather than after the discards];
  hands of four; the player on the dealer's left discards, leads and counts first; the deal passes left.
- four players in partnerships: five each, one each to the crib; partners (0 and 2, 1 and 3) sit across and
  peg together, one score a side; the crib is the dealer's side's.
- the go with three or more: a player who cannot lay says go, and the others lay on while any can; when nobody
  can, the last to lay pegs 1 (2 for 31) and the next player after him who still holds cards leads the new
  count (after a 31 too); the last card of the play pegs 1.
- five-card (two players): five dealt, two to the crib, hands of three, a crib of four; at the start of the
  game (once, not each deal) the non-dealer pegs 3 ("three for last"); the play goes once to 31 or a go and
  then ends (cards left are not played, and still count in the show); a flush in the hand is 3 cards (4
  with the starter), in the crib all 5. Normally played to 61: the caller sets the target.
- muggins with three or more [choice]: the next player clockwise from the counter answers a score said aloud
  (always an opponent: with partners across, the next player is of the other side); the others may not.
- the cut for deal with three or four: the lowest card deals; those tied for the lowest cut again.
- the end (`events.outcome_of`): a lurch (skunk) under target − 30, a double lurch under target − 60 in games
  to 91 or more; a game to 61 knows only the single lurch, under 31. [choice] With three players the best
  loser's score decides the margin.
- the end under muggins (`CribbageOptions.end_on_answer`, every new game) [choice]: a score said aloud that
  reaches the target is open to a call like any other, its points pegged at once but neither kept at the
  target nor ending the game before the answer; then the game ends for the side that reached the target,
  which may be the caller's by the points a call takes; the counter's if both did (its count was pegged
  before the call's points: the caller stops one short). Whether the game ends at a count, or a window
  opens, never tells what the cards make before the answer.

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
from .events import EventKind, MarginKind, Outcome, ScoreEvent, outcome_of
from .moves import Count, CribbageError, Discard, Go, Move, Muggins, PlayCard
from .muggins import MOST_PEGGED, MOST_SHOWN, Claim, ClaimKind, call_points
from .options import CribbageOptions, Phase, Variant, named_end_on_answer
from .peg import MAX_COUNT, PegItem, PegKind, item_words, peg_items, peg_points
from .show import item_words as show_words
from .show import score_show, show_total
from .view import CribbageView, ShownHand

RECORD_GAME = "classic cribbage"
RECORD_VERSION = 1
#: The show's three counts with two players, in order: the non-dealer's hand, the dealer's hand, the dealer's
#: crib (with N players: N hands from the dealer's left, then the crib).
SHOW_COUNTS = 3

Hands = tuple[tuple[Card, ...], ...]


def _set(hands: Hands, player: int, value: tuple[Card, ...]) -> Hands:
    return (*hands[:player], value, *hands[player + 1 :])


def _flag(flags: tuple[bool, ...], player: int, value: bool) -> tuple[bool, ...]:
    return (*flags[:player], value, *flags[player + 1 :])


@dataclass(frozen=True)
class CribbageState:
    """A game of cribbage at one moment. Players are 0 to N - 1 (one a name); every per-player tuple has
    one entry a player, `scores` one a side (`side_of`); `apply` returns the next state."""

    seed: int
    names: tuple[str, ...]
    options: CribbageOptions
    cut_for_deal: tuple[tuple[Card, ...], ...]  # each round of the cut (the lowest tied cut again), the last decides
    scores: tuple[int, ...] = (0, 0)  # one a side
    dealer: int = 0
    deal_number: int = 1
    phase: Phase = Phase.DISCARD
    hands: Hands = ((), ())  # the cards each still holds
    discards: Hands = ((), ())  # what each laid in the crib
    discarded: tuple[bool, ...] = (False, False)
    shown: Hands = ((), ())  # the cards each kept for the show
    crib: tuple[Card, ...] = ()
    starter: Card | None = None
    turn: int = 0  # who lays next in the play
    pile: tuple[Card, ...] = ()  # the cards since the count was last reset, in order
    count: int = 0
    gone: tuple[bool, ...] = (False, False)  # who has said go since the last reset
    played: tuple[tuple[int, Card], ...] = ()  # every card laid this deal
    show_step: int = 0  # how many of the show's counts (players + 1) are done
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
    def variant(self) -> Variant:
        return self.options.variant

    @property
    def pone(self) -> int:
        """The non-dealer (with more players, the one on the dealer's left: first to lay and to count)."""
        return (self.dealer + 1) % len(self.names)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def show_counts(self) -> int:
        """The counts of the show: every hand, then the crib."""
        return len(self.names) + 1

    def side_of(self, player: int) -> int:
        """The scoring side of `player` (partners share one: 0 and 2, 1 and 3); else the player."""
        return player % len(self.scores)

    def after(self, player: int) -> int:
        """The next player clockwise (to the left)."""
        return (player + 1) % len(self.names)

    def answerer(self, counter: int) -> int:
        """Who answers a score said aloud by `counter`: the next player clockwise, always an opponent."""
        return self.after(counter)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def returns(self) -> tuple[float, ...]:
        """1 for each winner once the game is over, 0 for each loser and for all before."""
        return self.outcome.returns() if self.outcome else (0.0,) * len(self.names)

    def show_owner(self, step: int) -> int:
        """Whose count is number `step`: the hands from the dealer's left, the dealer's last, then the crib."""
        n = len(self.names)
        return self.dealer if step >= n - 1 else (self.dealer + 1 + step) % n

    def show_cards(self, step: int) -> tuple[tuple[Card, ...], bool]:
        """The cards of the show's count number `step` (0 to players) and whether they are the crib."""
        if step == len(self.names):
            return self.crib, True
        return self.shown[self.show_owner(step)], False

    @property
    def current_player(self) -> int | None:
        """Who must act: in the discard the first who has not discarded, the non-dealer first."""
        if self.claim is not None:
            return self.answerer(self.claim.counter)  # an opponent answers a score said aloud before anything else
        if self.phase is Phase.DISCARD:
            n = len(self.names)
            return next(p for p in ((self.dealer + 1 + i) % n for i in range(n)) if not self.discarded[p])
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
            return legal_discards(self.hands[player], self.variant)
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

    def resign(self, player: int) -> CribbageState:
        """`player` gives the game up: it ends at once, the other side wins (with three players, the best
        of the others: the first after `player` of those tied), the scores stand as they are (a score said
        aloud stays as pegged) and no margin but a plain win is counted. The rules do not know it: a record
        keeps it apart from the moves (`record`'s "resigned")."""
        if player not in range(len(self.names)):
            raise CribbageError(f"players are 0 to {len(self.names) - 1}, not {quoted(player)}")
        if self.is_over:
            raise CribbageError("the game is over")
        mine = self.side_of(player)
        others = [self.side_of(self.after(player + k)) for k in range(len(self.names) - 1)]
        winner = max((s for s in others if s != mine), key=lambda s: self.scores[s])
        sides = tuple(self.side_of(p) for p in range(len(self.names)))
        outcome = Outcome(winner, self.scores, MarginKind.WIN, sides, resigned=player)
        return self._with(phase=Phase.OVER, claim=None, events=(), outcome=outcome)

    def _wrong(self, move: Move, wanted: str) -> CribbageError:
        return CribbageError(f"it is time to {wanted}, not to {str(move).split()[0]}")

    def _discard(self, player: int, move: Move, events: list[ScoreEvent]) -> CribbageState:
        if not isinstance(move, Discard):
            raise self._wrong(move, f"lay {_CARDS[self.variant.to_crib]} in the crib (discard)")
        hand = self.hands[player]
        check_discard(move, hand, self.variant)
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
                state = state._peg_said(claim.event, events)
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
            state = state._with(pile=(), count=0, gone=(False,) * len(self.names))
        if claim is not None:
            return state._with(claim=claim)  # the play goes on once the opponent has answered
        return state._settle(player, events)

    def _settle(self, last: int, events: list[ScoreEvent]) -> CribbageState:
        """After `last` laid a card or said go: who lays next, or the go point and a new count, or the show.

        The turn goes clockwise to the next player who holds cards and has not said go (`last` too, last of
        all), while any of them can lay; when none can, the last to lay pegs the go and the next player after
        him who holds cards leads the new count. Five-card cribbage's play ends at its first 31 or go."""
        n = len(self.names)
        if not any(self.hands):
            state = self
            if self.pile:  # the last card of the play scores 1, unless it made 31 (that scored 2 already)
                layer, card = self.played[-1]
                item = PegItem(PegKind.LAST_CARD, (card,), 1)
                state = self._peg(ScoreEvent(layer, 1, item.kind, item.cards, item_words(item)), events)
                if state.is_over:
                    return state
            return state._to_show()
        if not self.pile:  # the count was reset by a 31: the player after the one who laid it leads
            if self.variant.play_once:
                return self._to_show()
            return self._with(turn=self._next_holding(last))
        after = (last + 1) % n
        if self.hands[after] and not self.gone[after] and self.can_lay(after):  # the usual case, at once
            return self._with(turn=after)
        order = [(last + i) % n for i in range(1, n + 1)]  # clockwise from the next player, `last` at the end
        active = [p for p in order if self.hands[p] and not self.gone[p]]
        if any(self.can_lay(p) for p in active):
            return self._with(turn=active[0])
        # nobody can lay: the one who laid the last card pegs the go, and the count starts again
        layer, card = self.played[-1]
        item = PegItem(PegKind.GO, (card,), 1)
        state = self._peg(ScoreEvent(layer, 1, item.kind, item.cards, item_words(item)), events)
        if state.is_over:
            return state
        if self.variant.play_once:
            return state._to_show()
        return state._with(pile=(), count=0, gone=(False,) * n, turn=self._next_holding(layer))

    def _next_holding(self, player: int) -> int:
        """The first player after `player` clockwise who still holds cards (`player` if only he does)."""
        n = len(self.names)
        return next(p for p in ((player + i) % n for i in range(1, n + 1)) if self.hands[p])

    def _to_show(self) -> CribbageState:
        return self._with(phase=Phase.SHOW, pile=(), count=0, gone=(False,) * len(self.names), show_step=0)

    def _call(self, player: int, move: Move, claim: Claim, events: list[ScoreEvent]) -> CribbageState:
        """The answer to a score said aloud: a call (the difference to the caller, or the price of a wrong
        call to the counter) or letting it stand; then, under `end_on_answer`, the end for a side that has
        reached the target (the counter's first: its count was pegged before the call's points); else the
        play or the show goes on."""
        if not isinstance(move, Muggins):
            raise self._wrong(move, f"call muggins on the {claim.what} just counted, or let it stand")
        state = self._with(claim=None)
        ends_now = self.options.end_on_answer
        if move.claim:
            event = _call_event(player, claim)
            state = state._peg_past_target(event, events) if ends_now else state._peg(event, events)
        if ends_now:
            state = state._end_at_target(self.side_of(claim.counter))
        if state.is_over:
            return state
        if claim.kind is ClaimKind.PLAY:
            return state._settle(claim.counter, events)
        return state._after_count()

    def _show(self, player: int, move: Move, events: list[ScoreEvent]) -> CribbageState:
        if not isinstance(move, Count):
            raise self._wrong(move, "count the " + ("crib" if self.show_step == self.show_counts - 1 else "hand"))
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
                state = state._peg_said(claim.event, events)
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
        if self.is_over or self.show_step < self.show_counts:
            return self
        return _deal(self, self.deal_number + 1, self.after(self.dealer))

    def _peg(self, event: ScoreEvent, events: list[ScoreEvent]) -> CribbageState:
        """Peg one event's points to the player's side; the game ends the moment a score reaches the target
        (kept at it). A score said aloud under `end_on_answer` is pegged by `_peg_said`."""
        if self.is_over:
            return self
        events.append(event)
        target = self.options.target
        side = event.player % len(self.scores)  # `side_of`, without the variant's lookups (a hot path)
        score = min(target, self.scores[side] + event.points)
        scores = (*self.scores[:side], score, *self.scores[side + 1 :])
        if score < target:
            return self._with(scores=scores)
        return self._over(scores, side)

    def _peg_said(self, event: ScoreEvent, events: list[ScoreEvent]) -> CribbageState:
        """Peg what a score said aloud pegs at once. Under `end_on_answer` it ends nothing until it is
        answered, and a score past the target is not kept at it till then: the table tells the scores as
        before the count (`told_scores`) by taking off exactly what it pegged, and a game that ended at
        once would tell that the count was not over."""
        if self.options.end_on_answer:
            return self._peg_past_target(event, events)
        return self._peg(event, events)

    def _peg_past_target(self, event: ScoreEvent, events: list[ScoreEvent]) -> CribbageState:
        """Peg one event's points, the game going on whatever the score: `_end_at_target` ends it."""
        events.append(event)
        side = self.side_of(event.player)
        return self._with(scores=(*self.scores[:side], self.scores[side] + event.points, *self.scores[side + 1 :]))

    def _end_at_target(self, first: int) -> CribbageState:
        """The game over for the side that has reached the target (side `first` if it has, before any
        other), its score kept at the target; else the game as it is. Another side that reached it too
        stops one short, as the loser of a game that ends the moment a score reaches the target does."""
        target = self.options.target
        reached = [side for side in (first, *range(len(self.scores))) if self.scores[side] >= target]
        if not reached:
            return self
        winner = reached[0]
        scores = tuple(min(target if side == winner else target - 1, s) for side, s in enumerate(self.scores))
        return self._over(scores, winner)

    def _over(self, scores: tuple[int, ...], winner: int) -> CribbageState:
        sides = tuple(self.side_of(p) for p in range(len(self.names)))
        return self._with(
            scores=scores, phase=Phase.OVER, outcome=outcome_of(scores, winner, self.options.target, sides)
        )

    # --- views and records ---

    def view(self, player: int) -> CribbageView:
        """What `player` may see: never another's hand, the crib before its count, or the deck."""
        n = len(self.names)
        if player not in range(n):
            raise ValueError(f"players are 0 to {n - 1}, not {quoted(player)}")
        counted = self.show_step if self.phase in (Phase.SHOW, Phase.OVER) else 0
        shown_hands = tuple(ShownHand(self.show_owner(s), *self.show_cards(s)) for s in range(counted))
        seen = {*self.hands[player], *self.shown[player], *self.discards[player], *(c for _, c in self.played)}
        seen.update(c for hand in shown_hands for c in hand.cards)
        if self.starter is not None:
            seen.add(self.starter)
        current = self.current_player
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
            cards_left=tuple(len(h) for h in self.hands),
            discarded_by=self.discarded,
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
                **({"variant": str(self.variant)} if self.variant is not Variant.SIX_CARD else {}),  # and this
                **named_end_on_answer(self.options),  # and this, under muggins (`unnamed_end_on_answer`)
            },
            "moves": list(self.log),
            # who gave the game up after its moves: absent otherwise, as in every record written before it
            **({"resigned": self.outcome.resigned} if self.outcome and self.outcome.resigned is not None else {}),
        }


def legal_discards(hand: tuple[Card, ...], variant: Variant) -> tuple[Discard, ...]:
    """Every way to lay away the variant's cards of `hand` to the crib, in the hand's order."""
    return tuple(Discard(cards) for cards in combinations(hand, variant.to_crib))


def check_discard(move: Discard, hand: tuple[Card, ...], variant: Variant) -> None:
    """A CribbageError in words unless `move` lays away the variant's number of different cards of `hand`
    (whose turn it is is the caller's question: a person may lay away before the others, see
    `CribbageTable.play`).

    >>> from cribtiles.cribbage.cards import parse_cards
    >>> check_discard(Discard(parse_cards("5H KS")), parse_cards("5H 6C 7D 8S 9H TC"), Variant.SIX_CARD)
    Traceback (most recent call last):
    cribtiles.cribbage.moves.CribbageError: you do not hold the king of spades (KS)
    """
    to_crib = variant.to_crib
    if len(move.cards) != to_crib:
        raise CribbageError(f"lay {_CARDS[to_crib]} in the crib ({variant.words}), not {len(move.cards)}")
    if len(set(move.cards)) != len(move.cards):
        raise CribbageError(f"lay two different cards in the crib, not {move.cards[0]} twice")
    for card in move.cards:
        if card not in hand:
            raise CribbageError(f"you do not hold the {card.name} ({card})")


def _call_event(caller: int, claim: Claim) -> ScoreEvent:
    """What a call on `claim` pegs: the points missed or said over to the caller, or the price of a wrong
    call to the counter."""
    to_caller, to_counter = call_points(claim)
    if to_caller:
        how = "missed" if claim.declared < claim.worth else "said over"
        return ScoreEvent(caller, to_caller, EventKind.MUGGINS, claim.cards, f"muggins: {to_caller} {how}")
    words = f"a wrong call: {to_counter} to the counter"
    return ScoreEvent(claim.counter, to_counter, EventKind.WRONG_CALL, claim.cards, words)


def _deal(state: CribbageState, number: int, dealer: int) -> CribbageState:
    """A fresh shuffle from (seed, deal number): the variant's cards to each, one at a time from the dealer's
    left, and in the three-player game the top card of the deck to the crib."""
    variant = state.variant
    n = variant.players
    cards = Deal(state.seed, number, dealer, n, variant.dealt, variant.from_deck)
    return state._with(
        dealer=dealer,
        deal_number=number,
        phase=Phase.DISCARD,
        hands=cards.hands,
        discards=((),) * n,
        discarded=(False,) * n,
        shown=((),) * n,
        crib=cards.crib,
        starter=None,
        turn=(dealer + 1) % n,
        pile=(),
        count=0,
        gone=(False,) * n,
        played=(),
        show_step=0,
        claim=None,
        stock=cards.stock,
    )


def new_game(
    seed: int, names: tuple[str, ...] = ("You", "Bot"), options: CribbageOptions | None = None
) -> CribbageState:
    """A new game: the cut for deal (low deals) and the first deal; in five-card cribbage the first deal's
    non-dealer pegs three for last.

    >>> state = new_game(7)
    >>> state.phase, len(state.hands[0]), len(state.hands[1]), state.current_player == 1 - state.dealer
    (<Phase.DISCARD: 'discard'>, 6, 6, True)
    """
    options = options or CribbageOptions()
    variant = options.variant
    if len(names) != variant.players:
        raise ValueError(f"{variant.value} cribbage is for {_PLAYERS[variant.players]}, not {len(names)}")
    for problem in filter(None, map(name_problem, names)):
        raise ValueError(problem)
    cuts = cut_for_deal(seed, variant.players)
    n = variant.players
    state = CribbageState(
        seed=seed,
        names=tuple(names),
        options=options,
        cut_for_deal=cuts,
        scores=(0,) * variant.sides,
        hands=((),) * n,
        discards=((),) * n,
        discarded=(False,) * n,
        shown=((),) * n,
        gone=(False,) * n,
    )
    state = _deal(state, 1, first_dealer(cuts))
    if variant is not Variant.FIVE_CARD:
        return state
    events: list[ScoreEvent] = []
    state = state._peg(ScoreEvent(state.pone, 3, EventKind.THREE_FOR_LAST, (), "three for last"), events)
    return state._with(events=tuple(events))


_PLAYERS = {2: "two players", 3: "three players", 4: "four players"}
_CARDS = {1: "one card", 2: "two cards"}


def describe_cut(state: CribbageState) -> list[str]:
    """The cut for deal in words, one line a round.

    >>> describe_cut(new_game(3, ("You", "East", "West"), CribbageOptions(variant=Variant.THREE)))[-1]
    'You cut KD, East cut 5C, West cut 6S: the lowest card deals, East'
    """
    lines = []
    dealer = state.names[first_dealer(state.cut_for_deal)]
    cutting = list(range(len(state.names)))
    for cards in state.cut_for_deal:
        said = ", ".join(f"{state.names[p]} cut {c}" for p, c in zip(cutting, cards, strict=True))
        low = min(c.rank for c in cards)
        tied = [p for p, c in zip(cutting, cards, strict=True) if c.rank == low]
        if len(tied) > 1:
            lines.append(said + (": a tie, cut again" if len(cutting) == 2 else ": a tie for the lowest, cut again"))
        else:
            lowest = "the lower" if len(state.names) == 2 else "the lowest"
            lines.append(f"{said}: {lowest} card deals, {dealer}")
        cutting = tied
    return lines
