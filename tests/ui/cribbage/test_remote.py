"""The real cribbage scene drives a game at a real server through `RemoteCribbageSession`: your seat is
played with posted events, the other is a seat bot at another connection; the other's moves are said
to be ready, then landed one at a time; several deals to the end card (issue 31), which comes at the
answer to the winning count (issue 43); crib cards laid as the other lays theirs are sent again (issue 44)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.moves import CribbageError, Go, PlayCard
from cribtiles.cribbage.options import Phase
from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.rules.errors import IllegalMove
from cribtiles.server.cribbage_room import CribbageGame
from cribtiles.server.front import Hall, Limits
from cribtiles.table import Seat
from cribtiles.table.cribbage.public import PublicMove
from cribtiles.table.cribbage.session import CribbageDriver
from cribtiles.table.cribbage.stand_in import stand_in_state
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.scene import CribbageScene
from cribtiles.ui.window import App
from tests.server.running import running_server

FAST = Limits(per_second=1000, burst=1000)
#: The most seconds a game may take here (it takes a few): only a hung test meets it.
PATIENCE = 240.0


class Counted(RemoteCribbageSession):
    """The remote session, counting the other's moves landed."""

    landed = 0

    def land(self) -> PublicMove:
        told = super().land()
        self.landed += 1
        return told


@pytest.fixture
def app() -> Iterator[App]:
    a = App(Table.new((Seat.person("You"), Seat.bot("medium")), seed=5), Preferences(speed="instant"), NoKeeper())
    yield a
    a.close()


@pytest.fixture
def server() -> Iterator[tuple[str, Hall]]:
    with running_server(limits=FAST) as running:
        yield running


def table_with_a_seat_bot(url: str, rules: str, seed: int) -> tuple[Link, Link, str, SeatBot]:
    """A table of Ann (this link's seat 0) and a seat bot at another link: both seats taken, the game on."""
    mine, theirs = Link(url), Link(url)
    assert mine.wait_connected(10) and theirs.wait_connected(10)
    made = mine.request("create", game="cribbage", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}],
                        rules=rules, seed=seed, sit=0)  # fmt: skip
    mine.sit(made["code"], made["token"])
    bot = SeatBot(theirs, made["code"], "medium", seed=2)
    assert bot.take_seat("Medium bot") == 1
    return mine, theirs, made["code"], bot


def test_the_scene_plays_a_remote_game_to_its_end_card(app: App, server: tuple[str, Hall]) -> None:
    url, hall = server
    mine, theirs, code, bot = table_with_a_seat_bot(url, "muggins=on,play_muggins=on", 41)
    outcome: list[Outcome] = []
    playing = threading.Thread(target=lambda: outcome.append(bot.play(PATIENCE)))
    playing.start()
    try:
        session = Counted(mine, code, 0)
        driver: CribbageDriver = session  # mypy holds it to the interface, too
        assert driver.mine == (0,) and not hasattr(session, "table")
        scene = CribbageScene(app, session)
        app.push(scene)
        pilot = CribbagePilot(scene, "medium", seed=41)
        end = time.monotonic() + PATIENCE
        while not scene.ended and time.monotonic() < end:
            if not pilot.step():
                time.sleep(0.001)  # the other seat's move is on its way: let the threads run
            app.frame(1 / 60)
            app.frame(1 / 60)
        room = hall.rooms[code]
        assert isinstance(room.game, CribbageGame)
        table = room.game.table
        assert scene.ended and table.is_over and table.state.deal_number >= 4, table.state.scores
        assert table.state.log[-2:] == ("count 13", "no muggins")  # won by a count, at its answer (issue 43)
        assert scene.pub.scores == table.state.scores and scene.pub.summary == table.summary(0)
        assert scene.snapshot().end == table.summary(0)
        assert session.landed > 40 and pilot.steps > 40  # each of the bot's moves landed one at a time
        record = session.record()
        assert record is not None and CribbageTable.from_json(record).state.log == table.state.log
        finished = session.finished_table()  # what the end card's review takes: the game from the server's record
        assert finished is not None and finished.state == table.state
        assert session.incidents() == ()
        with pytest.raises(IllegalMove, match="not played here"):
            session.view(1)  # the other hand never crosses
    finally:
        playing.join(PATIENCE)
        mine.close()
        theirs.close()
    assert outcome and outcome[0].over


def test_your_move_is_judged_here_in_the_engines_words_and_refused_by_the_server_too(
    server: tuple[str, Hall],
) -> None:
    url, hall = server
    mine, theirs, code, bot = table_with_a_seat_bot(url, "", 7)
    try:
        session = RemoteCribbageSession(mine, code, 0)
        table = hall.rooms[code].game
        assert isinstance(table, CribbageGame)
        deadline = time.monotonic() + 30
        while session.public().phase is Phase.DISCARD and time.monotonic() < deadline:
            state = bot.link.next_message(timeout=0.05)
            if state is not None and state["type"] == "state":
                bot.step(state["state"])  # the bot's discard, when it is its turn
            if session.to_move == 0 and session.public().phase is Phase.DISCARD:
                session.act(0, session.view(0).legal[0])
            if session.poll() is not None:
                session.land()
        view = session.view(0)
        assert view.phase is Phase.PLAY
        if session.to_move != 0:
            assert session.why_not(0, Go()) == "It is not your turn."
        else:
            too_big = [c for c in view.hand if view.count + c.value > 31]
            if any(view.count + c.value <= 31 for c in view.hand):
                assert session.why_not(0, Go()).startswith("No go: the ")
            for card in too_big:
                assert "over 31" in session.why_not(0, PlayCard(card))
        absent = next(c for c in stand_in_state(view).hands[1] if c not in view.hand)
        assert session.why_not(0, PlayCard(absent)) in (
            "It is not your turn.",
            f"You do not hold the {absent.name} ({absent}).",
        )
        with pytest.raises(CribbageError):
            session.act(0, PlayCard(absent))
        answer: dict[str, Any] = mine.request("status", code=code)
        assert answer["table"]["turns"] == table.table.ply  # nothing refused was made
    finally:
        mine.close()
        theirs.close()


@pytest.mark.parametrize("coach", [False, True])
def test_a_hint_is_counted_by_the_server_only_where_the_table_allows_the_coach(
    server: tuple[str, Hall], coach: bool
) -> None:
    url, hall = server
    mine, theirs = Link(url), Link(url)
    assert mine.wait_connected(10) and theirs.wait_connected(10)
    made = mine.request("create", game="cribbage", seats=[{"kind": "person", "name": "Ann"}, {"kind": "open"}],
                        seed=9, sit=0, coach=coach)  # fmt: skip
    mine.sit(made["code"], made["token"])
    bot = SeatBot(theirs, made["code"], "medium", seed=2)
    try:
        assert bot.take_seat("Medium bot") == 1
        session = RemoteCribbageSession(mine, made["code"], 0)
        assert session.coach_allowed is coach and session.hints == 0
        game = hall.rooms[made["code"]].game
        assert isinstance(game, CribbageGame)
        if not coach:
            with pytest.raises(IllegalMove, match="did not allow hints"):
                session.count_hint()
            assert game.table.hints == 0
        else:
            assert session.count_hint() == 1
            assert game.table.hints == 1  # kept with the game at the server
    finally:
        mine.close()
        theirs.close()


def test_crib_cards_laid_while_the_other_lays_theirs_first_are_sent_again_and_made(
    server: tuple[str, Hall], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44: Ann deals, so the game asks Ben first; Ann lays away at the very moment Ben does, his
    reaching the server first. Hers is refused (the table moved on), sent again on the newest state, and
    made: it is her turn now. Her session tells both discards, his then hers."""
    url, hall = server
    links = [Link(url), Link(url)]
    try:
        assert all(link.wait_connected(10) for link in links)
        seed = next(s for s in range(1, 100) if new_game(s, ("Ann", "Ben")).dealer == 0)
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        made = links[0].request("create", game="cribbage", seats=seats, sit=0, seed=seed)
        code = made["code"]
        links[0].sit(code, made["token"])
        links[1].sit(code, links[1].request("join", code=code, name="Ben")["token"])
        session = RemoteCribbageSession(links[0], code, 0)
        game = hall.rooms[code].game
        assert isinstance(game, CribbageGame) and session.to_move == 1
        mine, his = session.view(0).legal[0], game.table.view(1).legal[0]
        assert session.why_not(0, mine) == ""  # before Ben's: everyone lays away at once
        sent: list[int] = []
        ask = links[0].request

        def first_ben(kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
            if kind == "act" and not sent:
                links[1].request("act", code=code, ply=fields["ply"], move=str(his))  # his comes first
            if kind == "act":
                sent.append(fields["ply"])
            return ask(kind, timeout, **fields)

        monkeypatch.setattr(links[0], "request", first_ben)
        told = session.act(0, mine)
        assert len(sent) == 2 and sent[1] > sent[0]  # refused once, then sent on the newer ply
        assert told is not None and told.player == 0 and game.table.state.log == (str(his), str(mine))
        assert [m.player for m in session.take_pending()] == [1, 0] and session.public().phase is Phase.PLAY
    finally:
        for link in links:
            link.close()
