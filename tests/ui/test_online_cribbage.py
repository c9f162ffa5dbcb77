"""Classic cribbage online in the window, headless, with posted events against a real server on a loopback
port: the lobby's Create a table makes a cribbage table (two seats, cribbage's rules), a friend takes
the open seat (a seat bot on a link of its own), Go to the table opens the cribbage scene driven by
`RemoteCribbageSession`, and the game is played to its end card. The friend is named without an
article, the finished game goes into the history once with its record, and opening it again from Your
online games records nothing twice (issue 31). Three players and partners are made on the same screen
and played to their end card; your crib cards go while the others still choose theirs (issue 44)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import parse_move
from cribtiles.cribbage.options import Phase, Variant
from cribtiles.cribbage.record import replay
from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.server.cribbage_room import CribbageGame
from cribtiles.server.front import Hall, Limits
from cribtiles.table import Seat
from cribtiles.table.game_summary import Game, Result
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.cribbage.create_form import CribbageForm
from cribtiles.ui.cribbage.layout import ButtonKind
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.cribbage.setup import online_table_scene
from cribtiles.ui.geometry import centre
from cribtiles.ui.online.games_list import GamesScene
from cribtiles.ui.online.screens import CodeScene, CreateScene, JoinScene
from cribtiles.ui.online.services import OnlineServices
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.create_form import TileForm
from cribtiles.ui.title import TitleScene
from cribtiles.ui.window import App
from tests.server.players import Eager
from tests.server.running import running_server
from tests.ui.test_online_screens import clear_and_type, frames, shot, to_online, until

#: Seat bots answer in milliseconds: the server's allowance of messages a second is raised for them.
FAST = Limits(per_second=1000, burst=1000)
#: The most seconds a whole game may take here (it takes a few): only a hung test meets it.
PATIENCE = 240.0


@pytest.fixture
def server() -> Iterator[tuple[str, Hall]]:
    with running_server(limits=FAST) as running:
        yield running


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    """The window with its own online services: the real session maker, the real keeper."""
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path))
    a.open_title()
    frames(a)
    yield a
    a.close()


def choose(app: App, scene: CreateScene, row: Any, value: object) -> None:
    """Move the focus to `row` with Up/Down, then Right until it shows `value`."""
    for _ in range(len(scene.rows)):
        if scene.focused() is row:
            break
        post_key(pygame.K_DOWN)
        frames(app, 1)
    assert scene.focused() is row
    for _ in range(len(row.choices)):
        if row.value == value:
            return
        post_key(pygame.K_RIGHT)
        frames(app, 1)
    assert row.value == value


def play_to_the_end(app: App, scene: CribbageScene) -> list[str]:
    """Ann's seat played with posted events to the end card; every prompt the scene showed."""
    import time

    pilot = CribbagePilot(scene, "medium", seed=8)
    prompts: list[str] = []
    end = time.monotonic() + PATIENCE
    while not scene.ended and time.monotonic() < end:
        if not pilot.step():
            time.sleep(0.001)  # the friend's move is on its way: let the threads run
        frames(app)
        prompts.append(scene.prompt()[0])
    assert scene.ended, "the game did not end in time"
    return prompts


def test_a_cribbage_table_made_in_the_lobby_is_played_to_its_end_and_kept_once_in_the_history(
    app: App, server: tuple[str, Hall]
) -> None:
    url, hall = server
    to_online(app, "Ann", url)
    post_key(pygame.K_c)
    frames(app)
    create = app.scenes[-1]
    assert isinstance(create, CreateScene) and create.game.value == "tiles"
    crib, tiles = create.forms["cribbage"], create.forms["tiles"]
    assert isinstance(crib, CribbageForm) and isinstance(tiles, TileForm)
    post_key(pygame.K_UP)  # from Seat 2 up to the game
    frames(app)
    assert create.focused() is create.game
    post_key(pygame.K_RIGHT)
    frames(app)
    assert create.game.value == "cribbage" and create.focused() is create.game
    assert crib.seat in create.rows and not any(row in create.rows for row in (*tiles.seats, *tiles.rules))
    choose(app, create, crib.seat, "friend")
    choose(app, create, crib.rules[2], 61)  # a short game: to 61
    shot(app, "create_cribbage")
    post_key(pygame.K_c)
    assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
    code_scene = app.scenes[-1]
    assert isinstance(code_scene, CodeScene) and code_scene.open_seats == 1
    held = code_scene.held
    assert held.game == "cribbage" and [s.game for s in app.online.book.seats()] == ["cribbage"]
    room = hall.rooms[held.code]
    assert room.game_name == "cribbage" and room.phase == "waiting"
    assert room.settings.rules == "muggins=off,play_muggins=off,target=61"

    ben_link = Link(url)
    outcome: list[Outcome] = []
    try:
        assert ben_link.wait_connected(30)
        ben = SeatBot(ben_link, held.code, "easy", seed=3)
        assert ben.take_seat("Ben") == 1
        playing = threading.Thread(target=lambda: outcome.append(ben.play(PATIENCE)), daemon=True)
        playing.start()
        assert until(app, lambda: code_scene.waiting == "")
        post_key(pygame.K_g)  # Go to the table
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene)), code_scene.status
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene) and isinstance(scene.session, RemoteCribbageSession)
        assert isinstance(app.scenes[-2], TitleScene)  # Escape leaves the table for the title, as at one window
        assert scene.pub.names == ("Ann", "Ben") and scene.pub.called(1) == "Ben" and scene.pub.options.target == 61
        frames(app)
        shot(app, "online_cribbage")
        assert "U undo" not in scene.snapshot().keys
        post_key(pygame.K_u)  # nothing of Ann's to take back yet, and the table says why (issue 44)
        frames(app)
        assert scene.message.startswith("Nothing of yours may be taken back now: online a move goes back only")
        scene.message = ""
        prompts = play_to_the_end(app, scene)
        playing.join(PATIENCE)
    finally:
        ben_link.close()
    assert outcome and outcome[0].over
    assert not [p for p in prompts if "the Ben" in p or "The Ben" in p]  # a person takes no article
    assert any(p.startswith("Ben ") for p in prompts)  # Ben is to play..., Ben counts their hand...

    game = room.game
    assert isinstance(game, CribbageGame) and game.table.is_over
    kept = [g for g in app.keeper.past_games() if g.game is Game.CRIBBAGE]
    assert len(kept) == 1
    summary = kept[0]
    assert summary.seats == (("Ann", None), ("Ben", None)) and summary.result is Result.PEOPLE_ONLY
    assert summary.scores == game.table.state.scores
    assert replay(json.loads(summary.record)).log == game.table.state.log  # its replay

    gone_by = time.monotonic() + 10  # the server hears Ben's link closed in its own time (slower under load)
    while room.present.get(1) and time.monotonic() < gone_by:
        time.sleep(0.01)
    post_key(pygame.K_n)  # a new game at this table is asked of the other person there, who has gone
    frames(app)
    assert app.scenes[-1] is scene and scene.message == "Ben is not at the table: a new table needs everyone here."
    post_key(pygame.K_ESCAPE)  # the end card: back to the title
    frames(app)
    assert isinstance(app.scenes[-1], TitleScene)
    post_key(pygame.K_y)
    frames(app)
    assert isinstance(app.scenes[-1], GamesScene)
    post_key(pygame.K_RETURN)  # the finished game opened again
    assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene))
    again = app.scenes[-1]
    assert isinstance(again, CribbageScene) and again is not scene
    assert until(app, lambda: again.ended)
    assert [g.key for g in app.keeper.past_games() if g.game is Game.CRIBBAGE] == [summary.key]  # not twice


def test_joining_a_cribbage_table_with_a_code_opens_the_cribbage_scene(app: App, server: tuple[str, Hall]) -> None:
    url, hall = server
    ann = Link(url)
    try:
        assert ann.wait_connected(30)
        made = ann.request(
            "create", game="cribbage", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}], sit=0, seed=9
        )
        to_online(app, "Ben", url)
        post_key(pygame.K_j)
        frames(app)
        join = app.scenes[-1]
        assert isinstance(join, JoinScene) and join.focused() is join.code
        clear_and_type(app, made["code"])
        join.focus = join.rows.index(join.rows[3])  # Join
        post_key(pygame.K_RETURN)
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene)), join.status
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene) and isinstance(scene.session, RemoteCribbageSession)
        assert scene.person == 1 and scene.pub.called(0) == "Ann"
        assert [(s.code, s.seat, s.game) for s in app.online.book.seats()] == [(made["code"], 1, "cribbage")]  # type: ignore[union-attr]
        assert hall.rooms[made["code"]].phase == "playing"
    finally:
        ann.close()


@pytest.mark.parametrize(
    ("variant", "seats", "rules"),
    [
        (Variant.THREE, ("friend", "easy"), "target=61,variant=three-player"),
        (Variant.PARTNERSHIP, ("easy", "friend", "medium"), "target=61,variant=partnership"),
    ],
    ids=["three players", "partners"],
)
def test_three_or_four_made_in_the_lobby_are_played_to_the_end_card(
    app: App, server: tuple[str, Hall], variant: Variant, seats: tuple[str, ...], rules: str
) -> None:
    """Issue 44 (defect 20): the Create a table screen offers cribbage's variants, each with its seats
    (partners across: the third seat is yours), five-card's 61 chosen with it; the friend takes the open
    seat, and the table of three or four is played in the window to its end card."""
    url, hall = server
    to_online(app, "Ann", url)
    post_key(pygame.K_c)
    frames(app)
    create = app.scenes[-1]
    assert isinstance(create, CreateScene)
    crib = create.forms["cribbage"]
    assert isinstance(crib, CribbageForm)
    choose(app, create, create.game, "cribbage")
    choose(app, create, crib.variant, Variant.FIVE_CARD)
    assert crib.rules[2].value == 61 and crib.seats[1] not in create.rows  # five-card: 61, two seats
    choose(app, create, crib.variant, variant)
    shown = [row for row in crib.seats if row in create.rows]
    assert len(shown) == variant.players - 1
    if variant is Variant.PARTNERSHIP:
        assert [row.label for row in shown] == ["Seat 2", "Seat 3: your partner", "Seat 4"]
    for row, seat in zip(shown, seats, strict=True):
        choose(app, create, row, seat)
    choose(app, create, crib.rules[2], 61)
    shot(app, f"create_cribbage_{variant.value}")
    post_key(pygame.K_c)
    assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
    code_scene = app.scenes[-1]
    assert isinstance(code_scene, CodeScene) and code_scene.open_seats == 1
    room = hall.rooms[code_scene.held.code]
    assert room.settings.rules == f"muggins=off,play_muggins=off,{rules}" and len(room.places) == variant.players

    friend_link = Link(url)
    outcome: list[Outcome] = []
    try:
        assert friend_link.wait_connected(30)
        friend = Eager(friend_link, room.code, "easy", seed=3)
        assert friend.take_seat("Ben") == 1 + seats.index("friend")
        playing = threading.Thread(target=lambda: outcome.append(friend.play(PATIENCE)), daemon=True)
        playing.start()
        assert until(app, lambda: code_scene.waiting == "")
        post_key(pygame.K_g)  # Go to the table
        assert until(app, lambda: isinstance(app.scenes[-1], CribbageScene)), code_scene.status
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene) and isinstance(scene.session, RemoteCribbageSession)
        assert scene.pub.players == variant.players and scene.pub.called(friend.seat or 0) == "Ben"
        if variant is Variant.PARTNERSHIP:
            assert scene.pub.partner(0) == 2 and scene.pub.side_names()[0] == "You & Ben"
        frames(app)
        shot(app, f"online_cribbage_{variant.value}")
        play_to_the_end(app, scene)
        playing.join(PATIENCE)
    finally:
        friend_link.close()
    assert outcome and outcome[0].over
    game = room.game
    assert isinstance(game, CribbageGame) and game.table.is_over and game.table.state.players == variant.players
    assert scene.pub.scores == game.table.state.scores and scene.snapshot().end == game.table.summary(0)
    kept = [g for g in app.keeper.past_games() if g.game is Game.CRIBBAGE]
    assert len(kept) == 1 and replay(json.loads(kept[0].record)).log == game.table.state.log


def sent_to(link: Link, ply: int) -> dict[str, Any]:
    """The state of the table at `ply` as `link`'s seat was sent it (it comes by itself; a bounded wait)."""
    import time

    end = time.monotonic() + 30
    while time.monotonic() < end:
        message = link.next_message(timeout=0.5)
        if message is not None and message["type"] == "state" and message["state"]["ply"] == ply:
            return dict(message["state"])
    raise AssertionError(f"no state at {ply} came")


def dealt_to_ann(names: tuple[str, str]) -> int:
    """A seed whose cut for deal makes Ann (seat 0) the dealer: the game asks Ben first."""
    return next(seed for seed in range(1, 100) if new_game(seed, names).dealer == 0)


def test_online_you_deal_and_lay_your_crib_cards_before_the_other_and_then_they_lay_theirs(
    app: App, server: tuple[str, Hall]
) -> None:
    """Issue 44 (defect 11): online, the dealer need not wait for the other player's crib cards. Ann's
    two are chosen under "Enter or Discard" over a lit button and laid at once; the server keeps them
    (Ben is told only that she has laid away); the prompt names Ben as still choosing; once Ben lays
    his, both are made in the game's order."""
    url, hall = server
    ann_link, ben_link = Link(url), Link(url)
    try:
        assert ann_link.wait_connected(30) and ben_link.wait_connected(30)
        seed = dealt_to_ann(("Ann", "Ben"))
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        made = ann_link.request("create", game="cribbage", seats=seats, sit=0, seed=seed)
        ann_link.sit(made["code"], made["token"])
        joined = ben_link.request("join", code=made["code"], name="Ben")
        ben_link.sit(made["code"], joined["token"])
        scene = online_table_scene(app, RemoteCribbageSession(ann_link, made["code"], 0))
        app.push(scene)
        frames(app)
        game = hall.rooms[made["code"]].game
        assert isinstance(game, CribbageGame) and game.to_move == 1 and scene.may_lay_away
        chosen = [str(c) for c in scene.hand[:2]]
        for card in chosen:
            post_click(centre(scene.hand_rects()[[str(c) for c in scene.hand].index(card)]))
            frames(app, 1)
        snap = scene.snapshot()
        assert snap.prompt == f"Lay {chosen[0]} and {chosen[1]} in your crib: Enter or Discard."
        assert [b.enabled for b in snap.buttons if b.kind is ButtonKind.DISCARD] == [True]
        shot(app, "online_cribbage_lay_away_first")
        post_key(pygame.K_RETURN)
        frames(app)
        laid = parse_move(f"discard {' '.join(chosen)}")
        assert game.table.ahead == {0: laid} and game.table.ply == 0
        assert scene.seen.discards == laid.cards and scene.snapshot().prompt == "Ben is choosing their crib cards..."
        ben = sent_to(ben_link, hall.rooms[made["code"]].ply)
        assert ben["view"]["discarded_by"] == [True, False] and not any(c in json.dumps(ben) for c in chosen)
        ben_link.request("act", code=made["code"], ply=ben["ply"], move=str(game.table.view(1).legal[0]))
        assert until(app, lambda: scene.pub.phase is Phase.PLAY)
        assert game.table.state.log[1] == str(laid) and [m.player for m in scene.pub.story[:2]] == [1, 0]
    finally:
        ann_link.close()
        ben_link.close()
