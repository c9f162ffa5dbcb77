"""The Settings screen: sound and its volume, animation speed, full screen, letters on the tiles,
confirming a play, undo, hints and the coach (hints per game, a note after a play, the tiles still
out). Each change is applied at once and saved (by the window, through `on_change`); Escape or Back
returns to where the screen was opened from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from cribtiles.table.settings import HINT_LIMITS, SPEEDS, Preferences

from .geometry import Rect, contains
from .paint import CREAM, DIM, GOLD, button, write
from .screens import fit, ring, screen_card

ON_OFF = ((True, "on"), (False, "off"))


@dataclass(frozen=True)
class Setting:
    """One line of the screen: the preference it sets, its words, its choices (value, words), a note."""

    name: str
    label: str
    choices: tuple[tuple[object, str], ...]
    note: str


SETTINGS = (
    Setting("sound", "Sound", ON_OFF, "The knock of wood as tiles land and pegs move (M at the table)."),
    Setting("volume", "Volume", tuple((v, f"{v}%") for v in range(0, 101, 10)), "How loud the sounds are, when on."),
    Setting(
        "speed",
        "Animation speed",
        tuple((n, n) for n in SPEEDS),
        "How fast tiles fly and pegs move: instant skips the animations (A at the table).",
    ),
    Setting("fullscreen", "Full screen", ON_OFF, "The game fills the screen (F11 anywhere)."),
    Setting(
        "colour_marks",
        "Colour letters on tiles",
        ON_OFF,
        "Each tile also carries its colour's letter (L light, D dark), for eyes that mix the two woods.",
    ),
    Setting(
        "confirm_play",
        "Confirm each play",
        ON_OFF,
        "Play (or Enter) first shows the play and its score and asks you to confirm it.",
    ),
    Setting(
        "undo",
        "Undo against bots",
        ((True, "allowed"), (False, "not allowed")),
        "Ctrl+Z takes back your last play and the bots' replies; such games are counted apart.",
    ),
    Setting(
        "hints",
        "Hints",
        ((True, "allowed"), (False, "not allowed")),
        "Whether the coach may show you a play (I) or the best plays (B); games with hints are counted apart.",
    ),
    Setting(
        "hint_limit",
        "Hints per game",
        tuple((n, str(n) if n else "no limit") for n in HINT_LIMITS),
        "How many hints a game allows; the best plays and the exchange advice count as hints too.",
    ),
    Setting(
        "coach_notes",
        "Coach's note after a play",
        ON_OFF,
        "After each of your plays, a quiet note when another play would have scored more, or when yours "
        "opens or closes a big reply.",
    ),
    Setting(
        "tiles_out",
        "Tiles still out",
        ((True, "shown"), (False, "hidden")),
        "The tiles you have not seen (other racks and the bag), by rank and colour, in the panel (T at the table).",
    ),
)


def step_value(setting: Setting, current: object, step: int) -> object:
    """The choice `step` places from `current` (wrapping round; a value not among them starts at the first)."""
    values = [v for v, _ in setting.choices]
    i = values.index(current) if current in values else -step if step > 0 else 0
    return values[(i + step) % len(values)]


def words_of(setting: Setting, value: object) -> str:
    return next((w for v, w in setting.choices if v == value), str(value))


class SettingsScene:
    """The settings on a wooden card over the felt."""

    def __init__(self, prefs: Preferences, on_change: Callable[[str], None], on_close: Callable[[], None]) -> None:
        self.prefs = prefs
        self.on_change = on_change  # called with the setting's name once prefs holds the new value
        self.on_close = on_close
        self.focus = 0  # a setting, or len(SETTINGS) for Back
        self.mouse = (-1, -1)
        self.fields: list[Rect] = []
        self.back: Rect = (0, 0, 0, 0)
        self.card: Rect = (0, 0, 0, 0)

    # --- input ---

    def change(self, i: int, step: int) -> None:
        setting = SETTINGS[i]
        value = step_value(setting, getattr(self.prefs, setting.name), step)
        setattr(self.prefs, setting.name, value)
        self.on_change(setting.name)

    def shutdown(self) -> None:
        """Nothing of its own runs."""

    def handle(self, event: pygame.event.Event) -> None:
        n = len(SETTINGS)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._click(event.pos)
        elif event.type == pygame.KEYDOWN:
            k = event.key
            if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.on_close()
            elif k == pygame.K_UP or (k == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT):
                self.focus = (self.focus - 1) % (n + 1)
            elif k in (pygame.K_DOWN, pygame.K_TAB):
                self.focus = (self.focus + 1) % (n + 1)
            elif k in (pygame.K_HOME, pygame.K_END):
                self.focus = 0 if k == pygame.K_HOME else n
            elif self.focus == n:
                if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                    self.on_close()
            elif k in (pygame.K_LEFT, pygame.K_RIGHT):
                self.change(self.focus, -1 if k == pygame.K_LEFT else 1)
            elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.change(self.focus, 1)

    def _click(self, pos: tuple[int, int]) -> None:
        if contains(self.back, pos):
            self.on_close()
            return
        for i, rect in enumerate(self.fields):
            if contains(rect, pos):
                self.focus = i
                x, _, w, _ = rect
                self.change(i, -1 if pos[0] < x + w // 4 else 1)  # the left arrow goes back
                return

    def update(self, dt: float) -> None:
        pass

    # --- drawing ---

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        hint = "Up/Down choose · Left/Right or click change · Esc goes back"
        rect, s, top = screen_card(surface, "Settings", hint, 0.6, 0.94)
        self.card = rect
        x, y, w, h = rect
        n = len(SETTINGS)
        bh = max(26, round(s * 1.6))
        # the rows share what the Back button and the note under it leave of the card
        room = y + h - top - (bh + 4) - round(s * 3.2)
        row = max(18, min(bh + max(6, round(s * 0.5)), int(room // (n + 0.4))))
        bh = min(bh, row - 3)
        fw = max(150, round(w * 0.34))
        fx = x + w - fw - round(s * 1.4)
        self.fields = []
        for i, setting in enumerate(SETTINGS):
            ry = top + i * row
            lit = self.focus == i
            write(
                surface,
                fit(setting.label, s, fx - x - 2 * s),
                s,
                GOLD if lit else CREAM,
                (x + round(s * 1.4), ry + bh / 2),
                "midleft",
            )
            field = (fx, ry, fw, bh)
            self.fields.append(field)
            self._field(surface, field, words_of(setting, getattr(self.prefs, setting.name)), s, lit)
        by = top + n * row + round(row * 0.4)
        bw = max(140, round(w * 0.22))
        self.back = (x + (w - bw) // 2, by, bw, bh + 4)
        button(surface, self.back, "Back", True, contains(self.back, self.mouse), strong=self.focus == n)
        if self.focus == n:
            ring(surface, self.back)
        pointed = next((i for i, f in enumerate(self.fields) if contains(f, self.mouse)), None)
        i = pointed if pointed is not None else self.focus
        if i < n:
            note = fit(SETTINGS[i].note, s - 2, w - 3 * s)
            write(surface, note, s - 2, DIM, (x + w // 2, y + h - round(s * 1.0)), "midbottom")
        return None

    def _field(self, surface: pygame.Surface, rect: Rect, text: str, s: int, focused: bool) -> None:
        x, y, w, h = rect
        pygame.draw.rect(surface, (34, 22, 14), rect, border_radius=6)
        pygame.draw.rect(surface, (120, 84, 52), rect, 1, border_radius=6)
        a = max(4, h // 5)
        for cx, d in ((x + a + 4, -1), (x + w - a - 4, 1)):  # the arrows at both ends
            cy = y + h // 2
            pygame.draw.polygon(surface, DIM, [(cx + d * a, cy), (cx - d * a, cy - a), (cx - d * a, cy + a)])
        write(surface, text, s, GOLD if focused else CREAM, (x + w // 2, y + h // 2), "center")
        if focused:
            ring(surface, rect)
