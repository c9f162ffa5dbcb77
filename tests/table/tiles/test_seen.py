"""What the people at a table may see of a play's score under the Joker rule: the declaration only
while "Joker" may be called on it, the true breakdown once its call window closes."""

from __future__ import annotations

import random

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.game import JokerCall
from cribtiles.rules.moves import Play, parse_move
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table import Seat
from cribtiles.table.tiles.joker import items_of
from cribtiles.table.tiles.seen import call_row, call_words, seen_in, window_open
from cribtiles.table.tiles.table import Table

JOKER = RuleOptions.parse("joker=on")
FIRST = parse_move("f7=5D g7=TL h7=5L")  # 5 10 5: fifteens 2 + 2, pair 2, first play 10 = 16


def people(seed: int = 0) -> Table:
    """Ann and Ben at a Joker table, Ann to move with 5D TL 5L on her rack (the deal made so)."""
    for s in range(seed, seed + 5000):
        table = Table.new((Seat.person("Ann"), Seat.person("Ben")), JOKER, seed=s)
        rack = table.state.racks[table.state.current]
        if all(t.rack_form in rack for t in FIRST.tiles):
            return table
    raise AssertionError("no deal gives 5D TL 5L")


def test_while_the_window_is_open_only_the_declaration_shows() -> None:
    table = people()
    p = table.state.current
    found = tuple(i for i in items_of(score_play(table.state.board, FIRST)) if i.what == "fifteen")
    record = table.play(FIRST, declared=4, claimed=found)
    seen = table.seen(record)
    assert seen is not None and seen.hidden and seen.score is None
    assert seen.declared == 4 and seen.standing == ""  # neither the 16 nor the 12 missed
    assert [(r.words, r.points) for r in seen.claimed] == [
        ("fifteen 5+10: f7 g7", 2),
        ("fifteen 10+5: g7 h7", 2),
    ]
    assert window_open(table.state, record)
    table.play(table.state.legal_actions()[0])  # the next player acts: the window closes
    after = table.seen(table.history[0])
    assert after is not None and not after.hidden and after.score is not None and after.score.total == 16
    assert after.standing == "declared 4, 12 unclaimed" and after.player == p


def test_a_call_closes_the_window_and_an_over_declaration_shows_as_such() -> None:
    table = people()
    p = table.state.current
    record = table.play(FIRST, declared=20)  # typed: nothing pointed at
    seen = table.seen(record)
    assert seen is not None and seen.hidden and seen.claimed == () and seen.declared == 20
    call = table.call_joker(1 - p)
    assert call == JokerCall(1 - p, 4, 4)
    seen = table.seen(table.history[-1])
    assert seen is not None and not seen.hidden and seen.standing == "declared 20, 4 more than it scores"
    assert seen.calls == (call,)
    assert table.state.scores[p] == 16 and table.state.scores[1 - p] == 4


def test_without_the_joker_rule_the_score_shows_at_once() -> None:
    table = Table.new((Seat.person("Ann"), Seat.person("Ben")), RuleOptions(), seed=1)
    play = table.state.legal_plays()[0]
    seen = seen_in(table.state, table.play(play))
    assert seen is not None and not seen.hidden and seen.standing == ""
    assert seen.score is not None and seen.score.total == score_play(table.history[0].board_before, play).total


def test_a_bots_call_is_recorded_and_told_who_called_on_whose_play_for_how_much() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("expert"), Seat.bot("medium")), JOKER, seed=4)
    while not table.person_to_move:
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
    play = next(p for p in table.state.legal_plays() if isinstance(p, Play))
    true = score_play(table.state.board, play).total
    record = table.play(play, declared=true - 2)
    assert record.calls == (JokerCall(1, 2),)  # the Expert, first from Ann's left, never misses
    names = ("You", "Expert", "Medium")
    assert call_words(record.calls[0], 0, names) == "Expert called Joker on your play and took 2 unclaimed points."
    assert call_row(record.calls[0], 0, names) == ("Expert called Joker on your play", "+2")
    seen = table.seen(record)
    assert seen is not None and not seen.hidden and seen.standing == f"declared {true - 2}, 2 unclaimed"
    over = JokerCall(2, 3, 3)
    assert call_words(over, 1, names) == (
        "Medium called Joker on Expert's play, declared 3 points over its score, and took them from Expert."
    )
    assert call_words(JokerCall(0, -5), 2, names) == (
        "You called Joker on Medium's play, but nothing was missed: you lose 5 points."
    )


def test_nobody_calls_once_the_round_is_over_and_the_last_play_shows() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("beginner")), JOKER, seed=3)
    while not table.round_over:
        if table.bot_to_move:
            request = table.bot_request()
            table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
        else:
            table.play(greedy_move(table.view(0), random.Random(0)))
    last = table.history[-1]
    assert not table.may_call(0)
    assert not window_open(table.state, last)
    assert last.is_play and table.state.outcome is not None and table.state.outcome.reason == "out"
    seen = table.seen(last)
    assert seen is not None and not seen.hidden
