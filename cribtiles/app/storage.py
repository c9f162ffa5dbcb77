"""Where the game keeps its files, and how: the per-user data folder, atomic writes, safe reading.

Saves and settings live in platformdirs' user data folder (or `--data-dir DIR`), never beside the
program. Every write goes to a temporary file that then replaces the old one (`os.replace`), so a
crash or power cut leaves either the old file or the new one. A damaged file is set aside with a
plain message, never a crash.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import asdict
from pathlib import Path

from cribtiles.rules.errors import RecordError
from cribtiles.rules.game import GameState
from cribtiles.rules.record import load, save
from cribtiles.ui.config import SPEEDS, Preferences

APP_NAME = "cribtiles"
GAME_FILE = "game.json"
SETTINGS_FILE = "settings.json"


def default_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` so that readers only ever see the whole old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    try:  # make the rename itself durable where the platform allows it
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def _set_aside(path: Path) -> Path:
    """Keep a damaged file for a bug report, out of the way of the next save."""
    aside = path.with_name(f"{path.stem}.damaged-{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}")
    with contextlib.suppress(OSError):
        os.replace(path, aside)
    return aside


class Store:
    """The game's files in one folder: the game in play and the preferences."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_data_dir()
        self.errors: list[str] = []  # writes that failed (a full disk, a read-only folder)

    @property
    def game_path(self) -> Path:
        return self.folder / GAME_FILE

    @property
    def settings_path(self) -> Path:
        return self.folder / SETTINGS_FILE

    # --- the game ---

    def load_game(self) -> tuple[GameState | None, str]:
        """The saved game to resume (None if there is none, it is over, or it is damaged) and a
        message for the player when something was wrong."""
        try:
            text = self.game_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None, ""
        except (OSError, UnicodeDecodeError) as e:
            aside = _set_aside(self.game_path)
            return None, f"The saved game could not be read ({e}); it was kept as {aside.name} and a new game begins."
        try:
            state = load(text)
        except RecordError as e:
            aside = _set_aside(self.game_path)
            return None, f"{str(e)[:1].upper()}{str(e)[1:]}. It was kept as {aside.name}; a new game begins."
        except Exception as e:  # a record the rules cannot replay for a reason nobody foresaw
            aside = _set_aside(self.game_path)
            return None, f"The saved game could not be replayed ({e}); it was kept as {aside.name}."
        if state.is_over:
            return None, ""
        return state, ""

    def save_game(self, state: GameState) -> None:
        try:
            atomic_write(self.game_path, save(state))
        except OSError as e:
            self.errors.append(f"could not save the game in {self.folder}: {e}")

    # --- preferences ---

    def load_preferences(self) -> tuple[Preferences, str]:
        try:
            data = json.loads(self.settings_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return Preferences(), ""
        except (OSError, ValueError) as e:
            aside = _set_aside(self.settings_path)
            return Preferences(), f"The settings file was damaged ({e}); it was kept as {aside.name}; default settings."
        return _preferences_from(data)

    def save_preferences(self, prefs: Preferences) -> None:
        try:
            atomic_write(self.settings_path, json.dumps(asdict(prefs), indent=1))
        except OSError as e:
            self.errors.append(f"could not save the settings in {self.folder}: {e}")


def _preferences_from(data: object) -> tuple[Preferences, str]:
    """Preferences from the settings file, each value checked; unknown or bad values fall back."""
    from cribtiles.bot import LEVELS

    prefs = Preferences()
    if not isinstance(data, dict):
        return prefs, "The settings file was not understood; default settings."
    bad: list[str] = []
    level = data.get("level", prefs.level)
    if level in LEVELS:
        prefs.level = level
    else:
        bad.append("level")
    speed = data.get("speed", prefs.speed)
    if speed in SPEEDS:
        prefs.speed = speed
    else:
        bad.append("speed")
    for key in ("sound", "fullscreen"):
        v = data.get(key, getattr(prefs, key))
        if isinstance(v, bool):
            setattr(prefs, key, v)
        else:
            bad.append(key)
    window = data.get("window", list(prefs.window))
    if isinstance(window, list) and len(window) == 2 and all(isinstance(v, int) and 100 <= v <= 20000 for v in window):
        prefs.window = (window[0], window[1])
    else:
        bad.append("window")
    note = f"Some settings were not understood ({', '.join(bad)}); their defaults are used." if bad else ""
    return prefs, note
