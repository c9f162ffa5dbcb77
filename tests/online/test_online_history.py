"""A game finished online goes into every player's history with its replay, each once: two people at a
real server on the loopback address, each with a history of their own (a `Store` in a folder of its
own), for the tile game (`RemoteSession`) and for classic cribbage (`RemoteCribbageSession`); a game
asked to finish again, and a session made again for the finished table (a reconnection, the game opened
again from Your online games), record nothing twice. A person against the server's cribbage bot is
counted against that bot's level, as at one window (issue 31)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cribtiles.app.storage import Store
from cribtiles.bot.cribbage.bots import choose_safely as choose_card
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.cribbage.record import replay
from cribtiles.online.client import Link
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.online.remote import RemoteSession
from cribtiles.server.cribbage_room import CribbageGame
from cribtiles.server.front import Hall, Limits
from cribtiles.server.tiles_room import TilesGame
from cribtiles.table.game_summary import Game, GameSummary, Result
from tests.server.running import running_server

FAST = Limits(per_second=1000, burst=1000)
WAIT = 120.0  # the most seconds a game here may take: only a hung test meets it


def connected(url: str) -> Link:
    link = Link(url)
    assert link.wait_connected(10), link.problem
    return link


@contextmanager
def two_people(game: str, rules: str, seed: int) -> Iterator[tuple[Hall, str, str, list[Link], list[str]]]:
    """A server and a table of `game` for Ann (seat 0) and Ben (seat 1), each on a link of their own:
    the hall, the address, the code, the links and the seat tokens."""
    with running_server(limits=FAST) as (url, hall):
        links = [connected(url), connected(url)]
        try:
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            made = links[0].request("create", game=game, seats=seats, rules=rules, seed=seed, sit=0)
            code = made["code"]
            joined = links[1].request("join", code=code, name="Ben")
            tokens = [made["token"], joined["token"]]
            for link, token in zip(links, tokens, strict=True):
                link.sit(code, token)
            yield hall, url, code, links, tokens
        finally:
            for link in links:
                link.close()


def cribbage_games(store: Store) -> list[GameSummary]:
    return [g for g in store.past_games() if g.game is Game.CRIBBAGE]


def play_cribbage(sessions: list[RemoteCribbageSession]) -> None:
    """Every seat's session plays its own seat (an easy bot chooses) and lands the other's moves, to
    the end of the game."""
    bot, rng = make_cribbage_bot("easy"), random.Random(4)
    end = time.monotonic() + WAIT
    while not all(s.is_over for s in sessions):
        assert time.monotonic() < end, "the game did not end in time"
        moved = False
        for s in sessions:
            s.take_pending()
            if s.is_over:
                continue
            if s.to_move == s.seat:
                s.act(s.seat, choose_card(bot, s.view(s.seat), rng))
                moved = True
            elif s.poll() is not None:
                s.land()
                moved = True
        if not moved:
            time.sleep(0.002)


def test_a_cribbage_game_of_two_people_goes_into_both_histories_once(tmp_path: Path) -> None:
    with two_people("cribbage", "target=61", 12) as (hall, url, code, links, tokens):
        stores = [Store(tmp_path / "ann"), Store(tmp_path / "ben")]
        sessions = [RemoteCribbageSession(links[s], code, s, keeper=stores[s]) for s in (0, 1)]
        play_cribbage(sessions)
        game = hall.rooms[code].game
        assert isinstance(game, CribbageGame) and game.table.is_over
        for s in sessions:
            s.finish()
            s.finish()  # once, however often asked
        kept = [cribbage_games(store) for store in stores]
        assert [len(k) for k in kept] == [1, 1]
        ann, ben = kept[0][0], kept[1][0]
        assert ann.key == ben.key and ann.seats == ben.seats == (("Ann", None), ("Ben", None))
        assert ann.result is Result.PEOPLE_ONLY and ann.scores == game.table.state.scores
        assert replay(json.loads(ann.record)).log == game.table.state.log  # the game replays from it
        assert stores[0].statistics().cribbage.games == 0  # not a game against a bot

        again = connected(url)  # Ben comes back to the finished table later, from another connection
        try:
            again.sit(code, tokens[1])
            reopened = RemoteCribbageSession(again, code, 1, keeper=stores[1])
            assert reopened.is_over
            reopened.finish()
        finally:
            again.close()
        assert [g.key for g in cribbage_games(stores[1])] == [ben.key]  # not twice


def test_a_cribbage_game_against_the_servers_bot_is_counted_against_its_level(tmp_path: Path) -> None:
    with running_server(limits=FAST) as (url, hall):
        link = connected(url)
        try:
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "hard"}]
            made = link.request("create", game="cribbage", seats=seats, rules="target=61", seed=3, sit=0)
            link.sit(made["code"], made["token"])
            store = Store(tmp_path)
            session = RemoteCribbageSession(link, made["code"], 0, keeper=store)
            play_cribbage([session])
            session.finish()
        finally:
            link.close()
        game = hall.rooms[made["code"]].game
        assert isinstance(game, CribbageGame)
        (kept,) = cribbage_games(store)
        assert kept.seats == (("Ann", None), ("Hard bot", "hard")) and kept.person == 0
        won = game.table.state.scores[0] > game.table.state.scores[1]
        assert kept.result is (Result.WIN if won else Result.LOSS)
        stats = store.statistics().cribbage
        assert stats.games == 1 and [line.level for line in stats.lines] == ["hard"]


def play_tiles(sessions: list[RemoteSession]) -> None:
    """Every seat's session plays its own seat (an easy bot chooses) and lands the others' moves, to the
    end of the match."""
    bot, rng = make_bot("easy"), random.Random(2)
    end = time.monotonic() + WAIT
    while not all(s.is_over and s.match.is_over for s in sessions):
        assert time.monotonic() < end, "the game did not end in time"
        moved = False
        for s in sessions:
            seat = s.mine[0]
            if s.is_over:
                if not s.match.is_over:
                    s.next_round()
                    moved = True
                continue
            if s.to_move == seat:
                s.act(seat, choose_safely(bot, s.view(seat), rng))
                moved = True
            elif s.poll() is not None:
                s.land()
                moved = True
        if not moved:
            time.sleep(0.002)


def test_a_tile_game_of_two_people_goes_into_both_histories_once(tmp_path: Path) -> None:
    with two_people("tiles", "", 21) as (hall, url, code, links, tokens):
        stores = [Store(tmp_path / "ann"), Store(tmp_path / "ben")]
        sessions = [RemoteSession(links[s], code, s, keeper=stores[s]) for s in (0, 1)]
        play_tiles(sessions)
        game = hall.rooms[code].game
        assert isinstance(game, TilesGame)
        for s in sessions:
            s.finish()
            s.finish()
        kept: list[list[GameSummary]] = [[g for g in store.past_games() if g.game is Game.TILES] for store in stores]
        assert [len(k) for k in kept] == [1, 1]
        ann, ben = kept[0][0], kept[1][0]
        assert ann.key == ben.key and ann.seats == ben.seats == (("Ann", None), ("Ben", None))
        assert ann.scores == tuple(sessions[0].state.final_scores())
        replayed: Any = stores[0].past_table(ann.id)
        assert replayed is not None and replayed.state.turns == sessions[0].state.turns  # its replay

        again = connected(url)
        try:
            again.sit(code, tokens[1])
            reopened = RemoteSession(again, code, 1, keeper=stores[1])
            assert reopened.is_over and reopened.match.is_over
            reopened.finish()
            reopened.close()
        finally:
            again.close()
        assert [g.key for g in stores[1].past_games()] == [ben.key]  # not twice
