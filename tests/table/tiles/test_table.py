"""The model of the game at the table: seats, the turn loop for bots and people, Joker calls by the
bots' manners, the history of turns with their breakdowns, matches."""

from __future__ import annotations

import random

import pytest

from cribtiles.bot import choose_safely, make_bot
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules import IllegalMove, new_game
from cribtiles.rules.game import JOKER_PENALTY, JokerCall
from cribtiles.rules.moves import Pass, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table import Seat, parse_players
from cribtiles.table.tiles.history import history_of
from cribtiles.table.tiles.table import Table

JOKER = RuleOptions.parse("joker=on")


def greedy_to_end(table: Table) -> None:
    """Every bot plays the greedy move (quick); the seats' levels still decide their Joker manners."""
    while not table.round_over:
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)


def test_players_are_people_by_name_and_bots_by_level() -> None:
    seats = parse_players("Ann,Ben,hard")
    assert seats == (Seat("Ann"), Seat("Ben"), Seat("Hard", "hard"))
    assert [s.is_bot for s in seats] == [False, False, True]
    with pytest.raises(ValueError, match="2 to 4 players, not 1"):
        parse_players("Ann")
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        parse_players("a,b,c,d,e")
    with pytest.raises(ValueError, match="separate the players with commas"):
        parse_players("Ann,,hard")
    with pytest.raises(ValueError, match="no bot level 'wizard'"):
        Seat("Merlin", "wizard")


def test_a_single_game_takes_its_bag_from_the_seed_itself() -> None:
    table = Table.new((Seat.person(), Seat.bot("medium")), seed=42)
    assert table.state == new_game(2, seed=42, names=("You", "Medium"))
    assert table.match.seed == 42 and table.history == []


def test_bots_play_a_whole_game_and_every_turn_is_recorded_once_with_its_breakdown() -> None:
    table = Table.new(parse_players("easy,medium,hard"), seed=7)
    greedy_to_end(table)
    state = table.state
    assert state.is_over and len(table.history) == len(state.turns)
    for record, turn in zip(table.history, state.turns, strict=True):
        assert record.turn == turn
        if isinstance(turn.move, Play):
            assert record.score is not None and record.score.total == turn.true_points == turn.points
            assert record.score == score_play(record.board_before, turn.move)
    for a, b in zip(table.history, table.history[1:], strict=False):
        assert b.board_before == a.board_after  # the board before any turn can be shown
    assert table.history[-1].board_after == state.board
    assert tuple(table.history) == history_of(state)  # a resumed game rebuilds the same history


def test_a_person_cannot_play_for_a_bot_nor_a_bot_for_a_person() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("medium")), seed=3)
    if table.bot_to_move:
        request = table.bot_request()
        with pytest.raises(IllegalMove, match="it is Medium's turn"):
            table.play(greedy_move(request.view, random.Random(1)))
        table.play_bot(greedy_move(request.view, random.Random(1)), request)
    assert table.person_to_move
    with pytest.raises(IllegalMove, match="not a bot's turn"):
        table.bot_request()
    with pytest.raises(IllegalMove, match="Joker rule is not in play"):
        table.play(table.state.legal_plays()[0], declared=0)


def test_a_move_chosen_for_an_earlier_turn_is_refused() -> None:
    table = Table.new((Seat.bot("medium"), Seat.bot("easy")), seed=5)
    request = table.bot_request()
    table.play_bot(greedy_move(request.view, random.Random(0)), request)
    with pytest.raises(IllegalMove, match="another turn"):
        table.play_bot(greedy_move(request.view, random.Random(0)), request)


def test_an_illegal_bot_move_is_replaced_by_the_best_scoring_one() -> None:
    table = Table.new((Seat.bot("medium"), Seat.bot("easy")), seed=5)
    board, rack = table.state.board, table.state.racks[table.state.current]
    best = max(score_play(board, p).total for p in table.state.legal_plays())
    record = table.play_bot(Pass())  # passing with plays in hand: refused by the rules
    assert record.is_play and record.declared == best
    assert rack != table.state.racks[record.player]


def test_an_expert_calls_every_point_a_beginner_forgets() -> None:
    calls = forgotten = 0
    for seed in range(12):
        table = Table.new((Seat.bot("beginner"), Seat.bot("expert")), JOKER, seed=seed)
        greedy_to_end(table)
        for record in table.history:
            missed = record.turn.true_points - record.turn.points
            if record.player == 0 and missed:
                forgotten += 1
                assert [(c.caller, c.points) for c in record.calls] == [(1, missed)]
                calls += 1
            if record.player == 1:
                assert record.turn.points == record.turn.true_points  # an Expert never under-counts
        final = table.state.scores
        taken = sum(c.points for r in table.history for c in r.calls)
        assert final[1] == sum(r.declared for r in table.history if r.player == 1) + taken
    assert forgotten >= 5 and calls == forgotten  # a beginner forgets about 3 plays in 10


def test_a_person_under_counts_a_bot_calls_and_a_wrong_call_costs_five() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("expert")), JOKER, seed=2)
    while not table.person_to_move:
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
    best = max(table.state.legal_plays(), key=lambda p: score_play(table.state.board, p).total)
    true = score_play(table.state.board, best).total
    before = table.state.scores
    table.play(best, declared=true - 2)
    record = table.history[-1]
    assert record.declared == true - 2 and [(c.caller, c.points) for c in record.calls] == [(1, 2)]
    assert table.state.scores == (before[0] + true - 2, before[1] + 2)
    assert record.unclaimed == 0
    # the bot plays, honestly; Ann calls anyway and loses 5
    request = table.bot_request()
    table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
    assert table.may_call(0) and not table.may_call(1)
    scores = table.state.scores
    call = table.call_joker(0)
    assert call.points == -JOKER_PENALTY and table.state.scores[0] == scores[0] - JOKER_PENALTY
    assert not table.may_call(0)  # once per play


def test_a_person_over_declares_and_the_expert_takes_the_excess() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("expert")), JOKER, seed=4)
    if table.bot_to_move:
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
    play = table.state.legal_plays()[0]
    true = score_play(table.state.board, play).total
    before = table.state.scores
    record = table.play(play, declared=true + 6)
    assert record.declared == true + 6 and record.calls == (JokerCall(1, 6, 6),)  # an Expert never misses
    assert table.state.scores == (before[0] + true, before[1] + 6)
    assert (record.taken, record.kept, record.overclaimed, record.unclaimed) == (6, true, 0, 0)


@pytest.mark.parametrize(("level", "caught"), [("expert", "all"), ("beginner", "some")])
def test_the_bots_call_over_declarations_by_their_level(level: str, caught: str) -> None:
    over = calls = 0
    for seed in range(20):
        table = Table.new((Seat.person("Ann"), Seat.bot(level)), JOKER, seed=seed)
        if table.bot_to_move:
            request = table.bot_request()
            table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
        play = table.state.legal_plays()[0]
        record = table.play(play, declared=score_play(table.state.board, play).total + 2)
        over += 1
        calls += record.calls == (JokerCall(1, 2, 2),)
    assert over == 20
    if caught == "all":
        assert calls == over  # an Expert never misses
    else:
        assert 0 < calls < over  # a Beginner misses about half (oversight 0.5), by the table's seed


def test_a_match_of_three_rounds_keeps_totals_and_names_the_servant() -> None:
    table = Table.new(parse_players("medium,easy,beginner"), RuleOptions.parse("rounds=3"), seed=9)
    finals = []
    for _ in range(3):
        greedy_to_end(table)
        finals.append(table.state.outcome.final_scores if table.state.outcome else ())
        if table.next_is_round:
            assert table.match.servant  # lowest running total after the round
            table.next_round()
            assert table.history == [] and not table.round_over
    assert table.match_over and table.match.round == 3
    totals = tuple(sum(f[p] for f in finals) for p in range(3))
    assert table.match.totals == totals
    assert table.match.winners == tuple(p for p in range(3) if totals[p] == max(totals))


def test_solitaire_sides_are_dark_and_light_whoever_sits_there() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("hard")), RuleOptions.parse("mode=solitaire"), seed=1)
    assert [s.name for s in table.seats] == ["Dark", "Light"] and table.seats[1].level == "hard"


def test_the_real_bots_choose_through_the_request() -> None:
    table = Table.new((Seat.bot("hard"), Seat.bot("medium")), seed=11)
    for _ in range(4):
        request = table.bot_request()
        move = choose_safely(make_bot(request.level), request.view, random.Random(request.seed))
        table.play_bot(move, request)
    assert len(table.history) == 4


def test_the_table_imports_no_pygame_and_nothing_above_it() -> None:
    import subprocess
    import sys

    code = (
        "import sys, cribtiles.table, cribtiles.table.tiles.table, cribtiles.table.tiles.history\n"
        "print(sorted(m for m in sys.modules if m == 'pygame' or m.startswith(('cribtiles.ui', 'cribtiles.app'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]"


def test_a_table_saves_and_resumes_with_its_seats_and_its_history() -> None:
    from cribtiles.rules.record import save, save_match
    from cribtiles.table.saves import save_table
    from cribtiles.table.tiles.saved import load_table

    for options in (JOKER, RuleOptions.parse("rounds=2")):
        table = Table.new((Seat.person("Ann"), Seat.bot("easy"), Seat.bot("hard")), options, seed=6)
        while table.bot_to_move:
            request = table.bot_request()
            table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
        table.play(table.state.legal_plays()[0])
        again = load_table(save_table(table))
        assert again.seats == table.seats and again.match == table.match and again.history == table.history
    # saves from before seats were saved: a level's name is that bot, anything else a person
    old = load_table(save(new_game(2, seed=1, names=("You", "Expert"))))
    assert old.seats == (Seat("You"), Seat("Expert", "expert"))
    from cribtiles.rules.match import Match

    old_match = load_table(save_match(Match.start(2, RuleOptions.parse("rounds=3"), 5, ("You", "Medium"))))
    assert old_match.seats[1].level == "medium" and old_match.options.rounds == 3


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[", "not valid JSON"),
        ("[1]", "not a Crib Tiles game"),
        ('{"format": "cribtiles-table", "version": 9}', "another version of Crib Tiles"),
        ('{"format": "cribtiles-table", "version": 1, "seats": 3}', "its seats are missing"),
        ('{"format": "cribtiles-table", "version": 1, "seats": [{"name": "A", "level": "god"}]}', "no bot level"),
        ('{"format": "cribtiles-table", "version": 1, "seats": []}', "it holds no game"),
    ],
)
def test_a_damaged_table_save_says_what_is_wrong(text: str, said: str) -> None:
    from cribtiles.rules.errors import RecordError
    from cribtiles.table.tiles.saved import load_table

    with pytest.raises(RecordError, match=said):
        load_table(text)


def test_a_hint_counted_is_kept_in_the_save_and_marks_the_game_in_the_history() -> None:
    from cribtiles.table.ledger import summarize
    from cribtiles.table.saves import save_table
    from cribtiles.table.tiles.saved import load_table

    table = Table.new(parse_players("You,medium"), seed=5)
    assert table.hints == 0
    assert table.count_hint() == 1 and table.count_hint() == 2
    again = load_table(save_table(table))
    assert again.hints == 2 and again.undos == 0
    while not table.round_over:
        move = greedy_move(table.view(table.state.current), random.Random(len(table.state.turns)))
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    summary = summarize(table, "2026-01-01T00:00:00")
    assert summary.tiles.hints == 2 and summary.tiles.marked


def test_a_seat_s_name_holds_only_printable_characters() -> None:
    with pytest.raises(ValueError, match="only printable characters"):
        Seat.person("Ann\x1b]0;PWNED\x07")
    with pytest.raises(ValueError, match="--players: a player's name may hold only printable characters"):
        parse_players("Ann\x1b[2J,hard")
    assert [s.name for s in parse_players("Zoë,hard")] == ["Zoë", "Hard"]  # letters of any alphabet stay
