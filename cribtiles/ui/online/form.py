"""A form on a wooden card, as the Settings screen draws one: rows of a choice (Left/Right), a typed text
or a button, a status line for what the network said, and a note on the row in focus. The Online
screens are built of it; keys and the mouse answer as on the other screens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from ..geometry import Rect, contains
from ..paint import CREAM, DIM, GOLD, RED, button, write
from ..screens import fit, ring, screen_card

FIELD_FILL, FIELD_EDGE = (34, 22, 14), (120, 84, 52)
GREEN = (150, 220, 140)
#: The status line's colours, by what it says.
TONES = {"": CREAM, "busy": DIM, "good": GREEN, "bad": RED, "gold": GOLD}


@dataclass
class Row:
    """One row: `kind` is "choice" (`choices` of value and words, `index` chosen), "text" (`text` typed,
    at most `limit` characters) or "button" (`action`). `changed` is called when a choice or text changes."""

    kind: str
    label: str
    note: str = ""
    choices: list[tuple[object, str]] = field(default_factory=list)
    index: int = 0
    text: str = ""
    limit: int = 40
    placeholder: str = ""
    action: Callable[[], None] | None = None
    changed: Callable[[], None] | None = None
    key: int | None = None
    enabled: bool = True

    @property
    def value(self) -> object:
        return self.choices[self.index][0] if self.choices else None

    @property
    def shown(self) -> str:
        if self.kind == "choice":
            return self.choices[self.index][1] if self.choices else ""
        return self.text

    def step(self, delta: int) -> None:
        if self.choices:
            self.index = (self.index + delta) % len(self.choices)
            if self.changed is not None:
                self.changed()

    def choose(self, value: object) -> None:
        self.index = next((i for i, (v, _) in enumerate(self.choices) if v == value), self.index)

    def type(self, text: str) -> None:
        kept = "".join(ch for ch in text if ch.isprintable())
        self.text = (self.text + kept)[: self.limit]
        if self.changed is not None:
            self.changed()

    def erase(self, word: bool = False) -> None:
        self.text = self.text.rstrip()[: self.text.rstrip().rfind(" ") + 1] if word else self.text[:-1]
        if self.changed is not None:
            self.changed()


def choice(label: str, choices: Sequence[tuple[object, str]], note: str = "", index: int = 0) -> Row:
    return Row("choice", label, note, list(choices), index)


def text(label: str, value: str = "", note: str = "", limit: int = 40, placeholder: str = "") -> Row:
    return Row("text", label, note, text=value, limit=limit, placeholder=placeholder)


def action(label: str, act: Callable[[], None], note: str = "", key: int | None = None) -> Row:
    return Row("button", label, note, action=act, key=key)


class FormScene:
    """The rows on a card titled `title`; Escape (or `on_back`'s button) goes back. `status` and `tone`
    say what the network answered; subclasses set them and may draw more under the rows (`extra`)."""

    title = ""
    hint = "Up/Down choose · Left/Right change · type in a field · Enter takes · Esc goes back"
    width, height = 0.62, 0.92

    def __init__(self, rows: Sequence[Row], on_back: Callable[[], None]) -> None:
        self.rows = list(rows)
        self.on_back = on_back
        self.focus = next((i for i, r in enumerate(self.rows) if r.enabled), 0)
        self.status = ""
        self.tone = ""
        self.mouse = (-1, -1)
        self.fields: list[Rect] = []
        self.submit: Callable[[], None] | None = None  # what Enter in the last field to fill does

    # --- input ---

    def shutdown(self) -> None:
        """Nothing of its own runs (subclasses stop what they started)."""

    def focused(self) -> Row:
        return self.rows[self.focus]

    def move(self, step: int) -> None:
        n = len(self.rows)
        for k in range(1, n + 1):
            i = (self.focus + step * k) % n
            if self.rows[i].enabled:
                self.focus = i
                return

    def take(self, i: int, delta: int = 1) -> None:
        row = self.rows[i]
        if not row.enabled:
            return
        self.focus = i
        if row.kind == "button" and row.action is not None:
            row.action()
        elif row.kind == "choice":
            row.step(delta)
        elif row.kind == "text":
            self._entered()

    def _entered(self) -> None:
        """Enter in a text field: on to the next field still empty; with none, the form's `submit` (Join
        with the code typed and the name already there), or else the next row."""
        n = len(self.rows)
        after = [(self.focus + k) % n for k in range(1, n)]
        empty = next((j for j in after if self._unfilled(self.rows[j])), None)
        if empty is not None:
            self.focus = empty
        elif self.submit is not None:
            self.submit()
        else:
            self.move(1)

    @staticmethod
    def _unfilled(row: Row) -> bool:
        return row.kind == "text" and row.enabled and not row.text.strip()

    def handle(self, event: pygame.event.Event) -> None:
        row = self.focused()
        typing = row.kind == "text"
        if event.type == pygame.TEXTINPUT and typing:
            row.type(event.text)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._click(event.pos)
        elif event.type == pygame.KEYDOWN:
            self._key(event.key, event.mod, typing)

    def _key(self, k: int, mod: int, typing: bool) -> None:
        row = self.focused()
        if k == pygame.K_ESCAPE or (k == pygame.K_BACKSPACE and not typing):
            self.on_back()
        elif k == pygame.K_BACKSPACE:
            row.erase(word=bool(mod & pygame.KMOD_CTRL))
        elif k == pygame.K_UP or (k == pygame.K_TAB and mod & pygame.KMOD_SHIFT):
            self.move(-1)
        elif k in (pygame.K_DOWN, pygame.K_TAB):
            self.move(1)
        elif k in (pygame.K_LEFT, pygame.K_RIGHT) and row.kind == "choice":
            row.step(-1 if k == pygame.K_LEFT else 1)
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) or (k == pygame.K_SPACE and not typing):
            self.take(self.focus)
        elif not typing and not mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            hit = next((i for i, r in enumerate(self.rows) if r.key == k and r.enabled), None)
            if hit is not None:
                self.take(hit)

    def _click(self, pos: tuple[int, int]) -> None:
        for i, rect in enumerate(self.fields):
            if contains(rect, pos) and self.rows[i].enabled:
                if self.rows[i].kind == "text":  # a click puts the cursor in the field, and no further
                    self.focus = i
                    return
                x, _, w, _ = rect
                self.take(i, -1 if pos[0] < x + w // 4 else 1)
                return

    def update(self, dt: float) -> None:
        pass

    # --- drawing ---

    def say(self, words: str, tone: str = "") -> None:
        self.status, self.tone = words, tone

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        rect, s, top = screen_card(surface, self.title, self.hint, self.width, self.height)
        x, y, w, h = rect
        bh = max(26, round(s * 1.6))
        row = bh + max(6, round(s * 0.5))
        rows_bottom = y + h - round(s * 4.6) - self.extra_height(s)
        row = min(row, (rows_bottom - top) // max(1, len(self.rows)))  # many rows: thinner ones
        bh = max(16, min(bh, row - 3))
        fw = max(180, round(w * 0.5))
        fx = x + w - fw - round(s * 1.4)
        self.fields = []
        for i, r in enumerate(self.rows):
            ry = top + i * row
            field_rect = (fx, ry, fw, bh)
            lit = self.focus == i and r.enabled
            if r.kind == "button":
                bw = min(w - 4 * s, max(fw, round(w * 0.6)))
                field_rect = (x + (w - bw) // 2, ry, bw, bh)
                hover = contains(field_rect, self.mouse)
                button(surface, field_rect, r.label, r.enabled, hover, strong=lit)
                if lit:
                    ring(surface, field_rect)
                if r.key is not None and r.enabled:
                    letter = pygame.key.name(r.key).upper()
                    at = (field_rect[0] + bw + round(s * 0.6), ry + bh // 2)
                    write(surface, letter, s - 4, DIM, at, "midleft")
            else:
                colour = GOLD if lit else CREAM if r.enabled else DIM
                label = fit(r.label, s, fx - x - 2 * s)
                write(surface, label, s, colour, (x + round(s * 1.4), ry + bh / 2), "midleft")
                self._field(surface, field_rect, r, s, lit)
            self.fields.append(field_rect)
        self.draw_extra(surface, (x, top + len(self.rows) * row + round(s * 0.3), w, self.extra_height(s)), s)
        if self.status:
            words = fit(self.status, s - 1, w - 3 * s)
            write(surface, words, s - 1, TONES.get(self.tone, CREAM), (x + w // 2, y + h - round(s * 2.6)), "midbottom")
        pointed = next((i for i, f in enumerate(self.fields) if contains(f, self.mouse)), None)
        note = self.rows[pointed if pointed is not None else self.focus].note if self.rows else ""
        if note:
            write(surface, fit(note, s - 2, w - 3 * s), s - 2, DIM, (x + w // 2, y + h - round(s * 1.0)), "midbottom")
        return None

    def extra_height(self, s: int) -> int:
        return 0

    def draw_extra(self, surface: pygame.Surface, rect: Rect, s: int) -> None:
        """What a screen draws under its rows, in `rect` (`extra_height` tall)."""

    def _field(self, surface: pygame.Surface, rect: Rect, r: Row, s: int, focused: bool) -> None:
        x, y, w, h = rect
        pygame.draw.rect(surface, FIELD_FILL, rect, border_radius=6)
        pygame.draw.rect(surface, FIELD_EDGE, rect, 1, border_radius=6)
        colour = GOLD if focused else CREAM if r.enabled else DIM
        if r.kind == "choice":
            a = max(4, h // 5)
            for cx, d in ((x + a + 4, -1), (x + w - a - 4, 1)):  # the arrows at both ends
                cy = y + h // 2
                pygame.draw.polygon(surface, DIM, [(cx + d * a, cy), (cx - d * a, cy - a), (cx - d * a, cy + a)])
            write(surface, fit(r.shown, s - 1, w - 6 * a), s - 1, colour, (x + w // 2, y + h // 2), "center")
        else:
            pad = round(s * 0.5)
            shown = r.text if r.text or focused else r.placeholder
            words = _fit_tail(shown + ("|" if focused else ""), s - 1, w - 2 * pad)
            write(surface, words, s - 1, colour if r.text else DIM, (x + pad, y + h // 2), "midleft")
        if focused:
            ring(surface, rect)


def _fit_tail(text_: str, size: int, width: int) -> str:
    """The end of `text_` that fits in `width` (what is being typed stays in sight)."""
    from .. import art

    f = art.font(size)
    if f.size(text_)[0] <= width:
        return text_
    while len(text_) > 1 and f.size("…" + text_)[0] > width:
        text_ = text_[1:]
    return "…" + text_
