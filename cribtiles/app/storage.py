"""Where the game keeps its files, and how: the per-user data folder, atomic writes, safe reading.

Saves and settings live in platformdirs' user data folder (or `--data-dir DIR`), never beside the
program. Every write goes to a temporary file that then replaces the old one (`os.replace`), so a
crash or power cut leaves either the old file or the new one. A damaged file (unreadable, too large,
not text, not JSON, nested too deeply, values of the wrong kind) is set aside under a name of its own
with a plain message, never a crash. One running game claims the folder with a lock file
(`Store.lock`), so a second one cannot write over its game; a game whose lock file was deleted or
replaced under it (another game may have the folder now) stops saving rather than write over the other.

Nothing is written through a symbolic link inside the folder (`confined`): a save or the settings whose
name is a link is replaced by a file of its own (the file linked to is never written), a linked
`exports` folder or a linked temporary file is refused in words. Reading a save through a link is
harmless (it is only read, and a damaged one is set aside by moving the link itself), so it is allowed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import stat
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from cribtiles.games import REBUILT, game_named
from cribtiles.rules.errors import RecordError
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.record import save, save_match
from cribtiles.table.cribbage.ledger import summarize_cribbage
from cribtiles.table.cribbage.session import FinishedCribbage
from cribtiles.table.cribbage.table import CribbageSaveError, CribbageTable
from cribtiles.table.game_summary import GameSummary
from cribtiles.table.keeping import kept_by, of_kind
from cribtiles.table.ledger import Stats, standing, summarize
from cribtiles.table.saves import SavedTable, save_table
from cribtiles.table.settings import Preferences, read_preferences
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table

from .confined import NotOurs, create_new, inner_folder, open_regular
from .files import SetAside, aside_names, brief, move_to_free_name, why
from .folder_lock import FolderLock, InUse, folder_lock
from .history import History, history_path

if TYPE_CHECKING:
    from cribtiles.cribbage.game import CribbageState

APP_NAME = "cribtiles"
GAME_FILE = "game.json"
CRIBBAGE_FILE = "cribbage.json"  # the classic cribbage game at the table, apart from the tile game
SETTINGS_FILE = "settings.json"
LOCK_FILE = "cribtiles.lock"
EXPORTS = "exports"  # the folder of game records written by Export

SETTINGS_CAP = 1024 * 1024  # bytes: a settings file is a few hundred; anything past this is damaged
GAME_CAP = 8 * 1024 * 1024  # bytes: a long match is well under a megabyte
CRIBBAGE_CAP = 1024 * 1024  # bytes: a game of cribbage to 121 saves in about 3 KB

_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})\.tmp")  # atomic_write's names

log = logging.getLogger("cribtiles.storage")


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` so that readers only ever see the whole old file or the whole new one.

    On any failure (a full disk, a read-only folder) the old file is untouched, the temporary file
    is removed, and the error is raised."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(_new_temporary(tmp), "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    try:  # make the rename itself durable where the platform allows it
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def _new_temporary(tmp: Path) -> int:
    """The temporary file `tmp`, new, for writing: never through a link planted at its name. Whatever is
    there already bears this process's number, so it is a leftover of a killed game, or planted: removed
    (a link is removed, not the file it points to)."""
    try:
        return create_new(tmp)
    except FileExistsError:
        os.unlink(tmp)
        return create_new(tmp)


# --- short, plain reasons ---


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class Unreadable(Exception):
    """A file that is there but cannot be used; the message says why in words."""


def read_capped(path: Path, cap: int, follow_links: bool = True) -> str | None:
    """The text of the file at `path`, or None when there is none. Raises `Unreadable` when it cannot
    be read, is not a regular file, is larger than `cap` bytes (never more than cap + 1 are read) or
    is not UTF-8; with `follow_links` False, also when `path` is a link (it is not followed)."""
    try:
        if follow_links:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        else:
            fd = open_regular(path, os.O_RDONLY)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise Unreadable(f"it could not be opened: {why(e)}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable("it is not a regular file")
        raw = _read_at_most(fd, cap + 1)
    except OSError as e:
        raise Unreadable(f"it could not be read: {why(e)}") from None
    except MemoryError:
        raise Unreadable("it is too large to read") from None
    finally:
        os.close(fd)
    if len(raw) > cap:
        raise Unreadable(f"it is larger than {_size(cap)}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable("it is not text") from None


def _read_at_most(fd: int, n: int) -> bytes:
    chunks: list[bytes] = []
    while n > 0:
        chunk = os.read(fd, min(n, 1024 * 1024))
        if not chunk:
            break
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def parse_json(text: str) -> object:
    """`text` as JSON, or `Unreadable` saying in words why not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise Unreadable(f"it is not valid JSON: {e.msg} at line {e.lineno}") from None
    except RecursionError:
        raise Unreadable("its data is nested too deeply") from None
    except MemoryError:
        raise Unreadable("it is too large to read") from None
    except ValueError as e:  # numbers too long to convert, and the like
        raise Unreadable(f"it is not valid JSON: {brief(str(e))}") from None


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n:,} bytes"


# --- damaged files ---


def _set_aside(path: Path) -> SetAside:
    """Keep a damaged file for a bug report, out of the way of the next save, under a name of its own."""
    try:
        kept = move_to_free_name(path, aside_names(path))
    except OSError as e:
        log.warning("damaged file %s could not be set aside (%s); it was left where it is", path, why(e))
        return SetAside(path, None, why(e))
    log.warning("damaged file %s was set aside as %s", path, kept.name)
    return SetAside(path, kept)


# --- one running game per folder ---


def _standing(table: Table) -> str:
    """Where a game stands, in words: "You 34 · Hard 40, round 2 of 3"."""
    m = table.match
    scores = standing(table)
    names = ["You" if s.is_person and len(table.people) == 1 else s.name for s in table.seats]
    each = " · ".join(f"{n} {sc}" for n, sc in zip(names, scores, strict=True))
    return each + (f", round {m.round} of {m.options.rounds}" if m.options.rounds > 1 else "")


class FolderInUse(Exception):
    """Another running Crib Tiles holds the data folder."""

    def __init__(self, folder: Path) -> None:
        super().__init__(
            f"Crib Tiles is already running with the data folder {folder}; "
            "close it first, or use --data-dir for a second game."
        )
        self.folder = folder


def _not_a_folder(folder: Path) -> str:
    """ "… is not a folder" when `folder` or the nearest part of it that exists is a file, else ""."""
    for p in (folder, *folder.parents):
        with contextlib.suppress(OSError):
            if p.exists() or p.is_symlink():
                return "" if p.is_dir() else f"{p} is not a folder"
    return ""


class Store:
    """The game's files in one folder: the game in play and the preferences."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_data_dir()
        self.errors: list[str] = []  # writes that failed (a full disk, a read-only folder)
        self._lock: FolderLock | None = None
        self.no_saving = ""  # why this game saves nothing (the folder is not its own), or ""
        # why the latest save of the game, and of the cribbage game, failed (None: it was saved)
        self._unsaved: dict[str, str | None] = {"game": None, "cribbage game": None}
        self._history: History | None = None
        self._history_notes: list[str] = []  # what the history said, for the next screen that reads it

    @property
    def unsaved(self) -> str | None:
        """Why a game in play is not saved as it stands (its latest save failed), or None: every game
        is saved, and quitting loses nothing."""
        return next((why for why in self._unsaved.values() if why is not None), None)

    @property
    def game_path(self) -> Path:
        return self.folder / GAME_FILE

    @property
    def settings_path(self) -> Path:
        return self.folder / SETTINGS_FILE

    @property
    def lock_path(self) -> Path:
        return self.folder / LOCK_FILE

    @property
    def locked(self) -> bool:
        return self._lock is not None

    # --- the folder ---

    def lock(self) -> str:
        """Claim the folder for this running game (creating it if need be) and remove the temporary
        files that killed games left behind.

        Raises `FolderInUse` when another running game holds it. When the lock file cannot be made (a
        read-only folder, a data dir that is a file) the game runs unlocked: the reason is logged and
        returned as a message for the player ("" when the folder is locked); saving is tried all the same
        (and fails as it must). When the lock file is there but cannot be a lock (a folder, a link, a FIFO)
        the folder could still be written, perhaps by another game: this one plays without saving."""
        if self._lock is not None:
            return ""
        lock = folder_lock(self.lock_path)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            lock.acquire()
        except InUse:
            log.warning("the data folder %s is in use by another Crib Tiles", self.folder)
            raise FolderInUse(self.folder) from None
        except NotOurs as e:
            self.no_saving = f"its lock file {e.strerror}"
            log.warning("could not lock the data folder %s (%s); playing without saving", self.folder, e.strerror)
            return f"The data folder {self.folder} cannot be used ({e.strerror}), so this game is not saved."
        except OSError as e:
            reason = self._problem(e)
            log.warning("could not lock the data folder %s (%s); running without the lock", self.folder, reason)
            return f"The data folder {self.folder} cannot be used ({reason}), so your game may not be saved."
        self._lock = lock
        log.info("locked the data folder %s", self.folder)
        self._remove_stale_temporaries()
        return ""

    def unlock(self) -> None:
        """Let the folder go (another game may claim it then)."""
        if self._lock is None:
            return
        with contextlib.suppress(OSError):
            self._lock.release()
        self._lock = None

    def _remove_stale_temporaries(self) -> None:
        """Remove `.NAME.PID.tmp` files of other processes: writes a `kill -9` cut short. Only safe while
        the folder is locked (no other game writes in it)."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError as e:
            log.warning("could not look for stale temporary files in %s (%s)", self.folder, why(e))
            return
        for entry in entries:
            m = _TEMPORARY.fullmatch(entry.name)
            if m is None or int(m["pid"]) == os.getpid():
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    continue
                os.unlink(entry.path)
            except OSError as e:
                log.warning("could not remove the stale temporary file %s (%s)", entry.path, why(e))
            else:
                log.info("removed the stale temporary file %s", entry.path)

    def _problem(self, e: BaseException) -> str:
        return _not_a_folder(self.folder) or why(e)

    def _may_save(self) -> bool:
        """Whether this game may write its files: not when its lock file is not a lock, or was deleted or
        replaced under it (another game may have taken the folder since: never write over its game)."""
        if not self.no_saving and self._lock is not None:
            lost = self._lock.still_ours()
            if lost:
                self.no_saving = lost
                log.warning("the data folder %s is no longer this game's own (%s): no more saves", self.folder, lost)
        return not self.no_saving

    def _refused(self, what: str) -> bool:
        """A save not made, because the folder is not this game's own: said, and never saved (False)."""
        problem = f"the folder is not this game's own: {self.no_saving}"
        self.errors.append(f"could not save the {what} in {self.folder} ({problem})")
        if what in self._unsaved:
            self._unsaved[what] = problem
        return False

    def _failed(self, what: str, e: BaseException) -> None:
        problem = self._problem(e)
        message = f"could not save the {what} in {self.folder} ({problem})"
        if isinstance(e, OSError):
            log.warning("%s", message)
        else:
            log.error("%s", message, exc_info=e)
        self.errors.append(message)
        if what in self._unsaved:
            self._unsaved[what] = problem

    # --- the game ---

    def load_table(self, finished: bool = False) -> tuple[Table | None, str]:
        """The saved table to resume (its seats and its game or match), and a message for the player
        when something was wrong.

        None when there is none, it is damaged (then it is set aside), or it is over (a single game,
        or every round of a match) unless `finished` asks for it (the window shows its end card until
        the player starts the next game). A match between rounds (its current round over, the match
        not) is returned as it is: the caller starts its next round."""
        try:
            text = read_capped(self.game_path, GAME_CAP)
            if text is None:
                return None, ""
            parse_json(text)
        except Unreadable as e:
            aside = _set_aside(self.game_path)
            return None, f"The saved game could not be read ({e}); {aside.words()}, and a new game begins."
        try:
            table = load_table(text)
        except RecordError as e:
            aside = _set_aside(self.game_path)
            return None, f"{_sentence(brief(str(e)))}. {_sentence(aside.words())}; a new game begins."
        except Exception as e:  # a record the rules cannot replay for a reason nobody foresaw
            log.error("the saved game %s could not be replayed", self.game_path, exc_info=e)
            aside = _set_aside(self.game_path)
            return None, f"The saved game could not be replayed ({why(e)}); {aside.words()}, and a new game begins."
        return (None if table.match_over and table.round_over and not finished else table), ""

    def load_game(self) -> tuple[GameState | Match | None, str]:
        """`load_table` without the seats: the game in play, or the match of several rounds."""
        table, note = self.load_table()
        if table is None:
            return None, note
        return (table.match if table.options.rounds > 1 else table.state), note

    def save(self, table: Table | CribbageTable) -> bool:
        """Save the game in play of either game (`Keeps`, issue 45) in its own file, by the verb its game's
        `KEPT` part names (`save_game`, `save_cribbage`); whether it was saved (never raises)."""
        return kept_by(table).save(self, table)

    def record(self, game: Table | FinishedCribbage) -> None:
        """Add the finished game of either game to the history (`Keeps`, issue 45), once, by the verb its
        game's `KEPT` part names (`record_game`, `record_cribbage`; never raises)."""
        kept_by(game).record(self, game)

    def save_game(self, game: Table | GameState | Match) -> bool:
        """Save the table (its seats and its game or match), or a bare game or match; whether it was
        saved. A failure is recorded in `errors` and `unsaved`, never raised."""
        if not self._may_save():
            return self._refused("game")
        try:
            if isinstance(game, Table):
                text = save_table(game)
            else:
                text = save_match(game) if isinstance(game, Match) else save(game)
            atomic_write(self.game_path, text)
        except Exception as e:
            self._failed("game", e)
            return False
        self._unsaved["game"] = None
        return True

    # --- the classic cribbage game ---

    @property
    def cribbage_path(self) -> Path:
        return self.folder / CRIBBAGE_FILE

    def load_cribbage(self) -> tuple[CribbageTable | None, str]:
        """The saved cribbage game (finished or not), and a message for the player when something was
        wrong: a damaged file is set aside under a name of its own, never raised."""
        try:
            text = read_capped(self.cribbage_path, CRIBBAGE_CAP)
            if text is None:
                return None, ""
            return CribbageTable.from_json(text), ""
        except (Unreadable, CribbageSaveError) as e:
            reason = str(e)
        except Exception as e:  # a save the engine cannot replay for a reason nobody foresaw
            log.error("the saved cribbage game %s could not be replayed", self.cribbage_path, exc_info=e)
            reason = why(e)
        aside = _set_aside(self.cribbage_path)
        return None, f"The saved cribbage game could not be used ({reason}); {aside.words()}."

    def save_cribbage(self, table: CribbageTable) -> bool:
        """Save the cribbage game after a move; whether it was saved. A failure is recorded in `errors`
        and `unsaved`, never raised."""
        if not self._may_save():
            return self._refused("cribbage game")
        try:
            atomic_write(self.cribbage_path, save_table(table))
        except Exception as e:
            self._failed("cribbage game", e)
            return False
        self._unsaved["cribbage game"] = None
        return True

    # --- the history of finished games ---

    @property
    def history(self) -> History:
        """The history database in the folder (opened when first used; it needs no folder lock)."""
        if self._history is None:
            self._history = History(history_path(self.folder))
        return self._history

    def record_game(self, table: Table, unfinished: bool = False) -> None:
        """Add the finished game (or whole match) at `table` to the history, once: a game recorded again
        (a resumed finished game) is known by its key; `unfinished` keeps a game still being played as it
        stands, marked unfinished. Failures go to `errors` and the log, never raised."""
        try:
            summary = summarize(table, time.strftime("%Y-%m-%dT%H:%M:%S"), unfinished)
        except Exception as e:  # a game not over yet, or one that cannot be scored again: a bug
            log.error("the game could not be summed up for the history", exc_info=e)
            self.errors.append(f"This game could not be added to the history of your games ({why(e)}).")
            return
        self.history.add(summary)
        self._history_said()

    def keep_unfinished(self) -> str:
        """Before a new game asked for on the command line replaces the saved one: an unfinished saved game
        (or match) with a turn made goes into the history, marked unfinished, so it is never lost unseen.
        What was done, in a sentence for the player ("" when there was nothing to keep)."""
        table, note = self.load_table(finished=True)
        if table is None:
            return note
        if table.round_over and table.match_over:  # left at its end before the end card recorded it
            self.record_game(table)  # never twice: the history knows a game by its key
            return note
        if not any(game.log for game in (*table.match.finished, table.state)):
            return note  # not a turn made: nothing to keep
        errors = len(self.errors)
        self.record_game(table, unfinished=True)
        if len(self.errors) > errors:  # it could not be kept: said, and the new game begins all the same
            return " ".join(n for n in (note, self.errors[-1]) if n)
        log.info("the unfinished game was kept in the history before a new one")
        return f"Your unfinished game ({_standing(table)}) was kept in the History as unfinished; a new game begins."

    def past_games(self) -> list[GameSummary]:
        """The finished games of both games in the history, the newest last."""
        games = self.history.games()
        self._history_said()
        return games

    def statistics(self) -> Stats:
        """The statistics of both games."""
        stats = self.history.stats()
        self._history_said()
        return stats

    def export_game(self, table: SavedTable) -> str:
        """Write the game at `table` (its seats, every round and action) to a record file of its own in
        the folder's `exports`, to keep or to send; where it went, or why it could not, in words."""
        folder = self.folder / EXPORTS  # a folder of its own, never a link out of the data folder
        names = "-".join(re.sub(r"[^A-Za-z0-9]+", "", s.name)[:12] or "player" for s in table.seats)
        stem = f"{kept_by(table).stem}-{time.strftime('%Y%m%d-%H%M%S')}-{names}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            inner_folder(self.folder, EXPORTS)
            path = folder / f"{stem}.json"
            n = 2
            while os.path.lexists(path):  # a name taken by a link (even a broken one) is taken
                path = folder / f"{stem}-{n}.json"
                n += 1
            atomic_write(path, save_table(table))
        except Exception as e:
            log.warning("a game's record could not be exported to %s: %s", folder, why(e))
            return f"The game's record could not be written in {folder} ({why(e)})."
        log.info("a game's record was exported to %s", path)
        return f"The game's record was written to {path}; cribtiles replay FILE opens it."

    def past_game(self, game_id: int) -> Table | CribbageTable | None:
        """The table of a finished game of either game, rebuilt from its record in the history by its own
        game (to replay it); None when there is no such game or its record cannot be replayed (then
        `errors` says so)."""
        summary = self.history.game(game_id)
        self._history_said()
        if summary is None:
            return None
        try:
            table: Table | CribbageTable = game_named(summary.game).part(REBUILT)(summary)
        except Exception as e:  # the record's error in words, or a record the engine cannot replay
            log.warning("game %d of the history could not be rebuilt: %s", game_id, why(e))
            self.errors.append(f"Game {game_id} of the history cannot be replayed ({why(e)}).")
            return None
        return table

    def past_table(self, game_id: int) -> Table | None:
        """A tile game of the history, rebuilt (None for a game of cribbage: `past_cribbage`), for whoever
        needs its type; the window asks `past_game`."""
        return of_kind(self.past_game(game_id), Table)

    # --- the history of classic cribbage ---

    def past_cribbage(self, game_id: int) -> CribbageTable | None:
        """A game of cribbage of the history, rebuilt (None for a tile game: `past_table`)."""
        return of_kind(self.past_game(game_id), CribbageTable)

    def record_cribbage(
        self, state: CribbageState, person: int, level: str | None, marks: tuple[int, int] = (0, 0)
    ) -> None:
        """Add the finished game of cribbage `state` (the person at seat `person`, the bot of `level` at the
        other; None: another person, online) to the history, once however often it is called; a game not
        over is not recorded. Failures go to `errors` and the log, never raised."""
        if state.outcome is None:
            return
        try:
            game = summarize_cribbage(state, person, level, time.strftime("%Y-%m-%dT%H:%M:%S"), marks)
        except Exception as e:  # a record the engine cannot replay: a bug
            log.error("the game of cribbage could not be summed up for the history", exc_info=e)
            self.errors.append(f"This game of cribbage could not be added to the history of your games ({why(e)}).")
            return
        self.history.add(game)
        self._history_said()

    # --- the puzzles solved ---

    def solved_puzzles(self) -> dict[str, int]:
        """The puzzles solved, by id, each with the points found (in the history database)."""
        solved = self.history.solved_puzzles()
        self._history_said()
        return solved

    def mark_solved(self, puzzle_id: str, points: int) -> None:
        """Remember that a puzzle was solved; a failure goes to `errors` and the log, never raised."""
        self.history.mark_solved(puzzle_id, points, time.strftime("%Y-%m-%dT%H:%M:%S"))
        self._history_said()

    def _history_said(self) -> None:
        """What the history had to say (a damaged history set aside, a game it could not store) joins `errors`,
        and the notes for the History and Statistics screens."""
        said = self.history.take_messages()
        self.errors.extend(said)
        self._history_notes.extend(m for m in said if m not in self._history_notes)

    def history_note(self) -> str:
        """What the history said since this was last asked, in one paragraph ("" when nothing)."""
        note, self._history_notes = " ".join(self._history_notes), []
        return note

    # --- preferences ---

    def load_preferences(self) -> tuple[Preferences, str]:
        """The saved preferences (defaults for whatever is missing or bad) and a message for the player
        when something was wrong; a damaged file, or one with values not understood, is set aside."""
        try:
            text = read_capped(self.settings_path, SETTINGS_CAP)
            if text is None:
                return Preferences(), ""
            data = parse_json(text)
            if not isinstance(data, dict):
                raise Unreadable("it does not hold settings")
        except Unreadable as e:
            aside = _set_aside(self.settings_path)
            return Preferences(), f"The settings file was damaged ({e}); {aside.words()}; default settings are used."
        prefs, bad = read_preferences(data)
        if not bad:
            return prefs, ""
        aside = _set_aside(self.settings_path)
        return (
            prefs,
            f"Some settings were not understood ({', '.join(bad)}); their defaults are used and {aside.words()}.",
        )

    def save_preferences(self, prefs: Preferences) -> None:
        """Save the preferences; a failure is recorded in `errors`, never raised."""
        if not self._may_save():
            self._refused("settings")
            return
        try:
            atomic_write(self.settings_path, json.dumps(asdict(prefs), indent=1))
        except Exception as e:
            self._failed("settings", e)
