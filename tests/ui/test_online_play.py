"""Going straight to a table online (`App.open_online_table`, what `cribtiles online play` opens): the
Online screen's Join with a code, filled in and pressed, headless against a real server on a loopback
port. It takes the open seat, or the seat kept for the name, or goes back to a seat already held (its
token reused, no second join); a wrong code is said on the Join screen, which stays open (issue 31)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cribtiles.app.online_games import OnlineGames
from cribtiles.app.storage import Store
from cribtiles.online.client import Link
from cribtiles.table import Seat
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.online.screens import JoinScene, OnlineScene, held_at
from cribtiles.ui.online.services import HeldSeat, OnlineServices
from cribtiles.ui.window import App
from tests.server.running import running_server

#: Seconds any wait on the server may take before the test fails (never a timing assertion).
PATIENCE = 30.0


class Opened:
    """Stands in for the making of the remote session (tests/online plays one): records what it was given."""

    def __init__(self) -> None:
        self.calls: list[tuple[Link, str, int, str]] = []
        self.taken: list[Any] = []

    def __call__(self, link: Link, code: str, seat: int, game: str = "tiles") -> tuple[str, str, int]:
        self.calls.append((link, code, seat, game))
        return ("session", code, seat)


@pytest.fixture
def server() -> Iterator[tuple[str, Any]]:
    with running_server() as (url, hall):
        yield url, hall


@pytest.fixture
def opened() -> Opened:
    return Opened()


@pytest.fixture
def app(tmp_path: Path, opened: Opened) -> Iterator[App]:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    a = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    a.online = OnlineServices(OnlineGames(tmp_path), sessions=opened)
    a.take_seat = opened.taken.append  # type: ignore[method-assign,assignment]
    a.open_title()
    yield a
    a.close()


def until(app: App, check: Callable[[], bool]) -> bool:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        app.frame(1 / 60)
        if check():
            return True
        time.sleep(0.01)
    return check()


def a_table(url: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE)
        answer: dict[str, Any] = link.request("create", game="tiles", seats=seats)
        return answer
    finally:
        link.close()


def test_it_takes_the_open_seat_and_keeps_it_in_the_list_of_online_games(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    url, hall = server
    made = a_table(url, [{"kind": "bot", "level": "easy"}, {"kind": "open"}])
    code = made["code"]
    app.open_online_table(url, f"{code[:3].lower()} {code[3:]}", "Ben")
    join = app.scenes[-1]
    assert isinstance(join, JoinScene) and isinstance(app.scenes[-2], OnlineScene)
    assert (join.address.text, join.name.text) == (url, "Ben")
    assert until(app, lambda: bool(opened.taken)), join.status
    link, at, seat, game = opened.calls[0]
    assert (at, seat, game) == (code, 1, "tiles") and link.url == url
    assert opened.taken == [("session", code, 1)]
    assert hall.rooms[code].phase == "playing"
    [held] = app.online.book.seats()  # type: ignore[union-attr]
    assert (held.server, held.code, held.seat, held.name) == (url, code, 1, "Ben")
    assert link.seats[code] == held.token


def test_it_takes_the_seat_kept_for_the_name(app: App, server: tuple[str, Any], opened: Opened) -> None:
    url, _hall = server
    made = a_table(url, [{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "person", "name": "Cy"}])
    app.open_online_table(url, made["code"], "Cy")
    assert until(app, lambda: bool(opened.taken)), app.scenes[-1]
    assert opened.calls[0][1:] == (made["code"], 2, "tiles")


def test_a_seat_held_already_is_gone_back_to_with_its_token_and_not_joined_again(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    url, hall = server
    made = a_table(url, [{"kind": "person", "name": "Ann"}, {"kind": "open"}])
    ann = Link(url)
    try:
        assert ann.wait_connected(PATIENCE)
        joined = ann.request("join", code=made["code"], name="Ann")
    finally:
        ann.close()
    book = app.online.book  # type: ignore[union-attr]
    book.add(HeldSeat(url, made["code"], 0, "Ann", "tiles", joined["token"]))
    assert held_at(book, url.removeprefix("ws://"), made["code"].lower()) == book.seats()[0]
    # a second join as Ann would be refused (her seat is taken); the held token takes her back to it
    app.open_online_table(url, made["code"], "Ann")
    join = app.scenes[-1]
    assert isinstance(join, JoinScene) and join.status.startswith("Going back to your seat at ")
    assert until(app, lambda: bool(opened.taken)), join.status
    link, code, seat, game = opened.calls[0]
    assert (code, seat, game) == (made["code"], 0, "tiles") and link.seats[code] == joined["token"]
    assert hall.rooms[code].phase == "waiting"  # nobody took the open seat
    assert len(book.seats()) == 1


def test_a_code_no_table_has_is_said_on_the_join_screen_which_stays_open(
    app: App, server: tuple[str, Any], opened: Opened
) -> None:
    url, _hall = server
    app.open_online_table(url, "ZZZZZZ", "Ben")
    join = app.scenes[-1]
    assert isinstance(join, JoinScene)
    assert until(app, lambda: join.tone == "bad"), join.status
    assert join.status == "No table has that code." and app.scenes[-1] is join
    assert not opened.calls and app.online.book.seats() == []  # type: ignore[union-attr]


def test_without_a_name_it_asks_for_one(tmp_path: Path, opened: Opened) -> None:
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    try:
        app.online = OnlineServices(OnlineGames(tmp_path), sessions=opened)
        app.open_online_table("ws://127.0.0.1:9", "ABCDEF")
        join = app.scenes[-1]
        assert isinstance(join, JoinScene) and join.focused() is join.name
        assert (join.status, join.tone) == ("Type your name first.", "bad")
    finally:
        app.close()


def test_a_person_away_whose_turn_it_is_is_shown_to_play_and_away_not_thinking(
    tmp_path: Path, server: tuple[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real remote session this time: Ben, whose turn it is, has left; Ann's name plate for him says
    he is to play and away (the table waits for him), never that he is thinking."""
    from cribtiles.rules import new_game
    from cribtiles.ui.tiles import panel
    from cribtiles.ui.tiles.game_scene import GameScene

    url, _hall = server
    seed = next(s for s in range(100) if new_game(2, seed=s, names=("Ann", "Ben")).current == 1)
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        made = link.request("create", game="tiles", seats=seats, seed=seed)
        assert link.request("join", code=made["code"], name="Ben")["seat"] == 1
    finally:
        link.close()  # Ben goes away
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    written: list[str] = []
    real_write = panel.write

    def write(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        written.append(text)
        return real_write(surface, text, *args, **kw)

    monkeypatch.setattr(panel, "write", write)
    try:
        app.online = OnlineServices(OnlineGames(tmp_path))
        app.open_online_table(url, made["code"], "Ann")
        assert until(app, lambda: isinstance(app.scenes[-1], GameScene) and app.session.away(1) is not None)
        assert app.session.to_move == 1 and app.session.mine == (0,)
        written.clear()
        app._full = True
        app.frame(1 / 60)
        assert "to play · away" in written
        assert not any(t.startswith("thinking") for t in written)
    finally:
        app.close()


def test_a_person_at_the_table_whose_turn_it_is_is_shown_to_play_not_thinking(
    tmp_path: Path, server: tuple[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ben is connected and it is his turn: Ann's plate for him says he is to play. Only a bot thinks
    (a person's own pace is his, not the machine's)."""
    from cribtiles.rules import new_game
    from cribtiles.ui.tiles import panel
    from cribtiles.ui.tiles.game_scene import GameScene

    url, _hall = server
    seed = next(s for s in range(100) if new_game(2, seed=s, names=("Ann", "Ben")).current == 1)
    link = Link(url)
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), Store(tmp_path), size=(1280, 800))
    written: list[str] = []
    real_write = panel.write

    def write(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        written.append(text)
        return real_write(surface, text, *args, **kw)

    monkeypatch.setattr(panel, "write", write)
    try:
        assert link.wait_connected(PATIENCE)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        made = link.request("create", game="tiles", seats=seats, seed=seed)
        assert link.request("join", code=made["code"], name="Ben")["seat"] == 1
        app.online = OnlineServices(OnlineGames(tmp_path))
        app.open_online_table(url, made["code"], "Ann")
        assert until(app, lambda: isinstance(app.scenes[-1], GameScene) and app.session.to_move == 1)
        written.clear()
        app._full = True
        app.frame(1 / 60)
        assert "to play" in written
        assert not any(t.startswith("thinking") for t in written)
    finally:
        app.close()
        link.close()
