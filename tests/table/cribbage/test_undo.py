"""Taking back a move of cribbage against a bot (issue 32): the person's last decision and the bot's
replies go back to the very state decided from, the bot's replies come again the same from the seed,
and what may not be taken back is refused in words."""

from __future__ import annotations

import json
import random

import pytest

from cribtiles.cribbage.moves import CribbageError, Discard, Go, Move
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.table.cribbage.session import CribbageSession, FinishedCribbage, InlineThinker
from cribtiles.table.cribbage.table import CribbageTable


def bots_reply(table: CribbageTable) -> None:
    while table.bot_to_move:
        table.bot_move()


def choices(table: CribbageTable) -> tuple[Move, ...]:
    return table.legal_after_answer(0) or table.state.legal_actions()


def test_every_undo_goes_back_to_the_state_decided_from_and_the_bot_replies_the_same() -> None:
    """Through whole seeded games: at each decision the state is kept; a move made, the bot replying,
    then taken back, gives that very state (and the table's story of the deal) again; the same move
    made again brings the same replies."""
    for seed, options in ((3, CribbageOptions()), (11, CribbageOptions(muggins=True, play_muggins=True))):
        table = CribbageTable.new(seed, "hard", options)
        rng = random.Random(seed)
        checked = 0
        bots_reply(table)
        while not table.is_over:
            legal = choices(table)
            before = (table.state, list(table.story), [list(s) for s in table.sequences], list(table.counted))
            move = rng.choice(list(legal))
            table.play(move)
            bots_reply(table)
            after = table.state.log
            if len(legal) > 1 and not table.is_over:
                taken = table.undo(0)
                assert taken >= 1 and table.undos == checked + 1
                assert table.state == before[0]
                assert (table.story, table.sequences, table.counted) == (before[1], before[2], before[3])
                assert table.pending == []
                table.play(move)
                bots_reply(table)
                assert table.state.log == after  # the bot's replies redone identically
                checked += 1
        assert checked > 10


def test_a_forced_go_goes_back_with_the_card_before_it() -> None:
    """A go you had to say is no decision: U takes back the card you chose before it too."""
    table = CribbageTable.new(5, "easy")
    for _ in range(3000):
        bots_reply(table)
        if table.is_over:
            break
        legal = choices(table)
        if legal == (Go(),):
            made = table._movers()
            last = max(i for i, (p, s) in enumerate(made) if p == 0 and len(s.legal_actions()) > 1)
            table.play(Go())
            assert table.undo_moves(0)[0] == table.state.log[last]
            assert table.undo_moves(0)[-1] == "go" or table.state.log[-1] != "go"
            return
        table.play(legal[0])
    pytest.fail("no forced go came in the game")


def test_what_may_not_be_taken_back_is_refused_in_words() -> None:
    table = CribbageTable.new(2, "medium")
    bots_reply(table)  # the bot may have discarded first: that is not yours to take back
    with pytest.raises(CribbageError, match="you have made no move to take back yet"):
        table.undo(0)
    with pytest.raises(CribbageError, match="a bot's moves stand"):
        table.undo(1)
    with pytest.raises(CribbageError, match="no seat 3"):
        table.undo(2)
    assert not table.can_undo(0) and table.undos == 0
    while not table.is_over:
        table.play(choices(table)[0])
        bots_reply(table)
    with pytest.raises(CribbageError, match="the game is over"):
        table.undo(0)


def test_the_undos_are_kept_with_the_save() -> None:
    table = CribbageTable.new(4, "easy")
    bots_reply(table)
    discard = choices(table)[0]
    assert isinstance(discard, Discard)
    table.play(discard)
    bots_reply(table)
    table.undo(0)
    data = json.loads(table.to_json())
    assert data["marks"] == {"undos": 1, "hints": 0}
    again = CribbageTable.from_json(table.to_json())
    assert again.undos == 1 and again.state == table.state


def test_the_session_takes_back_and_drops_a_reply_on_its_way() -> None:
    class Keeps:
        def __init__(self) -> None:
            self.saved = 0

        def save(self, table: CribbageTable) -> bool:
            self.saved += 1
            return True

        def record(self, game: FinishedCribbage) -> None:
            raise AssertionError("the game is not over")

    keeper = Keeps()
    session = CribbageSession(CribbageTable.new(8, "hard"), InlineThinker(), keeper)
    while session.table.bot_to_move:
        session.poll()  # asks the bot
        assert session.poll() is not None
        session.land()
    start = session.table.state
    session.act(0, choices(session.table)[0])
    if session.table.bot_to_move:
        session.poll()
        assert session.poll() is not None  # the bot's reply is chosen, not yet made
    taken = session.undo(0)
    assert isinstance(taken[0], Discard) and session.table.state == start and keeper.saved == 1
    assert session.poll() is None  # the dropped reply does not land: it is your move again
    assert session.can_undo(0) is False
