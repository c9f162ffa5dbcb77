"""An online table alone (`Room`), with no socket and its clock passed in: seats taken and refused, the
game starting once every seat is taken, tokens kept only as hashes, every act judged by its ply (out of
turn, old, sent twice), the Joker rule's first call, a kept table that goes on identically, the
stand-ins for a timer or an absent player, and chat (issue 31)."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.moves import Pass, Play, format_move
from cribtiles.server.rooms import HOST_BOT_AWAY, MAX_CHAT_KEPT, Room, Settings, read_places, token_hash
from cribtiles.server.tiles_room import TilesGame

T0 = 1_000_000.0


def make_room(seats: list[dict[str, Any]], settings: Settings | None = None, seed: int = 7) -> tuple[Room, str]:
    return Room.new("ABCDEF", "tiles", read_places("tiles", seats), settings or Settings(), seed, T0)


def two_people(settings: Settings | None = None, seed: int = 7) -> tuple[Room, list[str]]:
    """A table of Ann and Ben, both seated: its tokens."""
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}], settings, seed)
    tokens = [room.take("Ann", T0)[1], room.take("Ben", T0)[1]]
    return room, tokens


def tiles(room: Room) -> TilesGame:
    assert isinstance(room.game, TilesGame)
    return room.game


def person_move(room: Room, seat: int, seed: int = 0) -> str:
    """The move an easy bot would make for the person at `seat`, as the text a client sends."""
    view = tiles(room).table.view(seat)
    return format_move(choose_safely(make_bot("easy"), view, random.Random(f"{seed}/{room.ply}")))


def act(room: Room, seat: int, move: str, ply: int | None = None, now: float = T0, **extra: Any) -> bool:
    message = {"type": "act", "ply": room.ply if ply is None else ply, "move": move, **extra}
    return room.act(seat, message, now)


def kept(room: Room) -> str:
    return json.dumps(room.data(), sort_keys=True)


def refused(room: Room, why: str, do: Any) -> None:
    """`do()` is refused with words holding `why`, and changes nothing kept."""
    before = kept(room)
    with pytest.raises(IllegalMove) as caught:
        do()
    assert why.lower() in str(caught.value).lower(), str(caught.value)
    assert kept(room) == before


def play_out(room: Room, limit: int = 2_000, seed: int = 0) -> None:
    """Play `room` to the end: people by an easy bot's choice, bots by the server's chooser; next rounds
    started as the server's players would."""
    for _ in range(limit):
        game = room.game
        if game is None or game.over:
            return
        if game.round_over:
            room.act(0, {"type": "next_round", "ply": room.ply}, T0)
            continue
        request = room.bot_request()
        if request is not None:
            assert room.play_bot(game.chooser(request), request, T0)
            continue
        seat = game.to_move
        assert seat is not None
        assert act(room, seat, person_move(room, seat, seed))
    raise AssertionError("the game did not end")


# --- seats ---


def test_a_named_seat_is_taken_by_its_name_and_an_open_one_by_anyone() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}])
    assert room.phase == "waiting" and room.game is None
    assert room.take("Cat", T0)[0] == 1  # the first open seat, not Ann's
    # no seat is open now: the game begins, and Ann's seat waits for her
    assert room.phase == "playing" and room.game is not None
    assert not room.places[0].taken
    ply = room.ply
    seat, token = room.take("  ann ", T0 + 9)
    assert seat == 0 and room.seat_of(token) == 0
    # her coming moves nothing: a move in flight at that ply stays good, and no turn's clock restarts
    assert room.ply == ply and room.last_change == T0
    assert [p.name for p in room.places] == ["Ann", "Cat", "Easy"]


def test_a_seat_asked_for_by_number() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}])
    assert room.take("Cat", T0, seat=2)[0] == 2
    refused(room, "no seat is open", lambda: room.take("Dan", T0, seat=2))
    refused(room, "no seat is open", lambda: room.take("Dan", T0, seat=0))  # Ann's, not open
    assert room.take("Dan", T0, seat=1)[0] == 1


def test_a_taken_seat_is_refused_in_words() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}])
    room.take("Ann", T0)
    refused(room, "Ann's seat is taken: come back to it with its token", lambda: room.take("ANN", T0))
    room.take("Ben", T0)
    room.take("Cat", T0)
    refused(room, "Ben's seat is taken: come back to it with its token", lambda: room.take("Ben", T0))
    refused(room, "no seat is open", lambda: room.take("Dan", T0))


def test_a_name_already_at_the_table_is_refused() -> None:
    room, _ = make_room([{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "hard"}])
    room.take("Ann", T0)
    refused(room, "taken", lambda: room.take("ann", T0))  # her seat now: she comes back with her token
    assert room.places[1].open


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "1 to 40"),
        ("   ", "1 to 40"),
        ("x" * 41, "at most 40"),
        ("Ann\x1b]0;hi\x07", "control"),
        ("A\nB", "control"),
    ],
)
def test_bad_names_are_refused(name: str, why: str) -> None:
    room, _ = make_room([{"kind": "open"}, {"kind": "open"}])
    refused(room, why, lambda: room.take(name, T0))
    assert all(p.open for p in room.places)


def test_a_table_made_with_bad_seats_is_refused() -> None:
    for seats, why in [
        ([{"kind": "open"}], "2 to 4"),
        ([{"kind": "open"}] * 5, "2 to 4"),
        ([{"kind": "bot", "level": "easy"}] * 2, "at least one person"),
        ([{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "ANN"}], "same name"),
        ([{"kind": "open"}, {"kind": "bot", "level": "godlike"}], "no bot level"),
        ([{"kind": "open"}, {"kind": "alien"}], "an open one"),
        ([{"kind": "open"}, "Ann"], "object"),
    ]:
        with pytest.raises(ValueError, match=why):
            read_places("tiles", seats)
    with pytest.raises(ValueError, match="Solitaire"):
        make_room([{"kind": "open"}] * 3, Settings(rules="mode=solitaire"))
    with pytest.raises(ValueError, match="turn timer"):
        make_room([{"kind": "open"}] * 2, Settings(turn_timer=1))


def test_the_game_starts_once_no_seat_is_open() -> None:
    room, _ = make_room([{"kind": "open"}, {"kind": "open"}])
    refused(room, "starts once every seat is taken", lambda: act(room, 0, "pass"))
    room.take("Ann", T0)
    assert room.game is None and room.shown(0, T0)["phase"] == "waiting"
    room.take("Ben", T0)
    assert room.phase == "playing"
    assert room.shown(0, T0)["rack"]


# --- tokens ---


def test_tokens_are_long_random_and_kept_only_as_hashes() -> None:
    room, host = make_room([{"kind": "open"}, {"kind": "open"}, {"kind": "open"}])
    tokens = [room.take(name, T0)[1] for name in ("Ann", "Ben", "Cat")]
    for token in [*tokens, host]:
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) >= 16  # 128 bits or more
    assert len({*tokens, host}) == 4
    data = kept(room)
    for token in [*tokens, host]:
        assert token not in data
    assert [p["token_hash"] for p in room.data()["places"]] == [token_hash(t) for t in tokens]
    assert [room.seat_of(t) for t in tokens] == [0, 1, 2]
    assert room.seat_of(host) is None and room.seat_of("") is None and room.seat_of(tokens[0][:-1]) is None
    assert room.is_host(host) and not room.is_host(tokens[0])


# --- acts ---


def test_a_move_for_a_seat_not_to_move_is_refused() -> None:
    room, _ = two_people()
    mover = tiles(room).to_move
    assert mover is not None
    other = 1 - mover
    refused(room, "not your turn", lambda: act(room, other, "pass"))
    assert act(room, mover, "pass")
    refused(room, "not your turn", lambda: act(room, mover, "pass"))


def test_an_act_for_an_old_ply_is_refused_and_the_same_act_again_is_answered() -> None:
    room, _ = two_people()
    mover = tiles(room).to_move
    assert mover is not None
    move = person_move(room, mover)
    ply = room.ply
    assert act(room, mover, move, ply)
    after = kept(room)
    assert not act(room, mover, move, ply)  # the resend after a lost answer: answered, not made again
    assert kept(room) == after
    refused(room, "moved on", lambda: act(room, mover, "pass", ply))  # another move at that ply
    refused(room, "moved on", lambda: act(room, 1 - mover, move, ply))  # the same move by the other seat
    refused(room, "moved on", lambda: act(room, 1 - mover, person_move(room, 1 - mover), ply + 5))  # a ply to come
    assert act(room, 1 - mover, person_move(room, 1 - mover))


def test_an_illegal_move_or_nonsense_changes_nothing() -> None:
    room, _ = two_people()
    mover = tiles(room).to_move
    assert mover is not None
    for move in ("", "Z9 zz", "exchange", "H8 " + "5S" * 500):
        refused(room, "", lambda move=move: act(room, mover, move))
    refused(room, "joker rule is not in play", lambda: act(room, mover, person_move(room, mover), declared=3))
    refused(room, "no turn to take back", lambda: room.act(mover, {"type": "undo", "ply": room.ply}, T0))
    refused(room, "no next round", lambda: room.act(mover, {"type": "next_round", "ply": room.ply}, T0))
    refused(room, "joker", lambda: room.act(1 - mover, {"type": "call", "ply": room.ply}, T0))
    refused(room, "unknown", lambda: room.act(mover, {"type": "dance", "ply": room.ply}, T0))


def _first_play(room: Room) -> int:
    """Pass until the person to move has a play, make it: its player."""
    for _ in range(40):
        seat = tiles(room).to_move
        assert seat is not None
        text = person_move(room, seat)
        act(room, seat, text)
        last = tiles(room).table.last
        if last is not None and last.is_play:
            return seat
    raise AssertionError("no one played")


def test_under_the_joker_rule_the_first_call_wins() -> None:
    room, _ = make_room([{"kind": "open"}] * 3, Settings(rules="joker=on"))
    for name in ("Ann", "Ben", "Cat"):
        room.take(name, T0)
    player = _first_play(room)
    callers = [s for s in range(3) if s != player]
    assert all(tiles(room).table.may_call(s) for s in callers)
    ply = room.ply
    assert room.act(callers[0], {"type": "call", "ply": ply}, T0)
    assert len(tiles(room).table.state.calls) == 1
    refused(room, "moved on", lambda: room.act(callers[1], {"type": "call", "ply": ply}, T0))
    assert [c.caller for _, c in tiles(room).table.state.calls] == [callers[0]]
    assert not room.act(callers[0], {"type": "call", "ply": ply}, T0)  # the winner's resend: answered
    assert len(tiles(room).table.state.calls) == 1
    refused(room, "joker", lambda: room.act(callers[0], {"type": "call", "ply": room.ply}, T0))  # not twice


def test_a_joker_declaration_and_its_claims_are_kept_only_when_true() -> None:
    room, _ = make_room([{"kind": "open"}] * 2, Settings(rules="joker=on"))
    room.take("Ann", T0)
    room.take("Ben", T0)
    for _ in range(40):
        seat = tiles(room).to_move
        assert seat is not None
        move = person_move(room, seat)
        if move.startswith(("pass", "exchange")):
            act(room, seat, move)
            continue
        bogus = [{"what": "fifteen", "squares": ["A1", "A2"]}, "not an item", {"squares": "H8"}]
        assert act(room, seat, move, declared=0, claimed=bogus)
        assert "claimed" not in room.shown(seat, T0)  # nothing claimed that the play did not score
        assert tiles(room).table.state.unclaimed >= 0
        return
    raise AssertionError("no one played")


def test_next_round_and_undo_go_by_the_ply_too() -> None:
    room, _ = two_people(Settings(rules="rounds=2", coach=True))
    mover = tiles(room).to_move
    assert mover is not None
    act(room, mover, person_move(room, mover))
    refused(room, "moved on", lambda: room.act(mover, {"type": "undo", "ply": room.ply - 1}, T0))
    assert room.act(mover, {"type": "undo", "ply": room.ply}, T0)  # asked: the other person agrees
    assert room.act(1 - mover, {"type": "undo_answer", "ply": room.ply, "yes": True}, T0)
    assert tiles(room).table.turn == 0
    room.count_hint()
    assert tiles(room).table.hints == 1


def test_a_kept_table_goes_on_identically() -> None:
    room, _ = make_room(
        [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}, {"kind": "open"}],
        Settings(rules="joker=on,rounds=2"),
        seed=11,
    )
    room.take("Ann", T0)
    room.take("Ben", T0)
    for _ in range(12):  # into the middle of the first round
        request = room.bot_request()
        if request is not None:
            room.play_bot(tiles(room).chooser(request), request, T0)
        else:
            seat = tiles(room).to_move
            assert seat is not None
            act(room, seat, person_move(room, seat))
    room.say(0, "Ann", "hello", T0)
    copy = Room.from_data(json.loads(json.dumps(room.data())), T0 + 5)
    assert kept(copy) == kept(room)
    assert copy.shown(2, T0) | {"seats": None} == room.shown(2, T0) | {"seats": None}
    play_out(room, seed=3)
    play_out(copy, seed=3)
    assert kept(copy) == kept(room)
    assert room.phase == "over" and tiles(room).summary() == tiles(copy).summary()


# --- stand-ins ---


def test_a_turn_timer_lets_a_bot_move_or_passes() -> None:
    for on_timeout, level in (("bot", "easy"), ("pass", None)):
        room, _ = two_people(Settings(turn_timer=60, on_timeout=on_timeout))
        room.arrive(0)
        room.arrive(1)
        start = room.last_change
        mover = tiles(room).to_move
        assert room.deadline() == start + 60
        assert room.due(start + 59) is None
        assert room.due(start + 60) == (mover, level)
        ply = room.ply
        room.stand_in(mover, level, start + 60)
        assert room.ply == ply + 1 and tiles(room).to_move != mover
        last = tiles(room).table.last
        assert last is not None and last.player == mover
        if level is None:
            assert last.turn.move == Pass()
        assert room.due(start + 60) is None  # the next player's clock starts now


def test_an_absent_player_gets_a_bot_only_after_the_time_the_table_allows() -> None:
    room, _ = two_people(Settings(absent_bot=300))
    mover = tiles(room).to_move
    assert mover is not None
    room.arrive(mover)
    assert room.due(T0 + 10_000) is None  # here: no stand-in, however long they think
    room.depart(mover, T0 + 100)
    assert room.due(T0 + 399) is None
    assert room.due(T0 + 400) == (mover, "easy")
    room.stand_in(mover, "easy", T0 + 400)
    last = tiles(room).table.last
    assert last is not None and last.player == mover
    other = tiles(room).to_move
    assert other is not None and other != mover
    room.arrive(other)
    assert room.due(T0 + 100_000) is None


def test_a_bot_seat_and_a_finished_game_need_no_stand_in() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}], Settings(turn_timer=60))
    room.take("Ann", T0)
    if tiles(room).to_move == 0:
        act(room, 0, person_move(room, 0))
    assert tiles(room).to_move == 1
    assert room.due(T0 + 10**6) is None and room.deadline() is None
    play_out(room)
    assert room.due(T0 + 10**7) is None and room.deadline() is None
    refused(room, "round is over", lambda: act(room, 0, "pass"))


def test_before_the_game_the_host_gives_an_absent_persons_or_an_open_seat_to_a_bot_for_good() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}])
    room.take("Ann", T0)
    room.arrive(0)
    refused(room, "is here", lambda: room.seat_bot(0, "easy", T0))
    refused(room, "no bot level", lambda: room.seat_bot(1, "godlike", T0))
    refused(room, "not a person's seat", lambda: room.seat_bot(7, "easy", T0))
    assert room.seat_bot(1, "hard", T0) == "The host gave an open seat to the hard bot."
    refused(room, "not a person's seat", lambda: room.seat_bot(1, "easy", T0))
    assert room.phase == "waiting"
    room.seat_bot(2, "easy", T0)
    assert room.phase == "playing" and [p.kind for p in room.places] == ["person", "bot", "bot"]


def test_during_the_game_the_host_gives_the_seat_of_a_person_away_two_minutes_to_a_bot_until_they_return() -> None:
    room, _ = two_people(seed=3)
    room.arrive(0)
    room.depart(1, T0)  # Ben leaves at T0
    assert HOST_BOT_AWAY == 120
    refused(room, "is here", lambda: room.seat_bot(0, "easy", T0 + 500))
    refused(
        room,
        "has been away 119 s; a bot may take a player's seat once they have been away 2 minutes",
        lambda: room.seat_bot(1, "easy", T0 + 119),
    )
    words = room.seat_bot(1, "medium", T0 + 120)
    assert words == "Ben is away, so the host has given their seat to the medium bot until they come back."
    assert room.places[1].kind == "person" and room.places[1].host_bot == "medium"
    assert [s["host_bot"] for s in room.seats_told(T0 + 120)] == [None, "medium"]
    assert Room.from_data(json.loads(kept(room)), T0).places[1].host_bot == "medium"  # kept with the table
    # whenever Ben is to move, the medium bot moves for him; Ann moves for herself
    for _ in range(6):
        seat = tiles(room).to_move
        assert room.due(T0 + 10_000) is None  # no timer runs for the host's bot
        request = room.bot_request()
        if seat == 1:
            assert request is not None and (request.seat, request.level) == (1, "medium")
            ply = room.ply
            assert room.play_bot(tiles(room).chooser(request), request, T0 + 121)
            assert room.ply == ply + 1 and tiles(room).to_move == 0
        else:
            assert request is None
            assert act(room, 0, person_move(room, 0))
    # Ben comes back: the seat is his again, and no bot moves for him
    assert room.arrive(1) is True
    assert room.places[1].host_bot is None
    assert not room.arrive(1)  # a second connection changes nothing
    if tiles(room).to_move == 0:
        assert act(room, 0, person_move(room, 0))
    assert tiles(room).to_move == 1 and room.bot_request() is None


def test_a_move_the_host_bot_chose_for_a_person_who_came_back_meanwhile_is_not_made() -> None:
    room, _ = two_people(seed=3)
    room.depart(0, T0)
    room.depart(1, T0)
    seat = tiles(room).to_move
    assert seat is not None
    room.seat_bot(seat, "easy", T0 + 200)
    request = room.bot_request()
    assert request is not None and request.seat == seat
    room.arrive(seat)  # back while the bot was thinking
    before = room.ply
    assert not room.play_bot(tiles(room).chooser(request), request, T0 + 201)
    assert room.ply == before


def test_the_host_gives_no_seat_once_the_game_is_over() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}])
    room.take("Ann", T0)
    play_out(room)
    assert room.phase == "over"
    refused(room, "the game is over", lambda: room.seat_bot(0, "easy", T0 + 1_000))


def test_an_open_seat_has_no_one_to_be_away() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}])
    assert [s["away"] for s in room.seats_told(T0 + 7)] == [7, None, None]
    assert [s["away"] for s in room.summary(T0 + 7)["seats"]] == [7, None, None]


# --- chat ---


def test_chat_is_plain_and_bounded() -> None:
    room, _ = two_people()
    line = room.say(0, "Ann", "hi\x1b[2J there\x07\n" + "x" * 1_000, T0)
    assert line["text"].startswith("hi [2J there") and all(ch.isprintable() for ch in line["text"])
    assert len(line["text"]) <= 200
    with pytest.raises(IllegalMove):
        room.say(0, "Ann", " \n\t\x00 ", T0)
    for n in range(MAX_CHAT_KEPT + 30):
        room.say(1, "Ben", f"line {n}", T0 + n)
    assert len(room.chat) == MAX_CHAT_KEPT
    assert room.chat[-1]["text"] == f"line {MAX_CHAT_KEPT + 29}"


def test_a_person_may_play_a_whole_game() -> None:
    room, _ = two_people(seed=5)
    play_out(room)
    game = tiles(room)
    assert room.phase == "over" and game.over
    assert any(isinstance(r.turn.move, Play) for r in game.table.history)
    assert json.loads(room.shown(0, T0)["record"])["seats"][0]["name"] == "Ann"
