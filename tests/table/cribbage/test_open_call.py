"""A score said aloud under muggins tells nothing of what it makes while it may still be called: the public
value, each seat's view, the moves a session tells and their JSON hold the number said and its words, the
scores and back pegs as before it; what it pegged comes with the answer (issue 43)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from cribtiles.cribbage import CribbageOptions, EventKind, Phase, parse_card, parse_cards
from cribtiles.cribbage.moves import Count, Muggins, PlayCard
from cribtiles.table.cribbage.public import (
    Act,
    CribbagePublic,
    PublicEvent,
    public_for,
    public_from_json,
    public_json,
    public_of,
    seat_view,
    view_from_json,
    view_json,
)
from cribtiles.table.cribbage.session import CribbageSession
from cribtiles.table.cribbage.table import CribbageTable, choose

from .test_table import FIRST_DEAL, drive

MUGGINS = CribbageOptions(muggins=True)
#: Seed 1: the Medium bot keeps 6C 7D 8H 9D; with the starter QC it makes 8. Before the show: You 2, bot 3.
BOTS_HAND = parse_cards("6C 7D 8H 9D")


def at_the_bots_count(level: str = "medium") -> CribbageTable:
    """Seed 1 under muggins: your hand counted (2) and let stand; the bot's hand to count. You 4, bot 3."""
    table = CribbageTable.new(1, level, MUGGINS)
    drive(table, *FIRST_DEAL, "count 2", "no muggins")
    table.take_pending()
    assert table.state.scores == (4, 3) and table.previous == [2, 2]
    return table


def bots_winning_count() -> CribbageTable:
    """Seed 1 to 61 under muggins against the Hard bot (which counts exactly), your first legal moves: at
    59 moves, the show of the last deal, the bot at 56 to count its hand first (it makes 6: enough)."""
    table = CribbageTable.new(1, "hard", CribbageOptions(muggins=True, target=61))
    while table.ply < 59:
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    assert table.state.scores == (29, 56) and table.to_move == 1 and table.state.phase is Phase.SHOW
    return table


def publics(table: CribbageTable) -> list[CribbagePublic]:
    """Every public value of `table`: the window's, each seat's and a spectator's as sent, and each read
    back from its JSON."""
    made = [public_of(table), public_for(table, 0), public_for(table, 1), public_for(table, None)]
    return made + [public_from_json(public_json(p)) for p in made]


def test_an_over_count_is_told_as_said_until_it_is_called_then_with_its_points() -> None:
    table = at_the_bots_count()
    drive(table, "count 11")  # it makes 8: the engine pegged 8 at once
    assert table.state.scores == (4, 11) and table.state.claim is not None
    said = PublicEvent(1, None, EventKind.COUNT, BOTS_HAND, "counts 11")
    for public in publics(table):
        assert public.scores == (4, 3) and public.previous == (2, 2)  # as before the count
        assert public.story[-1].events == (said,) and public.story[-1].words == "Medium bot counted the hand: 11."
        assert public.claim is not None and public.claim.declared == 11
    data = json.loads(public_json(public_of(table)))
    assert data["scores"] == [4, 3] and data["story"][-1]["events"][0]["points"] is None
    for seat in (0, 1):
        view = seat_view(table, seat)
        assert view.scores == (4, 3) and view.events == () and view.claim == table.state.claim
        assert view_from_json(view_json(view)) == view
    told = CribbageSession(table).take_pending()
    assert [m.events for m in told] == [(said,)]  # the move as a session tells it
    table.play(Muggins(True))
    assert table.state.scores == (7, 11)  # 3 said over, to you
    for public in publics(table):
        assert public.scores == (7, 11) and public.previous == (4, 3)
        count, call = public.story[-2:]
        assert count.events == (said._replace(points=8),) and call.act is Act.CALL
        assert [(e.player, e.points, e.kind) for e in call.events] == [(0, 3, EventKind.MUGGINS)]
        assert public.answered(call) == count.events
    assert seat_view(table, 0).scores == (7, 11)


def test_a_short_count_let_stand_is_pegged_at_the_answer() -> None:
    table = at_the_bots_count()
    drive(table, "count 6")
    public = public_of(table)
    assert public.scores == (4, 3) and public.story[-1].events[0].points is None
    table.play(Muggins(False))
    public = public_of(table)
    assert public.scores == (4, 9) and public.previous == (2, 3)  # the back peg: the score before the count
    assert public.story[-2].events == (PublicEvent(1, 6, EventKind.COUNT, BOTS_HAND, "counts 6"),)
    assert public.story[-1].act is Act.LET_STAND and public.story[-1].events == ()
    assert public.answered(public.story[-1]) == public.story[-2].events
    assert public.answered(public.story[-2]) == ()  # a count answers nothing


def test_a_count_that_pegs_nothing_is_told_alike_and_then_as_nothing() -> None:
    table = at_the_bots_count()
    drive(table, "count 0")
    assert table.state.events == ()  # the engine pegs nothing: its absence would tell a call pays
    assert public_of(table).story[-1].events == (PublicEvent(1, None, EventKind.COUNT, BOTS_HAND, "counts 0"),)
    table.play(Muggins(False))
    assert public_of(table).story[-2].events == (PublicEvent(1, 0, EventKind.COUNT, BOTS_HAND, "counts 0"),)


def test_the_crib_answered_at_the_end_of_the_deal_is_told_with_its_points() -> None:
    table = at_the_bots_count()
    drive(table, "count 8", "no muggins", "count 9")  # the crib 8D 9H AD AH with QC makes 2
    assert table.state.claim is not None and table.state.claim.crib and table.state.claim.worth == 2
    assert public_of(table).scores == (4, 11) and table.state.scores == (4, 13)
    table.play(Muggins(True))
    public = public_of(table)
    assert public.deal_number == 2 and public.scores == (11, 13) == table.state.scores
    count, call = public.story  # the new deal has no move yet: the last one and the count it answered
    assert count.events == (PublicEvent(1, 2, EventKind.COUNT, parse_cards("8D 9H AD AH"), "counts 9"),)
    assert call.act is Act.CALL and public.answered(call) == count.events


def test_under_muggins_in_the_play_a_card_laid_on_lets_the_claim_stand_and_tells_its_points() -> None:
    table = CribbageTable.new(1, "medium", CribbageOptions(play_muggins=True))
    drive(table, "discard 8D 9H", "discard AD AH", "play 7S 0", "no muggins", "play 8H 1")  # fifteen 2, said 1
    assert table.state.scores == (0, 1)
    public = public_of(table)
    assert public.scores == (0, 0) and public.story[-1].events == (
        PublicEvent(1, None, EventKind.CLAIM, (parse_card("8H"),), "says 1"),
    )
    assert seat_view(table, 0).scores == (0, 0) and seat_view(table, 0).events == ()
    table.play(PlayCard(parse_card("4C")))  # 19: you lay on, which lets the 8H stand; your 4C says 0
    public = public_of(table)
    claim, stand, laid = public.story[-3:]
    assert claim.events == (PublicEvent(1, 1, EventKind.CLAIM, (parse_card("8H"),), "says 1"),)
    assert stand.act is Act.LET_STAND and public.answered(stand) == claim.events
    assert laid.events == (PublicEvent(0, None, EventKind.CLAIM, (parse_card("4C"),), "says 0"),)
    assert public.scores == (0, 1) and table.state.claim is not None and table.state.claim.counter == 0


def test_the_bot_decides_its_call_from_the_told_view_by_counting_the_cards() -> None:
    table = CribbageTable.new(1, "hard", MUGGINS)  # Hard calls every wrong count it sees
    drive(table, *FIRST_DEAL)
    table.play(Count(5))  # your hand makes 2: said 5
    assert table.state.scores == (4, 3)
    request = table.bot_request()
    assert request.view.scores == (2, 3) and request.view.events == () and request.view.claim is not None
    assert choose(request) == Muggins(True)  # counted from the face-up cards, not read from the scores


def test_a_view_with_an_event_of_unknown_points_is_refused() -> None:
    table = at_the_bots_count()
    data = json.loads(view_json(seat_view(table, 0)))
    data["events"] = [{"player": 1, "points": None, "family": "event", "kind": "count", "cards": [], "words": "x"}]
    with pytest.raises(ValueError, match="without its points"):
        view_from_json(json.dumps(data))


def near_the_end(table: CribbageTable, scores: tuple[int, int]) -> CribbageTable:
    """A table of `table`'s game as it stands, the scores set to `scores` (you first), nothing told yet."""
    return CribbageTable(replace(table.state, scores=scores), 0, table.level)


def test_a_count_that_reaches_the_target_is_told_as_any_other_until_its_answer_ends_the_game() -> None:
    table = near_the_end(at_the_bots_count(), (4, 113))
    drive(table, "count 11")  # it makes 8: 121, said 3 over
    assert table.state.scores == (4, 121) and table.state.claim is not None and not table.is_over
    said = PublicEvent(1, None, EventKind.COUNT, BOTS_HAND, "counts 11")
    for public in publics(table):
        assert public.scores == (4, 113) and public.summary is None and not public.is_over
        assert public.story[-1].events == (said,) and public.to_move == 0
    assert [seat_view(table, seat).scores for seat in (0, 1)] == [(4, 113)] * 2
    assert table.call_open_to_person == table.state.claim
    table.play(Muggins(True))  # the 3 said over are yours; the 8 the cards make win it
    public = public_of(table)
    assert public.is_over and public.scores == (7, 121) and public.previous == (4, 113)
    assert (
        public.summary is not None
        and public.summary.words == "Medium bot wins by a double lurch (double skunk), 121 to 7."
    )
    assert public.story[-2].events == (said._replace(points=8),)


def test_a_card_laid_on_a_claim_is_offered_alike_whether_letting_it_stand_ends_the_game() -> None:
    """Under muggins in the play, the moves you may lay on the bot's card while you may call are the same
    whether its points reach the target or not (that would say what it scores); laid on one that does, the
    card lets it stand and the game ends there, your card not laid."""
    table = CribbageTable.new(1, "medium", CribbageOptions(play_muggins=True))
    drive(table, "discard 8D 9H", "discard AD AH", "play 7S 0", "no muggins")
    four = PlayCard(parse_card("4C"))
    short, enough = near_the_end(table, (0, 119)), near_the_end(table, (0, 119))
    drive(short, "play 8H 1")  # fifteen makes 2: 120 pegged, said 1
    drive(enough, "play 8H 2")  # 121 pegged, said right
    assert (short.state.scores, enough.state.scores) == ((0, 120), (0, 121)) and not enough.is_over
    assert short.legal_after_answer(0) == enough.legal_after_answer(0) and four in enough.legal_after_answer(0)
    assert short.why_not(four) == enough.why_not(four) == ""
    assert public_of(short).scores == (0, 119) == public_of(enough).scores
    short.play(four)
    assert short.state.log[-2:] == ("no muggins", "play 4C") and not short.is_over
    stood = enough.play(four)
    assert stood.move == Muggins(False) and enough.state.log[-2:] == ("play 8H 2", "no muggins")
    assert enough.is_over and enough.state.scores == (0, 121) and enough.state.hands[0] == parse_cards("AC 2S 4C")


@pytest.mark.parametrize(("said", "answer", "scores"), [(2, "no muggins", (121, 3)), (5, "muggins", (121, 6))])
def test_the_bot_answers_your_count_that_wins_and_the_game_ends_at_its_answer(
    said: int, answer: str, scores: tuple[int, int]
) -> None:
    """Your hand makes 2 and takes you from 119 to the target: the Hard bot lets the right count stand and
    calls the one said over (taking the 3), from the told view; either way you win at its answer."""
    hard = CribbageTable.new(1, "hard", MUGGINS)
    drive(hard, *FIRST_DEAL)
    table = near_the_end(hard, (119, 3))
    table.play(Count(said))
    assert not table.is_over and table.bot_to_move and table.bot_request().view.scores == (119, 3)
    table.bot_move()
    assert table.state.log[-1] == answer and table.is_over and table.state.scores == scores
    summary = table.summary()
    assert summary is not None and summary.person_won
