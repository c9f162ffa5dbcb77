"""Resigning, playing again, aborting and leaving online, in the real window with posted events, headless,
against a real server on the loopback address. Two people's sessions at one table, each in a scene of its
own shown in turn in one window (each on a link of its own: the window reaches the server at two
addresses, so that its lobby holds a link for each): Ann resigns with Ctrl+R and Y (asked first), Ben's
end card asks to play again with Enter, Ann's says so and Y agrees, and each window goes on to its own
seat at the new table. The code screen aborts a new table (A), Your online games leaves a finished one
(Delete), and a turn the server's stand-in made is headed as the bot's, not as the person's own
(issue 44, defect 15)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.online.remote import RemoteSession
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.online.games_list import GamesScene
from cribtiles.ui.online.screens import CodeScene
from cribtiles.ui.online.services import HeldSeat, OnlineServices
from cribtiles.ui.scene import Scene
from cribtiles.ui.tiles.autopilot import past_the_result
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.game_scene import GameScene
from cribtiles.ui.tiles.panel import info_rows
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App
from tests.server.running import running_server
from tests.server.test_stand_in import Clock

PATIENCE = 30.0  # seconds any wait on the server may take before the test fails (never a timing assertion)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("easy")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path))
    yield a
    a.close()


def post_key(key: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0))


def until(app: App, done: Callable[[], bool]) -> None:
    """Frames of what the window shows until `done()`, bounded."""
    end = time.monotonic() + PATIENCE
    while not done():
        assert time.monotonic() < end, f"what was waited for did not come; on top: {app.scenes[-1]}"
        app.frame(1 / 60)
        time.sleep(0.002)


def shot(app: App, name: str) -> None:
    folder = os.environ.get("CRIBTILES_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(Path(folder) / f"{name}.png"))


class Windows:
    """Two people's windows in one: each one's stack of scenes and session, shown in turn."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.stacks: dict[str, list[Scene]] = {}
        self.sessions: dict[str, Any] = {}
        self.here: dict[str, Any] = {}  # each window's table on screen: the one "here" (the other window's stays)
        self.shown = ""

    def show(self, who: str) -> None:
        app = self.app
        if self.shown:
            self.stacks[self.shown], self.sessions[self.shown] = list(app.scenes), app.session
            self.here[self.shown] = app.online_side.here
        self.shown = who
        app.scenes, app.session = self.stacks[who], self.sessions[who]
        app.online_side.here = self.here.get(who)
        app.game = next(s for s in app.scenes if isinstance(s, GameScene))
        app.frame(1 / 60)


def seated(app: App, url: str, other_url: str) -> tuple[str, Windows]:
    """Ann's and Ben's table at the server (Ann at `url`, Ben at `other_url`), each kept on the window's
    list and sat at in a scene of its own, Ann's shown."""
    lobby = app.lobby
    ann_link, ben_link = lobby.link(url), lobby.link(other_url)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
    made = ann_link.request("create", game="tiles", seats=seats, sit=0, seed=12)
    code = made["code"]
    ben = ben_link.request("join", code=code, name="Ben")
    ann_link.sit(code, made["token"])
    ben_link.sit(code, ben["token"])
    book = app.online.book  # type: ignore[union-attr]
    book.add(HeldSeat(ann_link.url, code, 0, "Ann", "tiles", made["token"], made["host"]))
    book.add(HeldSeat(ben_link.url, code, 1, "Ben", "tiles", ben["token"]))
    windows = Windows(app)
    app.take_seat(app.online_side.remote_session(lobby.table(url, code), code, 0))  # type: ignore[arg-type]
    windows.stacks["Ann"], windows.sessions["Ann"] = list(app.scenes), app.session
    ben_session = app.online_side.remote_session(lobby.table(other_url, code), code, 1)
    assert isinstance(ben_session, RemoteSession)
    windows.stacks["Ben"], windows.sessions["Ben"] = [GameScene(app, ben_session)], ben_session
    windows.shown = "Ann"
    return code, windows


def test_ann_resigns_ben_asks_to_play_again_ann_agrees_and_both_go_to_the_new_table(app: App) -> None:
    with running_server() as (url, hall):
        code, windows = seated(app, url, url.replace("127.0.0.1", "localhost"))
        app.frame(1 / 60)

        # Ctrl+R asks first, in the Play and Pass buttons' places; Y gives the game up
        post_key(pygame.K_r, pygame.KMOD_CTRL)
        app.frame(1 / 60)
        asked = app.game.snapshot().undo_asked
        assert asked is not None and (asked.yes, asked.no) == ("Resign", "Keep playing")
        assert asked.text == "Resign this game? Ben wins at once, and it cannot be taken back."
        shot(app, "resign-asked")
        post_key(pygame.K_y)
        until(app, lambda: isinstance(app.scenes[-1], EndScene))
        ann_game = app.game
        assert ann_game.state.outcome is not None and ann_game.state.outcome.resigned == 0
        assert hall.rooms[code].phase == "over"
        until(app, lambda: app.scenes[-1].result_at is not None)  # type: ignore[attr-defined]
        shot(app, "resigned-end-card")

        # Ben's window: his end card, its button asks Ann to play again
        windows.show("Ben")
        until(app, lambda: isinstance(app.scenes[-1], EndScene))
        past_the_result(app)
        again = app.game.snapshot().again
        assert again is not None and again.button == "Play again"
        post_key(pygame.K_RETURN)
        app.frame(1 / 60)
        assert "Asked Ann to play again." in app.game.snapshot().toasts
        assert hall.rooms[code].rematch is not None

        # Ann's end card says so; Y agrees
        windows.show("Ann")
        until(app, lambda: (app.game.snapshot().again or again).text.startswith("Ben asks to play again"))
        assert app.game.snapshot().again.keys.startswith("Enter or Y agrees")  # type: ignore[union-attr]
        shot(app, "asked-to-play-again")
        past_the_result(app)
        post_key(pygame.K_y)
        app.frame(1 / 60)
        told = hall.rooms[code].rematch_told()
        assert told is not None and told["ended"] == "made"
        new = told["table"]

        # each window goes on to its own seat at the new table
        until(app, lambda: isinstance(app.session, RemoteSession) and app.session.code == new)
        ann_new = app.session
        assert isinstance(ann_new, RemoteSession) and ann_new.seat == 0 and not ann_new.is_over
        assert isinstance(app.scenes[0], GameScene) and app.scenes[0].session is ann_new
        shot(app, "ann-at-the-new-table")
        windows.show("Ben")
        until(app, lambda: isinstance(app.session, RemoteSession) and app.session.seat == 1 and app.session.code == new)
        ben_new = app.session
        assert isinstance(ben_new, RemoteSession) and ben_new.seats[0].name == "Ann"
        assert hall.rooms[new].places[0].token_hash is not None and hall.rooms[new].places[1].token_hash is not None
        held = {(s.code, s.seat): s for s in app.online.book.seats()}  # type: ignore[union-attr]
        assert (code, 0) not in held and (code, 1) not in held  # the finished table left, the new one kept
        assert held[new, 0].name == "Ann" and held[new, 0].host_token and held[new, 1].name == "Ben"


def test_the_code_screen_aborts_a_new_table(app: App) -> None:
    with running_server() as (url, hall):
        lobby = app.lobby
        held = lobby.create(url, "Ann", [{"kind": "open"}])
        app.online.book.add(held)  # type: ignore[union-attr]
        app.open_title()
        app.push(CodeScene(app, lobby, held, 1))
        app.frame(1 / 60)
        post_key(pygame.K_a)
        scene = app.scenes[-1]
        assert isinstance(scene, CodeScene)
        until(app, lambda: scene.aborted)
        assert (
            scene.status == f"{held.code[:3]} {held.code[3:]} is aborted: it ends with no result, and is off your list."
        )
        assert hall.rooms[held.code].aborted and hall.rooms[held.code].phase == "over"
        assert app.online.book.seats() == []  # type: ignore[union-attr]
        shot(app, "code-aborted")


def test_your_online_games_leaves_a_finished_table(app: App) -> None:
    with running_server() as (url, hall):
        lobby = app.lobby
        held = lobby.create(url, "Ann", [{"kind": "bot", "level": "easy"}])
        lobby.link(url).request("resign", code=held.code)
        app.online.book.add(held)  # type: ignore[union-attr]
        app.open_title()
        post_key(pygame.K_y)  # Your online games
        app.frame(1 / 60)
        games = app.scenes[-1]
        assert isinstance(games, GamesScene)
        until(app, lambda: games.finished(held))
        assert games.cells(0)[0][3] == "over: Ann resigned, Easy won"
        app.frame(1 / 60)
        assert [label for label, _, _ in games.buttons] == ["Resume", "Leave", "Back"]
        shot(app, "games-leave")
        post_key(pygame.K_DELETE)
        app.frame(1 / 60)
        assert games.status == f"You left {held.code[:3]} {held.code[3:]}: its game is over, and it is off your list."
        assert app.online.book.seats() == [] and hall.rooms[held.code].phase == "over"  # type: ignore[union-attr]


def test_a_turn_the_stand_in_made_is_headed_as_the_bots(app: App) -> None:
    clock = Clock()
    with running_server(clock=clock) as (url, _hall):
        lobby = app.lobby
        held = lobby.create(url, "Ann", [{"kind": "bot", "level": "easy"}], turn_timer=60, seed=3)
        session = app.online_side.remote_session(lobby.table(url, held.code), held.code, 0)
        assert isinstance(session, RemoteSession)
        app.take_seat(session)
        until(app, lambda: app.game.my_turn)
        mine = len(app.game.state.turns)
        clock.now += 61  # Ann's time runs out: the server's easy bot moves for her
        until(app, lambda: app.game.state.stand_in(mine) == "timer")
        until(app, lambda: any(t.startswith("A bot ") for t in app.game.snapshot().toasts))
        toast = next(t for t in app.game.snapshot().toasts if t.startswith("A bot "))
        assert toast in ("A bot played for you (your time ran out).", "A bot passed for you (your time ran out).")
        snap = app.game.snapshot()
        if snap.breakdown is not None and snap.breakdown.number == mine:  # a play: its breakdown's heading
            heading = info_rows(snap)[0]
            assert heading.left == "A bot played for you (your time ran out)" and heading.right.isdigit()
        shot(app, "stand-in")


def test_an_aborted_table_goes_back_to_the_title_told_why(app: App) -> None:
    with running_server() as (url, _hall):
        code, windows = seated(app, url, url.replace("127.0.0.1", "localhost"))
        assert windows.shown == "Ann"
        app.lobby.link(url.replace("127.0.0.1", "localhost")).request("abort", code=code)
        until(app, lambda: isinstance(app.scenes[-1], TitleScene))
        title = app.scenes[-1]
        assert isinstance(title, TitleScene)
        assert title.greeting == "The table was aborted before its first move: it ends with no result."
        assert not isinstance(app.session, RemoteSession)  # this window's own game again, beneath the title
        assert (code, 0) not in {(s.code, s.seat) for s in app.online.book.seats()}  # type: ignore[union-attr]


def test_cribbage_resigned_with_ctrl_r_and_played_again_from_its_end_card(app: App) -> None:
    with running_server() as (url, hall):
        lobby = app.lobby
        held = lobby.create(url, "Ann", [{"kind": "open"}], game="cribbage", seed=4)
        app.online.book.add(held)  # type: ignore[union-attr]
        other = lobby.link(url.replace("127.0.0.1", "localhost"))
        ben_token = other.request("join", code=held.code, name="Ben")["token"]
        other.sit(held.code, ben_token)
        ben = RemoteCribbageSession(other.table(held.code, PATIENCE), held.code, 1)
        app.take_online_seat(
            app.online_side.remote_session(lobby.table(url, held.code), held.code, 0, "cribbage"), "cribbage"
        )
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene)
        app.frame(1 / 60)

        post_key(pygame.K_r, pygame.KMOD_CTRL)  # asked first, in the prompt
        app.frame(1 / 60)
        assert scene.resigning and scene.snapshot().prompt.startswith("Resign this game? Ben wins at once")
        post_key(pygame.K_y)
        until(app, lambda: scene.ended)
        assert scene.pub.summary is not None and scene.pub.summary.words == "Ann resigned: Ben wins, 0 to 0."
        asked = scene.snapshot().end_again
        assert asked is not None and asked.button == "Play again"
        shot(app, "cribbage-resigned")

        post_key(pygame.K_RETURN)  # Play again: asked of Ben
        app.frame(1 / 60)
        assert scene.message == "Asked Ben to play again."
        end = time.monotonic() + PATIENCE
        while ben.pending_again is None:
            assert time.monotonic() < end
            time.sleep(0.01)
        ben.answer_again(1, True)
        until(app, lambda: isinstance(app.scenes[-1], CribbageScene) and app.scenes[-1] is not scene)
        again = app.scenes[-1]
        assert isinstance(again, CribbageScene) and isinstance(again.session, RemoteCribbageSession)
        new = again.session.code
        assert new != held.code and hall.rooms[new].game_name == "cribbage" and not again.pub.is_over
        assert again.session.seat == 0


def test_a_move_of_cribbage_the_stand_in_made_is_told_as_the_bots(app: App) -> None:
    clock = Clock()
    with running_server(clock=clock) as (url, _hall):
        lobby = app.lobby
        held = lobby.create(url, "Ann", [{"kind": "open"}], game="cribbage", seed=4, turn_timer=60)
        other = lobby.link(url.replace("127.0.0.1", "localhost"))
        other.sit(held.code, other.request("join", code=held.code, name="Ben")["token"])
        app.take_online_seat(
            app.online_side.remote_session(lobby.table(url, held.code), held.code, 0, "cribbage"), "cribbage"
        )
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene)
        app.frame(1 / 60)
        clock.now += 61  # the first to discard is out of time: the server's bot lays their cards away
        until(app, lambda: any(line.text.startswith("A bot made") for line in scene.snapshot().lines))
        texts = [line.text for line in scene.snapshot().lines]
        at = next(i for i, text in enumerate(texts) if text.startswith("A bot made"))
        assert (texts[at - 1], texts[at]) in (
            ("Ann laid two cards in Ben's crib.", "A bot made that move for you (your time ran out)."),
            ("Ben laid two cards in their own crib.", "A bot made that move for Ben (Ben's time ran out)."),
        ), texts
        shot(app, "cribbage-stand-in")
