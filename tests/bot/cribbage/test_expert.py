"""The Expert cribbage bot: its win chances against a plain recursion over the same distributions, its
hand distribution against the engine's scorer, its play's search against Hard's where only points count,
its end-of-game choices in hand-checked positions, and seeded games (that it sees nothing hidden is
`test_bots.test_bots_see_nothing_hidden`, run for every level)."""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources

import pytest

from cribtiles.bot.cribbage import expert
from cribtiles.bot.cribbage.bots import PEG_GUESSES, choose_reporting, hard_bot
from cribtiles.bot.cribbage.crib import default_table
from cribtiles.bot.cribbage.discard import best_split, expected_show, splits, unseen_after
from cribtiles.bot.cribbage.expert import (
    WinSolver,
    expert_bot,
    hand_shows,
    mean,
    split_win_chance,
    win_split,
)
from cribtiles.bot.cribbage.guess import guess_hands, opponent_gone, table_guess_hands
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.bot.cribbage.odds import (
    DATA_FILE,
    DealOdds,
    WinOdds,
    convolve,
    default_odds,
    default_win_odds,
    load_odds,
    shifted,
)
from cribtiles.bot.cribbage.peg import Solver, lookahead_card
from cribtiles.cribbage import DECK, CribbageState, Phase, new_game, parse_cards
from cribtiles.cribbage.moves import Discard, PlayCard
from cribtiles.cribbage.options import CribbageOptions, Variant

SMALL = DealOdds(
    play=(((0, 1), 0.3), ((1, 2), 0.4), ((3, 0), 0.3)),
    pone_hand=((0, 0.2), (2, 0.5), (5, 0.3)),
    dealer_hand=((1, 0.5), (4, 0.5)),
    crib=((0, 0.6), (3, 0.4)),
)


def plain_dealer_wins(odds: DealOdds, x: int, y: int) -> float:
    """The dealer's chance, by a plain recursion over every deal, each step of the deal in turn."""

    @cache
    def deal(x: int, y: int) -> float:  # the dealer needs x, the pone y, before the deal
        total = 0.0
        for (pone, dealer), p in odds.play:
            if dealer >= x and pone >= y:
                total += p * 0.5
            elif dealer >= x:
                total += p
            elif pone < y:
                for h, ph in odds.pone_hand:
                    if pone + h >= y:
                        continue
                    for d, pd in odds.dealer_hand:
                        for c, pc in odds.crib:
                            if dealer + d + c >= x:
                                total += p * ph * pd * pc
                            else:
                                total += p * ph * pd * pc * (1 - deal(y - pone - h, x - dealer - d - c))
        return total

    return deal(x, y)


def test_the_win_chances_equal_a_plain_recursion_over_the_same_deals() -> None:
    odds = WinOdds(SMALL, most=20)
    for x in range(1, 21):
        for y in range(1, 21):
            assert odds.dealer_wins(x, y) == pytest.approx(plain_dealer_wins(SMALL, x, y))


def test_the_win_chances_of_the_shipped_odds_make_sense() -> None:
    odds = default_win_odds()
    assert 0.5 < odds.wins(121, 121, True) < 0.6  # the first dealer has the edge
    assert odds.wins(121, 121, True) + odds.wins(121, 121, False) == pytest.approx(1.0)
    for mine in (5, 20, 60):
        chances = [odds.wins(mine, theirs, False) for theirs in (5, 20, 60, 121)]
        assert chances == sorted(chances)  # the more the opponent needs, the better
    assert odds.wins(0, 3, False) == 1.0 and odds.wins(3, 0, True) == 0.0
    # the pone needing 6 counts first: better placed than the dealer needing 6
    assert odds.wins(6, 6, False) > 0.5


def test_the_shipped_deal_odds_are_the_measured_counts() -> None:
    text = resources.files("cribtiles.bot.cribbage").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["games"] >= 100 and sum(data["crib"].values()) == sum(data["play"].values()) > 500
    odds = default_odds()
    assert 4.0 < mean(odds.crib) < 5.5 and 7.0 < mean(odds.dealer_hand) < 9.5 and 7.0 < mean(odds.pone_hand) < 9.5
    assert load_odds(text) == odds


def test_bad_deal_odds_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="last card"):
        load_odds(json.dumps({"play": {"0,0": 3}, "pone_hand": {"1": 1}, "dealer_hand": {"1": 1}, "crib": {"1": 1}}))


def test_a_shifted_distribution_keeps_its_chances_and_moves_its_mean() -> None:
    crib = SMALL.crib
    moved = shifted(crib, 0.5)
    assert sum(p for _, p in moved) == pytest.approx(1.0)
    assert mean(moved) == pytest.approx(mean(crib) + 0.5)
    assert min(k for k, _ in shifted(crib, -2)) == 0  # never below nothing
    assert mean(convolve(SMALL.dealer_hand, crib)) == pytest.approx(mean(SMALL.dealer_hand) + mean(crib))


def test_a_kept_hands_shows_are_the_engines_over_every_starter() -> None:
    rng = random.Random(11)
    for _ in range(20):
        six = tuple(rng.sample(DECK, 6))
        for s in splits(six)[:5]:
            dist = hand_shows(s.kept, six)
            assert sum(p for _, p in dist) == pytest.approx(1.0)
            assert mean(dist) == pytest.approx(expected_show(s.kept, six))
    # 5 5 5 J with the jack of the fifth five's suit: the 29 is among the shows
    six = parse_cards("5H 5D 5S JC 2H 3D")
    kept = parse_cards("5H 5D 5S JC")
    assert max(k for k, _ in hand_shows(kept, six)) == 29
    assert len(unseen_after(six)) == 46


def test_where_only_points_count_the_win_search_is_hards_search() -> None:
    """With needs no play can reach and a leaf linear in the points, the chance search returns Hard's
    difference of points (plus the constant): the same search, the same opponent."""
    far = (500, 500)
    solver = WinSolver(lambda a, b: (b - a) / 1000)
    hard = Solver()
    rng = random.Random(4)
    for _ in range(30):
        cards = rng.sample(range(1, 14), 8)
        mine, theirs = tuple(sorted(cards[:4])), tuple(sorted(cards[4:]))
        for mover in (0, 1):
            value = solver.solve(mine, theirs, (), 0, mover, False, far)
            assert value * 1000 == pytest.approx(hard.solve(mine, theirs, (), 0, mover, False))


def test_a_card_that_pegs_out_wins_at_once() -> None:
    solver = WinSolver(lambda a, b: 0.5)
    # the bot needs 2: a five on a ten makes fifteen and wins; a king makes 20, the nine 29, then the
    # five alone pegs the last card's 1 and the show decides
    assert solver.play((5, 13), (9,), (10,), 10, 0, False, 5, (2, 50)) == 1.0
    assert solver.play((5, 13), (9,), (10,), 10, 0, False, 13, (2, 50)) == 0.5


def test_the_pone_sure_of_its_count_keeps_the_dealer_from_pegging_out() -> None:
    # the bot, the pone, needs 4 and its hand counts more: it wins unless the dealer (needing 2) pegs out
    odds = default_win_odds()
    leaf_win = WinSolver(lambda a, b: 1.0)
    # leading a five gives the dealer's ten a fifteen (out); a king cannot be made fifteen by a ten
    assert leaf_win.play((5, 13), (10, 10), (), 0, 0, False, 13, (4, 2)) > leaf_win.play(
        (5, 13), (10, 10), (), 0, 0, False, 5, (4, 2)
    )
    assert 0.0 < odds.wins(4, 2, False) < 1.0


def test_the_win_discard_is_the_argmax_of_the_win_chances() -> None:
    odds = default_win_odds()
    rng = random.Random(8)
    for i in range(6):
        six = tuple(rng.sample(DECK, 6))
        dealer = i % 2 == 0
        needs = (rng.randint(3, 30), rng.randint(3, 30))
        chances = {
            s: split_win_chance(hand_shows(s.kept, six), expert.crib_dist(s.discarded, dealer), needs, dealer, odds)
            for s in splits(six)
        }
        assert all(0.0 <= c <= 1.0 for c in chances.values())
        assert chances[win_split(six, needs, dealer, odds)] == pytest.approx(max(chances.values()))


def test_a_few_points_from_home_the_pone_keeps_a_hand_sure_to_count_them() -> None:
    """The pone counts first: needing 5, 5 K T J (6 whatever the starter) wins at the count, where Hard's
    5 2 2 J, more on average, may show only 4."""
    odds = default_win_odds()
    six = parse_cards("5D KH 2C TS 2H JC")
    hard = best_split(six, default_table().worth(False))
    assert set(hard.kept) == set(parse_cards("5D 2C 2H JC"))
    split = win_split(six, (5, 40), False, odds)
    assert set(split.kept) == set(parse_cards("5D KH TS JC"))
    assert min(k for k, _ in hand_shows(split.kept, six)) >= 5 > min(k for k, _ in hand_shows(hard.kept, six))
    far = win_split(six, (100, 100), False, odds)  # far from home the chance follows the points
    assert set(far.kept) == set(hard.kept)


def play_from(seed: int, scores: tuple[int, int], levels: tuple[str, str]) -> CribbageState:
    bots = [make_cribbage_bot(level) for level in levels]
    state = new_game(seed)._with(scores=scores)
    step = 0
    while not state.is_over:
        player = state.current_player
        assert player is not None
        move, failure = choose_reporting(bots[player], state.view(player), random.Random(f"{seed}/{step}"))
        assert not failure, failure
        state = state.apply(move)
        step += 1
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_end_games_are_legal_and_reproducible(seed: int) -> None:
    first = play_from(seed, (90, 100), ("expert", "hard"))
    again = play_from(seed, (90, 100), ("expert", "hard"))
    assert first.log == again.log and first.outcome == again.outcome
    assert first.phase is Phase.OVER and max(first.scores) == 121


def test_the_play_budget_must_be_a_guess_or_more() -> None:
    with pytest.raises(ValueError, match="at least one guess"):
        expert_bot(guesses=0)


def test_far_from_the_end_expert_with_hards_budget_chooses_as_hard() -> None:
    expert_level = expert_bot(guesses=PEG_GUESSES, guesser=guess_hands)
    hard_level = make_cribbage_bot("hard")
    for seed in range(4):
        state = new_game(seed)._with(scores=(40, 60))
        step = 0
        while state.phase is not Phase.SHOW:
            player = state.current_player
            assert player is not None
            view = state.view(player)
            move = expert_level.choose(view, random.Random(f"{seed}/{step}"))
            assert move == hard_level.choose(view, random.Random(f"{seed}/{step}"))
            state = state.apply(move)
            step += 1


@pytest.mark.parametrize("variant", [Variant.FIVE_CARD, Variant.THREE, Variant.PARTNERSHIP])
def test_in_the_variants_expert_plays_every_choice_as_hard_to_the_end(variant: Variant) -> None:
    """Its chances to win were measured in the six-card game: in the variants it is Hard all the way, near
    the end too, and plays whole seeded games legally."""
    names = ("A", "B", "C", "D")[: variant.players]
    state = new_game(3, names, CribbageOptions(variant=variant, target=61))
    expert, hard = expert_bot(), hard_bot()
    while not state.is_over:
        p = state.current_player
        assert p is not None
        view = state.view(p)
        move = expert.choose(view, random.Random(state.deal_number * 100 + len(state.log)))
        assert move == hard.choose(view, random.Random(state.deal_number * 100 + len(state.log)))
        state = state.apply(move)


def test_the_span_it_plays_to_win_in_is_a_parameter() -> None:
    """Within 0 points (and with Hard's budget) the Expert never plays to win, so near the end it chooses as
    Hard does; within 121 it plays to win from the first discard (the split with the best chance to win)."""
    never, always, hard = (
        expert_bot(within=0, guesses=PEG_GUESSES, guesser=guess_hands),
        expert_bot(within=121),
        hard_bot(),
    )
    for seed in range(3):
        state = new_game(seed)._with(scores=(100, 110))
        step = 0
        while state.phase is not Phase.SHOW and not state.is_over:
            player = state.current_player
            assert player is not None
            view = state.view(player)
            move = never.choose(view, random.Random(f"{seed}/{step}"))
            assert move == hard.choose(view, random.Random(f"{seed}/{step}"))
            state = state.apply(move)
            step += 1
        start = new_game(seed)
        view = start.view(start.dealer)
        split = win_split(view.hand, (121, 121), True, default_win_odds())
        assert always.choose(view, random.Random(0)) == Discard(split.discarded)


def test_far_from_the_end_expert_discards_as_hard_and_lays_hards_card_over_twice_the_table_guesses() -> None:
    expert_level, hard_level = make_cribbage_bot("expert"), make_cribbage_bot("hard")
    assert expert.EXPERT_GUESSES == 2 * PEG_GUESSES
    differs = 0
    for seed in range(6):
        state = new_game(seed)._with(scores=(40, 60))
        step = 0
        while state.phase is not Phase.SHOW:
            player = state.current_player
            assert player is not None
            view = state.view(player)
            move = expert_level.choose(view, random.Random(f"{seed}/{step}"))
            if view.phase is Phase.DISCARD:
                assert move == hard_level.choose(view, random.Random(f"{seed}/{step}"))
            elif len(view.legal) > 1:
                hands = table_guess_hands(view, 2 * PEG_GUESSES, random.Random(f"{seed}/{step}"))
                card = lookahead_card(view.hand, view.pile, opponent_gone(view), hands)
                assert move == PlayCard(card)
                differs += move != hard_level.choose(view, random.Random(f"{seed}/{step}"))
            state = state.apply(move)
            step += 1
    assert differs > 0
