"""The one save format of a table (issue 30): both games round-trip through it, one loader dispatches on
the game, and the saves of before (made with the code of before, in tests/table/data) load and play on."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cribtiles.bot.tiles.base import choose_safely
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.cribbage.options import CribbageOptions
from cribtiles.games import GAMES, SAVED
from cribtiles.rules.errors import RecordError
from cribtiles.rules.options import RuleOptions
from cribtiles.table.cribbage.table import CribbageSaveError, CribbageTable, choose
from cribtiles.table.saves import load_saved, save_table, unusable
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table

DATA = Path(__file__).parent / "data"


def text(name: str) -> str:
    return (DATA / f"{name}.json").read_text()


def play_tiles_to_the_end(table: Table) -> None:
    """The bots play on; a person at the table plays the greedy move."""
    while not table.round_over:
        if table.bot_to_move:
            request = table.bot_request()
            table.play_bot(choose_safely(make_bot(request.level), request.view, random.Random(request.seed)), request)
        else:
            p = table.to_move
            assert p is not None
            table.play(choose_safely(make_bot("medium"), table.view(p), random.Random(0)))


def play_cribbage_to_the_end(table: CribbageTable) -> None:
    while not table.is_over:
        if table.bot_to_move:
            table.bot_move()
        else:
            table.play(table.view().legal[0])


@pytest.mark.parametrize(
    ("name", "seats", "turns", "scores", "to_move", "marks"),
    [
        ("tiles_table_v1", ("Ann", "Medium", "Easy"), 5, (27, 21, 18), 0, (1, 2)),
        ("tiles_match_table_v1", ("Hard", "Medium"), 6, (78, 52), 1, (0, 0)),
        ("tiles_game_record", ("You", "Medium"), 3, (7, 39), 0, (0, 0)),
        ("tiles_match_record", ("Hard", "Medium"), 6, (78, 52), 1, (0, 0)),
    ],
)
def test_the_tile_saves_of_before_load_and_play_on(
    name: str, seats: tuple[str, ...], turns: int, scores: tuple[int, ...], to_move: int, marks: tuple[int, int]
) -> None:
    table = load_saved(text(name))
    assert isinstance(table, Table)
    assert (table.names, len(table.state.turns), table.state.scores, table.to_move) == (seats, turns, scores, to_move)
    assert (table.undos, table.hints) == marks
    again = load_table(save_table(table))  # and they are saved again in the one format
    assert json.loads(save_table(table))["format"] == "cribtiles table"
    assert again.state.log == table.state.log and again.seats == table.seats and (again.undos, again.hints) == marks
    play_tiles_to_the_end(table)
    assert table.round_over and table.state.outcome is not None


def test_the_cribbage_save_of_before_loads_and_plays_on() -> None:
    table = load_saved(text("cribbage_table_v1"))
    assert isinstance(table, CribbageTable)
    assert (table.ply, table.state.scores, table.to_move, table.person, table.level) == (30, (29, 16), 0, 1, "hard")
    assert table.seats == (Seat("Hard bot", "hard"), Seat("You")) and table.options.muggins
    play_cribbage_to_the_end(table)
    summary = table.summary()
    assert summary is not None and max(summary.scores) >= 121


def test_a_tile_table_round_trips_in_the_one_format() -> None:
    table = Table.new([Seat.person("Ann"), Seat.bot("hard"), Seat.bot("easy")], RuleOptions.parse("joker=on"), 9)
    play_tiles_to_the_end(table)
    table.count_hint()
    data = json.loads(save_table(table))
    assert (data["format"], data["version"], data["game"]) == ("cribtiles table", 2, "tiles")
    assert data["seats"][0] == {"name": "Ann", "level": None} and data["marks"] == {"undos": 0, "hints": 1}
    assert data["record"]["format"] == "cribtiles-game"
    again = load_saved(save_table(table))
    assert isinstance(again, Table) and again.state == table.state and again.seats == table.seats
    assert again.hints == 1


def test_a_match_round_trips_in_the_one_format() -> None:
    table = Table.new([Seat.bot("medium"), Seat.bot("easy")], RuleOptions(rounds=2), 4)
    play_tiles_to_the_end(table)
    table.next_round()
    data = json.loads(save_table(table))
    assert data["game"] == "tiles" and data["match"]["format"] == "cribtiles-match"
    again = load_table(save_table(table))
    assert again.match == table.match


def test_a_cribbage_table_of_two_bots_round_trips_in_the_one_format() -> None:
    state_table = CribbageTable.new(3, "easy", CribbageOptions(muggins=True))
    seats = (Seat("Easy bot", "easy"), Seat("You", None))
    with pytest.raises(ValueError, match="not the game's players"):
        CribbageTable(state_table.state, seats=seats)
    table = CribbageTable(state_table.state, seats=(Seat("You", "hard"), Seat("Easy bot", "easy")))
    assert (table.person, table.level, table.people) == (None, "hard", ())
    for _ in range(40):
        request = table.bot_request()
        assert request.level == ("hard", "easy")[request.seat]
        table.play_bot(choose(request), request)
    data = json.loads(save_table(table))
    assert (data["format"], data["version"], data["game"]) == ("cribtiles table", 2, "cribbage")
    assert data["seats"] == [{"name": "You", "level": "hard"}, {"name": "Easy bot", "level": "easy"}]
    again = CribbageTable.from_json(save_table(table))
    assert again.state == table.state and again.seats == table.seats and again.story == table.story
    play_cribbage_to_the_end(again)
    assert again.is_over


def test_the_bare_record_of_a_game_of_cribbage_loads_as_its_table_where_either_game_is_read() -> None:
    """As the history keeps it (the engine's record, without seats): a seat named for a bot level is
    that bot. The tile game's loader does not take it; a damaged one is refused in cribbage's words."""
    table = CribbageTable.new(3, "medium")
    play_cribbage_to_the_end(table)
    bare = json.dumps(table.state.record())
    again = load_saved(bare)
    assert isinstance(again, CribbageTable) and again.state == table.state
    assert [s.level for s in again.seats] == [None, "medium"]
    with pytest.raises(RecordError, match="a saved game of cribbage, not of Crib Tiles"):
        load_table(bare)
    damaged = {**table.state.record(), "moves": ["play ZZ"]}
    with pytest.raises(CribbageSaveError, match="it cannot be replayed: move 1 of the record") as caught:
        load_saved(json.dumps(damaged))
    assert unusable(caught.value).startswith("the saved game of cribbage cannot be used: it cannot be replayed: ")
    with pytest.raises(RecordError) as tiles:
        load_saved(json.dumps({"format": "cribtiles-game"}))
    assert unusable(tiles.value) == str(tiles.value)  # the tile game's words say it already


def test_each_game_loads_only_its_own_save() -> None:
    with pytest.raises(RecordError, match="a saved game of cribbage, not of Crib Tiles"):
        load_table(text("cribbage_table_v1"))
    with pytest.raises(CribbageSaveError, match="'tiles', not of cribbage"):
        CribbageTable.from_json(save_table(load_table(text("tiles_table_v1"))))
    with pytest.raises(CribbageSaveError, match="not a saved cribbage game"):
        CribbageTable.from_json(text("tiles_table_v1"))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"version": 3, "game": "tiles", "seats": []}, "another version of Crib Tiles"),
        ({"version": 2, "game": "chess", "seats": []}, "names no game of tiles, cribbage"),
        ({"version": 2, "game": "tiles", "seats": 1}, "its seats are missing"),
        ({"version": 2, "game": "tiles", "seats": [{"name": "A", "level": "god"}]}, "no bot level"),
        ({"version": 2, "game": "tiles", "seats": [], "marks": {"undos": -1}}, "count of undos"),
        ({"version": 2, "game": "tiles", "seats": []}, "it holds no game"),
    ],
)
def test_a_damaged_envelope_is_refused_in_words(data: dict[str, object], words: str) -> None:
    with pytest.raises(RecordError, match=words):
        load_saved(json.dumps({"format": "cribtiles table", **data}))


def test_a_seat_takes_a_level_of_either_game_and_each_table_its_own() -> None:
    assert Seat("Bot", "expert").level == "expert" and Seat("Bot", "easy").level == "easy"
    with pytest.raises(ValueError, match="no bot level 'god'; the levels are beginner, easy, medium, hard, expert"):
        Seat("Bot", "god")
    state = CribbageTable.new(1).state
    with pytest.raises(ValueError, match="no cribbage bot level 'beginner'"):
        CribbageTable(state, seats=(Seat("You"), Seat("Medium bot", "beginner")))


def test_each_games_reader_takes_its_own_saves_and_leaves_the_others_saves() -> None:
    """The registry's SAVED parts: a reader answers None for a save in none of its game's formats (another
    game's, in the one format or one of before), which is how the one loader finds the game of an old save."""
    tiles, cribbage = (GAMES[name].part(SAVED) for name in ("tiles", "cribbage"))
    bare = CribbageTable.new(3, "medium")
    play_cribbage_to_the_end(bare)
    own = {
        "tiles": [
            *(
                text(name)
                for name in ("tiles_table_v1", "tiles_match_table_v1", "tiles_game_record", "tiles_match_record")
            ),
            save_table(load_table(text("tiles_table_v1"))),
        ],
        "cribbage": [text("cribbage_table_v1"), save_table(CribbageTable.from_json(text("cribbage_table_v1")))],
    }
    own["cribbage"].append(json.dumps(bare.state.record()))
    for name, reader, table_type in (("tiles", tiles, Table), ("cribbage", cribbage, CribbageTable)):
        for saved in own[name]:
            assert isinstance(reader(json.loads(saved), saved), table_type)
        for saved in own["cribbage" if name == "tiles" else "tiles"]:
            assert reader(json.loads(saved), saved) is None
