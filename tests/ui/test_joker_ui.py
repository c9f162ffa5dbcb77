"""The Joker rule at the window: a person counts their own play, the bots call, a person calls."""

from __future__ import annotations

import random
import time

import pygame

from cribtiles.bot.greedy import greedy_move
from cribtiles.rules import IllegalMove
from cribtiles.rules.moves import Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table import Seat
from cribtiles.table.joker import items_of
from cribtiles.table.model import Table
from cribtiles.ui.autopilot import post_click, post_key
from cribtiles.ui.config import NoKeeper, Preferences
from cribtiles.ui.declare import joker_rect
from cribtiles.ui.geometry import centre
from cribtiles.ui.panel import info_rows
from cribtiles.ui.window import App

JOKER = RuleOptions.parse("joker=on")


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def open_table(seed: int) -> App:
    table = Table.new((Seat.person("Ann"), Seat.bot("expert")), JOKER, seed=seed)
    while table.bot_to_move:  # quick: the person is to move when the window opens
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
    return App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))


def lay(app: App, play: Play) -> None:
    game = app.game
    for p in play.placements:
        tid = next(i for i in game.draft.order if game.draft.tiles[i] == p.tile.rack_form)
        if game.draft.face(tid) != p.tile:
            game.flip(tid)
        assert game.draft.place(tid, game.state.board, p.square)
    game.refresh_preview()


def test_a_person_counts_their_play_and_an_expert_takes_what_was_left() -> None:
    app = open_table(seed=2)
    try:
        game = app.game
        frames(app)
        board = game.state.board
        play = max(game.state.legal_plays(), key=lambda p: (len(items_of(score_play(board, p))), len(p.placements)))
        true = score_play(board, play).total
        lay(app, play)
        frames(app)
        texts = [r.left for r in info_rows(game.snapshot())]
        assert "A legal play" in texts and not any("would score" in t for t in texts)  # no free answers
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.declaring is not None and game.state.turns == tuple(app.table.state.turns)
        item = items_of(score_play(board, play))[0]
        for square in sorted(item.squares):  # point at one combination, tile by tile
            post_click(centre(app.layout.square_rect(square)))
            frames(app, 1)
        assert game.declaring is not None and game.declaring.points == item.points
        for digit in str(true + 1):  # too much: refused gently
            post_key(pygame.K_0 + int(digit))
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.declaring is not None and "count again" in game.toasts[-1].text
        for _ in range(3):
            post_key(pygame.K_BACKSPACE)
        post_key(pygame.K_0 + item.points)  # declare only the combination found
        post_key(pygame.K_RETURN)
        frames(app)
        record = app.table.history[-1]
        assert record.player == 0 and record.declared == item.points < true
        assert [(c.caller, c.points) for c in record.calls] == [(1, true - item.points)]  # Expert never misses
        assert any("took" in t.text for t in game.toasts)
    finally:
        app.close()


def test_a_person_calls_joker_on_an_honest_play_and_loses_five() -> None:
    app = open_table(seed=2)
    try:
        game = app.game
        frames(app)
        game.commit(greedy_move(game.state.view(0), random.Random(0)))  # Ann plays, declaring all
        deadline = time.monotonic() + 60  # the Expert thinks 1.5 s in its process, then plays (honestly)
        while time.monotonic() < deadline and not (game.state.current == 0 and not game.busy):
            frames(app, 1)
            time.sleep(0.005)
        assert game.may_call()
        before = game.state.scores[0]
        post_click(centre(joker_rect(app.layout)))
        frames(app)
        assert game.state.scores[0] == before - 5 and not game.may_call()
        assert "nothing was missed" in game.toasts[-1].text
        try:
            app.table.call_joker(0)
        except IllegalMove:
            pass
        else:
            raise AssertionError("a second call on the same play was allowed")
    finally:
        app.close()
