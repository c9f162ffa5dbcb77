"""The first-game tutorial's fixed game: every step possible and as its words say (the engine scores
and refuses), Medium's replies the same every time, and the script played to its end."""

from __future__ import annotations

import pytest

from cribtiles.rules import IllegalMove, score_play
from cribtiles.rules.moves import Play
from cribtiles.rules.tiles import full_set, rack_counter
from cribtiles.table.tiles.table import Table
from cribtiles.table.tiles.tutorial import (
    BOT,
    REPLIES,
    STEPS,
    YOU,
    Kind,
    Progress,
    advance,
    bot_move,
    may_play,
    ready,
    start_state,
    tutorial_table,
)


def reply(table: Table) -> None:
    """Medium's turn, as the window plays it: its scripted move through `play_bot`."""
    request = table.bot_request()
    table.play_bot(bot_move(request.view), request)


def step_tables() -> list[tuple[int, Table]]:
    """The table as each step finds it (each PLAY step's play made, and Medium's reply, in between)."""
    table = tutorial_table()
    out = []
    for i, step in enumerate(STEPS):
        out.append((i, _copy(table)))
        if step.kind is Kind.PLAY and step.play is not None:
            table.play(step.play)
            reply(table)
    return out


def _copy(table: Table) -> Table:
    return Table(table.seats, table.match, table.history)


def test_the_deal_holds_every_tile_of_the_set_once_and_it_is_your_turn() -> None:
    for state in (start_state(), tutorial_table().state):
        assert state.tile_count() == rack_counter(full_set())
    table = tutorial_table()
    assert table.person_to_move and table.to_move == YOU
    assert [r.player for r in table.history] == [BOT]  # Medium's opening, already played
    assert not table.state.board.is_empty()


@pytest.mark.parametrize(("i", "table"), step_tables())
def test_each_step_is_possible_and_scores_or_is_refused_as_its_words_say(i: int, table: Table) -> None:
    step = STEPS[i]
    assert step.play is not None
    board = table.state.board
    words = f"{step.text} {step.done}"
    if step.kind is Kind.READ:
        assert table.last is not None and table.last.player == BOT and table.last.turn.move == step.play
        assert table.last.score is not None and table.last.score.total == step.points
        assert f"{step.points} points" in words
        return
    rack = table.state.racks[YOU]
    assert not rack_counter(step.play.tiles) - rack_counter(rack)  # your tiles for it are on your rack
    assert set(step.hint.squares) == set(step.play.squares)
    assert all(t in [r.rack_form for r in rack] for t in step.hint.tiles)
    if step.kind is Kind.PLAY:
        assert score_play(board, step.play).total == step.points
        assert f"{step.points} points" in words
        assert step.play in table.state.legal_plays()
    else:
        with pytest.raises(IllegalMove) as refused:
            score_play(board, step.play)
        assert str(refused.value) == step.reason
        assert step.reason and "adds nothing" in step.reason


def test_the_six_to_nine_step_needs_the_flip() -> None:
    nines = [i for i, s in enumerate(STEPS) if s.kind is Kind.PLAY and s.play and 9 in (t.rank for t in s.play.tiles)]
    assert len(nines) == 1
    i = nines[0]
    step = STEPS[i]
    assert step.play is not None
    table = dict(step_tables())[i]
    as_six = Play.of((p.square, p.tile.flipped) for p in step.play.placements)
    assert as_six != step.play
    with pytest.raises(IllegalMove):
        score_play(table.state.board, as_six)
    assert score_play(table.state.board, step.play).total == step.points
    # the step before it is that very refusal, so the player flips the tile lying there
    assert STEPS[i - 1].kind is Kind.REFUSAL and STEPS[i - 1].play == as_six


def test_medium_replies_the_same_every_time() -> None:
    runs = []
    for _ in range(2):
        table = tutorial_table()
        for step in STEPS:
            if step.kind is Kind.PLAY and step.play is not None:
                table.play(step.play)
                reply(table)
        runs.append([str(r.turn.move) for r in table.history if r.player == BOT])
    assert runs[0] == runs[1]
    assert runs[0][1:] == list(REPLIES)  # the script, not the fallback


def test_off_the_script_medium_still_plays_a_legal_move() -> None:
    table = tutorial_table()
    other = next(p for p in table.state.legal_plays() if p != STEPS[0].play)
    table.play(other)
    view = table.view(BOT)
    move = bot_move(view)
    assert move in table.state.legal_actions()


def test_the_whole_script_plays_to_its_end() -> None:
    table = tutorial_table()
    progress = Progress()
    proposal: Play | None = None
    seen_steps = []
    while not progress.finished:
        step = progress.step
        assert step is not None and step.play is not None
        seen_steps.append(step.kind)
        index = progress.index
        if step.kind is Kind.PLAY:
            assert not ready(progress, table, None)
            proposal = step.play
            assert ready(progress, table, proposal) and may_play(progress, proposal)
            assert advance(progress, table, proposal, acknowledged=True) == progress  # not played yet
            table.play(proposal)
            proposal = None
            progress = advance(progress, table, proposal)
            assert progress.index == index + 1
            reply(table)
        elif step.kind is Kind.REFUSAL:
            assert not may_play(progress, step.play)
            assert advance(progress, table, None, acknowledged=True) == progress  # nothing seen yet
            progress = advance(progress, table, step.play)
            assert progress.seen and progress.index == index and ready(progress, table, step.play)
            assert advance(progress, table, step.play) == progress  # waits for the player's word
            progress = advance(progress, table, step.play, acknowledged=True)
            proposal = step.play  # the refused tile stays on the board for the next step
        else:
            assert ready(progress, table, None)
            assert advance(progress, table, None) == progress
            progress = advance(progress, table, None, acknowledged=True)
        assert progress.index == index + 1
    assert seen_steps == [s.kind for s in STEPS]
    assert progress.label() == "You're ready" and progress.previous is STEPS[-1]
    assert table.state.scores[YOU] == sum(s.points for s in STEPS if s.kind is Kind.PLAY)


def test_only_the_steps_play_may_be_played() -> None:
    table = tutorial_table()
    progress = Progress()
    others = [p for p in table.state.legal_plays() if p != STEPS[0].play]
    assert others and not any(may_play(progress, p) for p in others)
    assert may_play(progress, STEPS[0].play) and not may_play(progress, None)
