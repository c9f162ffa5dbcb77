"""Both games' sessions, local and remote, answer the one game-neutral `GameSession`: the tile game's
`Session` and cribbage's `CribbageDriver` extend it, and `LocalSession`, `CribbageSession`,
`RemoteSession` and `RemoteCribbageSession` provide every one of its verbs (mypy checks the assignments
below; the test checks the same at run time) (issue 45)."""

from __future__ import annotations

import inspect

from cribtiles.cribbage.moves import Move as CribbageMove
from cribtiles.cribbage.view import CribbageView
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.online.remote import RemoteSession
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Move
from cribtiles.table.cribbage.public import PublicMove
from cribtiles.table.cribbage.session import CribbageDriver, CribbageSession
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.seats import Seat
from cribtiles.table.session import GameSession
from cribtiles.table.tiles.history import TurnRecord
from cribtiles.table.tiles.session import LocalSession, Session
from cribtiles.table.tiles.table import Table

TileSession = GameSession[PlayerView, Move, Move, TurnRecord]
CribSession = GameSession[CribbageView, CribbageMove, CribbageMove, PublicMove | None]

#: The game-neutral verbs, as the issue names them, and `about` (what the table says of a seat beside its name).
VERBS = {
    "seats",
    "mine",
    "to_move",
    "is_over",
    "thinking",
    "view",
    "act",
    "poll",
    "land",
    "save",
    "finish",
    "incidents",
    "chat_allowed",
    "say",
    "chat_lines",
    "where",
    "here",
    "about",
    "close",
}


def typed(
    local: LocalSession, crib: CribbageSession, remote: RemoteSession, crib_remote: RemoteCribbageSession
) -> None:
    """Never called: mypy holds each session to the protocols it is driven through."""
    tiles: list[TileSession] = [local, remote]
    sessions: list[Session] = [local, remote]
    cribbage: list[CribSession] = [crib, crib_remote]
    drivers: list[CribbageDriver] = [crib, crib_remote]
    shared: list[TileSession | CribSession] = [*tiles, *sessions, *cribbage, *drivers]
    assert shared


def protocol_verbs(protocol: type) -> set[str]:
    """The verbs `protocol` declares and those of the protocols it extends (the chat's `Talker`)."""
    return {name for cls in protocol.__mro__ if cls is not object for name in vars(cls) if not name.startswith("_")}


def test_the_game_neutral_verbs_are_the_issues() -> None:
    assert protocol_verbs(GameSession) == VERBS


def test_both_games_protocols_extend_the_game_neutral_one() -> None:
    assert GameSession in Session.__mro__ and GameSession in CribbageDriver.__mro__


def test_every_session_provides_every_verb() -> None:
    for cls in (LocalSession, CribbageSession, RemoteSession, RemoteCribbageSession):
        missing = {verb for verb in VERBS if not hasattr(cls, verb)}
        assert missing == set(), (cls.__name__, missing)
        calls = {verb for verb in VERBS if callable(inspect.getattr_static(GameSession, verb))}
        for verb in calls:  # a method where the protocol has one, a property where it has a property
            assert callable(inspect.getattr_static(cls, verb)), (cls.__name__, verb)


def test_local_sessions_of_both_games_answer_the_verbs() -> None:
    local = LocalSession(Table.new((Seat("Ann"), Seat("Easy", "easy")), seed=3))
    crib = CribbageSession(CribbageTable.new(3, "easy"))
    for session, seats in ((local, ("Ann", "Easy")), (crib, ("You", "Easy bot"))):
        assert tuple(s.name for s in session.seats) == seats, session
        assert session.mine == (0,) and not session.is_over and session.where is None
        assert session.incidents() == () and session.chat_lines == () and not session.chat_allowed
        session.close()
