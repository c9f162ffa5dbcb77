"""How an online table ends besides its rules, at the table alone (`Room`, its clock passed in): a person
resigns (the others win, the table told in words, a request to take back a move ends, the same message
again changes nothing); a table is aborted before its first move (kept as aborted, its game let go of,
refused once a move is made); a finished table is played again when every person agrees (the same seats in
the same order, rules, settings and host; new tokens, one a person), or not when one refuses, withdraws or
goes away; the turns the server's stand-in made are told as such in every seat's state; and all of it
kept, so that a table read back from the store is the same (issue 44)."""

from __future__ import annotations

import json

from cribtiles.server.rooms import Room, Settings, read_places, token_hash

from .test_rooms import T0, act, kept, make_room, person_move, play_out, refused, tiles, two_people


def again(room: Room) -> Room:
    """`room` kept and read back, as a restarted server reads it."""
    return Room.from_data(json.loads(json.dumps(room.data())), T0)


# --- resigning ---


def test_a_person_resigns_and_the_others_win_whatever_the_score() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}])
    room.take("Ann", T0)
    room.take("Ben", T0)
    mover = tiles(room).to_move
    assert mover is not None and mover != 2
    act(room, mover, person_move(room, mover))
    ply = room.ply
    words = room.resign(0, T0 + 5)
    assert words == "Ann resigned: Ben and Easy win."
    assert room.phase == "over" and room.ply == ply + 1
    told = room.shown(1, T0 + 5)
    assert told["resigned"] == 0 and told["aborted"] is False
    assert told["match"]["game"]["outcome"]["reason"] == "resigned"
    assert told["match"]["game"]["outcome"]["winners"] == [1, 2]
    status = room.summary(T0 + 5)
    assert (status["phase"], status["ended"], status["winners"], status["resigned"]) == ("over", "resigned", [1, 2], 0)
    assert json.loads(told["record"])["record"]["resigned"] == 0
    assert room.resign(0, T0 + 6) == ""  # sent again: nothing changes
    refused(room, "the game is over", lambda: room.resign(1, T0 + 7))
    assert again(room).shown(1, T0)["resigned"] == 0


def test_a_resignation_ends_the_whole_match_and_a_request_to_take_back_a_move() -> None:
    room, _ = two_people(Settings(rules="rounds=3"))
    game = tiles(room)
    mover = game.to_move
    assert mover is not None
    act(room, mover, person_move(room, mover))
    assert room.act(mover, {"type": "undo", "ply": room.ply}, T0)  # waits for the other
    assert room.resign(1 - mover, T0) == f"{room.places[1 - mover].name} resigned: {room.places[mover].name} wins."
    assert game.over and game.table.match.is_over and game.table.match.round == 1
    assert room.undo_told() is not None and room.undo_told()["ended"] == "moved"  # type: ignore[index]
    refused(room, "no next round", lambda: room.act(0, {"type": "next_round", "ply": room.ply}, T0))


def test_a_game_of_cribbage_is_resigned_as_a_plain_win() -> None:
    places = read_places("cribbage", [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}])
    room, _ = Room.new("ABCDEF", "cribbage", places, Settings(), 4, T0)
    room.take("Ann", T0)
    assert room.resign(0, T0) == "Ann resigned: Easy bot wins."
    told = room.shown(0, T0)
    assert told["resigned"] == 0 and told["public"]["summary"]["words"] == "Ann resigned: Easy bot wins, 0 to 0."
    assert told["view"]["outcome"] == [1, [0, 0], "win", [0, 1], 0]
    assert room.summary(T0)["ended"] == "resigned"
    assert again(room).summary(T0)["ended"] == "resigned"


# --- aborting ---


def test_a_table_is_aborted_before_its_first_move_and_kept_so() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "open"}])
    room.take("Ann", T0)
    assert room.abort(T0 + 3)
    assert (room.phase, room.aborted, room.game) == ("over", True, None)
    told = room.shown(0, T0 + 3)
    assert told["aborted"] is True and told["resigned"] is None and "match" not in told
    assert not room.abort(T0 + 4)  # again: nothing changes
    refused(room, "aborted", lambda: room.take("Ben", T0))
    status = again(room).summary(T0 + 5)
    assert (status["phase"], status["aborted"]) == ("over", True)


def test_a_table_begun_is_aborted_until_its_first_move_and_refused_after() -> None:
    room, _ = two_people()
    assert room.game is not None and not room.game.begun
    assert room.abort(T0) and room.bot_request() is None and room.due(T0 + 10**6) is None
    room, _ = two_people()
    mover = tiles(room).to_move
    assert mover is not None
    act(room, mover, person_move(room, mover))
    refused(room, "a move has been made", lambda: room.abort(T0))


# --- playing again ---


def finished_pair() -> Room:
    """Ann and Ben's table played to its end, both at the table."""
    room, _ = two_people(seed=3)
    play_out(room)
    room.arrive(0)
    room.arrive(1)
    return room


def test_everyone_agrees_and_the_new_table_has_the_same_seats_rules_and_host() -> None:
    room = finished_pair()
    assert room.ask_rematch(0)
    assert not room.ask_rematch(0)  # the same request again
    told = room.rematch_told()
    assert told == {"seat": 0, "agreed": [], "waiting": [1], "ended": None, "by": None, "table": None}
    assert not room.rematch_ready
    assert room.answer_rematch(1, True) and room.rematch_ready
    new, tokens = room.play_again("GHJKLM", 99, T0 + 9)
    made = {"seat": 0, "agreed": [1], "waiting": [], "ended": "made", "by": None, "table": "GHJKLM"}
    assert room.rematch_told() == made
    assert (new.code, new.game_name, new.seed, new.host_hash) == ("GHJKLM", "tiles", 99, room.host_hash)
    assert new.settings == room.settings and new.phase == "playing"
    assert [p.name for p in new.places] == ["Ann", "Ben"]
    assert sorted(tokens) == [0, 1] and tokens[0] != tokens[1]
    assert all(new.seat_of(tokens[s]) == s for s in (0, 1))
    assert all(new.places[s].token_hash != room.places[s].token_hash for s in (0, 1))
    assert new.places[0].token_hash == token_hash(tokens[0])
    refused(room, "played again already, at GHJKLM", lambda: room.ask_rematch(1))
    assert not room.answer_rematch(1, True)  # the same yes again


def test_a_bot_agrees_by_itself() -> None:
    room, _ = make_room([{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}])
    room.take("Ann", T0)
    play_out(room)
    room.arrive(0)
    assert room.ask_rematch(0) and room.rematch_ready
    new, tokens = room.play_again("GHJKLM", 5, T0)
    assert list(tokens) == [0] and [(p.kind, p.level) for p in new.places] == [("person", None), ("bot", "easy")]


def test_a_refusal_a_withdrawal_or_a_person_gone_ends_the_request() -> None:
    room = finished_pair()
    room.ask_rematch(0)
    assert room.answer_rematch(1, False)
    assert room.rematch_told() == {"seat": 0, "agreed": [], "waiting": [], "ended": "refused", "by": 1, "table": None}
    assert not room.answer_rematch(1, False)
    refused(room, "that request to play again is over", lambda: room.answer_rematch(1, True))
    assert room.ask_rematch(1)  # asked again, the other way round
    refused(room, "you asked", lambda: room.answer_rematch(1, True))
    assert room.answer_rematch(1, False)
    assert (room.rematch_told() or {})["ended"] == "withdrawn"
    room.ask_rematch(0)
    room.depart(1, T0 + 1)
    assert (room.rematch_told() or {})["ended"] == "gone" and (room.rematch_told() or {})["by"] == 1
    refused(room, "Ben is not at the table", lambda: room.ask_rematch(0))
    room.arrive(1)
    room.ask_rematch(0)
    kept_room = again(room)  # a restarted server: nobody is here, the request ends
    assert (kept_room.rematch_told() or {})["ended"] == "gone"


def test_only_a_finished_table_is_played_again() -> None:
    room, _ = two_people()
    refused(room, "once its game is over", lambda: room.ask_rematch(0))
    room.abort(T0)
    refused(room, "once its game is over", lambda: room.ask_rematch(0))
    refused(room, "no one is asking", lambda: room.answer_rematch(0, True))


# --- the stand-in's turns ---


def test_a_turn_made_by_the_stand_in_is_told_as_such_and_kept() -> None:
    room, _ = two_people(Settings(turn_timer=60, absent_bot=10))
    mover = tiles(room).to_move
    assert mover is not None
    act(room, mover, person_move(room, mover))  # the person's own
    other = 1 - mover
    room.stand_in(other, "easy", room.last_change + 60)  # out of time
    room.depart(mover, room.last_change)
    assert room.due(room.last_change + 30) == (mover, "easy")
    room.stand_in(mover, "easy", room.last_change + 30)  # away too long, with time left
    turns = room.shown(other, T0)["match"]["game"]["turns"]
    assert [t["stand_in"] for t in turns] == [None, "timer", "away"]
    assert [t["stand_in"] for t in again(room).shown(None, T0)["match"]["game"]["turns"]] == [None, "timer", "away"]
    before = kept(room)
    assert '"stand_ins": [[0, 1, "timer"], [0, 2, "away"]]' in before


def test_a_move_of_cribbage_made_by_the_stand_in_is_told_as_such() -> None:
    places = read_places("cribbage", [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}])
    room, _ = Room.new("ABCDEF", "cribbage", places, Settings(turn_timer=60), 9, T0)
    room.take("Ann", T0)
    room.take("Ben", T0)
    due = room.due(room.last_change + 60)
    assert due is not None
    room.stand_in(due[0], due[1], room.last_change + 60)
    story = room.shown(0, T0)["public"]["story"]
    assert [m["stand_in"] for m in story] == ["timer"] and story[0]["player"] == due[0]
    assert again(room).shown(1, T0)["public"]["story"][0]["stand_in"] == "timer"


def test_a_table_kept_before_these_reads_as_never_aborted_and_never_played_again() -> None:
    room, _ = two_people()
    data = room.data()
    for key in ("aborted", "rematch", "stand_ins"):
        del data[key]
    old = Room.from_data(json.loads(json.dumps(data)), T0)
    told = old.shown(0, T0)
    assert (told["aborted"], told["rematch"], told["resigned"]) == (False, None, None)
