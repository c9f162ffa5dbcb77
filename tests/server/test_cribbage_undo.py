"""Taking back a move of classic cribbage at an online table, by agreement (`Room`, no socket, its clock
passed in), as the tile game's: the asker's last decision (and the moves after it that showed nothing)
goes back once every other person seated has agreed; the server's bots agree by themselves; a refusal
ends it and the move is not asked back again. And online a move stands once anything came to light after
it: the starter cut, another's card laid, a hand shown, a count said aloud answered, so that nobody
decides again knowing more (issue 44, defect 10)."""

from __future__ import annotations

import json
from typing import Any

from cribtiles.cribbage.moves import Count, Discard, Go, PlayCard, parse_move
from cribtiles.cribbage.options import Phase
from cribtiles.server.cribbage_room import CribbageGame
from cribtiles.server.rooms import Room, Settings, read_places

from .test_rooms import T0, kept, refused


def crib_room(seats: list[dict[str, Any]], rules: str = "", seed: int = 5) -> Room:
    room, _ = Room.new("ABCDEF", "cribbage", read_places("cribbage", seats), Settings(rules=rules), seed, T0)
    for seat, place in enumerate(seats):
        if place["kind"] == "open":
            room.take(("Ann", "Ben", "Cy", "Di")[seat], T0)
    return room


def game(room: Room) -> CribbageGame:
    assert isinstance(room.game, CribbageGame)
    return room.game


def act(room: Room, seat: int, move: str) -> bool:
    return room.act(seat, {"type": "act", "ply": room.ply, "move": move}, T0)


def ask(room: Room, seat: int) -> bool:
    return room.act(seat, {"type": "undo", "ply": room.ply}, T0)


def answer(room: Room, seat: int, yes: bool) -> bool:
    asked = room.undo_ask
    assert asked is not None
    return room.act(seat, {"type": "undo_answer", "ply": asked.ply, "yes": yes}, T0)


def first_legal(room: Room, seat: int) -> str:
    """The first of `seat`'s moves (a discard, a card, a go, a count), as a client sends it."""
    moves = [m for m in game(room).table.view(seat).legal if not isinstance(m, Count) or m.declared is None]
    return str(moves[0])


def bots_reply(room: Room) -> int:
    moved = 0
    while (request := room.bot_request()) is not None:
        assert room.play_bot(game(room).chooser(request), request, T0)
        moved += 1
    return moved


def hand(room: Room, seat: int) -> list[str]:
    return sorted(str(c) for c in game(room).table.view(seat).hand)


def told(room: Room, seat: int | None) -> dict[str, Any]:
    return dict(room.shown(seat, T0))


TWO = [{"kind": "open"}, {"kind": "open"}]


def test_two_people_a_discard_goes_back_once_the_other_agrees_and_no_one_else_sees_it() -> None:
    room = crib_room(TWO)
    first = game(room).to_move
    assert first is not None
    other, dealt = 1 - first, hand(room, first)
    laid = first_legal(room, first)
    assert not told(room, first)["can_undo"]  # nothing to take back yet
    assert act(room, first, laid)
    cards = parse_move(laid)
    assert isinstance(cards, Discard)
    assert told(room, first)["can_undo"] and not told(room, other)["can_undo"]
    ply = room.ply
    assert ask(room, first)
    expected = {"seat": first, "ply": ply, "agreed": [], "waiting": [other], "ended": None, "by": None}
    assert told(room, first)["undo"] == told(room, other)["undo"] == room.shown(None, T0)["undo"] == expected
    assert not told(room, first)["can_undo"]  # asked already
    assert answer(room, other, True)
    assert hand(room, first) == dealt and game(room).to_move == first and game(room).table.ply == 0
    assert told(room, first)["undo"]["ended"] == "made" and told(room, first)["undos"] == 1
    assert room.ply == ply + 1
    for seat in (other, None):  # the asker's crib cards reach no one else, before, during or after
        assert not any(str(c) in json.dumps(room.shown(seat, T0)) for c in cards.cards)
    assert act(room, first, laid)  # laid again: the game goes on
    assert told(room, other)["undo"] is None


def test_a_refusal_stands_and_the_same_move_is_not_asked_back_again() -> None:
    room = crib_room(TWO)
    first = game(room).to_move
    assert first is not None
    assert act(room, first, first_legal(room, first))
    assert ask(room, first)
    refused(room, "you asked", lambda: answer(room, first, True))
    assert answer(room, 1 - first, False)
    assert told(room, first)["undo"]["ended"] == "refused" and told(room, first)["undo"]["by"] == 1 - first
    assert not told(room, first)["can_undo"] and game(room).table.state.discarded[first]
    refused(room, "said no", lambda: ask(room, first))


def test_once_the_starter_is_cut_the_discards_stand() -> None:
    room = crib_room(TWO)
    first = game(room).to_move
    assert first is not None
    assert act(room, first, first_legal(room, first))
    assert act(room, 1 - first, first_legal(room, 1 - first))
    assert game(room).table.state.starter is not None
    assert not told(room, 1 - first)["can_undo"] and not told(room, first)["can_undo"]
    refused(room, "the starter has been cut since", lambda: ask(room, 1 - first))
    refused(room, "has moved since", lambda: ask(room, first))


def test_crib_cards_laid_before_the_others_go_back_when_they_agree() -> None:
    room = crib_room(TWO)
    first = game(room).to_move
    assert first is not None
    dealer, dealt = 1 - first, hand(room, 1 - first)
    assert act(room, dealer, first_legal(room, dealer)) and game(room).table.ahead  # laid ahead of the pone
    assert told(room, dealer)["can_undo"]
    assert ask(room, dealer) and answer(room, first, True)
    assert not game(room).table.ahead and hand(room, dealer) == dealt and told(room, dealer)["undos"] == 1


def to_the_play(room: Room) -> None:
    while game(room).table.state.phase is Phase.DISCARD:
        if not bots_reply(room):
            seat = game(room).to_move
            assert seat is not None
            assert act(room, seat, first_legal(room, seat))


def test_in_the_play_a_card_goes_back_until_the_next_person_lays_theirs() -> None:
    room = crib_room(TWO)
    to_the_play(room)
    pone = game(room).to_move
    assert pone is not None
    held = hand(room, pone)
    card = first_legal(room, pone)
    assert act(room, pone, card)
    assert ask(room, pone) and answer(room, 1 - pone, True)
    assert hand(room, pone) == held and game(room).table.state.pile == ()
    assert act(room, pone, card) and act(room, 1 - pone, first_legal(room, 1 - pone))
    refused(room, "has moved since", lambda: ask(room, pone))
    laid = told(room, pone)["undo"]
    assert laid is None and not told(room, pone)["can_undo"]


def test_against_the_servers_bot_its_card_makes_it_too_late_its_go_does_not() -> None:
    """Ann alone with the server's bot: nobody to ask, so a move goes back at once, the bot's go after it
    too; but once the bot has laid a card after hers, Ann has seen a card of its hand: her move stands."""
    room = crib_room([{"kind": "open"}, {"kind": "bot", "level": "easy"}], seed=23)  # its go in the first deal
    too_late = at_once = 0
    while not game(room).over and not (too_late and at_once):
        if bots_reply(room):
            continue
        table = game(room).table
        legal = table.view(0).legal
        if table.state.phase is not Phase.PLAY:
            assert act(room, 0, first_legal(room, 0))
            continue
        high = max((m for m in legal if isinstance(m, PlayCard)), key=lambda m: m.card.value, default=Go())
        assert act(room, 0, str(high))  # the count pushed up: the bot says go more often
        bots_reply(room)
        if len(legal) < 2 or game(room).to_move != 0 or table.state.phase is not Phase.PLAY:
            continue  # a card she had to lay, or the play moved on
        reply = parse_move(table.state.log[-1])
        if isinstance(reply, PlayCard) and not too_late:
            assert not told(room, 0)["can_undo"]
            refused(room, "Easy bot has laid a card since", lambda: ask(room, 0))
            too_late += 1
        elif isinstance(reply, Go) and table.state.log[-2] == str(high) and not at_once:
            moves, held, ply = table.ply, hand(room, 0), room.ply
            assert told(room, 0)["can_undo"] and ask(room, 0)
            assert told(room, 0)["undo"]["ended"] == "made" and told(room, 0)["undo"]["agreed"] == []
            assert table.ply == moves - 2 and len(hand(room, 0)) == len(held) + 1 and room.ply == ply + 1
            at_once += 1
    assert too_late and at_once


def test_three_players_the_bots_crib_card_goes_back_with_the_askers_once_the_person_agrees() -> None:
    """Ann, the server's bot and Cy (the dealer, who lays away last): Ann's crib card and the bot's after it
    go back once Cy agrees (the bot is not asked); the bot lays the same card again."""
    seats = [{"kind": "open"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}]
    room = crib_room(seats, rules="variant=three-player", seed=2)
    assert game(room).table.state.dealer == 2 and game(room).to_move == 0
    dealt = hand(room, 0)
    assert act(room, 0, first_legal(room, 0)) and bots_reply(room) == 1
    log = game(room).table.state.log
    assert told(room, 0)["can_undo"] and ask(room, 0)
    assert told(room, 0)["undo"]["waiting"] == [2]
    assert answer(room, 2, True)
    assert game(room).table.ply == 0 and hand(room, 0) == dealt and game(room).to_move == 0
    assert act(room, 0, log[0]) and bots_reply(room) == 1 and game(room).table.state.log == log


def test_a_count_said_aloud_goes_back_until_it_is_answered() -> None:
    """Under muggins, a count said aloud goes back while the other may still call it (it tells nothing of
    what it makes), but not once it has been answered: called or let stand, its worth is told."""
    room = crib_room(TWO, rules="muggins=on", seed=9)
    while game(room).table.state.phase is not Phase.SHOW:
        seat = game(room).to_move
        assert seat is not None
        assert act(room, seat, first_legal(room, seat))
    counter = game(room).to_move
    assert counter is not None
    said = str(Count(29))  # said over, whatever the cards make
    assert act(room, counter, said) and game(room).table.state.claim is not None
    assert told(room, counter)["can_undo"]
    assert ask(room, counter) and answer(room, 1 - counter, True)
    assert game(room).table.state.claim is None and game(room).to_move == counter
    assert act(room, counter, said)
    assert act(room, 1 - counter, "no muggins")  # let stand: what it makes is told
    before = kept(room)
    refused(room, "has moved since", lambda: ask(room, counter))
    assert kept(room) == before
    # the same against the server's bot, which answers at once: the answer is what makes it too late
    room = crib_room([{"kind": "open"}, {"kind": "bot", "level": "easy"}], rules="muggins=on", seed=9)
    while not (game(room).table.state.phase is Phase.SHOW and game(room).to_move == 0):
        if not bots_reply(room):
            assert act(room, 0, first_legal(room, 0))
    assert act(room, 0, said)
    bots_reply(room)
    refused(room, "a count said aloud has been answered since", lambda: ask(room, 0))
