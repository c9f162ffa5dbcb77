"""Saves and settings in the data folder: atomic writes, resume, damaged files never crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cribtiles.app.storage import Store, atomic_write
from cribtiles.rules import new_game
from cribtiles.ui.config import Preferences


def started_game():  # type: ignore[no-untyped-def]
    s = new_game(2, seed=4, names=("You", "Medium"))
    return s.apply(s.legal_actions()[0])


def test_save_and_resume(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.load_game() == (None, "")
    s = started_game()
    store.save_game(s)
    resumed, note = store.load_game()
    assert note == "" and resumed is not None and resumed.log == s.log and resumed.racks == s.racks


def test_atomic_write_leaves_the_old_file_when_writing_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    atomic_write(path, "old")

    def boom(src: str, dst: str) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


def test_a_failed_save_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = Store(blocker / "sub")
    store.save_game(started_game())
    assert store.errors and "could not save" in store.errors[0]


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe\x00garbage",
        b'{"format": "cribtiles-game", "version": 99}',
        b"[]",
        b'{"format": "cribtiles-game", "version": 1, "options": {}, "seed": 4, "players": ["You", "Medium"],'
        b' "actions": ["a1=5D b1=5L"]}',
    ],
)
def test_a_damaged_save_gives_a_message_and_a_fresh_game(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "game.json").write_bytes(content)
    state, note = Store(tmp_path).load_game()
    assert state is None and note
    assert "new game" in note or "replayed" in note
    assert not (tmp_path / "game.json").exists()
    assert any(p.name.startswith("game.damaged-") for p in tmp_path.iterdir())


def test_a_finished_game_is_not_resumed(tmp_path: Path) -> None:
    s = new_game(2, seed=4, names=("You", "Medium"))
    while not s.is_over:
        s = s.apply(s.legal_actions()[0])
    Store(tmp_path).save_game(s)
    assert Store(tmp_path).load_game() == (None, "")


def test_preferences_round_trip(tmp_path: Path) -> None:
    store = Store(tmp_path)
    prefs = Preferences(level="expert", speed="fast", sound=False, fullscreen=True, window=(1500, 900))
    store.save_preferences(prefs)
    assert store.load_preferences() == (prefs, "")


def test_damaged_or_odd_settings_fall_back_to_defaults(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("{{{")
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs == Preferences() and "damaged" in note
    (tmp_path / "settings.json").write_text(json.dumps({"level": "godlike", "speed": "fast", "sound": "yes"}))
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs.level == "medium" and prefs.speed == "fast" and prefs.sound is True
    assert "level" in note and "sound" in note


def test_a_failed_autosave_is_told_to_the_player_in_the_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from cribtiles.ui.window import App

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    s = new_game(2, seed=1, names=("You", "Medium"))
    app = App(s, Preferences(speed="instant"), Store(blocker / "sub"), size=(960, 640))
    try:
        app.game.commit(next(p for p in s.legal_plays() if len(p.placements) == 2))
        assert any("could not be saved" in t.text for t in app.game.toasts)
    finally:
        app.close()
