"""The seats held at online tables, kept in the data folder: written whole, read back, a damaged file set
aside (not a crash), and no token in anything printed."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from cribtiles.app.online_games import FILE, OnlineGames
from cribtiles.ui.online.services import HeldSeat

ANN = HeldSeat("ws://127.0.0.1:8765", "ABCDEF", 0, "Ann", "tiles", "secret-token-1", "host-token-1")
BEN = HeldSeat("ws://10.0.0.2:8765", "GHJKLM", 1, "Ben", "tiles", "secret-token-2")


def test_seats_are_kept_in_order_and_read_back_by_a_new_book(tmp_path: Path) -> None:
    book = OnlineGames(tmp_path)
    assert book.seats() == [] and book.note == ""
    book.add(ANN)
    book.add(BEN)
    assert OnlineGames(tmp_path).seats() == [ANN, BEN]
    assert (tmp_path / FILE).stat().st_mode & 0o077 == 0  # the tokens are the player's alone


def test_a_seat_taken_again_at_the_same_table_replaces_the_old_one_and_removed_is_gone(tmp_path: Path) -> None:
    book = OnlineGames(tmp_path)
    book.add(ANN)
    book.add(BEN)
    again = HeldSeat(ANN.server, ANN.code, 2, "Ann", "tiles", "secret-token-3")
    book.add(again)
    assert OnlineGames(tmp_path).seats() == [BEN, again]
    book.remove(BEN.server, BEN.code)
    assert OnlineGames(tmp_path).seats() == [again]


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        json.dumps({"seats": "all"}),
        json.dumps({"seats": [{"server": "ws://x:1", "code": "A"}]}),
        json.dumps({"seats": [{**{"server": "", "code": "A", "name": "x", "game": "tiles"}, "seat": 0}]}),
        "\udcff",
    ],
)
def test_a_damaged_file_is_set_aside_with_a_note_and_the_book_starts_empty(tmp_path: Path, text: str) -> None:
    (tmp_path / FILE).write_text(text, encoding="utf-8", errors="surrogateescape")
    book = OnlineGames(tmp_path)
    assert book.seats() == []
    assert "could not be read" in book.note and "kept as" in book.note
    assert not (tmp_path / FILE).exists()
    assert len(list(tmp_path.glob("online_games.damaged-*.json"))) == 1
    book.add(ANN)
    assert OnlineGames(tmp_path).seats() == [ANN]


def test_no_token_shows_in_a_seat_printed_or_in_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    book = OnlineGames(tmp_path)
    book.add(ANN)
    (tmp_path / FILE).write_text("{", encoding="utf-8")
    OnlineGames(tmp_path)
    said = repr(ANN) + str(ANN) + repr(book.seats()) + caplog.text
    assert "secret-token" not in said and "host-token" not in said
    assert "ABCDEF" in repr(ANN)
