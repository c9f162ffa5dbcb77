"""The real game scene plays a table online through `RemoteSession`: a whole game with posted events
against a `SeatBot` at a real server on the loopback address, to its end card and into the history; and
what differs online drawn from what the session answers: a player away on their name plate, the turn
timer's countdown, the coach kept from a table that does not allow it (issue 31)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.online.client import Link
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.options import RuleOptions
from cribtiles.table.seats import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles.autopilot import past_the_result, play_through, post_key
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App
from tests.server.running import running_server

WAIT = 90.0


@pytest.fixture
def app() -> Iterator[App]:
    a = App(Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 5), Preferences(speed="instant"), NoKeeper())
    yield a
    a.close()


@pytest.fixture
def server() -> Iterator[str]:
    with running_server() as (url, _hall):
        yield url


def new_table(url: str, server_bot: bool = False, **options: Any) -> tuple[Link, str]:
    """Ann's link, holding seat 0 of a new table whose seat 1 is open (and seat 2 a server bot's)."""
    link = Link(url)
    assert link.wait_connected(10)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
    seats += [{"kind": "bot", "level": "easy"}] if server_bot else []
    made = link.request("create", game="tiles", seats=seats, sit=0, **options)
    link.sit(made["code"], made["token"])
    return link, str(made["code"])


@pytest.mark.parametrize(("server_bot", "rules"), [(False, ""), (True, "joker=on")], ids=["two", "three-joker"])
def test_the_scene_plays_a_whole_game_online_to_its_end_card(
    app: App, server: str, server_bot: bool, rules: str
) -> None:
    link, code = new_table(server, server_bot, seed=21, rules=rules)
    other = Link(server)
    try:
        assert other.wait_connected(10)
        bot = SeatBot(other, code, "easy", seed=4)
        bot.take_seat("Bob")
        outcomes: list[Outcome] = []
        thread = threading.Thread(target=lambda: outcomes.append(bot.play(timeout=WAIT)), daemon=True)
        thread.start()
        keeper = app.keeper
        assert isinstance(keeper, NoKeeper)
        app.take_seat(RemoteSession(link, code, 0, keeper=keeper))
        assert isinstance(app.game, GameScene) and isinstance(app.game.session, RemoteSession)
        play_through(app, frames_per_step=1, max_seconds=WAIT)
        thread.join(WAIT)
        state = app.game.state
        assert state.is_over and outcomes and outcomes[0].over
        told = outcomes[0].state["match"]["game"]  # what Bob's seat was sent at the end: the same game
        assert len(told["turns"]) == len(state.turns) and told["scores"] == list(state.scores)
        assert {t.player for t in state.turns} == ({0, 1, 2} if server_bot else {0, 1})  # every seat moved
        assert isinstance(app.scenes[-1], EndScene)  # its end card
        assert len(keeper.games) == 1  # and into Ann's history, with its record
        assert not app.scenes[-1].reviewed  # the table did not allow the coach: no review offered
        assert not app.game.snapshot().plays_again  # the card's button asks the others to play again
        past_the_result(app)
        post_key(pygame.K_RETURN)  # "again": asked of Bob, who is still at the table
        app.frame(1 / 60)
        assert isinstance(app.scenes[-1], EndScene) and "Asked Bob to play again." in app.game.snapshot().toasts
        asked = app.game.snapshot().again
        assert asked is not None and asked.button == "Withdraw"
        assert asked.text == "Waiting for Bob to agree to play again."
        post_key(pygame.K_l)  # L leaves the table: back to the title, told so
        app.frame(1 / 60)
        top = app.scenes[-1]
        assert isinstance(top, TitleScene) and top.greeting == "You left the table: it is off Your online games."
    finally:
        other.close()
        link.close()


def test_away_the_turn_timer_and_no_coach_are_drawn(app: App, server: str) -> None:
    link, code = new_table(server, seed=2, turn_timer=600, coach=False)
    other = Link(server)
    try:
        assert other.wait_connected(10)
        answer = other.request("join", code=code, name="Bob")
        assert answer["seat"] == 1
        other.close()  # Bob goes away
        session = RemoteSession(link, code, 0)
        app.take_seat(session)
        end = time.monotonic() + 10
        while session.away(1) is None and time.monotonic() < end:
            app.frame(1 / 60)
            time.sleep(0.01)
        snap = app.game.snapshot()
        assert snap.about[1].startswith("away") and snap.about[0] == ""
        assert snap.clock.endswith("left") and 590 <= (session.time_left() or 0) <= 600
        assert snap.coach is not None and not snap.coach.hints_on
        assert snap.undo_shown and not snap.can_undo  # a take-back is asked of Bob: not the coach's
        app.frame(1 / 60)  # drawn: the name plate and the countdown
        post_key(pygame.K_i)  # the hint key: refused in words
        app.frame(1 / 60)
        assert any("coach is not at this table" in t for t in app.game.snapshot().toasts)
    finally:
        link.close()


def test_a_move_made_for_this_seat_elsewhere_is_shown_and_the_game_goes_on(app: App) -> None:
    """Ann's turn timer runs out while her tiles lie on the board: the server's bot moves for her; the
    scene shows that move like another's, deals her the rack the table gave her, and plays on."""
    from collections import Counter

    from cribtiles.rules.board import PLAYABLE
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.tiles.autopilot import post_drag

    with running_server() as (url, hall):
        link = Link(url)
        try:
            assert link.wait_connected(10)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
            made = link.request("create", game="tiles", seats=seats, sit=0, seed=8, turn_timer=60)
            link.sit(made["code"], made["token"])
            session = RemoteSession(link, made["code"], 0)
            app.take_seat(session)
            scene = app.game
            end = time.monotonic() + 20
            while not scene.my_turn and time.monotonic() < end:
                app.frame(1 / 60)
                time.sleep(0.002)
            assert scene.my_turn
            lay = app.layout
            free = next(s for s in PLAYABLE if scene.state.board[s] is None)
            post_drag(centre(lay.slot_rect(0)), centre(lay.square_rect(free)))
            app.frame(1 / 60)
            assert scene.draft.placed  # a tile of hers lies on the board, not played
            turns = len(scene.state.turns)
            hall.rooms[made["code"]].last_change -= 120  # as if two minutes had gone by
            end = time.monotonic() + 20
            while len(scene.state.turns) == turns and time.monotonic() < end:
                app.frame(1 / 60)
                time.sleep(0.002)
            assert len(scene.state.turns) > turns and scene.state.turns[turns].player == 0  # made for her
            for _ in range(30):
                app.frame(1 / 60)
            rack = Counter(scene.draft.tiles[i] for i in scene.draft.order)
            assert not scene.draft.placed and rack == Counter(t.rack_form for t in session.view(0).rack)
            play_through(app, frames_per_step=1, max_seconds=WAIT)
            assert scene.state.is_over
        finally:
            link.close()


def test_a_spectator_watches_a_whole_game_and_sees_no_rack(app: App, server: str) -> None:
    host = Link(server)
    watcher = Link(server)
    try:
        assert host.wait_connected(10) and watcher.wait_connected(10)
        seats = [{"kind": "open"}, {"kind": "bot", "level": "easy"}]
        code = str(host.request("create", game="tiles", seats=seats, seed=6)["code"])
        watcher.request("watch", code=code)
        watcher.watch(code)
        bot = SeatBot(host, code, "easy", seed=2)
        bot.take_seat("Bob")  # the game begins
        app.take_seat(RemoteSession(watcher, code, None))
        thread = threading.Thread(target=lambda: bot.play(timeout=WAIT), daemon=True)
        thread.start()
        scene = app.game
        end = time.monotonic() + WAIT
        while not scene.state.is_over and time.monotonic() < end:
            app.frame(1 / 60)
            assert not scene.my_turn and not scene.draft.order  # nothing to play, no rack shown
            time.sleep(0.002)
        thread.join(WAIT)
        assert scene.state.is_over and {t.player for t in scene.state.turns} == {0, 1}
        for _ in range(20):
            app.frame(1 / 60)
        assert isinstance(app.scenes[-1], EndScene)
    finally:
        watcher.close()
        host.close()


def test_a_match_goes_on_to_its_next_round_online(app: App, server: str) -> None:
    """The end card's Next round: Bob's seat may have begun it already (the first next_round wins), and
    the window goes on to it either way."""
    link, code = new_table(server, seed=17, rules="rounds=2")
    other = Link(server)
    try:
        assert other.wait_connected(10)
        bot = SeatBot(other, code, "easy", seed=5)
        bot.take_seat("Bob")
        thread = threading.Thread(target=lambda: bot.play(timeout=WAIT), daemon=True)
        thread.start()
        app.take_seat(RemoteSession(link, code, 0, keeper=app.keeper))
        play_through(app, frames_per_step=1, max_seconds=WAIT)
        assert isinstance(app.scenes[-1], EndScene) and app.game.snapshot().next_is_round
        past_the_result(app)
        post_key(pygame.K_RETURN)  # Next round
        app.frame(1 / 60)
        assert app.game.session.match.round == 2 and not app.game.state.is_over
        play_through(app, frames_per_step=1, max_seconds=WAIT)
        thread.join(WAIT)
        assert app.game.session.match.is_over and isinstance(app.scenes[-1], EndScene)
        keeper = app.keeper
        assert isinstance(keeper, NoKeeper) and len(keeper.games) == 1  # the match, once
    finally:
        other.close()
        link.close()
