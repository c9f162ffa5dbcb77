"""Symbolic links, FIFOs and folders where the game's files should be, a log that cannot be written,
and a lock file deleted or replaced under a running game (issue 29).

The real program runs in subprocesses (`history`, the text mode, the window headless), each bounded in
time, and the tests assert what a player would see: nothing written outside the data folder, nothing
that hangs, no "--- Logging error ---" block, and a second game's moves never saved over.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

from cribtiles.app.logs import LOG_FILE, MAX_BYTES
from cribtiles.app.storage import Store
from cribtiles.rules.record import save
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.saves import save_table
from cribtiles.table.seats import parse_players
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper, Preferences
from cribtiles.ui.review_chart import save_chart
from cribtiles.ui.tiles.review_scene import chart_file, series_of
from cribtiles.ui.window import App
from tests.ui.tiles.test_review_scene import Host, StandIn, finished, frames, opened, quick_review

from .conftest import kill_tree, log_text, run, start, wait_for
from .test_files import game_in_play, stays_up, stop, wait_while_up, window
from .test_text_and_arena import PROMPT, Collected

BOUND = 20  # seconds: each run of the program must be over by then, whatever is in its folder
OUTSIDE = "lines the game must never touch\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the data folder, out of it: what a link in the data folder may point to."""
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def no_logging_error(err: str) -> None:
    assert "--- Logging error ---" not in err and "Traceback" not in err, err


def text_game(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The text mode at its end of input at once: it starts (or resumes) the game, saves it and leaves."""
    return run(["--text", *args], data, timeout=BOUND)


def a_table(seed: int = 5) -> Table:
    return Table.new(parse_players("You,easy"), seed=seed)


# --- symbolic links: nothing is written through one ---


@pytest.mark.parametrize("target", ["a file", "nothing"])
def test_a_linked_log_is_not_written_and_the_log_goes_to_standard_error(data: Path, outside: Path, target: str) -> None:
    aim = outside / "elsewhere.log"
    if target == "a file":
        aim.write_text(OUTSIDE)
    (data / LOG_FILE).symlink_to(aim)
    for args in (["history"], ["--text", "--seed", "5"]):
        done = run(args, data, timeout=BOUND)
        assert done.returncode == 0, done.stderr
        no_logging_error(done.stderr)
        assert done.stderr.startswith(
            "cribtiles: cribtiles.log is a symbolic link, and nothing is written through a link in the data "
            "folder; the log goes to standard error\n"
        )
    assert (aim.read_text() == OUTSIDE) if target == "a file" else not aim.exists()
    assert (data / LOG_FILE).is_symlink()  # left as the player made it


def test_a_full_log_is_kept_by_renaming_over_a_linked_rotation_never_through_it(data: Path, outside: Path) -> None:
    aim = outside / "old.log"
    aim.write_text(OUTSIDE)
    (data / f"{LOG_FILE}.1").symlink_to(aim)
    old = "an old line of the log\n" * (MAX_BYTES // 23)  # the next line rotates the log
    (data / LOG_FILE).write_text(old)
    done = run(["history"], data, timeout=BOUND)
    assert done.returncode == 0 and done.stderr == ""
    assert aim.read_text() == OUTSIDE
    rotated = data / f"{LOG_FILE}.1"
    assert not rotated.is_symlink() and rotated.read_text() == old  # the link replaced by the old log
    assert "Crib Tiles started" in log_text(data)


def test_a_linked_exports_folder_receives_no_record(data: Path, outside: Path) -> None:
    (data / "exports").symlink_to(outside, target_is_directory=True)
    store = Store(data)
    said = store.export_game(a_table())
    assert said == (
        f"The game's record could not be written in {data / 'exports'} (exports is a symbolic link, "
        "and nothing is written through a link in the data folder)."
    )
    assert list(outside.iterdir()) == []
    (data / "exports").unlink()
    assert "The game's record was written to" in store.export_game(a_table())
    [record] = (data / "exports").iterdir()
    assert load_table(record.read_text()).state.seed == 5


def test_an_export_never_takes_the_name_of_a_link_planted_in_exports(data: Path, outside: Path) -> None:
    exports = data / "exports"
    exports.mkdir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    planted = [exports / f"crib-tiles-{stamp}-You-Easy{n}.json" for n in ("", "-2")]
    for name in planted:
        name.symlink_to(outside / "taken.json")  # broken links: the names look free to exists()
    said = Store(data).export_game(a_table())
    assert list(outside.iterdir()) == []
    assert all(p.is_symlink() for p in planted)
    if time.strftime("%Y%m%d-%H%M%S") == stamp:  # the same second: the third name was taken
        assert f"crib-tiles-{stamp}-You-Easy-3.json" in said


def test_a_linked_chart_folder_and_a_planted_chart_name_are_refused(
    data: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    table = finished(4)
    review = quick_review(table)
    (data / "exports").symlink_to(outside, target_is_directory=True)
    app = App(None, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(1280, 800), seed=3)
    try:
        scene, _ = opened(app, table, StandIn(review), Host(data / "exports"))
        frames(app, 4)
        scene.export()
        assert (
            scene.message == f"The chart was not saved: {data / 'exports'} is a symbolic link, not a folder of its own."
        )
        assert list(outside.iterdir()) == []
        (data / "exports").unlink()
        (data / "exports").mkdir()
        planted = chart_file(data / "exports")
        planted.symlink_to(outside / "chart.png")
        assert chart_file(data / "exports") != planted  # a broken link's name is taken
        with pytest.raises(FileExistsError):
            save_chart(series_of(review), str(planted), "title")
        assert list(outside.iterdir()) == []
        scene.export()
        assert "The chart was saved to" in scene.message
        [chart] = [p for p in (data / "exports").iterdir() if not p.is_symlink()]
        assert chart.stat().st_size > 0
    finally:
        app.close()


def test_saves_and_settings_named_by_links_are_read_then_replaced_never_written_through(
    data: Path, outside: Path
) -> None:
    game = save(game_in_play()).encode()
    (outside / "game.json").write_bytes(game)
    (outside / "settings.json").write_text('{"speed": "fast"}')
    (data / "game.json").symlink_to(outside / "game.json")  # a save kept elsewhere by its player
    (data / "settings.json").symlink_to(outside / "settings.json")
    done = text_game(data)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout.startswith("Resuming your game")  # a linked save is read: reading is harmless
    assert (outside / "game.json").read_bytes() == game
    assert (outside / "settings.json").read_text() == '{"speed": "fast"}'
    assert not (data / "game.json").is_symlink() and load_table((data / "game.json").read_text()).state.seed == 7
    store = Store(data)
    store.save_preferences(store.load_preferences()[0])
    assert not (data / "settings.json").is_symlink() and store.errors == []
    assert (outside / "settings.json").read_text() == '{"speed": "fast"}'


def test_a_temporary_file_planted_as_a_link_is_never_written_through(data: Path, outside: Path) -> None:
    store = Store(data)
    for name in ("game.json", "cribbage.json", "settings.json"):
        (data / f".{name}.{os.getpid()}.tmp").symlink_to(outside / name)  # the name our next save takes
    (outside / "game.json").write_text(OUTSIDE)
    store.save_game(a_table())
    store.save_cribbage(CribbageTable.new(3, "easy"))
    store.save_preferences(store.load_preferences()[0])
    assert store.errors == []
    assert sorted(p.name for p in outside.iterdir()) == ["game.json"] and (outside / "game.json").read_text() == OUTSIDE
    assert sorted(p.name for p in data.iterdir()) == ["cribbage.json", "game.json", "settings.json"]
    assert not any(p.is_symlink() for p in data.iterdir())


def test_a_damaged_save_is_never_set_aside_through_a_planted_link(data: Path, outside: Path) -> None:
    (data / "game.json").write_text("{")
    now = time.time()
    for second in range(0, 20):  # every name the next seconds may give: all taken by links
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now + second))
        (data / f"game.damaged-{stamp}.json").symlink_to(outside / f"{stamp}.json")
    table, note = Store(data).load_table()
    assert table is None and "-2.json" in note
    assert list(outside.iterdir()) == []


def test_a_damaged_save_that_is_a_link_is_set_aside_as_the_link_itself(data: Path, outside: Path) -> None:
    (outside / "game.json").write_text("{")
    (data / "game.json").symlink_to(outside / "game.json")
    table, note = Store(data).load_table()
    assert table is None and "it was kept as game.damaged-" in note
    [aside] = [p for p in data.iterdir() if p.name.startswith("game.damaged-")]
    assert aside.is_symlink() and (outside / "game.json").stat().st_nlink == 1  # no second name for it here
    assert (outside / "game.json").read_text() == "{"


@pytest.mark.parametrize("target", ["a file", "nothing"])
def test_a_linked_lock_file_is_not_written_and_the_game_is_not_saved(data: Path, outside: Path, target: str) -> None:
    aim = outside / "lock"
    if target == "a file":
        aim.write_text(OUTSIDE)
    (data / "cribtiles.lock").symlink_to(aim)
    done = text_game(data, "--seed", "5")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert (
        f"The data folder {data} cannot be used (cribtiles.lock is a symbolic link, and nothing is written "
        "through a link in the data folder), so this game is not saved." in done.stdout
    )
    assert "your game is saved" not in done.stdout
    assert (aim.read_text() == OUTSIDE) if target == "a file" else not aim.exists()
    assert not (data / "game.json").exists()


# --- FIFOs, folders: nothing waits on a file that is not a regular one ---


def fifo(path: Path) -> None:
    os.mkfifo(path)


def folder(path: Path) -> None:
    path.mkdir()


ODD = {"a FIFO": fifo, "a folder": folder}


@pytest.mark.parametrize("make", ODD.values(), ids=ODD.keys())
def test_a_log_that_is_not_a_regular_file_never_blocks_history_or_the_text_mode(data: Path, make) -> None:
    make(data / LOG_FILE)
    kind = "a FIFO" if make is fifo else "a folder"
    for args in (["history"], ["stats"], ["--text", "--seed", "5"]):
        done = run(args, data, timeout=BOUND)
        assert done.returncode == 0, done.stderr
        no_logging_error(done.stderr)
        assert done.stderr.startswith(f"cribtiles: cribtiles.log is {kind}; the log goes to standard error\n")
    assert load_table((data / "game.json").read_text()).state.seed == 5


@pytest.mark.parametrize("make", ODD.values(), ids=ODD.keys())
def test_the_window_opens_over_a_log_that_is_not_a_regular_file(data: Path, reaper: list, make) -> None:
    make(data / LOG_FILE)
    proc = window(data, reaper, "--seed", "5")
    wait_while_up(proc, lambda: (data / "game.json").exists(), "the new game saved", timeout=BOUND)
    stays_up(proc)
    code, _, err = stop(proc)
    assert code == 128 + signal.SIGTERM
    no_logging_error(err)


@pytest.mark.parametrize("name", ["game.json", "settings.json"])
def test_a_fifo_for_a_save_or_the_settings_is_set_aside_and_the_game_goes_on(data: Path, name: str) -> None:
    fifo(data / name)
    done = text_game(data)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "it is not a regular file" in done.stdout + done.stderr + log_text(data)
    [aside] = [p for p in data.iterdir() if p.name.startswith(name.split(".")[0] + ".damaged-")]
    assert stat.S_ISFIFO(aside.lstat().st_mode)


def test_a_fifo_for_the_cribbage_save_is_set_aside(data: Path) -> None:
    fifo(data / "cribbage.json")
    table, note = Store(data).load_cribbage()
    assert table is None and "it is not a regular file" in note and "it was kept as cribbage.damaged-" in note


def test_a_fifo_or_a_file_named_exports_is_said_in_words(data: Path) -> None:
    fifo(data / "exports")
    said = Store(data).export_game(a_table())
    assert said == f"The game's record could not be written in {data / 'exports'} (exports is a FIFO)."


# --- a log that cannot be written: silent, and the game goes on ---


def limited_files(limit: int) -> object:
    def limit_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_files


def test_a_log_on_a_full_disk_prints_one_line_at_most_and_the_game_goes_on(data: Path) -> None:
    (data / LOG_FILE).write_text("x" * 100_000)  # past the limit below: every line of the log fails
    proc = start(["--text", "--seed", "5"], data, preexec=limited_files(64 * 1024))
    try:
        out, err = proc.communicate(timeout=BOUND)
    finally:
        kill_tree(proc.pid)
    assert proc.returncode == 0, err
    no_logging_error(err)
    assert err == f"cribtiles: the log {data / LOG_FILE} could not be written (File too large)\n"
    assert out.endswith("End of input: your game is saved; `cribtiles --text --data-dir " + f"{data}` resumes it.\n")
    assert load_table((data / "game.json").read_text()).state.seed == 5


def test_a_rotation_target_that_is_a_folder_is_left_and_the_log_starts_afresh(data: Path) -> None:
    (data / f"{LOG_FILE}.1").mkdir()
    (data / f"{LOG_FILE}.1" / "keep").write_text("kept")
    (data / LOG_FILE).write_text("an old line of the log\n" * (MAX_BYTES // 23))
    for args in (["history"], ["--text", "--seed", "5"]):
        done = run(args, data, timeout=BOUND)
        assert done.returncode == 0
        no_logging_error(done.stderr)
        assert done.stderr.count("\n") <= 1
    assert (data / f"{LOG_FILE}.1" / "keep").read_text() == "kept"
    assert (data / LOG_FILE).stat().st_size < MAX_BYTES // 2 and "Crib Tiles started" in log_text(data)


# --- two games on one folder whose lock file is not what it should be ---

PASSES = ["--rules", "exchange=any-time", "--level", "easy"]  # so that `pass` is always allowed


def prompts(out: Collected, n: int) -> None:
    wait_for(lambda: out.text.count(PROMPT) >= n, BOUND, f"prompt {n}\n--- so far:\n{out.text[-2000:]}")


def moves_in(data: Path) -> int:
    return len(load_table((data / "game.json").read_text()).state.log)


def test_a_game_whose_lock_file_was_deleted_never_saves_over_the_next_game(data: Path, reaper: list) -> None:
    first = start(["--text", "--seed", "5", *PASSES], data, stdin=subprocess.PIPE)
    reaper.append(first)
    first_out = Collected(first.stdout)
    first_out.wait_for(PROMPT, BOUND)
    wait_for(lambda: (data / "game.json").exists(), BOUND, "the first game's save")
    before = moves_in(data)
    (data / "cribtiles.lock").unlink()  # by hand, by a clean-up tool: the folder looks free

    second = start(["--text"], data, stdin=subprocess.PIPE)
    reaper.append(second)
    second_out = Collected(second.stdout)
    assert second.stdin is not None
    for n in range(1, 4):
        prompts(second_out, n)
        second.stdin.write("pass\n")
        second.stdin.flush()
    prompts(second_out, 4)
    second.stdin.write("quit\n")
    second.stdin.flush()
    assert second.wait(BOUND) == 0
    after_second = load_table((data / "game.json").read_text())
    assert len(after_second.state.log) >= before + 3  # three passes, and the bot's moves between

    assert first.stdin is not None
    first.stdin.write("pass\n")  # the first game plays on: its moves are its own, not saved
    first.stdin.flush()
    prompts(first_out, 2)
    first.stdin.write("quit\n")  # and it leaves, saving once more: never over the second game
    first.stdin.flush()
    assert first.wait(BOUND) == 0
    shown = first_out.finish()
    assert "the folder is not this game's own: its lock file cribtiles.lock was replaced" in shown
    assert "Goodbye: your game could not be saved" in shown and "your game is saved" not in shown
    assert load_table((data / "game.json").read_text()).state.log == after_second.state.log
    assert "is no longer this game's own" in log_text(data)


def test_a_lock_file_that_is_a_folder_lets_the_game_play_without_saving(data: Path, reaper: list) -> None:
    (data / "cribtiles.lock").mkdir()
    done = text_game(data, "--seed", "5")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert f"The data folder {data} cannot be used (cribtiles.lock is a folder), so this game is not saved." in (
        done.stdout
    )
    assert "your game is saved" not in done.stdout
    assert not (data / "game.json").exists()

    game = save(game_in_play()).encode()  # a second game's save, made while the folder was usable
    (data / "game.json").write_bytes(game)
    proc = window(data, reaper, "--seed", "9")  # a new game: it would replace the saved one
    stays_up(proc)
    code, _, err = stop(proc)
    assert code == 128 + signal.SIGTERM
    assert "the folder is not this game's own: its lock file cribtiles.lock is a folder" in err
    assert (data / "game.json").read_bytes() == game  # the other game's save is kept as it was
    assert not (data / "settings.json").exists()
    assert (data / "cribtiles.lock").is_dir()


def test_a_lock_file_that_is_a_fifo_never_blocks_and_the_game_saves_nothing(data: Path) -> None:
    fifo(data / "cribtiles.lock")
    store = Store(data)
    note = store.lock()
    assert note == f"The data folder {data} cannot be used (cribtiles.lock is a FIFO), so this game is not saved."
    store.save_game(a_table())
    assert not (data / "game.json").exists()
    assert store.errors == [
        f"could not save the game in {data} (the folder is not this game's own: its lock file cribtiles.lock is a FIFO)"
    ]
    store.unlock()


def test_a_read_only_lock_file_still_locks_and_the_game_saves(data: Path, reaper: list) -> None:
    (data / "cribtiles.lock").write_text("")
    (data / "cribtiles.lock").chmod(0o444)
    done = text_game(data, "--seed", "5")
    assert done.returncode == 0 and "cannot be used" not in done.stdout
    assert load_table((data / "game.json").read_text()).state.seed == 5
    assert json.loads(save_table(load_table((data / "game.json").read_text())))
