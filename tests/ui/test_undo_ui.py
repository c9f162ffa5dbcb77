"""Undo and "confirm before play" in the window, through posted events: the Undo button, U and Ctrl+Z
take back the person's last turn and the bots' replies (a bot thinking is stopped), the game is saved
and a message says what went; with the setting off the key says so. Confirm asks "Play ... for N?"."""

from __future__ import annotations

import random

import pygame

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import score_play
from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table, state_before
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import post_click, post_drag, post_key
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.panel import info_rows, panel_buttons, peg_number, undo_button
from cribtiles.ui.window import App


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def table_after(players: str, seed: int, turns: int) -> Table:
    """A table after at least `turns` turns, at a person's turn (or at the end of the game)."""
    table = Table.new(parse_players(players), seed=seed)
    i = 0
    while not table.round_over and (i < turns or not table.person_to_move):
        i += 1
        move = greedy_move(table.view(table.state.current), random.Random(i))
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    return table


def post_ctrl_z() -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_LCTRL, unicode="", scancode=0))


def lay_down(app: App, play: Play) -> None:
    """Drag the play's tiles from the rack to their squares (turning a 6 into a 9 where needed)."""
    game = app.game
    for p in play.placements:
        draft = game.draft
        slot = next(i for i, tid in enumerate(draft.order) if draft.tiles[tid] == p.tile.rack_form)
        post_drag(centre(app.layout.slot_rect(slot)), centre(app.layout.square_rect(p.square)))
        frames(app, 30)  # the rack's tiles settle in their slots (they glide at normal speed)
        tid = game.draft.placed[p.square]
        if game.draft.face(tid) != p.tile:
            post_click(centre(app.layout.square_rect(p.square)), button=3)
            frames(app, 2)


def test_the_undo_button_takes_back_the_play_and_the_bots_reply_and_saves() -> None:
    table = table_after("You,medium", 4, 9)
    assert table.person_to_move and table.last is not None and table.last.player == 1
    mine = max(r.number for r in table.history if r.player == 0)
    my_record = table.history[mine]
    expected = state_before(table.state, mine)
    keeper = NoKeeper()
    app = App(table, Preferences(speed="instant"), keeper, size=(1280, 800))
    try:
        frames(app)
        game = app.game
        undo = undo_button(game.snapshot())
        assert undo is not None and undo[1:] == ("Undo", True)
        play_rect = panel_buttons(game.snapshot())[0][0]
        assert play_rect[0] + play_rect[2] < undo[0][0]  # beside Play, not over it
        saves = len(keeper.saved)
        post_click(centre(undo[0]))
        frames(app)
        assert table.state == expected and table.undos == 1 and table.to_move == 0
        assert len(keeper.saved) == saves + 1 and keeper.saved[-1] == expected
        what = f"your play {my_record.turn.move}" if my_record.is_play else "your "
        assert any(t.text.startswith(f"Took back {what}") and "Medium's reply" in t.text for t in game.anims.toasts)
        snap = game.snapshot()
        assert snap.board == expected.board and snap.state.rack_sizes == tuple(len(r) for r in expected.racks)
        assert [peg_number(snap, p) for p in range(2)] == list(expected.scores)
        assert sorted(game.draft.tiles) == sorted(t.rack_form for t in expected.racks[0])
        # nothing more of yours to take back: the first turn was the bot's or yours, and is gone now
        assert game.can_undo() == table.can_undo(0)
    finally:
        app.close()


def test_ctrl_z_while_the_bot_thinks_stops_it_and_takes_back_the_play() -> None:
    table = table_after("You,medium", 6, 6)
    assert table.person_to_move
    before = table.state
    app = App(table, Preferences(speed="normal"), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        frames(app)
        play = max(before.legal_plays(), key=lambda p: score_play(before.board, p).total)
        lay_down(app, play)
        post_key(pygame.K_RETURN)
        frames(app, 2)
        assert table.state.turns[-1].move == play and game.thinking  # the bot's pause has begun
        post_ctrl_z()
        frames(app, 2)
        assert table.state == before and not game.thinking and not app.worker.busy
        assert any(t.text == f"Took back your play {play}." for t in game.anims.toasts)
        assert game.my_turn and not game.draft.placed
        for _ in range(120):  # and the game goes on: the same play again, the bot replies
            frames(app, 1)
        assert table.to_move == 0 and len(table.state.turns) == len(before.turns)
    finally:
        app.close()


def test_with_the_setting_off_there_is_no_button_and_the_key_says_so() -> None:
    table = table_after("You,medium", 4, 9)
    state = table.state
    app = App(table, Preferences(speed="instant", undo=False), NoKeeper(), size=(1280, 800))
    try:
        frames(app)
        game = app.game
        assert undo_button(game.snapshot()) is None
        assert panel_buttons(game.snapshot())[0][0] == app.layout.buttons["play"]  # Play has the whole row
        post_key(pygame.K_u)
        frames(app)
        assert table.state == state and table.undos == 0
        assert [t.text for t in game.anims.toasts][-1] == "Undo is off in the settings."
    finally:
        app.close()
    hot = table_after("Ann,Ben", 4, 3)
    app = App(hot, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app)
        assert undo_button(app.game.snapshot()) is None  # no bot at the table: nothing to take back
        post_key(pygame.K_RETURN)  # the curtain
        post_key(pygame.K_u)
        frames(app)
        assert hot.undos == 0 and "only in a game against bots" in app.game.anims.toasts[-1].text
    finally:
        app.close()


def test_confirm_before_play_asks_and_escape_goes_back_y_plays() -> None:
    table = table_after("You,medium", 6, 6)
    before = table.state
    app = App(table, Preferences(speed="instant", confirm_play=True), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        frames(app)
        play = max(before.legal_plays(), key=lambda p: score_play(before.board, p).total)
        points = score_play(before.board, play).total
        lay_down(app, play)
        post_key(pygame.K_RETURN)
        frames(app)
        question = f"Play {play} for {points}?"
        snap = game.snapshot()
        assert snap.confirming == question and table.state == before
        assert info_rows(snap)[0].left == question and panel_buttons(snap)[0][1:] == ("Yes, play it", True)
        post_key(pygame.K_ESCAPE)  # goes back to the table, not to the title screen
        frames(app)
        assert app.scenes == [game] and game.acts.confirming is None and table.state == before
        assert len(game.draft.placed) == len(play.placements)
        post_click(centre(panel_buttons(game.snapshot())[0][0]))  # the Play button asks too
        frames(app)
        assert game.snapshot().confirming == question
        post_key(pygame.K_n)
        frames(app)
        assert game.acts.confirming is None and table.state == before
        post_key(pygame.K_RETURN)
        post_key(pygame.K_y)
        frames(app)
        assert table.state.turns[len(before.turns)].move == play
        assert table.state.turns[len(before.turns)].points == points
    finally:
        app.close()


def test_a_finished_game_is_not_taken_back() -> None:
    table = table_after("You,medium", 9, 400)
    assert table.round_over
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app, 5)
        assert isinstance(app.scenes[-1], EndScene)
        post_key(pygame.K_ESCAPE)
        frames(app)
        assert app.scenes[-1] is app.game and not app.game.can_undo()
        turns = len(table.state.turns)
        post_key(pygame.K_u)
        frames(app, 1)
        assert table.round_over and len(table.state.turns) == turns
    finally:
        app.close()
