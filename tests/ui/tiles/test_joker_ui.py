"""The Joker rule at the window: a person counts their own play, the bots call, a person calls."""

from __future__ import annotations

import random
import time

import pygame

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules import IllegalMove
from cribtiles.rules.game import JokerCall
from cribtiles.rules.moves import Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.joker import items_of
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.declare import joker_rect
from cribtiles.ui.tiles.panel import info_rows
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
            game.hand.flip(tid)
        assert game.draft.place(tid, game.state.board, p.square)
    game.refresh_preview()


def test_a_person_counts_their_play_and_an_expert_takes_what_was_left() -> None:
    app = open_table(seed=2)
    try:
        game = app.game
        frames(app)
        board = game.state.board
        play = max(
            game.session.table.state.legal_plays(),
            key=lambda p: (len(items_of(score_play(board, p))), len(p.placements)),
        )
        true = score_play(board, play).total
        lay(app, play)
        frames(app)
        texts = [r.left for r in info_rows(game.snapshot())]
        assert "A legal play" in texts and not any("would score" in t for t in texts)  # no free answers
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.joker.declaring is not None and game.state.turns == tuple(app.session.table.state.turns)
        item = items_of(score_play(board, play))[0]
        for square in sorted(item.squares):  # point at one combination, tile by tile
            post_click(centre(app.layout.square_rect(square)))
            frames(app, 1)
        assert game.joker.declaring is not None and game.joker.declaring.points == item.points
        post_key(pygame.K_RETURN)  # declare only the combination found
        frames(app)
        record = app.session.table.history[-1]
        assert record.player == 0 and record.declared == item.points < true
        assert [(c.caller, c.points) for c in record.calls] == [(1, true - item.points)]  # Expert never misses
        told = f"Expert called Joker on your play and took {true - item.points} unclaimed point"
        assert any(t.text.startswith(told) for t in game.anims.toasts)
        # the call closed the window: the true breakdown, how the declaration stood, the call
        texts = [r.left for r in info_rows(game.snapshot())]
        assert f"declared {item.points}, {true - item.points} unclaimed" in texts
        game.anims.toasts.clear()  # the messages leave the turn list its room
        listed = [(r.left, r.right, r.turn) for r in info_rows(game.snapshot()) if r.turn is not None]
        assert listed[:2] == [
            ("   Expert called Joker on your play", f"+{true - item.points}", 0),  # newest first
            ("You:  " + " ".join(str(p) for p in play.placements), str(item.points), 0),
        ]
    finally:
        app.close()


def test_a_person_over_declares_and_the_expert_calls_it_the_pegs_follow() -> None:
    app = open_table(seed=2)
    try:
        game = app.game
        frames(app)
        board = game.state.board
        play = max(game.session.table.state.legal_plays(), key=lambda p: score_play(board, p).total)
        true = score_play(board, play).total
        before = game.state.scores
        lay(app, play)
        frames(app)
        post_key(pygame.K_RETURN)
        frames(app)
        for digit in str(true + 3):  # more than it scores: accepted, nothing told
            post_key(pygame.K_0 + int(digit))
        number = len(app.session.table.history)
        post_key(pygame.K_RETURN)
        frames(app, 2)
        record = app.session.table.history[number]
        assert record.declared == true + 3 and record.calls == (JokerCall(1, 3, 3),)
        assert app.session.table.state.scores[0] == before[0] + true  # the Expert's own play may follow
        assert [p.front for p in game.anims.pegs] == list(app.session.table.state.scores)  # the pegs moved back
        texts = [r.left for r in info_rows(game.snapshot())]
        assert len(app.session.table.history) == number + 1  # the Expert thinks in its process for a while
        assert f"declared {true + 3}, 3 more than it scores" in texts
        words = "Expert called Joker on your play, declared 3 points over its score, and took them from you."
        assert words in [t.text for t in game.anims.toasts]
    finally:
        app.close()


def test_while_a_play_may_be_called_the_panel_shows_only_what_was_declared() -> None:
    """Hot seat, Ann and Ben: Ann declares one combination of her play; until Ben acts, the panel
    names what she pointed at and her 'declared N', never the true total nor what she missed."""
    options = RuleOptions.parse("joker=on,exchange=any-time")
    table = Table.new((Seat.person("Ann"), Seat.person("Ben")), options, seed=5)
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        post_key(pygame.K_RETURN)  # the first person is ready
        frames(app)
        mover = game.state.current
        board = game.state.board
        play = max(
            game.session.table.state.legal_plays(),
            key=lambda p: (len(items_of(score_play(board, p))), len(p.placements)),
        )
        score = score_play(board, play)
        items = items_of(score)
        assert len(items) >= 3 and score.total >= 10
        lay(app, play)
        frames(app)
        post_key(pygame.K_RETURN)  # count it
        frames(app)
        item = items[0]
        for square in sorted(item.squares):
            post_click(centre(app.layout.square_rect(square)))
            frames(app, 1)
        post_key(pygame.K_RETURN)
        frames(app, 120)
        assert app.session.table.history[-1].declared == item.points < score.total
        post_key(pygame.K_RETURN)  # Ben is ready
        frames(app)
        rows = info_rows(game.snapshot())
        texts = [r.left for r in rows]
        figures = {r.right for r in rows if r.turn is None}
        who = game.state.names[mover]
        assert f"{who} played" in texts and f"declared {item.points}" in texts
        assert str(score.total) not in figures and not any("unclaimed" in t or "worth" in t for t in texts)
        assert not any(t.startswith(("row ", "column ")) for t in texts)  # no line's breakdown
        missed = [i for i in items if i.squares != item.squares]
        lit = {r.squares for r in rows if r.turn is None and r.left.startswith(("fifteen", "pair", "run"))}
        assert lit == {tuple(sorted(item.squares))}  # only the combination she pointed at
        assert missed and all(tuple(sorted(i.squares)) not in lit for i in missed)
        post_key(pygame.K_p)  # Ben passes: the window closes, the truth shows
        frames(app, 120)
        texts = [r.left for r in info_rows(game.snapshot())]
        assert f"{who}'s play was worth" in texts
        assert f"declared {item.points}, {score.total - item.points} unclaimed" in texts
    finally:
        app.close()


def test_a_person_calls_joker_on_an_honest_play_and_loses_five() -> None:
    app = open_table(seed=2)
    try:
        game = app.game
        frames(app)
        game.commit(greedy_move(game.session.view(0), random.Random(0)))  # Ann plays, declaring all
        deadline = time.monotonic() + 60  # the Expert thinks 1.5 s in its process, then plays (honestly)
        while time.monotonic() < deadline and not (game.state.current == 0 and not game.busy):
            frames(app, 1)
            time.sleep(0.005)
        assert game.may_call()
        before = game.state.scores[0]
        post_click(centre(joker_rect(app.layout)))
        frames(app)
        assert game.state.scores[0] == before - 5 and not game.may_call()
        assert (
            game.anims.toasts[-1].text
            == "You called Joker on Expert's play, but nothing was missed: you lose 5 points."
        )
        try:
            app.session.table.call_joker(0)
        except IllegalMove:
            pass
        else:
            raise AssertionError("a second call on the same play was allowed")
    finally:
        app.close()


def test_the_confirm_question_under_the_joker_rule_says_what_will_be_declared_and_the_coach_keeps_quiet() -> None:
    table = Table.new((Seat.person("Ann"), Seat.bot("expert")), JOKER, seed=2)
    while table.bot_to_move:
        request = table.bot_request()
        table.play_bot(greedy_move(request.view, random.Random(request.seed)), request)
    prefs = Preferences(speed="instant", confirm_play=True, coach_notes=True)
    app = App(table, prefs, NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        frames(app)
        board = game.state.board
        play = max(game.session.table.state.legal_plays(), key=lambda p: score_play(board, p).total)
        true = score_play(board, play).total
        lay(app, play)
        frames(app)
        post_key(pygame.K_RETURN)  # count it
        frames(app)
        post_key(pygame.K_1)
        post_key(pygame.K_0)
        number = len(app.session.table.history)
        post_key(pygame.K_RETURN)  # declare 10: asked first
        frames(app)
        snap = game.snapshot()
        assert snap.confirming == f"Play {play} and declare 10?" and true != 10
        assert snap.declaring is None  # the count's box, drawn over the panel, gives way to the question (issue 44)
        texts = [(r.left, r.right) for r in info_rows(snap)]
        assert texts[0] == (snap.confirming, "") and not any(str(true) in (left, right) for left, right in texts[:3])
        post_key(pygame.K_y)
        frames(app, 2)
        assert app.session.table.history[number].declared == 10 and app.session.table.history[number].player == 0
        assert not any(t.text.startswith("Coach:") for t in game.anims.toasts)  # its note would tell the score
    finally:
        app.close()
