"""Taking back a move of classic cribbage by agreement through `RemoteCribbageSession`, at a real server on
the loopback address: Ann asks (`undo` answers () and `pending_undo` waits), Ben agrees and her crib cards
are in her hand again on both sides, told in words; asked again, Ben refuses and the move stands, not to
be asked again; once the starter is cut it is too late. Ben's card in the play goes back while Ann has not
laid hers. Against the server's bot, its card laid after Ann's makes hers stand (issue 44, defect 10)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from cribtiles.cribbage.moves import Discard, PlayCard
from cribtiles.online.client import Link, Refused
from cribtiles.online.cribbage_remote import RemoteCribbageSession
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.session import UndoAsked
from tests.server.running import running_server

WAIT = 20.0


@contextmanager
def seated(seats: list[dict[str, str]], seed: int = 5) -> Iterator[tuple[list[RemoteCribbageSession], str]]:
    """A server, and a session for each person's seat (in seat order), each on its own link."""
    with running_server() as (url, _hall):
        people = [s for s, place in enumerate(seats) if place["kind"] == "person"]
        links = [Link(url) for _ in people]
        try:
            assert all(link.wait_connected(10) for link in links)
            made = links[0].request("create", game="cribbage", seats=seats, sit=people[0], seed=seed)
            links[0].sit(made["code"], made["token"])
            for link, seat in zip(links[1:], people[1:], strict=True):
                joined = link.request("join", code=made["code"], name=seats[seat]["name"])
                link.sit(made["code"], joined["token"])
            yield [RemoteCribbageSession(link, made["code"], s) for link, s in zip(links, people, strict=True)], url
        finally:
            for link in links:
                link.close()


def until(sessions: list[RemoteCribbageSession], done: Callable[[], bool], told: list[str] | None = None) -> None:
    """Drive `sessions` as windows would (the others' moves landed, what is told read) until `done()`."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, "what was waited for did not happen"
        for session in sessions:
            if session.poll() is not None:
                session.land()
            session.take_pending()
            words = session.incidents()
            if told is not None and session is sessions[0]:
                told.extend(words)
        time.sleep(0.005)


TWO = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]


def test_asked_agreed_then_asked_and_refused_then_too_late_once_the_starter_is_cut() -> None:
    with seated(TWO) as ([ann, ben], _):
        assert ann.to_move == 0 and ann.public().dealer == 1  # Ann lays away first, Ben deals
        dealt = ann.view(0).hand
        laid = Discard(dealt[:2])
        told: list[str] = []
        assert not ann.can_undo(0)
        ann.act(0, laid)
        until([ann, ben], lambda: ben.public().to_move == 1)
        assert ann.can_undo(0) and not ben.can_undo(1)
        assert ann.undo(0) == ()  # asked of Ben: nothing taken back yet
        assert ann.pending_undo == UndoAsked(0, (), (1,))
        with pytest.raises(IllegalMove, match="one at a time"):
            ann.undo(0)
        until([ann, ben], lambda: ben.pending_undo is not None)
        assert ben.pending_undo == UndoAsked(0, (), (1,))
        ben.answer_undo(1, True)
        assert ben.undos == 1 and ben.public().to_move == 0 and ben.pending_undo is None
        until([ann, ben], lambda: ann.undos == 1, told)
        told.extend(ann.incidents())
        assert ann.view(0).hand == dealt and ann.view(0).discards == () and ann.public().to_move == 0
        assert "Everyone agreed: your move is taken back." in told
        # asked again, refused: the move stands and is not asked back again
        ann.act(0, laid)
        assert ann.undo(0) == ()
        until([ann, ben], lambda: ben.pending_undo is not None)
        ben.answer_undo(1, False)
        until([ann, ben], lambda: ann.pending_undo is None, told)
        told.extend(ann.incidents())
        assert "Ben said no: your move stands." in told and ann.undos == 1 and ann.view(0).discards == laid.cards
        assert not ann.can_undo(0)
        with pytest.raises(IllegalMove, match="asked back once"):
            ann.undo(0)
        # Ben lays away: the starter is cut, and his crib cards stand
        ben.act(1, Discard(ben.view(1).hand[:2]))
        assert ben.public().starter is not None and not ben.can_undo(1)
        with pytest.raises(IllegalMove, match="nothing of yours may be taken back now"):
            ben.undo(1)
        with pytest.raises(Refused, match="starter has been cut since"):  # the server says why in words
            ben.link.request("undo", code=ben.code, ply=ben._last().ply)
        # in the play: Ann leads, Ben lays, Ben asks, Ann agrees: his card is in his hand again
        until([ann, ben], lambda: ann.public().to_move == 0)
        ann.act(0, next(m for m in ann.view(0).legal if isinstance(m, PlayCard)))
        until([ann, ben], lambda: ben.public().to_move == 1)
        held = ben.view(1).hand
        ben.act(1, next(m for m in ben.view(1).legal if isinstance(m, PlayCard)))
        assert ben.can_undo(1) and ben.undo(1) == ()
        until([ann, ben], lambda: ann.pending_undo is not None)
        ann.answer_undo(0, True)
        until([ann, ben], lambda: ben.undos == 2)
        assert ben.view(1).hand == held and len(ann.public().pile) == 1 and ann.undos == 2


def test_against_the_servers_bot_its_card_laid_after_yours_makes_it_too_late() -> None:
    """Ann and the server's easy bot (the game of `test_cribbage_undo`'s bot test, seed 23): Ann's card,
    then the bot's card: the button goes flat as the reply comes, and a request is refused in words."""
    with seated([{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}], seed=23) as ([ann], _):
        for _ in range(20):  # to the play, Ann's first decision there answered by a card of the bot's
            until([ann], lambda: ann.public().to_move == 0)
            legal = ann.view(0).legal
            if isinstance(legal[0], Discard):
                ann.act(0, legal[0])
                continue
            plays = [m for m in legal if isinstance(m, PlayCard)]
            ann.act(0, max(plays, key=lambda m: m.card.value) if plays else legal[0])
            moves = ann._last().moves
            until([ann], lambda moves=moves: ann._last().moves > moves and ann.public().to_move == 0)
            last = ann.public().story[-1]
            if len(plays) > 1 and last.player == 1 and last.card is not None:
                break
        else:
            raise AssertionError("the bot never laid a card after a choice of Ann's")
        assert not ann.can_undo(0)
        with pytest.raises(IllegalMove, match="nothing of yours may be taken back now"):
            ann.undo(0)
        with pytest.raises(Refused, match="Easy bot has laid a card since"):
            ann.link.request("undo", code=ann.code, ply=ann._last().ply)
