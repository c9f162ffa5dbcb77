"""Every record a tile table sends its seats loads at the client (issue 31: the record sent between the
rounds of a match had the seed 0, which the match's rounds do not belong to, and was refused): between
rounds every round so far, its seed kept back; once the match is over, the whole match with its seed."""

from __future__ import annotations

import json

import pytest

from cribtiles.rules.errors import IllegalMove
from cribtiles.server.rooms import Settings
from cribtiles.table.tiles.saved import load_table

from .test_rooms import T0, act, person_move, tiles, two_people


@pytest.mark.parametrize("rules", ["rounds=3", "rounds=2,joker=on"])
def test_every_record_sent_loads_with_every_round_so_far(rules: str) -> None:
    room, _ = two_people(Settings(rules=rules), seed=23)
    game = tiles(room)
    seen = 0
    for _ in range(3_000):
        if game.over:
            break
        if game.round_over:
            records = {seat: room.shown(seat, T0)["record"] for seat in (0, 1, None)}
            assert len(set(records.values())) == 1  # the round is over: everyone may see all of it
            loaded = load_table(records[0])
            match = game.table.match
            assert loaded.match.finished == match.finished and loaded.match.game == match.game
            assert loaded.match.seed_withheld and json.loads(records[0])["match"]["seed"] is None
            assert str(match.seed) not in records[0]
            assert [s.name for s in loaded.seats] == ["Ann", "Ben"]
            with pytest.raises(IllegalMove):
                loaded.next_round()  # the next round is dealt at the server's table only
            seen += 1
            room.act(0, {"type": "next_round", "ply": room.ply}, T0)
            continue
        seat = game.to_move
        assert seat is not None
        act(room, seat, person_move(room, seat, seed=seen))
    assert game.over and seen == game.table.options.rounds - 1
    final = load_table(room.shown(1, T0)["record"])
    assert final.match == game.table.match and not final.match.seed_withheld
