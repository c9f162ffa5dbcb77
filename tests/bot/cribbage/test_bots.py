"""Tests for the classic cribbage bots: the discard arithmetic against the engine's scorer, known discards,
the play's look-ahead on hand-checked positions, the crib table against a recomputation, and whole seeded
games in which no bot ever makes an illegal move or sees what it must not."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from importlib import resources
from itertools import product

import pytest

from cribtiles.bot.cribbage import bots as cribbage_bots
from cribtiles.bot.cribbage.bots import EXACT, CountingManners, choose_safely
from cribtiles.bot.cribbage.crib import DATA_FILE, default_table, load_table, pair_key
from cribtiles.bot.cribbage.discard import (
    Remaining,
    best_split,
    expected_show,
    hand_sums,
    plain_points,
    plain_split,
    plain_worth,
    rank_points,
    show_sum,
    splits,
    unseen_after,
)
from cribtiles.bot.cribbage.guess import (
    guess_hands,
    lowest_value_held,
    opponent_gone,
    possible_cards,
    table_guess_hands,
)
from cribtiles.bot.cribbage.levels import DESCRIPTIONS, LEVELS, cribbage_level, make_cribbage_bot
from cribtiles.bot.cribbage.make_crib_table import crib_entry
from cribtiles.bot.cribbage.peg import WIN, Solver, greedy_card, highest_card, lookahead_card, sample_hands
from cribtiles.cribbage import (
    DECK,
    Count,
    CribbageOptions,
    CribbageState,
    Discard,
    Go,
    Muggins,
    Phase,
    PlayCard,
    format_cards,
    new_game,
    parse_cards,
    parse_move,
    show_total,
)


def discarded(six: str, own_crib: bool, level: str = "medium") -> str:
    hand = parse_cards(six)
    worth = plain_worth(own_crib) if level == "medium" else default_table().worth(own_crib)
    return format_cards(best_split(hand, worth).discarded)


# --- the discard arithmetic ---


def test_expected_hand_over_46_starters_equals_the_brute_force_sum() -> None:
    """Every split of 40 seeded six-card deals: the grouped sum equals show_total over each of the 46 starters."""
    rng = random.Random(2024)
    checked = 0
    for _ in range(40):
        six = rng.sample(DECK, 6)
        starters = unseen_after(six)
        assert len(starters) == 46
        for split, total in hand_sums(six):
            assert total == sum(show_total(split.kept, s) for s in starters)
            checked += 1
    assert checked == 40 * 15


def test_flushes_and_nobs_count_in_the_expectation() -> None:
    """A four-card flush with a jack, as a hand and as a crib, against the brute-force sum."""
    hand = parse_cards("2H 7H 9H JH")
    known = (*hand, *parse_cards("3C KD"))
    starters = unseen_after(known)
    for crib in (False, True):
        brute = sum(show_total(hand, s, crib) for s in starters)
        assert show_sum(hand, Remaining.of(starters), crib) == brute
    assert expected_show(hand, known) == pytest.approx(sum(show_total(hand, s) for s in starters) / 46)


def test_the_fifteen_splits_of_six_cards() -> None:
    six = parse_cards("AS 2S 3S 4S 5S 6S")
    all_splits = splits(six)
    assert len(all_splits) == 15
    assert all(sorted((*s.kept, *s.discarded)) == sorted(six) for s in all_splits)
    assert len({s.discarded for s in all_splits}) == 15


def test_the_29_hand_is_worth_its_known_expectation() -> None:
    """5 5 5 J kept from 5 5 5 J 2 3, over the 46 starters: 766 points in all (the fourth five makes 29)."""
    six = parse_cards("5H 5D 5S JC 2H 3D")
    kept = parse_cards("5H 5D 5S JC")
    counts = Counter(show_total(kept, s) for s in unseen_after(six))
    # 14 with the 22 starters that add nothing, 15 with the 8 other clubs (his nobs), 20 with the 9 tens,
    # queens and kings not clubs, 21 with the 3 that are, 22 with the other three jacks, 29 with the last five
    assert counts == {14: 22, 20: 9, 15: 8, 22: 3, 21: 3, 29: 1}
    assert expected_show(kept, six) * 46 == pytest.approx(766)


# --- known discards ---


@pytest.mark.parametrize("own_crib", [True, False])
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_three_fives_and_a_jack_are_kept(level: str, own_crib: bool) -> None:
    assert discarded("5H 5D 5S JC 2H 3D", own_crib, level) == "2H 3D"
    assert discarded("5H 5D 5S JC AH 2D", own_crib, level) == "AH 2D"


def test_medium_lays_a_pair_in_its_own_crib_and_splits_it_from_the_opponents() -> None:
    # its own crib: the pair of kings is two points there; the opponent's: no pair, no fifteen to give
    assert discarded("6H 8H 9D JS KC KS", own_crib=True) == "KC KS"
    assert discarded("6H 8H 9D JS KC KS", own_crib=False) == "8H JS"


def test_hard_never_gives_the_opponent_a_five_that_medium_would() -> None:
    # 2 3 4 5 6 J: Medium lays 5 J (a fifteen) in its own crib; Hard keeps the five and the run 4-5-6
    assert discarded("2D 3H 4C 5H 6S JD", own_crib=True) == "5H JD"
    assert discarded("2D 3H 4C 5H 6S JD", own_crib=True, level="hard") == "2D 3H"
    # against the opponent's crib Hard keeps the run of four 3-4-5-6 and lays the two and the jack
    assert discarded("2D 3H 4C 5H 6S JD", own_crib=False, level="hard") == "2D JD"


def test_hard_lays_touching_cards_in_its_own_crib_and_a_pair_of_queens_in_the_opponents() -> None:
    assert discarded("5C 6S 7H 8H QC QS", own_crib=True, level="hard") == "7H 8H"
    assert discarded("5C 6S 7H 8H QC QS", own_crib=False, level="hard") == "QC QS"


def test_easy_keeps_nearly_the_most_plain_points() -> None:
    six = parse_cards("5H 5D 5S JC 2H 3D")
    best = max(plain_points(s.kept) for s in splits(six))
    assert best == 14  # 5 5 5 J alone: three fifteens of 5+J... 5+5+5 and three 5+J = 8, pair royal 6
    for seed in range(20):
        assert plain_points(plain_split(six, random.Random(seed)).kept) >= best - 2


# --- the crib table ---


def test_the_crib_table_matches_a_recomputation_of_some_entries() -> None:
    """Each entry comes from its own seeded deals, so recomputing one with the file's seed and samples gives
    it exactly."""
    text = resources.files("cribtiles.bot.cribbage").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    seed, samples = data["seed"], data["samples"]
    assert samples >= 1000
    for (a, b), own in [((5, 5), True), ((10, 13), False)]:
        owner = "own" if own else "opponent"
        assert data[owner][pair_key(a, b)] == crib_entry(a, b, own, samples, seed)


def test_the_crib_table_is_whole_and_sensible() -> None:
    table = default_table()
    assert len(table.own) == len(table.opponent) == 91
    # a pair of fives is the best crib there is; a ten and a king among the worst
    assert max(table.own, key=table.own.__getitem__) == (5, 5)
    assert table.own[(5, 5)] > 8 > 4 > table.own[(10, 13)]
    # the opponent lays away to its own crib better than against the bot's
    assert all(table.opponent[k] > table.own[k] for k in table.own)


def test_a_damaged_crib_table_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="91 pairs"):
        load_table(json.dumps({"own": {"55": 8.0}, "opponent": {"55": 9.0}}))


# --- the play ---


def test_easy_takes_a_fifteen_else_its_highest_card() -> None:
    hand = parse_cards("KS 5H 2C")
    assert str(highest_card(hand, parse_cards("TD"), 10)) == "5H"
    assert str(highest_card(hand, parse_cards("3D"), 3)) == "KS"


def test_medium_takes_the_most_points_now() -> None:
    # on 4 4: the third four is a pair royal (6), better than the seven's fifteen (2)
    hand = parse_cards("7C 4S KD")
    assert str(greedy_card(hand, parse_cards("4H 4D"), 8)) == "4S"


def test_the_solver_plays_small_positions_out_exactly() -> None:
    s = Solver()
    # the bot lays 5, the opponent's ten makes fifteen (2) and is the last card (1): -3
    assert s.play((5,), (10,), (), 0, 0, False, 5) == -3
    # the bot lays 4: no fifteen for a ten; the ten is the last card (1): -1
    assert s.play((4,), (10,), (), 0, 0, False, 4) == -1
    # on a count of 27, the bot's 4 makes 31 (2); nothing is left: 2
    assert s.play((4,), (), (10, 10, 7), 27, 0, False, 4) == 2
    # both hold a 9 on 20: the bot lays its 9 (29), the opponent cannot: the go is the bot's (1), then
    # the opponent leads its 9 alone and takes the last card (1): 0
    assert s.play((9,), (9,), (10, 10), 20, 0, False, 9) == 0


def test_near_the_end_the_solver_plays_to_peg_out_first() -> None:
    s = Solver()
    # the opponent needs 2: a five led lets their ten make fifteen and win (-2 and the game); the four
    # leaves them nothing, and the bot's five is the last card (+1)
    assert s.play((4, 5), (10,), (), 0, 0, False, 5, (50, 2)) == -2 - WIN
    assert s.play((4, 5), (10,), (), 0, 0, False, 4, (50, 2)) == 1
    assert s.play((4, 5), (10,), (), 0, 0, False, 5) == -1  # far from the end: only the points count
    # the bot needs 2: its five on a ten makes fifteen and wins at once, whatever the opponent holds
    assert s.play((5, 9), (6,), (10,), 10, 0, False, 5, (2, 50)) == 2 + WIN


def test_hard_does_not_lead_a_five() -> None:
    """A five led gives a ten-card its fifteen: with 5 4 9 K, whatever the guesses, Hard leads another card."""
    hand = parse_cards("5S 4H 9D KC")
    unseen = tuple(c for c in DECK if c not in hand)
    leads = {str(lookahead_card(hand, (), False, sample_hands(unseen, 4, 24, random.Random(s)))) for s in range(5)}
    assert leads and "5S" not in leads


def test_hard_does_not_leave_a_count_of_21() -> None:
    # count 14: a 7 makes 21 (a ten makes 31 for the opponent); the 2 keeps the count at 16
    hand = parse_cards("7S 2H")
    pile = parse_cards("TD 4C")
    unseen = tuple(c for c in DECK if c not in (*hand, *pile))
    guesses = sample_hands(unseen, 3, 24, random.Random(2))
    assert str(lookahead_card(hand, pile, False, guesses)) == "2H"


def test_the_opponents_goes_bound_the_cards_they_may_hold() -> None:
    a, b = 0, 1  # the bot is 0
    k, q, nine, three, two = parse_cards("KS QH 9D 3C 2S")
    # K Q 9 (29): the bot laid the 9 after the opponent's Q, then the opponent said go and the bot is to lay:
    # every card the opponent holds is over 2
    played = ((a, k), (b, q), (a, nine))
    assert lowest_value_held(played, b, (k, q, nine)) == 3
    # a new count began (the three did not fit on 29): the go at 29 still tells; then 3 2 by the same player
    played2 = (*played, (b, three), (b, two))
    assert lowest_value_held(played2, b, (three, two)) == 3
    # the bot laid twice running, on 13: the opponent could not lay on 13, so holds no card at all
    assert lowest_value_held(((b, k), (a, three), (a, two)), b, (k, three, two)) == 32 - 13


def test_the_opponent_is_guessed_to_keep_good_hands() -> None:
    """Before the opponent lays a card, the guesses are hands kept as a sensible player keeps them: their
    ranks alone score more than four cards at random."""
    state = play_to(seed=11, phase=Phase.PLAY)
    p = state.current_player
    assert p is not None
    view = state.view(p)
    guesses = guess_hands(view, 200, random.Random(1))
    assert guesses == guess_hands(view, 200, random.Random(1))
    assert len(guesses) == 200 and all(len(g) == 4 for g in guesses)
    rng = random.Random(0)
    at_random = [[c.rank for c in rng.sample(view.unseen, 4)] for _ in range(200)]
    assert sum(map(rank_points, guesses)) > 2 * sum(map(rank_points, at_random))


@pytest.mark.parametrize("guesser", [guess_hands, table_guess_hands])
def test_guesses_agree_with_the_cards_laid_and_the_goes(guesser: Callable[..., list[tuple[int, ...]]]) -> None:
    for moves_into in range(1, 8):
        state = play_to(seed=11, phase=Phase.PLAY, moves_into=moves_into)
        p = state.current_player
        if p is None or state.phase is not Phase.PLAY:
            continue
        view = state.view(p)
        least = lowest_value_held(view.played, view.opponent, view.pile)
        for g in guesser(view, 24, random.Random(1)):
            assert len(g) == view.opponent_cards_left
            assert all(min(r, 10) >= least for r in g)
            assert Counter(g) <= Counter(c.rank for c in view.unseen)


def test_the_table_guesser_takes_the_opponent_to_discard_by_the_crib_table() -> None:
    """The Expert's guesses: deals the opponent keeps as Hard would (the crib table), so as many good
    hands as the plain guesser's, yet not the same hands."""
    state = play_to(seed=11, phase=Phase.PLAY)
    p = state.current_player
    assert p is not None
    view = state.view(p)
    table = table_guess_hands(view, 200, random.Random(1))
    plain = guess_hands(view, 200, random.Random(1))
    assert table == table_guess_hands(view, 200, random.Random(1))
    assert len(table) == 200 and all(len(g) == 4 for g in table)
    assert table != plain
    assert sum(map(rank_points, table)) > 0.8 * sum(map(rank_points, plain))


def test_possible_cards_fall_back_to_every_unseen_card_when_the_goes_leave_too_few() -> None:
    state = play_to(seed=4, phase=Phase.PLAY)
    p = state.current_player
    assert p is not None
    view = state.view(p)
    assert set(possible_cards(view)) <= set(view.unseen)
    assert opponent_gone(view) is False


# --- whole games ---


def play_to(seed: int, phase: Phase, moves_into: int = 0) -> CribbageState:
    """A seeded Medium-vs-Medium game at the first moment of `phase`, `moves_into` moves on."""
    bot = make_cribbage_bot("medium")
    state = new_game(seed)
    n = 0
    while not state.is_over:
        if state.phase is phase:
            if n == moves_into:
                return state
            n += 1
        p = state.current_player
        assert p is not None
        state = state.apply(bot.choose(state.view(p), random.Random(n)))
    raise AssertionError("the game ended first")


def play_game(levels: tuple[str, str], seed: int, options: CribbageOptions | None = None) -> CribbageState:
    bots = [make_cribbage_bot(levels[0]), make_cribbage_bot(levels[1])]
    state = new_game(seed, options=options)
    rng = random.Random(seed)
    for _ in range(2000):
        if state.is_over:
            return state
        p = state.current_player
        assert p is not None
        move = bots[p].choose(state.view(p), rng)
        assert move in state.legal_actions(), f"{levels[p]} chose {move}, not legal"
        state = state.apply(move)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("levels", list(product(LEVELS, LEVELS)))
def test_bots_only_make_legal_moves_over_seeded_games(levels: tuple[str, str]) -> None:
    for seed in range(2):
        state = play_game(levels, seed)
        assert state.outcome is not None and max(state.outcome.scores) == 121


BOTH_WAYS = CribbageOptions(muggins=True, play_muggins=True)


def said_and_called(state: CribbageState, seat: int) -> tuple[list[tuple[int, int]], list[tuple[bool, bool]]]:
    """From a finished game's record: each score `seat` said aloud (said, what the cards make), and each
    answer it gave to the other's (called, whether the count was wrong)."""
    said: list[tuple[int, int]] = []
    answered: list[tuple[bool, bool]] = []
    again = new_game(state.seed, state.names, state.options)
    for text in state.log:
        move = parse_move(text)
        if again.current_player == seat and again.claim is not None:
            answered.append((move == Muggins(True), again.claim.declared != again.claim.worth))
        again = again.apply(move)
        claim = again.claim
        if claim is not None and claim.counter == seat:
            said.append((claim.declared, claim.worth))
    return said, answered


def test_under_muggins_hard_never_miscounts_and_calls_every_wrong_count() -> None:
    state = play_game(("hard", "easy"), 5, BOTH_WAYS)
    said, answered = said_and_called(state, 0)
    assert len(said) > 20 and all(declared == worth for declared, worth in said)
    assert answered and all(called == wrong for called, wrong in answered)  # every miss of Easy's called
    easy_said, easy_answered = said_and_called(state, 1)
    assert any(declared < worth for declared, worth in easy_said)  # Easy forgot some points
    assert all(declared <= worth for declared, worth in easy_said)  # never more than the cards make
    assert not any(called and not wrong for called, wrong in easy_answered)  # never calls a right count


def test_easy_miscounts_and_overlooks_more_often_than_medium_over_seeded_games() -> None:
    slips = {}
    for level in ("easy", "medium"):
        said = [s for seed in range(3) for s in said_and_called(play_game((level, "hard"), seed, BOTH_WAYS), 0)[0]]
        slips[level] = sum(declared != worth for declared, worth in said) / len(said)
    assert slips["easy"] > slips["medium"] > 0


def test_counting_manners_forget_one_item_and_call_only_a_wrong_count() -> None:
    assert CountingManners().say([2, 2, 4], random.Random(0)) == 8
    slipping = CountingManners(miscount=1.0)
    assert {slipping.say([2, 2, 4], random.Random(n)) for n in range(20)} == {6, 4}  # a fifteen or the run forgotten
    assert slipping.say([], random.Random(0)) == 0
    state = play_to(seed=5, phase=Phase.SHOW)
    state = replace(state, options=BOTH_WAYS)
    counter = state.current_player
    assert counter is not None
    worth = show_total(state.show_cards(state.show_step)[0], state.starter, False)  # type: ignore[arg-type]
    short, right = state.apply(Count(max(0, worth - 2))), state.apply(Count(worth))
    caller = 1 - counter
    bot = make_cribbage_bot("medium")
    assert CountingManners().should_call(short.view(caller), random.Random(0)) is (worth > 0)
    assert not CountingManners().should_call(right.view(caller), random.Random(0))
    assert not CountingManners(oversight=1.0).should_call(short.view(caller), random.Random(0))
    assert bot.choose(right.view(caller), random.Random(0)) == Muggins(False)
    assert make_cribbage_bot("hard").choose(short.view(caller), random.Random(0)) == Muggins(worth > 0)


def test_the_same_view_and_generator_give_the_same_move() -> None:
    state = play_to(seed=6, phase=Phase.PLAY, moves_into=2)
    p = state.current_player
    assert p is not None
    for level in LEVELS:
        bot = make_cribbage_bot(level)
        assert bot.choose(state.view(p), random.Random(3)) == bot.choose(state.view(p), random.Random(3))


def reshuffle_hidden(state: CribbageState, viewer: int, seed: int) -> CribbageState:
    """The same game as `viewer` sees it, with the opponent's cards, their discards and the deck dealt anew."""
    other = 1 - viewer
    played = {c for p, c in state.played if p == other}
    hidden = [*state.hands[other], *state.discards[other], *state.stock]
    random.Random(seed).shuffle(hidden)
    hand = tuple(sorted(hidden[: len(state.hands[other])]))
    rest = hidden[len(hand) :]
    lay = tuple(rest[: len(state.discards[other])])
    stock = tuple(rest[len(lay) :])
    kept = tuple(c for c in state.shown[other] if c in played) + hand if state.shown[other] else ()
    mine = state.discards[viewer]
    crib = tuple(c for c in state.crib if c in mine) + lay if state.crib else ()

    def pair(value: tuple[object, ...], old: tuple[tuple[object, ...], tuple[object, ...]]) -> object:
        return (old[0], value) if other == 1 else (value, old[1])

    return replace(
        state,
        hands=pair(hand, state.hands),  # type: ignore[arg-type]
        shown=pair(kept, state.shown),  # type: ignore[arg-type]
        discards=pair(lay, state.discards),  # type: ignore[arg-type]
        crib=crib,
        stock=stock,
    )


@pytest.mark.parametrize("phase", [Phase.DISCARD, Phase.PLAY])
@pytest.mark.parametrize("level", LEVELS)
def test_bots_see_nothing_hidden(level: str, phase: Phase) -> None:
    """Two games that differ only in what the bot cannot see give it the same view, and the same move."""
    state = play_to(seed=8, phase=phase, moves_into=1)
    p = state.current_player
    assert p is not None
    other = reshuffle_hidden(state, p, 99)
    assert other.hands[1 - p] != state.hands[1 - p]
    assert other.view(p) == state.view(p)
    bot = make_cribbage_bot(level)
    assert bot.choose(state.view(p), random.Random(5)) == bot.choose(other.view(p), random.Random(5))


def test_a_failing_bot_makes_the_first_legal_move_and_says_why(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        name = "broken"

        def choose(self, view: object, rng: random.Random) -> Go:
            raise RuntimeError("no idea")

    state = play_to(seed=1, phase=Phase.DISCARD)
    p = state.current_player
    assert p is not None
    move = choose_safely(Broken(), state.view(p), random.Random(0))
    assert move == state.legal_actions()[0] and isinstance(move, Discard)
    assert "broken cribbage bot failed" in caplog.text and "no idea" in caplog.text


def test_an_illegal_proposal_is_replaced() -> None:
    class Wrong:
        name = "wrong"

        def choose(self, view: object, rng: random.Random) -> PlayCard:
            return PlayCard(DECK[0])

    state = play_to(seed=1, phase=Phase.DISCARD)
    p = state.current_player
    assert p is not None
    move, failure = cribbage_bots.choose_reporting(Wrong(), state.view(p), random.Random(0))
    assert move == state.legal_actions()[0] and "illegal" in failure


def test_levels_table() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    manners = [cribbage_level(level).manners for level in LEVELS]
    assert manners[-1] == EXACT == CountingManners(0.0, 0.0)  # the top level never miscounts
    assert manners[0].miscount > manners[1].miscount > 0 and manners[0].oversight > manners[1].oversight > 0
    assert make_cribbage_bot("easy").manners == manners[0]  # type: ignore[attr-defined]
    assert set(DESCRIPTIONS) == set(LEVELS)
    assert make_cribbage_bot(" Hard ").name == "hard"
    assert cribbage_level("hard").manners == EXACT
    with pytest.raises(ValueError, match="the levels are easy, medium, hard, expert"):
        cribbage_level("master")


def test_the_cribbage_bots_import_neither_pygame_nor_the_table() -> None:
    code = (
        "import sys, cribtiles.bot.cribbage.levels, cribtiles.bot.cribbage.make_crib_table; "
        "print(sorted(m for m in sys.modules if m == 'pygame' or m.startswith(('cribtiles.table', 'cribtiles.ui'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
