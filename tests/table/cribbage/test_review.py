"""The review of a game of cribbage (issue 32): each discard against the advisor's list, each card laid
against Hard's look-ahead from the player's own view; hand-worked deals, nothing hidden used, a seed
reproduces it, other variants refused in words."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cribtiles.bot.cribbage.advisor import advise_discard
from cribtiles.bot.cribbage.bots import hard_bot, medium_bot
from cribtiles.cribbage.cards import DECK, Card, parse_cards
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.moves import Discard, Muggins, PlayCard, parse_move
from cribtiles.cribbage.options import CribbageOptions, Phase, Variant
from cribtiles.cribbage.record import replay
from cribtiles.table.cribbage.review import (
    DiscardReview,
    PlayReview,
    ReviewRefused,
    refusal,
    review_card,
    review_discard,
    review_game,
    start_of,
)
from cribtiles.table.cribbage.table import CribbageTable


def played_game(seed: int) -> CribbageState:
    """A whole game, Hard against Medium, seeded."""
    state, bots, rng = new_game(seed), (hard_bot(), medium_bot()), random.Random(seed)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        state = state.apply(bots[p].choose(state.view(p), rng))
    return state


def discard_position(six: str) -> CribbageState:
    """A deal where the non-dealer, first to discard, holds `six`."""
    state = new_game(5)
    player = state.pone
    mine = parse_cards(six)
    rest = [c for c in DECK if c not in mine]
    hands = (mine, tuple(rest[:6])) if player == 0 else (tuple(rest[:6]), mine)
    return replace(state, hands=hands, stock=tuple(rest[6:]))


def play_position(mine: str, theirs: str, pile: str, starter: str = "2C") -> CribbageState:
    """The play, the non-dealer to lay on the dealer's `pile` (their cards laid), holding `mine`."""
    state = new_game(1)
    player, other = state.pone, state.dealer
    held, hidden, laid = parse_cards(mine), parse_cards(theirs), parse_cards(pile)
    cut = parse_cards(starter)[0]
    rest = [c for c in DECK if c not in {*held, *hidden, *laid, cut}]
    crib = tuple(rest[:4])
    hands: list[tuple[Card, ...]] = [(), ()]
    shown: list[tuple[Card, ...]] = [(), ()]
    hands[player], hands[other] = held, hidden
    shown[player], shown[other] = held, (*hidden, *laid)
    return replace(
        state,
        phase=Phase.PLAY,
        hands=(hands[0], hands[1]),
        shown=(shown[0], shown[1]),
        discards=(crib[:2], crib[2:]),
        discarded=(True, True),
        crib=crib,
        starter=cut,
        turn=player,
        pile=laid,
        count=sum(c.value for c in laid),
        played=tuple((other, c) for c in laid),
        stock=tuple(rest[4:]),
    )


def test_a_discard_that_throws_away_a_fifteen_loses_what_the_advisor_says() -> None:
    before = discard_position("7H 8D 2S 3C KD QS")
    advice = advise_discard(parse_cards("7H 8D 2S 3C KD QS"), dealer=False)
    thrown = parse_cards("7H 8D")
    review = review_discard(before, Discard((thrown[0], thrown[1])))
    said = next(a for a in advice if set(a.thrown) == set(thrown))
    assert review.chosen == said and review.best == advice[0]
    assert review.value_lost == pytest.approx(advice[0].total - said.total)
    assert review.value_lost > 1.0  # a fifteen laid away to the opponent's crib, and kept from the hand
    assert not review.is_best
    assert "Kept 2S 3C KD QS, laid 7H 8D: expected" in review.words() and "lost." in review.words()


def test_the_best_discard_loses_nothing() -> None:
    before = discard_position("5H 5D JS QC 8H 2S")
    best = advise_discard(parse_cards("5H 5D JS QC 8H 2S"), dealer=False)[0]
    review = review_discard(before, Discard(best.thrown))
    assert review.value_lost == 0.0 and review.is_best
    assert review.words().endswith("the best discard.")


def test_leading_a_five_gives_away_a_fifteen_and_loses_points() -> None:
    # the non-dealer leads: a 5 lets any of the sixteen ten-cards make 15; a 3 gives nothing away at once
    before = play_position("5S 3D 4C AH", "9H 9C 8D 8S", "")
    review = review_card(before, PlayCard(parse_cards("5S")[0]), random.Random(1), 64)
    assert review.best.card != review.played and review.value_lost > 0.5
    assert review.chosen.points == 0 and review.samples == 64
    safe = review_card(before, PlayCard(review.best.card), random.Random(1), 64)
    assert safe.value_lost == 0.0 and safe.is_best


def test_a_card_that_scores_most_and_gives_nothing_away_is_best() -> None:
    # on 10 a 5 makes fifteen for 2; the other cards score nothing
    before = play_position("5S AD 2C 3H", "9H 9C 8D", "KC")
    review = review_card(before, PlayCard(parse_cards("5S")[0]), random.Random(1), 32)
    assert review.is_best and review.chosen.points == 2 and review.value_lost == 0.0


def hide_differently(state: CribbageState, player: int) -> CribbageState:
    """The same game seen from `player`, the opponent's unseen hand swapped for unseen cards of the deck."""
    other = 1 - player
    unseen = set(state.view(player).unseen)
    hidden = [c for c in state.hands[other] if c in unseen]
    spare = [c for c in state.stock if c in unseen and c not in hidden and c != state.starter]
    swap = dict(zip(hidden, spare, strict=False))
    back = {b: a for a, b in swap.items()}
    hand = tuple(swap.get(c, c) for c in state.hands[other])
    stock = tuple(back.get(c, c) for c in state.stock)
    hands = (state.hands[0], hand) if other == 1 else (hand, state.hands[1])
    shown = state.shown
    if shown[other]:
        kept = tuple(swap.get(c, c) for c in shown[other])
        shown = (shown[0], kept) if other == 1 else (kept, shown[1])
    return replace(state, hands=hands, stock=stock, shown=shown)


def test_the_review_of_a_decision_never_uses_a_hidden_card() -> None:
    # every decision of a game, weighed again with the opponent's unseen cards swapped for others the
    # player cannot see either: the player's view is the same, and so is its review
    final = played_game(11)
    at = start_of(final)
    checked = 0
    for ply, text in enumerate(final.log):
        move = parse_move(text)
        player = at.current_player
        if player is not None and at.claim is None and isinstance(move, Discard | PlayCard):
            other = hide_differently(at, player)
            if at.hands[1 - player]:
                assert other.hands[1 - player] != at.hands[1 - player]
                checked += 1
            assert other.view(player) == at.view(player)
            if isinstance(move, Discard):
                assert review_discard(other, move, 0, ply) == review_discard(at, move, 0, ply)
            else:
                mine = review_card(at, move, random.Random(ply), 16, 0, ply)
                assert review_card(other, move, random.Random(ply), 16, 0, ply) == mine
        at = at.apply(move)
    assert checked > 50


def test_a_seed_reproduces_a_review_and_totals_add_up() -> None:
    final = played_game(3)
    seen: list[tuple[int, int]] = []
    review = review_game(final, random.Random(7), 24, lambda done, total: seen.append((done, total)))
    assert review == review_game(final, random.Random(7), 24)
    total = len(review.decisions)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert review.complete and review.finals == final.scores and len(review.scores) == total
    assert sum(isinstance(d, DiscardReview) for d in review.decisions) == 2 * final.deal_number
    totals = review.totals()
    assert sum(t.discards + t.plays for t in totals) == total
    for t in totals:
        mine = [d for d in review.decisions if d.player == t.player]
        assert t.discard_lost + t.play_lost == pytest.approx(sum(d.value_lost for d in mine))
        assert 0.0 <= t.accuracy <= 1.0
    misses = review.biggest_misses(5)
    assert all(d.value_lost > 0 for d in misses)
    assert [d.value_lost for d in misses] == sorted((d.value_lost for d in misses), reverse=True)
    assert all(
        all(w.value <= d.best.value + 1e-9 for w in d.weighed) for d in review.decisions if isinstance(d, PlayReview)
    )


def test_one_players_decisions_only() -> None:
    final = played_game(3)
    review = review_game(final, random.Random(7), 8, players=(1,))
    assert review.decisions and all(d.player == 1 for d in review.decisions)


def test_other_variants_are_refused_in_words() -> None:
    record = new_game(2).record()
    assert refusal(record) == ""
    assert "two-player" in refusal({**record, "names": ["A", "B", "C"]})
    assert "five_card" in refusal({**record, "options": {"target": 61, "five_card": True}})
    five = parse_cards("5H 5D JS QC 8H")
    with pytest.raises(ReviewRefused, match="cannot be weighed"):  # five cards in a six-card deal
        review_discard(replace(new_game(2), hands=(five, five)), Discard((five[0], five[1])))
    three = {**record, "names": ["A", "B", "C"], "options": {"target": 121, "variant": "three-player"}}
    assert "two-player" in refusal(three)
    assert "not 'partnership'" in refusal({**record, "options": {"target": 121, "variant": "partnership"}})


def test_a_five_card_game_is_reviewed_with_its_discards_of_two_from_five_and_its_single_play() -> None:
    """Five-card cribbage is two-player: each discard is weighed against the ten ways to lay two of five
    (hands of three), and the play's look-ahead ends at the first 31 or go, as Hard's does there."""
    options = CribbageOptions(variant=Variant.FIVE_CARD, target=61)
    state, bots, rng = new_game(4, options=options), (hard_bot(), medium_bot()), random.Random(4)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        state = state.apply(bots[p].choose(state.view(p), rng))
    assert refusal(state.record()) == ""
    review = review_game(state, random.Random(9), 8)
    discards = [d for d in review.decisions if isinstance(d, DiscardReview)]
    plays = [d for d in review.decisions if isinstance(d, PlayReview)]
    assert discards and plays
    assert all(len(d.advice) == 10 and all(len(a.kept) == 3 for a in d.advice) for d in discards)
    assert all(d.value_lost >= 0 for d in review.decisions)
    hard_discards = [d for d in discards if d.player == 0]
    assert sum(d.is_best for d in hard_discards) >= len(hard_discards) * 0.8  # Hard discards by the same list


def test_a_game_won_at_the_answer_to_a_card_said_aloud_is_reviewed_its_scores_kept_at_the_target() -> None:
    """Muggins in the play, to 61: the Hard bot's QS says 2 and takes it from 60 past the target, pegged
    at once (62) but ended only at the answer (issue 43). The review knows the option, and its scores after
    that card are the game's end, 61."""
    table = CribbageTable.new(14, "hard", CribbageOptions(play_muggins=True, target=61))
    while not table.is_over:
        if table.person_to_move:
            table.play(Muggins(False) if table.state.claim else table.state.legal_actions()[0])
        else:
            table.bot_move()
    state = table.state
    assert state.log[-2:] == ("play QS 2", "no muggins") and state.scores == (38, 61)
    assert state.record()["options"] == {"muggins": False, "play_muggins": True, "target": 61, "end_on_answer": True}
    assert refusal(state.record()) == ""
    review = review_game(state, random.Random(1), 4)
    last = review.decisions[-1]
    assert isinstance(last, PlayReview) and last.ply == len(state.log) - 2 and review.scores[-1] == (38, 61)
    assert replay({**state.record(), "moves": list(state.log[:-1])}).scores == (38, 62)  # before the answer
