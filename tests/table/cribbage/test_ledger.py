"""The cribbage ledger: a finished game summed up from its record (every count of the show, the points
pegged, the margin), and statistics by bot level from hand-made games whose figures are worked out by hand."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from cribtiles.cribbage import (
    Count,
    CribbageOptions,
    CribbageState,
    EventKind,
    MarginKind,
    Muggins,
    Phase,
    new_game,
    parse_cards,
    parse_move,
    score_show,
    show_total,
)
from cribtiles.cribbage.cards import parse_card
from cribtiles.cribbage.options import Variant
from cribtiles.cribbage.record import replay
from cribtiles.table.cribbage.ledger import ALL, cribbage_line, cribbage_statistics, game_key, summarize_cribbage
from cribtiles.table.game_summary import CribbageDetails, Game, GameSummary, Result, ShowCount
from cribtiles.table.ledger import statistics

YOU, BOT = 0, 1


def played(seed: int, muggins: bool = False, short: int = 0) -> CribbageState:
    """A whole game in which both players make the first legal move; with `short`, every count a
    player may make short (muggins) is made `short` below the cards' worth and the miss is let go."""
    state = new_game(seed, ("You", "Medium bot"), CribbageOptions(muggins=muggins))
    while not state.is_over:
        move = state.legal_actions()[0]
        if state.claim is not None:
            move = Muggins(False)  # let it stand
        elif short and state.phase is Phase.SHOW and state.starter is not None:
            cards, crib = state.show_cards(state.show_step)
            move = Count(max(0, show_total(cards, state.starter, crib) - short))
        state = state.apply(move)
    return state


def show(points: int, *, crib: bool = False, owner: int = YOU, declared: int | None = None, deal: int = 1) -> ShowCount:
    return ShowCount(
        deal, 2 if crib else 0, owner, crib, "5H 5D 5S JC", "5C", points, points if declared is None else declared
    )


def game(
    scores: tuple[int, int],
    *,
    level: str = "medium",
    person: int = YOU,
    shows: tuple[ShowCount, ...] = (),
    pegged: tuple[int, int] = (0, 0),
) -> GameSummary:
    """A hand-made game: the winner is the higher score, the margin from the loser's score (91, 61)."""
    winner = 0 if scores[0] > scores[1] else 1
    loser = scores[1 - winner]
    margin = MarginKind.DOUBLE_SKUNK if loser < 61 else MarginKind.SKUNK if loser < 91 else MarginKind.WIN
    you, bot = ("You", None), ("Bot", level)
    seats = (you, bot) if person == 0 else (bot, you)
    details = CribbageDetails(False, 121, margin, 8, pegged, shows)
    return GameSummary(0, "k", Game.CRIBBAGE, "2026-11-30T12:00:00", 1, seats, scores, (winner,), "{}", details)


# --- one game, summed up from its record ---


def test_a_game_is_summed_up_from_its_record() -> None:
    state = played(0)
    g = summarize_cribbage(state, YOU, "medium", "2026-11-30T14:05:09")
    d = g.cribbage
    assert (g.game, g.scores, g.winners, d.margin, d.deals, d.pegged) == (
        Game.CRIBBAGE,
        (121, 93),
        (0,),
        MarginKind.WIN,
        10,
        (31, 31),
    )
    assert len(d.shows) == 30 and g.result is Result.WIN and not d.skunk
    assert d.shows[0] == ShowCount(1, 0, 0, False, "8H TC QH KH", "3H", 0, 0)
    assert d.shows[2] == ShowCount(1, 2, 1, True, "AH 2C 4C 6C", "3H", 6, 6)
    assert (g.seed, g.opponent, d.muggins, d.target, g.person, g.seats) == (
        0,
        "medium",
        False,
        121,
        0,
        (("You", None), ("Medium bot", "medium")),
    )
    assert replay(json.loads(g.record)) == state
    assert g.finished_at == "2026-11-30T14:05:09" and g.id == 0


@pytest.mark.parametrize("seed", range(6))
def test_every_point_of_the_loser_is_a_count_a_peg_or_his_heels(seed: int) -> None:
    """Each count is what score_show makes of its cards, and the loser's score (never capped at the
    target) is exactly their counts, their points in the play and their heels."""
    state = played(seed)
    g = summarize_cribbage(state, BOT, "hard", "t")
    details = g.cribbage
    for s in details.shows:
        assert s.points == s.declared == score_show(parse_cards(s.cards), parse_card(s.starter), s.crib).total
    every = [(d, k) for d in range(1, details.deals + 1) for k in range(3)]  # in order, the last deal cut short
    assert [(s.deal, s.step) for s in details.shows] == every[: len(details.shows)]
    at = replay({**state.record(), "moves": []})
    heels = [0, 0]
    for text in state.log:
        at = at.apply(parse_move(text))
        heels[0] += sum(e.points for e in at.events if e.kind is EventKind.HEELS and e.player == 0)
        heels[1] += sum(e.points for e in at.events if e.kind is EventKind.HEELS and e.player == 1)
    (winner,) = g.winners
    loser = 1 - winner
    counted = sum(s.points for s in details.shows if s.owner == loser)
    assert g.scores[loser] == counted + details.pegged[loser] + heels[loser]
    assert g.scores[winner] == 121 and g.person == BOT and g.seats[BOT] == ("Medium bot", None)


def test_a_count_made_short_under_muggins_keeps_both_figures() -> None:
    state = played(3, muggins=True, short=1)  # every count 1 short of the cards, the miss let go
    g = summarize_cribbage(state, YOU, "easy", "t")
    counted = [s for s in g.cribbage.shows if s.points > 0]
    assert counted and all(s.declared == s.points - 1 for s in counted)
    missed = g.cribbage.missed(g.person)
    assert missed == sum(1 for s in counted if s.owner == YOU) and missed > 0
    assert g.cribbage.muggins


def first_moves(options: CribbageOptions, over: int = 0) -> CribbageState:
    """A game of seed 3 of first legal moves (a card said at what it scores), every score said aloud let
    stand, and under muggins every count said `over` above what the cards make."""
    state = new_game(3, ("You", "Medium bot"), options)
    while not state.is_over:
        move = state.legal_actions()[0]
        if state.claim is not None:
            move = Muggins(False)
        elif options.muggins and state.phase is Phase.SHOW and state.starter is not None:
            cards, crib = state.show_cards(state.show_step)
            move = Count(show_total(cards, state.starter, crib) + over)
        state = state.apply(move)
    return state


def test_an_over_count_is_no_miss() -> None:
    g = summarize_cribbage(first_moves(CribbageOptions(muggins=True), over=2), YOU, "easy", "t")
    d = g.cribbage
    assert d.shows and all(s.declared == s.points + 2 for s in d.shows) and d.missed(YOU) == 0


def test_cards_said_aloud_in_the_play_are_pegged_as_the_play_s_points() -> None:
    plain = summarize_cribbage(first_moves(CribbageOptions()), YOU, "easy", "t")
    aloud = summarize_cribbage(first_moves(CribbageOptions(play_muggins=True)), YOU, "easy", "t")
    assert aloud.cribbage.pegged == plain.cribbage.pegged and aloud.scores == plain.scores
    assert sum(plain.cribbage.pegged) > 20
    assert aloud.cribbage.muggins and not plain.cribbage.muggins  # the history marks muggins in the play too


def test_the_key_is_the_game_and_nothing_else() -> None:
    state = played(1)
    a = summarize_cribbage(state, YOU, "medium", "2026-01-01T00:00:00")
    b = summarize_cribbage(state, YOU, "medium", "2027-06-01T10:00:00")
    assert a.key == b.key == game_key(state.record(), YOU, "medium") and len(a.key) == 64
    assert summarize_cribbage(state, BOT, "medium", "t").key != a.key
    assert summarize_cribbage(state, YOU, "hard", "t").key != a.key
    assert summarize_cribbage(played(2), YOU, "medium", "t").key != a.key


def test_a_game_still_played_has_no_summary() -> None:
    with pytest.raises(ValueError, match="not over"):
        summarize_cribbage(new_game(4), YOU, "medium", "t")
    with pytest.raises(ValueError, match="seat 0 or 1"):
        summarize_cribbage(played(4), 2, "medium", "t")


def test_skunks_and_seats() -> None:
    assert game((121, 90)).cribbage.margin is MarginKind.SKUNK and game((121, 90)).cribbage.skunk
    assert game((121, 91)).cribbage.margin is MarginKind.WIN
    assert game((60, 121)).cribbage.double_skunk and game((60, 121)).result is Result.LOSS
    assert game((121, 100), person=1).bots == (0,) and game((121, 100), person=1).result is Result.LOSS
    with pytest.raises(ValueError, match="a person among them"):
        replace(game((121, 100)), seats=(("Bot", "easy"), ("Bot", "hard")))  # nobody's game
    with pytest.raises(ValueError, match="one side wins"):
        replace(
            game((121, 100)), winners=(0, 1), seats=(("You", None), ("Bot", "easy"), ("Bot", "hard")), scores=(1, 2, 3)
        )
    with pytest.raises(ValueError, match="as many points pegged"):
        replace(game((121, 100)), seats=(*game((121, 100)).seats, ("Hard bot", "hard")), scores=(121, 100, 90))
    with pytest.raises(ValueError, match="owned by no seat"):
        game((121, 100), shows=(show(4, owner=2),))
    with pytest.raises(ValueError, match="not the details"):
        replace(game((121, 100)), game=Game.TILES)


# --- statistics, worked out by hand ---


def test_statistics_by_level_from_hand_made_games() -> None:
    games = [
        # medium: won by a skunk (loser 80), your hands 12 and 4, your crib 7, the bot's hand 29 not yours
        game((121, 80), shows=(show(12), show(4), show(7, crib=True), show(29, owner=BOT)), pegged=(30, 20)),
        # medium: lost, doubly skunked (you 55): your hand 0, you at seat 1
        game((121, 55), person=1, shows=(show(0, owner=1), show(24, owner=0)), pegged=(10, 12)),
        # medium: won plainly: your hand 8 (counted as 6: 2 missed), your cribs 2 and 5
        game((121, 100), shows=(show(8, declared=6), show(2, crib=True), show(5, crib=True)), pegged=(40, 35)),
        # hard: lost by a skunk (you 88), no counts at all
        game((88, 121), level="hard", pegged=(20, 50)),
    ]
    stats = cribbage_statistics(games)
    assert stats.games == 4
    medium, hard = stats.lines
    assert (medium.level, medium.games, medium.wins, medium.losses) == ("medium", 3, 2, 1)
    assert (medium.skunks_given, medium.double_skunks_given) == (1, 0)
    assert (medium.skunks_taken, medium.double_skunks_taken) == (1, 1)
    assert medium.average_score == pytest.approx((121 + 55 + 121) / 3)
    assert (medium.hands, medium.average_hand, medium.best_hand) == (4, (12 + 4 + 0 + 8) / 4, 12)
    assert medium.best_hand_cards == "5H 5D 5S JC with 5C"
    assert (medium.cribs, medium.average_crib, medium.best_crib) == (3, (7 + 2 + 5) / 3, 7)
    assert medium.average_pegged == pytest.approx((30 + 12 + 40) / 3)
    assert (medium.missed, medium.longest_streak, medium.win_rate) == (2, 1, pytest.approx(2 / 3))
    assert (hard.level, hard.games, hard.wins, hard.skunks_taken, hard.double_skunks_taken) == ("hard", 1, 0, 1, 0)
    assert (hard.hands, hard.average_hand, hard.best_hand, hard.best_hand_cards) == (0, None, None, "")
    assert (hard.cribs, hard.average_crib, hard.best_crib, hard.average_pegged) == (0, None, None, 20.0)
    total = stats.total
    assert total is not None and total.level == ALL
    assert (total.games, total.wins, total.losses, total.skunks_given, total.skunks_taken) == (4, 2, 2, 1, 2)
    assert (total.hands, total.best_hand, total.cribs, total.missed) == (4, 12, 3, 2)
    assert total.average_pegged == pytest.approx((30 + 12 + 40 + 20) / 4)


def test_games_won_by_the_book_count_a_skunk_as_two_and_a_double_skunk_as_three() -> None:
    games = [
        game((121, 100)),  # a win: 1
        game((121, 80)),  # a skunk: 2
        game((121, 50)),  # a double skunk: 3
        game((100, 121)),  # lost plainly: 1
        game((70, 121)),  # skunked: 2
        game((121, 60), person=1),  # you at seat 1, doubly skunked: 3
    ]
    line = cribbage_line("medium", games)
    assert (line.games, line.wins, line.losses) == (6, 3, 3)
    assert (line.games_won_by_the_book, line.games_lost_by_the_book) == (6, 6)
    assert cribbage_line("medium", games[:3]).games_won_by_the_book == 6
    assert cribbage_line("medium", games[3:]).games_lost_by_the_book == 6
    assert cribbage_line("medium", games[:1] + games[4:5]).games_won_by_the_book == 1


def test_levels_weakest_first_an_unknown_one_last_and_streaks_in_order() -> None:
    games = [game((121, 100), level=lv) for lv in ("hard", "grandmaster", "easy", "medium")]
    assert [line.level for line in cribbage_statistics(games).lines] == ["easy", "medium", "hard", "grandmaster"]
    results = [(121, 100), (121, 100), (100, 121), (121, 100), (121, 100), (121, 100), (90, 121)]
    assert cribbage_line("medium", [game(s) for s in results]).longest_streak == 3
    assert cribbage_statistics([]).total is None and cribbage_statistics([]).lines == ()


def test_the_best_hand_is_the_first_of_the_best_in_the_order_played() -> None:
    first = ShowCount(1, 0, YOU, False, "4H 5H 6H JD", "5D", 17, 17)
    later = ShowCount(2, 1, YOU, False, "7C 8C 8D 9S", "7D", 24, 24)
    again = ShowCount(3, 1, YOU, False, "7H 8H 8S 9D", "7S", 24, 24)
    line = cribbage_line("easy", [game((121, 100), shows=(first, later)), game((121, 100), shows=(again,))])
    assert (line.best_hand, line.best_hand_cards) == (24, "7C 8C 8D 9S with 7D")


def test_the_one_statistics_draws_both_games_each_from_its_own() -> None:
    """`ledger.statistics` of a history of both games: cribbage's figures are those of its games alone,
    and the tile game's do not count them."""
    from tests.table.test_ledger import G1, G3

    crib = [game((121, 80), shows=(show(12),)), game((100, 121), level="hard")]
    both = statistics([G1, crib[0], G3, crib[1]])
    assert both.cribbage == cribbage_statistics(crib) and both.cribbage.games == 2
    tiles = statistics([G1, G3])
    assert (both.lines, both.total, both.games, both.watched) == (tiles.lines, tiles.total, 2, 0)
    assert statistics(crib).lines == () and statistics(crib).games == 0


# --- the variants ---


def played_variant(seed: int, variant: Variant, target: int = 121) -> CribbageState:
    """A whole game of `variant` in which every player makes the first legal move."""
    names = ("You", "West", "North", "East")[: variant.players]
    state = new_game(seed, names, CribbageOptions(variant=variant, target=target))
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("variant", list(Variant))
def test_a_game_of_every_variant_is_summed_up_a_seat_each(variant: Variant) -> None:
    state = played_variant(5, variant, 61 if variant is Variant.FIVE_CARD else 121)
    g = summarize_cribbage(state, 0, "easy", "t")
    assert state.outcome is not None
    assert len(g.seats) == len(g.scores) == len(g.cribbage.pegged) == variant.players
    assert g.scores == tuple(state.scores[state.side_of(p)] for p in range(variant.players))
    assert g.winners == state.outcome.winners and (len(g.winners) == 2) == (variant is Variant.PARTNERSHIP)
    assert g.cribbage.variant == variant.value and (g.cribbage.variant_words == "") == (variant is Variant.SIX_CARD)
    assert g.result is (Result.WIN if 0 in g.winners else Result.LOSS)
    kept = variant.kept
    assert {len(s.cards.split()) for s in g.cribbage.shows if not s.crib} == {kept}
    assert {len(s.cards.split()) for s in g.cribbage.shows if s.crib} <= {4}
    # a losing side's points are its counts, its pegging, his heels and three for last (no muggins here)
    heels = {side: 0 for side in range(variant.sides)}
    for ply in range(len(state.log) + 1):
        at = replay({**state.record(), "moves": state.record()["moves"][:ply]})
        for e in at.events if ply else ():
            if e.kind in (EventKind.HEELS, EventKind.THREE_FOR_LAST):
                heels[at.side_of(e.player)] += e.points
    first = replay({**state.record(), "moves": []})
    for e in first.events:
        heels[first.side_of(e.player)] += e.points
    for side, score in enumerate(state.scores):
        seats = [p for p in range(variant.players) if state.side_of(p) == side]
        shown = sum(s.points for s in g.cribbage.shows if s.owner in seats)
        pegged = sum(g.cribbage.pegged[p] for p in seats)
        if side != state.outcome.winner:
            assert shown + pegged + heels[side] == score
        else:  # the peg stops at the target
            assert shown + pegged + heels[side] >= score == state.options.target
