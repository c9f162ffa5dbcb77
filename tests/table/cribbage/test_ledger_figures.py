"""Issue 32's statistics of classic cribbage: the counting and the muggins calls kept at a game's end (from
its record), and the figures players expect (pegged a deal, 24-and-over hands and 29s, the calls both ways,
counts corrected, skunks by the book) from a known set of games worked out by hand, old games without the
stored calls counted only where they can be."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cribtiles.cribbage import CribbageOptions, CribbageState, Muggins, new_game, parse_move
from cribtiles.table.cribbage.ledger import cribbage_statistics, summarize_cribbage
from cribtiles.table.game_summary import Counting, GameSummary
from tests.table.cribbage.test_ledger import BOT, YOU, game, show
from tests.table.cribbage.test_table import FIRST_DEAL


def finished(state: CribbageState, *moves: str) -> CribbageState:
    """`moves`, then the game to its end: the first legal move, every count exact, every score let stand."""
    for text in moves:
        state = state.apply(parse_move(text))
    while not state.is_over:
        state = state.apply(Muggins(False) if state.claim is not None else state.legal_actions()[0])
    return state


def test_a_game_under_muggins_keeps_the_calls_both_ways() -> None:
    # seed 1: your hand makes 2, you say 1 and the bot calls (1 to it); its hand makes 8, it says 6, you call (2)
    state = finished(new_game(1, ("You", "Hard bot"), CribbageOptions(muggins=True)), *FIRST_DEAL, "count 1",
                     "muggins", "count 6", "muggins")  # fmt: skip
    d = summarize_cribbage(state, YOU, "hard", "2026-12-03T10:00:00").cribbage
    assert d.counting is Counting.MUGGINS and d.muggins_won == (2, 1)
    assert (d.shows[0].points, d.shows[0].declared, d.missed(YOU), d.corrected(YOU)) == (2, 1, 1, 0)


def test_a_game_counted_by_hand_keeps_the_wrong_counts_as_corrected_not_missed() -> None:
    state = finished(new_game(1, ("You", "Bot"), CribbageOptions(manual_count=True)), *FIRST_DEAL, "count 5")
    assert state.log[len(FIRST_DEAL)] == "count 5"
    d = summarize_cribbage(state, YOU, "medium", "2026-12-03T10:00:00").cribbage
    assert d.counting is Counting.MANUAL and d.muggins_won == (0, 0)
    assert (d.shows[0].points, d.shows[0].declared) == (2, 5)
    assert (d.missed(YOU), d.corrected(YOU), d.corrected(BOT)) == (0, 1, 0)
    auto = summarize_cribbage(finished(new_game(1)), YOU, "medium", "2026-12-03T10:00:00").cribbage
    assert auto.counting is Counting.AUTO and auto.muggins_won == (0, 0)


def counted(
    g: GameSummary, counting: Counting | None, won: tuple[int, int] | None, muggins: bool = False
) -> GameSummary:
    return replace(g, details=replace(g.cribbage, counting=counting, muggins_won=won, muggins=muggins))


def test_the_figures_of_a_known_set_of_games() -> None:
    games = [
        # medium, won by a skunk under muggins: your hands 29 and 24, your crib 24, the bot's 28 not yours;
        # your calls took 5, the bot's 2
        counted(
            game((121, 80), shows=(show(29), show(24), show(24, crib=True), show(28, owner=BOT)), pegged=(30, 20)),
            Counting.MUGGINS,
            (5, 2),
            muggins=True,
        ),
        # medium, doubly skunked, you at seat 1, counted by hand: 10 said 8, 6 said 6, your crib 4 said 5
        counted(
            game(
                (121, 55),
                person=1,
                pegged=(40, 12),
                shows=(
                    show(10, owner=1, declared=8),
                    show(6, owner=1),
                    show(4, owner=1, crib=True, declared=5),
                ),
            ),
            Counting.MANUAL,
            (0, 0),
        ),
        # medium, won plainly, stored before schema 6 under muggins: no calls known; 8 said 6 (2 missed)
        counted(game((121, 95), shows=(show(8, declared=6),), pegged=(25, 30)), None, None, muggins=True),
        # hard, a double skunk given, counted by the table: a 24 hand
        counted(game((121, 60), level="hard", shows=(show(24),), pegged=(18, 9)), Counting.AUTO, (0, 0)),
        # a game against a person online: in the history, not in these figures
        counted(game((121, 70), level="medium", shows=(show(29),)), Counting.AUTO, (0, 0)),
    ]
    games[-1] = replace(games[-1], seats=(("You", None), ("Ann", None)))
    stats = cribbage_statistics(games)
    assert stats.games == 4
    medium, hard = stats.lines
    assert (medium.games, medium.wins, medium.losses) == (3, 2, 1)
    assert (medium.skunks_given, medium.double_skunks_given, medium.skunks_taken, medium.double_skunks_taken) == (
        1, 0, 1, 1,
    )  # fmt: skip
    # by the book: a win 1, a skunk 2, a double skunk 3
    assert (medium.games_won_by_the_book, medium.games_lost_by_the_book) == (1 + 2, 3)
    assert (hard.games_won_by_the_book, hard.games_lost_by_the_book) == (3, 0)
    assert medium.deals == 24 and medium.average_pegged == pytest.approx((30 + 12 + 25) / 3)
    assert medium.average_pegged_deal == pytest.approx((30 + 12 + 25) / 24)
    assert (medium.hands, medium.cribs, medium.best_hand, medium.best_crib) == (5, 2, 29, 24)
    assert medium.average_hand == pytest.approx((29 + 24 + 10 + 6 + 8) / 5)
    assert medium.average_crib == pytest.approx((24 + 4) / 2)
    assert (medium.big_hands, medium.twenty_nines) == (3, 1)  # 29, 24, the crib's 24; the bot's 28 is not yours
    assert (medium.muggins_games, medium.muggins_won, medium.muggins_lost) == (1, 5, 2)  # the old game left out
    assert (medium.manual_games, medium.corrected, medium.missed) == (1, 2, 2)  # corrected is no miss
    assert (hard.big_hands, hard.twenty_nines, hard.muggins_games, hard.manual_games) == (1, 0, 0, 0)
    assert hard.average_pegged_deal == pytest.approx(18 / 8)
    total = stats.total
    assert total is not None
    assert (total.games, total.deals, total.big_hands, total.twenty_nines) == (4, 32, 4, 1)
    assert (total.muggins_games, total.muggins_won, total.muggins_lost, total.corrected) == (1, 5, 2, 2)
    assert (total.games_won_by_the_book, total.games_lost_by_the_book) == (6, 3)
    assert total.average_pegged_deal == pytest.approx((30 + 12 + 25 + 18) / 32)


def test_no_deals_no_pegging_a_deal() -> None:
    g = game((121, 100))
    line = cribbage_statistics([replace(g, details=replace(g.cribbage, deals=0))]).lines[0]
    assert line.average_pegged_deal is None and line.muggins_games == 0
