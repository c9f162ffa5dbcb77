"""LocalSession: a table driven for its people, its bots advanced by `poll` and made by `land`."""

from __future__ import annotations

import random

import pytest

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move
from cribtiles.rules.options import RuleOptions
from cribtiles.table.seats import Seat
from cribtiles.table.session import GameSession
from cribtiles.table.tiles.history import TurnRecord
from cribtiles.table.tiles.session import InlineThinker, LocalSession
from cribtiles.table.tiles.table import Table


class Keeps:
    def __init__(self) -> None:
        self.saved: list[int] = []
        self.recorded: list[Table] = []

    def save(self, table: Table) -> bool:
        self.saved.append(len(table.state.turns))
        return True

    def record(self, game: Table) -> None:
        self.recorded.append(game)


class Slow:
    """A thinker whose move comes at the second `result` (as a worker's, a few frames later)."""

    def __init__(self) -> None:
        self.incidents: list[str] = []
        self.busy = False
        self.asked = 0
        self._view: PlayerView | None = None
        self.cancelled = 0

    def start(self, level: str, view: PlayerView, seed: int) -> None:
        self._view, self.busy, self.asked = view, True, 0

    def result(self) -> Move | None:
        self.asked += 1
        if self._view is None or self.asked < 2:
            return None
        view, self._view, self.busy = self._view, None, False
        return greedy_move(view, random.Random(0))

    def cancel(self) -> None:
        self._view, self.busy = None, False
        self.cancelled += 1


def bot_first(seed_from: int = 0) -> Table:
    """A table of You and Easy where Easy drew to start."""
    for seed in range(seed_from, seed_from + 100):
        table = Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(), seed)
        if table.state.current == 1:
            return table
    raise AssertionError("no seed lets the bot start")


def test_poll_announces_the_bots_move_and_land_makes_it() -> None:
    thinker = Slow()
    session = LocalSession(bot_first(), thinker)
    assert session.mine == (0,) and session.to_move == 1 and not session.thinking
    assert session.poll() is None and session.thinking  # asked
    assert session.poll() is None  # still thinking
    move = session.poll()
    assert move is not None and session.poll() == move  # announced, not yet made
    assert session.state.turns == ()
    record = session.land()
    assert record.player == 1 and record.turn.move == move and session.to_move == 0 and not session.thinking
    with pytest.raises(IllegalMove):
        session.land()  # nothing is on its way any more


def test_the_seats_of_others_are_not_this_drivers() -> None:
    session = LocalSession(bot_first())
    with pytest.raises(IllegalMove, match="not played here"):
        session.act(1, greedy_move(session.table.view(1), random.Random(0)))
    with pytest.raises(IllegalMove, match="not played here"):
        session.view(1)  # the bot's rack is not this driver's to see
    with pytest.raises(IllegalMove, match="Easy's turn"):
        session.act(0, greedy_move(session.view(0), random.Random(0)))


def test_undo_drops_the_reply_on_its_way() -> None:
    thinker = Slow()
    table = bot_first()
    session = LocalSession(table, InlineThinker())
    assert session.poll() is None and session.poll() is not None
    session.land()
    session.act(0, greedy_move(session.view(0), random.Random(0)))
    session.thinker = thinker
    session.poll()
    assert session.thinking
    taken = session.undo(0)
    assert [r.player for r in taken] == [0] and not session.thinking and thinker.cancelled == 1
    assert len(session.state.turns) == 1 and session.to_move == 0 and table.undos == 1


def test_save_and_finish_go_to_the_keeper_and_a_game_is_recorded_only_once_over() -> None:
    keeps = Keeps()
    session = LocalSession(Table.new((Seat("Ann"), Seat("Ben")), RuleOptions(), 3), keeper=keeps)
    session.save()
    session.finish()
    assert keeps.saved == [0] and keeps.recorded == []
    while session.to_move is not None:
        seat = session.to_move
        session.act(seat, greedy_move(session.view(seat), random.Random(seat)))
    session.finish()
    assert keeps.recorded == [session.record()] and session.record().match_over


def test_incidents_are_told_once() -> None:
    thinker = InlineThinker()
    session = LocalSession(bot_first(), thinker)
    thinker.incidents.append("The Easy bot failed")
    assert session.incidents() == ("The Easy bot failed",) and session.incidents() == ()


def test_again_is_a_new_game_at_the_same_table_and_the_old_one_stops() -> None:
    thinker = Slow()
    keeps = Keeps()
    old = LocalSession(Table.new((Seat("You"), Seat("Easy", "easy")), RuleOptions(rounds=2), 1), thinker, keeps)
    while old.to_move != 1:
        old.act(0, greedy_move(old.view(0), random.Random(0)))
    old.poll()
    assert old.thinking
    fresh = old.again((Seat("You"), Seat("Hard", "hard")), 99)
    assert not old.thinking and thinker.cancelled == 1  # the bot of the old game stops thinking
    assert fresh.thinker is thinker and fresh.keeper is keeps and fresh.table.match.seed == 99
    assert fresh.seats[1] == Seat("Hard", "hard") and fresh.match.options.rounds == 2 and fresh.state.turns == ()


def test_the_tile_session_has_the_game_neutral_verbs() -> None:
    session: GameSession[PlayerView, Move, Move, TurnRecord] = LocalSession(bot_first())  # mypy checks it
    assert session.mine == (0,) and session.to_move == 1 and not session.is_over
