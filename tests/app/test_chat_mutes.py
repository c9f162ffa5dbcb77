"""Whose chat the window hides, kept in the data folder (`chat_mutes.json`): read back by a new window,
per table, and a damaged file set aside with a word rather than a crash (issue 44)."""

from __future__ import annotations

from pathlib import Path

from cribtiles.app.chat_mutes import FILE, ChatMutes

TABLE = ("ws://127.0.0.1:8765", "KXRMTB")
OTHER = ("ws://127.0.0.1:8765", "ABCDEF")


def test_a_mute_is_kept_for_its_table_and_read_back_until_it_is_lifted(tmp_path: Path) -> None:
    mutes = ChatMutes(tmp_path)
    mutes.set_muted(TABLE, "Ben", True)
    mutes.set_muted(TABLE, "Cy", True)
    mutes.set_muted(OTHER, "Di", True)
    again = ChatMutes(tmp_path)
    assert again.muted(TABLE) == frozenset({"Ben", "Cy"}) and again.muted(OTHER) == frozenset({"Di"})
    again.set_muted(TABLE, "Ben", False)
    assert ChatMutes(tmp_path).muted(TABLE) == frozenset({"Cy"})


def test_a_damaged_file_is_set_aside_and_no_one_is_muted(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text('{"version": 1, "muted": [{"server": "ws://h:1"}]}', encoding="utf-8")
    mutes = ChatMutes(tmp_path)
    assert mutes.muted(TABLE) == frozenset()
    assert mutes.note.startswith("The players you muted could not be read (a mute has a server, a code and a name)")
    assert not (tmp_path / FILE).exists()
    mutes.set_muted(TABLE, "Ben", True)
    assert ChatMutes(tmp_path).muted(TABLE) == frozenset({"Ben"})
