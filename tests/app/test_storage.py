"""Saves and settings in the data folder: atomic writes, resume, damaged files never crash."""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from cribtiles.app import storage
from cribtiles.app.storage import FolderInUse, Store, atomic_write, brief
from cribtiles.rules import RuleOptions, new_game
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.record import save
from cribtiles.table.settings import Preferences, read_preferences


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
        assert any("could not be saved" in t.text for t in app.game.anims.toasts)
    finally:
        app.close()


# --- issue 8: damaged files of every kind, unique aside names, the folder lock, matches, full disks ---


def finished(state):  # type: ignore[no-untyped-def]
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


def asides(folder: Path, stem: str) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith(f"{stem}.damaged-"))


def sparse(path: Path, size: int) -> None:
    """A file of `size` bytes that takes no room on disk (reading all of it would take long)."""
    with open(path, "wb") as f:
        f.truncate(size)


SETTINGS_DAMAGE = {
    "speed is a list": b'{"speed": []}',
    "speed is a dict": b'{"speed": {"a": 1}}',
    "level is a list": b'{"level": ["hard"]}',
    "level is a number": b'{"level": 3}',
    "sound is a string": b'{"sound": "yes"}',
    "fullscreen is null": b'{"fullscreen": null}',
    "window of a bool": b'{"window": [true, 5]}',
    "window too large": b'{"window": [99999, 800]}',
    "window too small": b'{"window": [99, 800]}',
    "window of floats": b'{"window": [1280.0, 800.0]}',
    "window of three": b'{"window": [1280, 800, 1]}',
    "window a string": b'{"window": "1280x800"}',
    "a huge number": b'{"window": [1' + b"0" * 5000 + b", 800]}",
    "nested 200,000 deep": b"[" * 200_000,
    "nested in an object": b'{"level": ' + b"[" * 200_000,
    "a huge string": b'{"level": "' + b"x" * 900_000 + b'"}',
    "not UTF-8": b"\xff\xfe\x00\x80garbage",
    "a JSON list": b"[]",
    "JSON null": b"null",
    "a JSON string": b'"medium"',
    "not JSON": b"{{{",
    "empty": b"",
}


@pytest.mark.parametrize("content", SETTINGS_DAMAGE.values(), ids=SETTINGS_DAMAGE.keys())
def test_damaged_settings_give_defaults_a_message_and_are_set_aside(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "settings.json").write_bytes(content)
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs == Preferences()
    [aside] = asides(tmp_path, "settings")
    assert aside.read_bytes() == content
    assert not (tmp_path / "settings.json").exists()
    assert f"kept as {aside.name}" in note and "default" in note
    assert len(note) < 300


def test_a_settings_file_over_the_cap_is_set_aside_without_reading_it_all(tmp_path: Path) -> None:
    sparse(tmp_path / "settings.json", 2 * 1024 * 1024)
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs == Preferences() and "larger than 1 MB" in note
    [aside] = asides(tmp_path, "settings")
    assert aside.stat().st_size == 2 * 1024 * 1024
    sparse(tmp_path / "settings.json", 64 * 1024**3)  # 64 GB: read whole, this would never finish
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs == Preferences() and "larger than 1 MB" in note and len(asides(tmp_path, "settings")) == 2


def test_settings_that_are_not_a_file_are_set_aside(tmp_path: Path) -> None:
    (tmp_path / "settings.json").mkdir()
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs == Preferences() and "not a regular file" in note
    assert asides(tmp_path, "settings")[0].is_dir()
    os.mkfifo(tmp_path / "settings.json")  # opening a FIFO to read would wait for a writer forever
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs == Preferences() and "not a regular file" in note


def test_good_settings_are_kept_beside_bad_ones_and_the_file_is_set_aside(tmp_path: Path) -> None:
    content = json.dumps({"level": "hard", "speed": [], "sound": False, "window": [True, 5], "future": 1})
    (tmp_path / "settings.json").write_text(content)
    prefs, note = Store(tmp_path).load_preferences()
    assert prefs == Preferences(level="hard", sound=False)
    [aside] = asides(tmp_path, "settings")
    assert aside.read_text() == content
    assert note == (
        f"Some settings were not understood (speed, window); their defaults are used and it was kept as {aside.name}."
    )


def test_missing_and_unknown_settings_are_not_damage(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"speed": "fast", "colour": "blue"}))
    assert Store(tmp_path).load_preferences() == (Preferences(speed="fast"), "")
    assert asides(tmp_path, "settings") == []


def test_window_sizes_at_the_bounds(tmp_path: Path) -> None:
    for size, ok in (([100, 16384], True), ([16384, 100], True), ([100, 16385], False), ([0, 800], False)):
        (tmp_path / "settings.json").write_text(json.dumps({"window": size}))
        prefs, note = Store(tmp_path).load_preferences()
        assert (prefs.window == tuple(size), note == "") == (ok, ok)


def test_the_new_game_screens_choices_are_kept_and_checked(tmp_path: Path) -> None:
    store = Store(tmp_path)
    prefs = Preferences(seats=(("Ann", None), ("Ben", "hard"), ("Cy", None)), rules="joker=on,rounds=3")
    store.save_preferences(prefs)
    assert json.loads((tmp_path / "settings.json").read_text())["seats"] == [
        ["Ann", None],
        ["Ben", "hard"],
        ["Cy", None],
    ]
    assert store.load_preferences() == (prefs, "")
    for bad in (
        {"seats": [["Ann", None]]},  # one seat
        {"seats": [["Ann", None]] * 5},  # five
        {"seats": [["Ann", None], ["", None]]},  # a blank name
        {"seats": [["Ann", None], ["B" * 41, None]]},  # a name too long
        {"seats": [["Ann", None], ["Ben", "godlike"]]},  # no such level
        {"seats": [["Ann", None], ["Ben", None, 3]]},
        {"seats": "Ann,Ben"},
        {"rules": "joker=maybe"},
        {"rules": "rounds=0"},
        {"rules": ["joker=on"]},
        {"rules": "joker=on," * 40},  # longer than any options written out
    ):
        (tmp_path / "settings.json").write_text(json.dumps({"level": "hard", **bad}))
        prefs, note = Store(tmp_path).load_preferences()
        assert prefs == Preferences(level="hard"), bad
        assert f"({next(iter(bad))})" in note
    (tmp_path / "settings.json").write_text(json.dumps({"rules": ""}))
    assert Store(tmp_path).load_preferences() == (Preferences(), "")


def game_record(**changes: object) -> bytes:
    record = json.loads(save(started_game()))
    record.update(changes)
    return json.dumps(record).encode()


GAME_DAMAGE = {
    "nested 200,000 deep": b"[" * 200_000,
    "nested in the actions": b'{"format": "cribtiles-game", "version": 1, "actions": ' + b"[" * 200_000,
    "not UTF-8": b"\x80\x81\xfe\xff",
    "a JSON list": b"[]",
    "JSON null": b"null",
    "empty": b"",
    "players not a list": game_record(players={"a": 1}),
    "actions of numbers": game_record(actions=[1, 2]),
    "seed a string": game_record(seed="4"),
    "seed a bool": game_record(seed=True),
    "options a list": game_record(options=[]),
    "an unknown option": game_record(options={"gravity": "on"}),
    "version a huge string": game_record(version="v" * 600_000),
    "an action of 600 KB": game_record(actions=["a1=5D " * 100_000]),
    "an illegal action": game_record(actions=["m13=KD"]),
    "a match with no rounds": b'{"format": "cribtiles-match", "version": 1, "seed": 1, "rounds": []}',
    "a match of junk rounds": b'{"format": "cribtiles-match", "version": 1, "seed": 1, "rounds": [1, [2]]}',
    "a match nested deep": b'{"format": "cribtiles-match", "rounds": ' + b"[" * 200_000,
}


@pytest.mark.parametrize("content", GAME_DAMAGE.values(), ids=GAME_DAMAGE.keys())
def test_damaged_saves_of_every_kind_are_set_aside_with_a_short_message(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "game.json").write_bytes(content)
    state, note = Store(tmp_path).load_game()
    assert state is None
    [aside] = asides(tmp_path, "game")
    assert aside.read_bytes() == content and not (tmp_path / "game.json").exists()
    assert f"kept as {aside.name}" in note and "new game" in note
    assert len(note) < 300
    assert not re.search(r"(a1=5D ?){11}|v{61}", note)  # never more than ~60 characters of the file


def test_a_save_over_the_cap_is_set_aside_without_reading_it_all(tmp_path: Path) -> None:
    sparse(tmp_path / "game.json", 9 * 1024 * 1024)
    state, note = Store(tmp_path).load_game()
    assert state is None and "larger than 8 MB" in note and "kept as game.damaged-" in note
    sparse(tmp_path / "game.json", 64 * 1024**3)
    assert Store(tmp_path).load_game()[0] is None and len(asides(tmp_path, "game")) == 2


def test_brief_cuts_quotes_and_long_details() -> None:
    assert brief("at action 3 ('a1=5D'): no") == "at action 3 ('a1=5D'): no"
    cut = brief("at action 3 ('" + "x" * 1000 + "'): no")
    assert cut == "at action 3 ('" + "x" * 57 + "…'): no"
    assert len(brief("word " * 1000)) == 120


def test_two_files_damaged_in_the_same_second_get_names_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.time, "strftime", lambda fmt: "20250101-120000")
    for n in range(3):
        (tmp_path / "game.json").write_text(f"damaged {n}")
        state, note = Store(tmp_path).load_game()
        assert state is None
    names = ["game.damaged-20250101-120000.json", "game.damaged-20250101-120000-2.json"]
    names.append("game.damaged-20250101-120000-3.json")
    assert [p.name for p in asides(tmp_path, "game")] == sorted(names)
    assert [(tmp_path / n).read_text() for n in names] == ["damaged 0", "damaged 1", "damaged 2"]
    assert "kept as game.damaged-20250101-120000-3.json" in note


def test_set_aside_without_hard_links_still_never_overwrites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(storage.time, "strftime", lambda fmt: "20250101-120000")
    monkeypatch.setattr(os, "link", no_links)
    for n in range(2):
        (tmp_path / "settings.json").write_text(f"[{n}]")
        Store(tmp_path).load_preferences()
    assert [p.read_text() for p in asides(tmp_path, "settings")] == ["[1]", "[0]"]  # -2 sorts before .json


@pytest.fixture
def storage_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """What the store logs, even when the app's log set-up has stopped `cribtiles` propagating to the root."""
    logger = logging.getLogger("cribtiles.storage")
    logger.addHandler(caplog.handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield caplog
    finally:
        logger.removeHandler(caplog.handler)
        logger.setLevel(old)


@pytest.mark.parametrize("kind", ["game", "settings"])
def test_a_file_that_cannot_be_set_aside_is_told_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, storage_log: pytest.LogCaptureFixture, kind: str
) -> None:
    def denied(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "link", denied)
    monkeypatch.setattr(os, "replace", denied)
    (tmp_path / f"{kind}.json").write_text("[[[")
    store = Store(tmp_path)
    note = store.load_game()[1] if kind == "game" else store.load_preferences()[1]
    assert "could not be set aside (Permission denied), so it was left where it is" in note
    assert "kept as" not in note
    assert (tmp_path / f"{kind}.json").read_text() == "[[[" and asides(tmp_path, kind) == []
    assert "could not be set aside (Permission denied)" in storage_log.text


def test_set_aside_is_logged(tmp_path: Path, storage_log: pytest.LogCaptureFixture) -> None:
    (tmp_path / "game.json").write_text("{")
    Store(tmp_path).load_game()
    [aside] = asides(tmp_path, "game")
    assert f"was set aside as {aside.name}" in storage_log.text


@pytest.mark.parametrize("folder", ["file", "file/sub", "/dev/null"])
def test_a_data_dir_that_is_not_a_folder_reads_nothing_and_says_it_cannot_save(tmp_path: Path, folder: str) -> None:
    (tmp_path / "file").write_text("not a folder")
    store = Store(tmp_path / folder)
    assert store.load_preferences() == (Preferences(), "")
    assert store.load_game() == (None, "")
    note = store.lock()
    assert "cannot be used" in note and "is not a folder" in note and not store.locked
    store.save_game(started_game())
    store.save_preferences(Preferences())
    not_a_folder = "/dev/null" if folder == "/dev/null" else str(tmp_path / "file")
    assert store.errors == [
        f"could not save the game in {store.folder} ({not_a_folder} is not a folder)",
        f"could not save the settings in {store.folder} ({not_a_folder} is not a folder)",
    ]
    assert (tmp_path / "file").read_text() == "not a folder"


# --- the folder lock ---

SECOND_INSTANCE = """
import sys
from pathlib import Path
from cribtiles.app.storage import FolderInUse, Store
store = Store(Path(sys.argv[1]))
try:
    note = store.lock()
except FolderInUse as e:
    print(e)
    sys.exit(3)
print("locked", repr(note))
"""


def second_instance(folder: Path) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    cmd = [sys.executable, "-c", SECOND_INSTANCE, str(folder)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, cwd=root)


def test_a_second_instance_on_the_same_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "data"  # not there yet: lock() makes it
    store = Store(folder)
    assert store.lock() == "" and store.locked and (folder / "cribtiles.lock").exists()
    assert store.lock() == ""  # a second call by the same instance is harmless
    second = second_instance(folder)
    assert second.returncode == 3, second.stderr
    assert second.stdout.strip() == (
        f"Crib Tiles is already running with the data folder {folder}; "
        "close it first, or use --data-dir for a second game."
    )
    store.unlock()
    assert not store.locked
    second = second_instance(folder)
    assert (second.returncode, second.stdout.strip()) == (0, "locked ''"), second.stderr
    assert store.lock() == ""  # the second instance is gone, so its lock with it
    store.unlock()


def test_folder_in_use_is_a_plain_message() -> None:
    e = FolderInUse(Path("/x/data"))
    assert str(e).startswith("Crib Tiles is already running with the data folder /x/data;")
    assert e.folder == Path("/x/data")


def test_lock_removes_stale_temporary_files_of_other_processes(tmp_path: Path) -> None:
    mine = f".game.json.{os.getpid()}.tmp"
    stale = [".game.json.999999.tmp", ".settings.json.12.tmp", ".game.json.1.tmp"]
    others = ["game.json", "notes.tmp", ".game.json.abc.tmp", "game.json.123.tmp", mine]
    for name in stale + others:
        (tmp_path / name).write_text(name)
    (tmp_path / ".odd.json.7.tmp").mkdir()  # not a file we wrote: left alone
    store = Store(tmp_path)
    assert store.lock() == ""
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {*others, ".odd.json.7.tmp", "cribtiles.lock"}
    assert (tmp_path / mine).read_text() == mine
    store.unlock()


def test_stale_temporary_files_stay_when_the_folder_is_not_locked(tmp_path: Path) -> None:
    (tmp_path / ".game.json.999999.tmp").write_text("x")
    Store(tmp_path).load_game()
    Store(tmp_path).save_game(started_game())
    assert (tmp_path / ".game.json.999999.tmp").exists()


# --- matches ---


def match_of(rounds: int) -> Match:
    return Match.start(2, RuleOptions(rounds=rounds), seed=5, names=("You", "Medium"))


def test_a_match_in_progress_is_saved_and_resumed(tmp_path: Path) -> None:
    m = match_of(3)
    m = replace(m, game=finished(m.game)).next_round()
    m = m.apply(m.game.legal_actions()[0])
    Store(tmp_path).save_game(m)
    assert json.loads((tmp_path / "game.json").read_text())["format"] == "cribtiles-match"
    resumed, note = Store(tmp_path).load_game()
    assert note == "" and isinstance(resumed, Match)
    assert resumed.round == 2 and resumed.game.log == m.game.log and resumed.totals == m.totals


def test_a_match_between_rounds_is_returned_for_its_next_round(tmp_path: Path) -> None:
    m = match_of(2)
    m = replace(m, game=finished(m.game))
    assert m.game.is_over and not m.is_over
    Store(tmp_path).save_game(m)
    resumed, note = Store(tmp_path).load_game()
    assert note == "" and isinstance(resumed, Match) and resumed.game.is_over and not resumed.is_over
    assert resumed.next_round().round == 2


def test_a_finished_match_is_not_resumed(tmp_path: Path) -> None:
    m = match_of(2)
    m = replace(m, game=finished(m.game)).next_round()
    m = replace(m, game=finished(m.game))
    assert m.is_over
    Store(tmp_path).save_game(m)
    assert Store(tmp_path).load_game() == (None, "")
    assert asides(tmp_path, "game") == []


def test_a_single_game_in_progress_loads_as_a_game_state(tmp_path: Path) -> None:
    Store(tmp_path).save_game(started_game())
    assert type(Store(tmp_path).load_game()[0]) is GameState


# --- full disks and failed saves ---


@pytest.fixture
def file_size_limit() -> Iterator[Callable[[int], None]]:
    """Limit the size of files this process writes (a full disk: writes past it fail with EFBIG)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        yield lambda n: resource.setrlimit(resource.RLIMIT_FSIZE, (n, hard))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old_handler)


def test_a_full_disk_keeps_the_old_save_and_leaves_no_temporary_file(
    tmp_path: Path, file_size_limit: Callable[[int], None]
) -> None:
    store = Store(tmp_path)
    s = started_game()
    store.save_game(s)
    old = (tmp_path / "game.json").read_bytes()
    later = s.apply(s.legal_actions()[0])
    store.save_preferences(Preferences(window=(1000, 1000)))
    file_size_limit(len(old))  # the next save is longer: it cannot be written whole
    store.save_game(later)
    file_size_limit(resource.RLIM_INFINITY)
    assert (tmp_path / "game.json").read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "settings.json"]
    assert store.errors[0] == f"could not save the game in {tmp_path} (File too large)"
    resumed, _ = Store(tmp_path).load_game()
    assert resumed is not None and resumed.log == s.log


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG, errno.EROFS, errno.EIO])
def test_a_failed_write_keeps_the_old_file_and_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    store = Store(tmp_path)
    store.save_preferences(Preferences(level="hard"))

    def fail(fd: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "fsync", fail)
    store.save_preferences(Preferences(level="easy"))
    store.save_game(started_game())
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
    assert store.load_preferences() == (Preferences(level="hard"), "")
    assert store.errors == [
        f"could not save the settings in {tmp_path} ({os.strerror(code)})",
        f"could not save the game in {tmp_path} ({os.strerror(code)})",
    ]


def test_saving_never_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(state: object) -> str:
        raise ValueError("a record nobody foresaw")

    monkeypatch.setattr(storage, "save", boom)
    store = Store(tmp_path)
    store.save_game(started_game())
    assert store.errors == [f"could not save the game in {tmp_path} (a record nobody foresaw)"]


def test_the_coachs_settings_are_kept_and_checked(tmp_path: Path) -> None:
    store = Store(tmp_path)
    prefs = Preferences(hints=False, hint_limit=3, coach_notes=True, tiles_out=True)
    store.save_preferences(prefs)
    assert store.load_preferences() == (prefs, "")
    odd = {"hint_limit": 7, "coach_notes": False, "tiles_out": False}
    (tmp_path / "settings.json").write_text(json.dumps(odd))
    assert store.load_preferences()[0].hint_limit == 7  # a hand-written limit off the screen's choices
    for bad in ({"hint_limit": -1}, {"hint_limit": 100}, {"hint_limit": True}, {"hint_limit": "3"}, {"tiles_out": 1}):
        prefs, bad_names = read_preferences(bad)
        assert bad_names == list(bad) and prefs == Preferences()
