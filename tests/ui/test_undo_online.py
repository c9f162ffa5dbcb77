"""Taking back a move online by agreement, in the real game scene with posted events: two people's
`RemoteSession`s at one table of a real server on the loopback address, each in a scene of its own (shown
in turn in one headless window). The mover presses U and is shown whom the request waits for; the other
is asked "Ann asks to take back a move" with Allow and Refuse in the Play and Pass buttons' places; a
click on Allow takes the move back to the mover's rack; a second request is refused with N, and both
are told (issue 31)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pygame
import pytest

from cribtiles.online.client import Link
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.options import RuleOptions
from cribtiles.table.seats import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.tiles.autopilot import Autopilot, play_through, post_click, post_key
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.tiles.panel import panel_buttons, undo_button
from cribtiles.ui.window import App
from tests.server.running import running_server

WAIT = 30.0


@pytest.fixture
def app() -> Iterator[App]:
    a = App(Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 5), Preferences(speed="instant"), NoKeeper())
    yield a
    a.close()


def show(app: App, scene: GameScene) -> None:
    """The window shows `scene` (each person's scene keeps its own session: neither is closed)."""
    app.session, app.game, app.scenes = scene.session, scene, [scene]
    app.frame(1 / 60)


def frames_until(app: App, done: Callable[[], bool]) -> None:
    """Frames of the scene shown until `done()`, bounded."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, "what was waited for did not come"
        app.frame(1 / 60)
        time.sleep(0.002)


def toasts(scene: GameScene) -> tuple[str, ...]:
    return scene.snapshot().toasts


def test_asked_allowed_then_asked_and_refused_with_posted_events(app: App) -> None:
    with running_server() as (url, _hall):
        links = [Link(url), Link(url)]
        try:
            assert all(link.wait_connected(10) for link in links)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            made = links[0].request("create", game="tiles", seats=seats, sit=0, seed=12)
            links[0].sit(made["code"], made["token"])
            joined = links[1].request("join", code=made["code"], name="Ben")
            links[1].sit(made["code"], joined["token"])
            sessions = [RemoteSession(links[0], made["code"], 0), RemoteSession(links[1], made["code"], 1)]
            app.take_seat(sessions[0])
            scenes = [app.game, GameScene(app, sessions[1])]
            first = sessions[0].to_move
            assert first is not None
            mover, other = scenes[first], scenes[1 - first]
            me, them = ("Ann", "Ben") if first == 0 else ("Ben", "Ann")

            # the mover plays a turn with posted events; the other's window sees it land
            show(app, mover)
            rack = sorted(str(t) for t in sessions[first].view(first).rack)
            turns = len(mover.state.turns)
            play_through(app, frames_per_step=1, max_seconds=WAIT, max_turns=1)
            frames_until(app, lambda: len(mover.state.turns) == turns + 1 and not mover.busy)
            show(app, other)
            frames_until(app, lambda: len(other.state.turns) == turns + 1 and other.my_turn)

            # U asks: the mover is shown whom it waits for, and Withdraw in the Pass button's place
            show(app, mover)
            snap = mover.snapshot()
            assert snap.undo_shown and snap.can_undo
            post_key(pygame.K_u)
            app.frame(1 / 60)
            assert f"Asked {them} to let you take back your move." in toasts(mover)
            snap = mover.snapshot()
            assert snap.undo_asked is not None
            assert snap.undo_asked.text == f"Waiting for {them} to let you take back your move."
            assert [label for _, label, _ in panel_buttons(snap)][:2] == ["Play", "Withdraw"]
            assert len(mover.state.turns) == turns + 1  # nothing taken back yet

            # the other is asked, with Allow and Refuse; a click on Allow takes the move back
            show(app, other)
            frames_until(app, lambda: other.snapshot().undo_asked is not None)
            snap = other.snapshot()
            assert snap.undo_asked is not None and snap.undo_asked.text == f"{me} asks to take back a move."
            buttons = panel_buttons(snap)
            assert [(label, ok) for _, label, ok in buttons][:2] == [("Allow", True), ("Refuse", True)]
            post_click(centre(buttons[0][0]))
            app.frame(1 / 60)
            assert len(other.state.turns) == turns and not other.my_turn
            assert f"You let {me} take back a move." in toasts(other)
            assert other.snapshot().undo_asked is None

            # the mover's window goes back: her tiles on her rack, her turn again, and she is told
            show(app, mover)
            frames_until(app, lambda: len(mover.state.turns) == turns and mover.my_turn)
            assert sorted(str(t) for t in sessions[first].view(first).rack) == rack
            assert sorted(str(mover.draft.tiles[i]) for i in mover.draft.order) == rack  # the rack drawn holds them
            frames_until(app, lambda: "Everyone agreed: your move is taken back." in toasts(mover))
            assert mover.snapshot().undo_asked is None

            # again: a turn played, asked back with the Undo button, refused with N
            play_through(app, frames_per_step=1, max_seconds=WAIT, max_turns=1)
            frames_until(app, lambda: len(mover.state.turns) == turns + 1 and not mover.busy)
            show(app, other)
            frames_until(app, lambda: len(other.state.turns) == turns + 1 and other.my_turn)
            show(app, mover)
            frames_until(app, lambda: mover.snapshot().can_undo)
            undo = undo_button(mover.snapshot())
            assert undo is not None and undo[2]
            post_click(centre(undo[0]))
            app.frame(1 / 60)
            assert mover.snapshot().undo_asked is not None
            show(app, other)
            frames_until(app, lambda: other.snapshot().undo_asked is not None)
            post_key(pygame.K_n)
            app.frame(1 / 60)
            assert f"You said no: {me}'s move stands." in toasts(other) and other.my_turn
            assert len(other.state.turns) == turns + 1
            show(app, mover)
            frames_until(app, lambda: f"{them} said no: your move stands." in toasts(mover))
            assert mover.snapshot().undo_asked is None and len(mover.state.turns) == turns + 1
            post_key(pygame.K_u)  # the same move is not asked back twice
            app.frame(1 / 60)
            assert any("asked back once" in t for t in toasts(mover))
        finally:
            for link in links:
                link.close()


def test_a_take_back_while_the_bots_reply_is_still_on_its_way_takes_both() -> None:
    """Issue 44, defect 9: against the server's bot, U pressed while its reply was still on its way to the
    screen was always refused ("the table has moved on: you asked on move 6, the table is at move 7"): the
    request named the ply shown, not the table as it stood. It takes back the move and the reply."""
    table = Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), 5)
    app = App(table, Preferences(speed="instant"), NoKeeper())
    try:
        with running_server() as (url, _hall):
            link = Link(url)
            assert link.wait_connected(10)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
            made = link.request("create", game="tiles", seats=seats, sit=0, seed=12)
            link.sit(made["code"], made["token"])
            session = RemoteSession(link, made["code"], 0)
            app.take_seat(session)
            scene = app.game
            frames_until(app, lambda: scene.my_turn)
            turns = len(scene.state.turns)
            pilot = Autopilot(app)
            for _ in pilot.turn():  # the tiles dragged at once, then Enter plays them ...
                if pilot.turns:
                    app.prefs.speed = "normal"  # ... and the bot's reply takes its time to fly in
                app.frame(1 / 60)
            # the bot's reply has come from the server but is not on the screen yet
            frames_until(app, lambda: (session._latest or {}).get("ply", 0) > session._shown.ply)
            assert len(scene.state.turns) == turns + 1 and scene.snapshot().can_undo
            post_key(pygame.K_u)
            app.frame(1 / 60)
            said = toasts(scene)
            assert not any("moved on" in t for t in said), said
            assert any(t.startswith("Took back your play") and "Easy's reply" in t for t in said), said
            frames_until(app, lambda: scene.my_turn and not scene.busy)
            assert len(scene.state.turns) == turns
    finally:
        app.close()
