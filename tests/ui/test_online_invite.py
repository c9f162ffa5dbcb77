"""The window's side of invitations, open tables and the host token (issue 44), driven by posted events,
headless, against a real server on a loopback port: the code screen's Copy invitation puts the table's
http://…/t/CODE link on the clipboard and shows it, and its host gives an open seat to a bot; the Online
screen lists the server's open tables and one click joins one; Create's "Anyone may join" makes the table
public; Your online games offers the host "Give Ben's seat to a bot" once Ben has been away two minutes.

With CRIBTILES_SHOTS=<folder> set, the screens are also saved there as PNGs to look at."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.client import Link
from cribtiles.server.rooms import HOST_BOT_AWAY
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.online import host_tools
from cribtiles.ui.online.games_list import GamesScene
from cribtiles.ui.online.screens import CodeScene, CreateScene, JoinScene, OnlineScene
from cribtiles.ui.online.services import HeldSeat, OnlineServices
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.window import App
from tests.server.running import running_server
from tests.ui.test_online_screens import PATIENCE, Opened, frames, shot, to_online, until


class Clock:
    """The server's clock, moved by the test (a person away two minutes, without waiting two minutes)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def server(clock: Clock) -> Iterator[tuple[str, Any]]:
    with running_server(clock=clock) as (url, hall):
        yield url, hall


@pytest.fixture
def opened() -> Opened:
    return Opened()


@pytest.fixture
def app(tmp_path: Path, opened: Opened) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path), sessions=opened)
    opened.into(a)
    a.open_title()
    frames(a)
    yield a
    a.close()


def click(app: App, rect: tuple[int, int, int, int]) -> None:
    x, y, w, h = rect
    pos = (x + w // 2, y + h // 2)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app)


def create_with_a_friend(app: App, url: str, public: bool = False) -> CodeScene:
    """From the title: Online, Create a table with a friend's open seat (listed as anyone may join when
    `public`), to the new table's code screen."""
    to_online(app, "Ann", url)
    post_key(pygame.K_c)
    frames(app)
    create = app.scenes[-1]
    assert isinstance(create, CreateScene)
    while create.forms["tiles"].seats[0].value != "friend":
        post_key(pygame.K_LEFT)
        frames(app, 1)
    if public:
        create.focus = create.rows.index(create.public)
        post_key(pygame.K_RIGHT)
        frames(app)
        assert create.public.value is True
        shot(app, "create-public")
    post_key(pygame.K_c)
    assert until(app, lambda: isinstance(app.scenes[-1], CodeScene)), create.status
    scene = app.scenes[-1]
    assert isinstance(scene, CodeScene)
    return scene


def test_the_host_rule_of_the_window_is_the_servers() -> None:
    assert host_tools.HOST_BOT_AWAY == HOST_BOT_AWAY


def test_copy_invitation_puts_the_tables_link_on_the_clipboard_and_shows_it(app: App, server: tuple[str, Any]) -> None:
    url, _hall = server
    scene = create_with_a_friend(app, url)
    pygame.scrap.put_text("something else")
    post_key(pygame.K_i)
    frames(app)
    link = f"{url.replace('ws://', 'http://')}/t/{scene.held.code}"
    assert pygame.scrap.get_text() == link
    assert scene.status == f"Copied: {link}" and scene.tone == "good"
    shot(app, "code-copied")


def test_the_code_screen_offers_the_host_to_give_the_open_seat_to_a_bot(app: App, server: tuple[str, Any]) -> None:
    url, hall = server
    scene = create_with_a_friend(app, url)
    give = "Give the open seat to a bot"
    assert until(app, lambda: give in [i.label for i in scene.menu.items])
    shot(app, "code-give")
    post_key(pygame.K_t)
    assert until(app, lambda: scene.status == "The server's bot has the seat."), scene.status
    room = hall.rooms[scene.held.code]
    assert [(p.kind, p.level) for p in room.places] == [("person", None), ("bot", "medium")]
    assert room.phase == "playing"
    assert until(app, lambda: give not in [i.label for i in scene.menu.items])  # nothing left to give


def test_the_online_screen_lists_the_open_tables_and_one_click_joins_one(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    url, hall = server
    ann = Link(url)
    try:
        assert ann.wait_connected(PATIENCE)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "level": "hard"}]
        made = ann.request("create", game="tiles", seats=seats, sit=0, public=True, rules="joker=on")
        ann.request("create", game="tiles", seats=[{"kind": "open"}] * 2)  # not public: not listed
        scene = to_online(app, "Ben", url)
        assert until(app, lambda: bool(scene.open_tables.rows)), scene.open_tables.said
        code = made["code"]
        assert [c for c, _ in scene.open_tables.rows] == [code]
        words = host_tools_words(scene)
        assert words == f"Join {code[:3]} {code[3:]} · Kings Cribbage · Ann, Hard bot · 1 seat open · Joker rule"
        shot(app, "online-open-tables")
        click(app, scene.open_tables.rows[0][1])
        assert until(app, lambda: bool(opened.taken)), getattr(app.scenes[-1], "status", "")
        assert isinstance(app.scenes[-1], JoinScene)
        _link, at, seat = opened.calls[0]
        assert (at, seat) == (code, 1)
        assert hall.rooms[code].places[1].name == "Ben" and hall.rooms[code].phase == "playing"
    finally:
        ann.close()


def host_tools_words(scene: OnlineScene) -> str:
    from cribtiles.ui.online.open_tables import row_words

    return row_words(scene.open_tables.tables[0])


def test_a_table_made_with_anyone_may_join_is_listed_on_the_server(app: App, server: tuple[str, Any]) -> None:
    url, hall = server
    scene = create_with_a_friend(app, url, public=True)
    assert hall.rooms[scene.held.code].settings.public is True
    lister = Link(url)
    try:
        assert lister.wait_connected(PATIENCE)
        assert [t["code"] for t in lister.request("open_tables")["tables"]] == [scene.held.code]
    finally:
        lister.close()


def test_the_open_tables_say_their_rules_in_words_not_as_the_create_screen_sends_them(
    app: App, server: tuple[str, Any]
) -> None:
    """The Create screen sends every rule ("start=low,exchange=when-stuck,joker=off,…"): its table's row
    on the Online screen was that text, cut off; it says the variant and the rules that differ, in words."""
    url, _hall = server
    mine = create_with_a_friend(app, url, public=True)
    post_key(pygame.K_ESCAPE)  # back to the Online screen
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, OnlineScene)
    dee = Link(url)
    try:
        assert dee.wait_connected(PATIENCE)
        seats = [{"kind": "person", "name": "Dee"}, {"kind": "open"}, {"kind": "open"}]
        rules = "muggins=on,play_muggins=off,target=121,variant=three-player"
        made = dee.request("create", game="cribbage", seats=seats, sit=0, rules=rules, public=True)
    finally:
        dee.close()
    assert until(app, lambda: len(scene.open_tables.rows) == 2), scene.open_tables.said
    from cribtiles.ui.online.open_tables import row_words

    crib, tiles = made["code"], mine.held.code
    assert [row_words(t) for t in scene.open_tables.tables] == [
        f"Join {crib[:3]} {crib[3:]} · Cribbage · three players · Dee · 2 seats open · muggins",
        f"Join {tiles[:3]} {tiles[3:]} · Kings Cribbage · Ann · 1 seat open",
    ]
    shot(app, "open-tables-in-words")


def test_your_online_games_offers_the_host_to_give_the_seat_of_a_player_away_two_minutes_to_a_bot(
    app: App, server: tuple[str, Any], clock: Clock
) -> None:
    url, hall = server
    ann = Link(url)
    try:
        assert ann.wait_connected(PATIENCE)
        made = ann.request("create", game="tiles", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}], sit=0)
    finally:
        ann.close()
    code = made["code"]
    ben = Link(url)
    try:
        assert ben.wait_connected(PATIENCE)
        ben.request("join", code=code, name="Ben")
    finally:
        ben.close()  # Ben vanishes
    book = app.online.book  # type: ignore[union-attr]
    book.add(HeldSeat(url, code, 0, "Ann", "tiles", made["token"], made["host"]))
    end = time.monotonic() + PATIENCE
    while hall.rooms[code].present.get(1) and time.monotonic() < end:
        time.sleep(0.05)
    clock.now += HOST_BOT_AWAY - 60  # a minute short of the rule: nothing offered
    post_key(pygame.K_y)
    frames(app)
    games = app.scenes[-1]
    assert isinstance(games, GamesScene)
    assert until(app, lambda: games.heard.get((url, code)) is not None)
    frames(app)
    assert games.offer() is None and [label for label, _, _ in games.buttons] == ["Resume", "Forget", "Back"]
    clock.now += 60
    post_key(pygame.K_r)  # asks again
    assert until(app, lambda: games.offer() is not None)
    frames(app)
    labels = [label for label, _, _ in games.buttons]
    assert labels == ["Resume", "Forget", "Give Ben's seat to a bot", "Back"]
    shot(app, "games-give")
    click(app, next(rect for label, _, rect in games.buttons if label == "Give Ben's seat to a bot"))
    given = f"The server's bot has the seat at {code[:3]} {code[3:]}."
    # what the screen says next (the list asked again, every few seconds) may follow at once: the words
    # are looked for as each frame is drawn, not only once the job is done
    assert until(app, lambda: games.status == given), games.status
    assert hall.rooms[code].places[1].host_bot == "medium"
    assert until(app, lambda: games.offer() is None)  # the seat has its bot: nothing more to give
