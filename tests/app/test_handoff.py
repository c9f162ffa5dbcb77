"""The file that hands a table to the game already open (`open_table.json`): what the second program
writes is what the window reads, once; anything else in the file is refused in words, never opened, and
the file is gone either way."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cribtiles.app.handoff import FILE, hand_over, take_handed


def taken_meanwhile(folder: Path, got: list[object]) -> object:
    """A `sleep` for `hand_over` during which the open window takes the table."""

    def sleep(_seconds: float) -> None:
        got.append(take_handed(folder))

    return sleep


def test_the_table_handed_over_is_the_table_the_window_takes_once(tmp_path: Path) -> None:
    got: list[object] = []
    table = ("ws://192.168.1.20:8765", "kxq mwd", "Ben")
    assert hand_over(tmp_path, table, sleep=taken_meanwhile(tmp_path, got))  # type: ignore[arg-type]
    assert got == [(("ws://192.168.1.20:8765", "KXQMWD", "Ben"), "")]
    assert take_handed(tmp_path) == (None, "")
    assert not (tmp_path / FILE).exists()


def test_a_table_nobody_takes_is_not_left_behind(tmp_path: Path) -> None:
    naps: list[float] = []
    assert not hand_over(tmp_path, ("wss://play.example.org", "KXQMWD", None), wait=1.0, sleep=naps.append)
    assert len(naps) == 10 and not (tmp_path / FILE).exists()


@pytest.mark.parametrize(
    ("written", "words"),
    [
        ("{not json", "A table handed to this window was not opened: "),
        ('["ws://h:1", "KXQMWD"]', "it is not a table's address and code"),
        ('{"server": "http://h:1", "code": "KXQMWD"}', "its server address is not one"),
        ('{"server": "ws://h:1\\u001b]0;x\\u0007", "code": "KXQMWD"}', "its server address is not one"),
        ('{"server": "ws://h:1", "code": "KXQ"}', "its table code is not six letters"),
        ('{"server": "ws://h:1", "code": 7}', "its table code is not six letters"),
        ('{"server": "ws://h:1", "code": "KXQMWD", "name": "Ann\\u001b[2J"}', "its player's name is not one"),
        ('{"server": "ws://h:1", "code": "KXQMWD", "name": 5}', "its player's name is not one"),
        ("x" * 5000, "could not be read (it is larger than 4,096 bytes)"),
    ],
)
def test_anything_but_a_table_is_refused_in_words_and_removed(tmp_path: Path, written: str, words: str) -> None:
    (tmp_path / FILE).write_text(written, encoding="utf-8")
    table, problem = take_handed(tmp_path)
    assert table is None and words in problem
    assert "\x1b" not in problem
    assert not (tmp_path / FILE).exists()


def test_a_link_at_its_name_is_neither_followed_nor_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"server": "ws://h:1", "code": "KXQMWD"}), encoding="utf-8")
    folder = tmp_path / "data"
    folder.mkdir()
    os.symlink(outside, folder / FILE)
    assert not hand_over(folder, ("ws://evil:1", "ABCDEF", None), wait=0.2, sleep=lambda _s: None)
    assert json.loads(outside.read_text(encoding="utf-8"))["server"] == "ws://h:1"  # never written through
    os.symlink(outside, folder / FILE)
    table, problem = take_handed(folder)
    assert table is None and "link" in problem, problem
    assert outside.exists()
