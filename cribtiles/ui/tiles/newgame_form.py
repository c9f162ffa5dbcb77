"""The New game screen without pygame: the form's state (seats, rule options, seed, focus), how keys
and clicks change it, the seats and options it yields, and where each control sits (pure geometry).

`newgame.py` turns pygame events into these calls and draws the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from cribtiles.bot.tiles.levels import DEFAULT_LEVEL, DESCRIPTIONS, LEVELS
from cribtiles.rules.game import MAX_NAME, MAX_PLAYERS
from cribtiles.rules.options import BY_NAME, OPTIONS, RuleOptions
from cribtiles.table.seats import Seat, seat_names
from cribtiles.table.settings import DEFAULT_SEATS, MIN_SEATS, SeatPair, good_seats

from ..geometry import Rect

MAX_SEED_DIGITS = 10
SIDES = ("Dark", "Light")  # the two seats of Solitaire (rules.md section 6)


class Part(Enum):
    """What a control of the form is."""

    KIND = "kind"  # a seat: a person or a bot
    WHO = "who"  # a seat: the person's name, or the bot's level
    REMOVE = "remove"  # a seat: take it away
    ADD = "add"
    RULE = "rule"  # a rule option: a row of `OPTIONS`, named by the control's `option`
    SEED = "seed"
    START = "start"
    CANCEL = "cancel"


@dataclass(frozen=True)
class Control:
    part: Part
    seat: int = -1  # the seat's index, for KIND, WHO and REMOVE
    option: str = ""  # the rule option's name, for RULE


def rule(name: str) -> Control:
    """The control of the rule option `name` (a row of `OPTIONS`)."""
    return Control(Part.RULE, option=name)


#: The controls of the form's right column: a rule option for each row of `OPTIONS`, then the seed.
RULE_CONTROLS = (*(rule(row.name) for row in OPTIONS), Control(Part.SEED))


def rule_label(c: Control) -> str:
    """The words left of a control of the right column: "Who starts", "Seed"."""
    return BY_NAME[c.option].label if c.part is Part.RULE else "Seed"


class Action(Enum):
    START = "start"
    CANCEL = "cancel"


@dataclass(frozen=True)
class SeatChoice:
    """One seat on the form: it remembers both a person's name and a bot's level; `bot` says which sits."""

    name: str
    level: str = DEFAULT_LEVEL
    bot: bool = False


def _clean(text: str) -> str:
    return "".join(c for c in text if c.isprintable())


def with_level(pairs: Sequence[SeatPair], level: str) -> tuple[SeatPair, ...]:
    """The remembered seats with a lone bot at `level` (the L key picks the bot of a one-bot game).

    >>> with_level((("You", None), ("Ann", "easy")), "hard")
    (('You', None), ('Ann', 'hard'))
    """
    bots = [i for i, (_, lv) in enumerate(pairs) if lv is not None]
    if len(bots) != 1 or level not in LEVELS:
        return tuple(pairs)
    return tuple((n, level if i == bots[0] else lv) for i, (n, lv) in enumerate(pairs))


def again(seats: Sequence[Seat], level: str) -> tuple[Seat, ...]:
    """The seats of the next game at the same table: the same people and bots, a lone bot at `level`.

    >>> [(s.name, s.level) for s in again((Seat.person("Ann"), Seat.bot("easy")), "hard")]
    [('Ann', None), ('Hard', 'hard')]
    """
    bots = [i for i, s in enumerate(seats) if s.is_bot]
    if len(bots) != 1 or level not in LEVELS or seats[bots[0]].level == level:
        return tuple(seats)
    return seat_names([Seat.bot(level) if i == bots[0] else s for i, s in enumerate(seats)])


def table_pairs(seats: Sequence[Seat], remembered: Sequence[SeatPair], solitaire: bool = False) -> tuple[SeatPair, ...]:
    """The New game screen's seats for the game at a table of `seats`: those seats, then the remembered
    seats past them (a Solitaire table seats two; the form keeps the others for a Standard game). A bot
    is named by its level at the table and a Solitaire seat by its side: such a seat keeps the
    remembered name (or "Player N"), which a person takes if the seat is turned into one.

    >>> table_pairs((Seat.person("Ann"), Seat.bot("hard")), (("You", None), ("Kim", "easy"), ("Ben", None)))
    (('Ann', None), ('Kim', 'hard'), ('Ben', None))
    >>> table_pairs((Seat.person("Dark"), Seat.bot("easy")), (("Ann", None),), solitaire=True)
    (('Ann', None), ('Player 2', 'easy'))
    """
    pairs = []
    for i, s in enumerate(seats):
        name = s.name
        if solitaire or (s.level is not None and name.lower() in LEVELS):
            name = remembered[i][0] if i < len(remembered) else f"Player {i + 1}"
        pairs.append((name, s.level))
    return tuple(pairs) + tuple(remembered[len(seats) :])


def options_of(text: str) -> RuleOptions:
    """Remembered rule options (`start=high,joker=on`); the defaults when they cannot be read.

    >>> options_of("joker=on,rounds=3").rounds, options_of("nonsense") == RuleOptions()
    (3, True)
    """
    try:
        return RuleOptions.parse(text[:200])
    except ValueError:
        return RuleOptions()


def remembered_seats(pairs: Sequence[SeatPair], options: RuleOptions) -> tuple[Seat, ...]:
    """The seats of a game started from remembered choices (the first two in Solitaire)."""
    form = NewGameForm.offered(pairs, options)
    return form.table_seats()


@dataclass
class NewGameForm:
    """The choices on the New game screen and where the keyboard's focus is."""

    seats: list[SeatChoice]
    options: RuleOptions = field(default_factory=RuleOptions)
    seed: str = ""  # digits; empty: a new shuffle
    in_progress: bool = False  # a game is being played: starting throws it away (the screen says so)
    focus: Control = field(default_factory=lambda: Control(Part.START))
    selected: bool = False  # the focused text is selected: typing replaces it, Backspace clears it

    @classmethod
    def offered(cls, pairs: Sequence[SeatPair], options: RuleOptions, in_progress: bool = False) -> NewGameForm:
        """The form as offered: the remembered seats and options (defaults for anything unusable)."""
        chosen = list(pairs) if good_seats(list(pairs)) else list(DEFAULT_SEATS)
        bot_levels = [lv for _, lv in chosen if lv is not None]
        spare = bot_levels[0] if bot_levels else DEFAULT_LEVEL  # a person's seat turned bot gets this level
        seats = [SeatChoice(n, lv or spare, lv is not None) for n, lv in chosen]
        return cls(seats, options, in_progress=in_progress)

    # --- what the form shows ---

    @property
    def solitaire(self) -> bool:
        return self.options.solitaire

    @property
    def shown(self) -> list[SeatChoice]:
        """The seats at the table: all of them, or the first two (Dark and Light) in Solitaire."""
        return self.seats[:2] if self.solitaire else self.seats

    def seat_label(self, i: int) -> str:
        return SIDES[i] if self.solitaire else f"Player {i + 1}"

    def controls(self) -> list[Control]:
        """Every control there is now, in the order Tab visits them."""
        out = []
        for i, s in enumerate(self.shown):
            out.append(Control(Part.KIND, i))
            if s.bot or not self.solitaire:  # in Solitaire a person's side needs no name
                out.append(Control(Part.WHO, i))
            if not self.solitaire and len(self.seats) > MIN_SEATS:
                out.append(Control(Part.REMOVE, i))
        if not self.solitaire and len(self.seats) < MAX_PLAYERS:
            out.append(Control(Part.ADD))
        out += RULE_CONTROLS
        return [*out, Control(Part.START), Control(Part.CANCEL)]

    def is_text(self, control: Control) -> bool:
        """A control typed into: a person's name, the seed."""
        if control.part is Part.SEED:
            return True
        return control.part is Part.WHO and 0 <= control.seat < len(self.seats) and not self.seats[control.seat].bot

    def value(self, control: Control) -> str:
        """What a control shows."""
        p, o = control.part, self.options
        if p is Part.KIND:
            return "Bot" if self.seats[control.seat].bot else "Person"
        if p is Part.WHO:
            s = self.seats[control.seat]
            return s.level.capitalize() if s.bot else s.name
        if p is Part.RULE:
            return BY_NAME[control.option].words(o.value(control.option))
        if p is Part.SEED:
            return self.seed
        return {Part.REMOVE: "×", Part.ADD: "Add a player", Part.START: "Start", Part.CANCEL: "Cancel"}[p]

    def about(self, control: Control | None = None) -> str:
        """One line on what a control does (the focused one by default)."""
        c = control or self.focus
        p = c.part
        if p is Part.KIND:
            side = f"the {SIDES[c.seat]} side" if self.solitaire else "this seat"
            return f"Who plays {side}: a person, or a bot."
        if p is Part.WHO:
            s = self.seats[c.seat]
            if s.bot:
                return f"{s.level.capitalize()}: {DESCRIPTIONS[s.level]}."
            return f"Type the player's name (up to {MAX_NAME} characters)."
        if p is Part.RULE:
            return BY_NAME[c.option].about(self.options.value(c.option))
        if p is Part.SEED:
            return "Digits replay the same shuffle; leave it empty for a new one."
        if p is Part.REMOVE:
            return f"Take {self.seat_label(c.seat)}'s seat away (2 to {MAX_PLAYERS} players)."
        if p is Part.ADD:
            return f"Add a seat: 2 to {MAX_PLAYERS} players."
        if p is Part.START:
            return "Start the game (Enter)."
        return "Go back without starting (Escape)."

    def blank_words(self, seat: int) -> str:
        """What a person's side in Solitaire says where a name would be."""
        if all(not s.bot for s in self.shown):
            return "one person plays both sides" if seat == 0 else ""
        return "a person plays this side"

    def problem(self) -> str:
        """Why the game cannot start yet, or "" when it can."""
        if not self.solitaire:
            for i, s in enumerate(self.shown):
                if not s.bot and not s.name.strip():
                    return f"{self.seat_label(i)} needs a name."
        return ""

    @property
    def warning(self) -> str:
        return "A game is in progress: starting a new one throws it away." if self.in_progress else ""

    # --- what it yields ---

    def table_seats(self) -> tuple[Seat, ...]:
        """The seats of the game to start (ValueError while `problem()` says why not)."""
        if self.problem():
            raise ValueError(self.problem())
        seats = []
        for i, s in enumerate(self.shown):
            if s.bot:
                seats.append(Seat.bot(s.level))
            else:
                seats.append(Seat.person(SIDES[i] if self.solitaire else s.name.strip()))
        return seat_names(seats)

    def seed_value(self) -> int | None:
        return int(self.seed) if self.seed else None

    def remembered(self) -> tuple[SeatPair, ...]:
        """Every seat (those Solitaire hides too), to be offered next time."""
        return tuple(
            ((s.name.strip() or f"Player {i + 1}")[:MAX_NAME], s.level if s.bot else None)
            for i, s in enumerate(self.seats)
        )

    # --- changes ---

    def _keep_focus(self, before: list[Control]) -> None:
        """After a change, the focus stays where it was or moves to the control that took its place."""
        now = self.controls()
        if self.focus not in now:
            i = before.index(self.focus) if self.focus in before else 0
            self.focus = now[min(i, len(now) - 1)]
            self.selected = self.is_text(self.focus)

    def focus_on(self, control: Control) -> None:
        """Move the focus to `control` (text in it is selected, so typing replaces it)."""
        if control in self.controls():
            self.focus = control
            self.selected = self.is_text(control)

    def tab(self, step: int = 1) -> None:
        """Tab (1) or Shift+Tab (-1): the next or previous control, round the end."""
        cs = self.controls()
        i = cs.index(self.focus) if self.focus in cs else -1
        self.focus_on(cs[(i + step) % len(cs)])

    def step(self, delta: int, control: Control | None = None) -> None:
        """Left (-1) or Right (+1) on a control: the previous or next value."""
        c = control or self.focus
        before = self.controls()
        o = self.options
        if c.part is Part.KIND:
            s = self.seats[c.seat]
            self.seats[c.seat] = replace(s, bot=not s.bot)
        elif c.part is Part.WHO and self.seats[c.seat].bot:
            s = self.seats[c.seat]
            self.seats[c.seat] = replace(s, level=LEVELS[(LEVELS.index(s.level) + delta) % len(LEVELS)])
        elif c.part is Part.RULE:
            row = BY_NAME[c.option]
            self.options = o.with_values({row.name: row.stepped(o.value(row.name), delta)})
        self._keep_focus(before)

    def press(self, control: Control | None = None) -> Action | None:
        """Space on a control, or a click: a button does its work, a value moves on, a text field is
        only focused. Start answers Action.START only when the game can start."""
        c = control or self.focus
        if c not in self.controls():
            return None
        self.focus_on(c)
        if c.part is Part.START:
            return self.enter()
        if c.part is Part.CANCEL:
            return Action.CANCEL
        if c.part is Part.ADD:
            self.add_seat()
        elif c.part is Part.REMOVE:
            self.remove_seat(c.seat)
        elif not self.is_text(c):
            self.step(1, c)
        return None

    def enter(self) -> Action | None:
        """Enter: start (Cancel when it has the focus); while a name is missing, its field takes the focus."""
        if self.focus.part is Part.CANCEL:
            return Action.CANCEL
        if self.problem():
            blank = next(i for i, s in enumerate(self.shown) if not s.bot and not s.name.strip())
            self.focus_on(Control(Part.WHO, blank))
            return None
        return Action.START

    def add_seat(self) -> None:
        if self.solitaire or len(self.seats) >= MAX_PLAYERS:
            return
        n = len(self.seats) + 1
        self.seats.append(SeatChoice(f"Player {n}", self.seats[-1].level))
        self.focus_on(Control(Part.WHO, n - 1))

    def remove_seat(self, i: int) -> None:
        if self.solitaire or len(self.seats) <= MIN_SEATS or not 0 <= i < len(self.seats):
            return
        before = self.controls()
        del self.seats[i]
        self._keep_focus(before)

    def type(self, text: str) -> None:
        """Text typed (a TEXTINPUT event) into the focused name or seed."""
        c = self.focus
        if not self.is_text(c):
            return
        if c.part is Part.SEED:
            digits = "".join(ch for ch in text if ch.isascii() and ch.isdigit())
            if digits:
                self.seed = (("" if self.selected else self.seed) + digits)[:MAX_SEED_DIGITS]
                self.selected = False
            return
        typed = _clean(text)
        if typed:
            s = self.seats[c.seat]
            name = ("" if self.selected else s.name) + typed
            self.seats[c.seat] = replace(s, name=name[:MAX_NAME])
            self.selected = False

    def backspace(self, whole: bool = False) -> None:
        """Backspace: the last character of the focused text, or all of it (Ctrl, or while selected)."""
        c = self.focus
        if not self.is_text(c):
            return
        whole = whole or self.selected
        if c.part is Part.SEED:
            self.seed = "" if whole else self.seed[:-1]
        else:
            s = self.seats[c.seat]
            self.seats[c.seat] = replace(s, name="" if whole else s.name[:-1])
        self.selected = False


# --- where everything sits ---


@dataclass(frozen=True)
class FormLayout:
    """The card and every control's rectangle, for a window size and a form's controls."""

    card: Rect
    size: int  # the text size
    row: int  # a control's height
    title: tuple[int, int]  # the title's top centre
    heads: tuple[tuple[int, int], tuple[int, int]]  # top-left of "Players" and "Rules"
    labels: dict[Control, Rect]  # the space left of a control for its label (seats' names, rules')
    controls: dict[Control, Rect]
    blanks: dict[int, Rect]  # where a seat without a name field says who sits there (Solitaire)
    notes: tuple[int, int, int]  # x, y and width of the lines under the columns (warning, problem, about)


def form_layout(width: int, height: int, form: NewGameForm) -> FormLayout:
    """Where the card and its controls sit in a window `width` x `height` (from 960 x 640 up)."""
    size = max(15, min(24, round(min(height / 36.0, width / 56.0))))
    row = round(size * 1.9)
    gap = round(size * 0.55)
    pad = round(size * 1.3)
    w = min(width - 2 * gap, round(size * 47))
    rows = max(MAX_PLAYERS + 1, len(RULE_CONTROLS))
    head = round(size * 1.5)
    title_h = round(size * 3.0)
    notes_h = round(size * 1.35) * 3
    h = pad + title_h + head + rows * (row + gap) + gap + notes_h + gap + round(row * 1.2) + pad
    x, y = (width - w) // 2, max(gap, (height - h) // 2)
    card = (x, y, w, h)
    col_gap = round(size * 1.6)
    inner = w - 2 * pad - col_gap
    left_w = round(inner * 0.56)
    lx, rx = x + pad, x + pad + left_w + col_gap
    right_w = x + w - pad - rx
    top = y + pad + title_h
    heads = ((lx, top), (rx, top))
    first = top + head
    labels: dict[Control, Rect] = {}
    controls: dict[Control, Rect] = {}
    label_w = round(size * 4.2) if form.solitaire else row  # "Light", or a seat's numbered badge
    kind_w = round(size * 5.2)
    remove_w = row
    for i in range(len(form.shown)):
        ry = first + i * (row + gap)
        labels[Control(Part.KIND, i)] = (lx, ry, label_w, row)
        cx = lx + label_w + gap
        controls[Control(Part.KIND, i)] = (cx, ry, kind_w, row)
        cx += kind_w + gap
        has_remove = Control(Part.REMOVE, i) in form.controls()
        who_w = lx + left_w - cx - ((remove_w + gap) if has_remove else 0)
        controls[Control(Part.WHO, i)] = (cx, ry, who_w, row)
        if has_remove:
            controls[Control(Part.REMOVE, i)] = (lx + left_w - remove_w, ry, remove_w, row)
    add_y = first + len(form.shown) * (row + gap)
    controls[Control(Part.ADD)] = (lx + label_w + gap, add_y, round(size * 8.4), row)
    label_w_rules = round(right_w * 0.42)
    for j, c in enumerate(RULE_CONTROLS):
        ry = first + j * (row + gap)
        labels[c] = (rx, ry, label_w_rules - gap, row)
        controls[c] = (rx + label_w_rules, ry, right_w - label_w_rules, row)
    notes_y = first + rows * (row + gap) + gap // 2
    bh = round(row * 1.2)
    by = y + h - pad - bh
    bw = round(size * 7.5)
    controls[Control(Part.START)] = (x + w // 2 - gap - bw, by, bw, bh)
    controls[Control(Part.CANCEL)] = (x + w // 2 + gap, by, bw, bh)
    present = set(form.controls())
    blanks = {c.seat: r for c, r in controls.items() if c.part is Part.WHO and c not in present}
    return FormLayout(
        card,
        size,
        row,
        (x + w // 2, y + pad),
        heads,
        labels,
        {c: r for c, r in controls.items() if c in present},
        blanks,
        (lx, notes_y, w - 2 * pad),
    )


def control_at(lay: FormLayout, point: tuple[float, float]) -> Control | None:
    """The control under `point`, if any."""
    for c, (x, y, w, h) in lay.controls.items():
        if x <= point[0] < x + w and y <= point[1] < y + h:
            return c
    return None


def arrow_step(rect: Rect, x: float) -> int:
    """A click on a value with arrows at both ends: -1 on its left third, +1 elsewhere.

    >>> arrow_step((100, 0, 90, 30), 110), arrow_step((100, 0, 90, 30), 150)
    (-1, 1)
    """
    return -1 if x < rect[0] + rect[2] / 3 else 1
