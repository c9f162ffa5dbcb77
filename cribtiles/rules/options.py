"""Rule options (rules.md section 6): who starts, when exchanges are allowed, Joker, rounds, mode, bonuses.

Written as `start=high,exchange=any-time,joker=on`; `RuleOptions.parse(o.to_text()) == o`.

`OPTIONS` is the one table of them: each row names an option, its values (each with its text, the
words the New game form shows, its one line there, and what the rules strip and the help say of it)
or its range of numbers. Parsing, checking, `to_text`, the New game form, the rules strip and the help
page all read it: adding an option is a field of `RuleOptions`, a row here, and the rule that uses it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum

from cribtiles.quoting import quoted

from .errors import NotationError


class Start(StrEnum):
    """Who starts: the lowest or the highest tile drawn."""

    LOW = "low"
    HIGH = "high"


class ExchangeRule(StrEnum):
    """When a player may pass or exchange: only when they cannot play, or on any turn."""

    WHEN_STUCK = "when-stuck"
    ANY_TIME = "any-time"


class Mode(StrEnum):
    """Standard (2 to 4 players, one bag) or Solitaire (dark against light, a bag each)."""

    STANDARD = "standard"
    SOLITAIRE = "solitaire"


MAX_ROUNDS = 99

Value = Start | ExchangeRule | Mode | bool | int


@dataclass(frozen=True)
class Choice:
    """One value of an option, and how each place that shows the options says it."""

    value: Value  # the field's value
    text: str  # as `--rules` and saved games write it
    words: str  # on the New game form
    about: str  # the form's one line on it
    strip: tuple[str, str] = ("", "")  # the rules strip's words, long and short ("": not shown)
    turns: str = ""  # a sentence of the help's paragraph on passing and who started
    help: str = ""  # a paragraph of its own on the help page
    book: str = ""  # the rule book's paragraph on it, on its page of the optional rules


@dataclass(frozen=True)
class Count:
    """A number option: from `low` to `high`; the words for one and for more (`{n}` the number)."""

    low: int
    high: int
    words: tuple[str, str]  # on the New game form: for 1, for more
    about: tuple[str, str]
    help: tuple[str, str] = ("", "")
    book: str = ""


@dataclass(frozen=True)
class RuleOption:
    """A row of `OPTIONS`: the option's name (in `--rules`, and its field of `RuleOptions`), the New
    game form's label, and its values (`choices`) or its range (`count`)."""

    name: str
    label: str
    choices: tuple[Choice, ...] = ()
    count: Count | None = None
    # False for an option added after games were saved: `to_text` writes it only when it is not its
    # default, so that the text of a game under the default (a save, a record, the key the history
    # makes of them, an arena's rules) stays what it was before the option existed.
    always_written: bool = True

    def choice(self, value: object) -> Choice | None:
        """The row's choice for a value of its field (None when it is not one)."""
        return next((c for c in self.choices if c.value == value), None)

    def chosen(self, options: RuleOptions) -> Choice | None:
        """The row's choice in force under `options` (None for a number option)."""
        return self.choice(options.value(self.name))

    def texts(self) -> tuple[str, ...]:
        return tuple(c.text for c in self.choices)

    def text_of(self, value: Value) -> str:
        choice = self.choice(value)
        return choice.text if choice else str(value)

    def words(self, value: Value) -> str:
        """What the New game form shows for `value`."""
        if self.count is not None:
            return self.count.words[value != 1].format(n=value)
        choice = self.choice(value)
        return choice.words if choice else str(value)

    def about(self, value: Value) -> str:
        """The New game form's one line on `value`."""
        if self.count is not None:
            return self.count.about[value != 1].format(n=value)
        choice = self.choice(value)
        return choice.about if choice else ""

    def help(self, value: Value) -> str:
        """The help page's paragraph on `value` ("" for none)."""
        if self.count is not None:
            return self.count.help[value != 1].format(n=value)
        choice = self.choice(value)
        return choice.help if choice else ""

    def book(self) -> tuple[str, ...]:
        """The rule book's paragraphs on this option (its page "The optional rules" lists every row's)."""
        said = [c.book for c in self.choices] + [self.count.book if self.count else ""]
        return tuple(p for p in said if p)

    def stepped(self, value: Value, delta: int) -> Value:
        """The value Left (-1) or Right (+1) on the form moves to: round the choices, or along the range."""
        if self.count is not None:
            return min(self.count.high, max(self.count.low, int(value) + delta))
        values = [c.value for c in self.choices]
        i = next((k for k, v in enumerate(values) if v == value), 0)
        return values[(i + delta) % len(values)]

    def problem(self, value: object) -> str:
        """Why `value` cannot be this option's ("" when it can)."""
        if self.count is not None:
            c = self.count
            if isinstance(value, int) and not isinstance(value, bool) and c.low <= value <= c.high:
                return ""
            return f"{self.name} must be a whole number from {c.low} to {c.high}, not {quoted(value)}"
        if self.choice(value) is not None:
            return ""
        return f"{self.name} must be {' or '.join(self.texts())}, not {quoted(value)}"

    def read(self, text: str) -> Value:
        """The value written `text` in `--rules` (NotationError when it is none of them)."""
        if self.count is not None:
            c = self.count
            digits = text.isascii() and text.isdigit() and len(text) <= len(str(c.high))
            if not digits or not c.low <= int(text) <= c.high:
                raise NotationError(f"{self.name} must be a whole number from {c.low} to {c.high}, not {quoted(text)}")
            return int(text)
        for choice in self.choices:
            if choice.text == text:
                return choice.value
        raise NotationError(f"{self.name} may be {' or '.join(self.texts())}, not {quoted(text)}")


#: Every rule option, in the order the New game form, the rules strip and the help show them: those that
#: change the game most first (the strip is cut at its end when the window is narrow).
OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "mode",
        "Mode",
        (
            Choice(Mode.STANDARD, "standard", "Standard", "Standard: 2 to 4 players draw from one bag."),
            Choice(
                Mode.SOLITAIRE,
                "solitaire",
                "Solitaire",
                "Solitaire: dark tiles against light, each from its own bag; a person may play both.",
                strip=("Solitaire", "Solitaire"),  # the rule book gives it a page of its own
                help="Solitaire: Dark and Light each draw from a bag of their own colour; it ends when both bags are "
                "empty and a side is out, or neither side can play.",
            ),
        ),
    ),
    RuleOption(
        "joker",
        "Joker rule",
        (
            Choice(False, "off", "Off", "Every play scores what it is worth, counted for you."),
            Choice(
                True,
                "on",
                "On",
                "Players declare their own scores; another may call Joker! on a wrong count.",
                strip=("Joker rule", "Joker"),
                help="Joker rule: you count your own play (click each fifteen, pair, run and bonus, or type the "
                "total; Enter declares; what you declare stands unless called). Until the next player acts the "
                "others may call Joker! (J): they take what was missed, or what was claimed over the play's worth, "
                "and lose 5 if the count was right.",
                book="Joker: you declare your own score. (Our choice, muggins style:) whatever you declare stands "
                "unless another player calls Joker before the next move. The first caller takes what you "
                "left unclaimed, or what you claimed over the play's worth (you lose it); a call on a "
                "score declared right costs the caller 5. A play's score is shown once it can no longer "
                "be called.",
            ),
        ),
    ),
    RuleOption(
        "exchange",
        "Exchanges",
        (
            Choice(
                ExchangeRule.WHEN_STUCK,
                "when-stuck",
                "When stuck",
                "Exchange tiles only when you have no play.",
                strip=("exchange only when stuck", "exchange when stuck"),
                turns="You may pass or exchange only when you cannot play.",
            ),
            Choice(
                ExchangeRule.ANY_TIME,
                "any-time",
                "Any time",
                "Exchange tiles instead of playing, on any turn.",
                strip=("exchange any time", "exchange any time"),
                turns="In this game you may pass or exchange at any time, even when you could play.",
                book="Exchange any time: you may pass or exchange even when you could play.",
            ),
        ),
    ),
    RuleOption(
        "start",
        "Who starts",
        (
            Choice(
                Start.LOW,
                "low",
                "Lowest tile",
                "Each player draws a tile: the lowest plays first.",
                strip=("lowest tile starts", "low starts"),
                turns="The lowest tile drawn started.",
            ),
            Choice(
                Start.HIGH,
                "high",
                "Highest tile",
                "Each player draws a tile: the highest plays first.",
                strip=("highest tile starts", "high starts"),
                turns="The highest tile drawn started.",
                book="Start high: the highest tile drawn plays first instead of the lowest.",
            ),
        ),
    ),
    RuleOption(
        "rounds",
        "Rounds",
        count=Count(
            1,
            MAX_ROUNDS,
            words=("1 game", "{n}-round match"),
            about=(
                "One game. More rounds make a match: running totals and a Servant.",
                "A match: running totals, and the lowest after each round is the Servant.",
            ),
            help=(
                "",
                "A match of {n} rounds: the scores add up; after each round the lowest total is the Servant. "
                "Click the peg board to see the match totals on it.",
            ),
            book="Matches and the Servant: several rounds with running totals. After each round the player "
            "with the lowest total is the Servant, who keeps score for the others. (our choice) A round "
            'is one game: the sheet says only "after each round".',
        ),
    ),
    RuleOption(
        "bonuses",
        "Bonuses",
        always_written=False,
        choices=(
            Choice(True, "on", "On", "First play, five tiles and five of one colour: 10 points each."),
            Choice(
                False,
                "off",
                "Off",
                "No bonuses: a play scores its hands and nothing more.",
                strip=("no bonuses", "no bonus"),
                help="No bonuses in this game: a play scores its lines' hands and nothing more (no 10 for the "
                "first play, for five tiles or for five of one colour).",
                book="No bonuses (bonuses=off): the first play, five tiles and a line of five of one colour "
                "score nothing extra; a play scores its lines' hands alone.",
            ),
        ),
    ),
)
BY_NAME = {row.name: row for row in OPTIONS}


#: `RuleOptions.as_dict` of the options met so far (a value's texts never change).
_AS_DICT: dict[RuleOptions, dict[str, str]] = {}


@dataclass(frozen=True)
class RuleOptions:
    start: Start = Start.LOW
    exchange: ExchangeRule = ExchangeRule.WHEN_STUCK
    joker: bool = False
    rounds: int = 1
    mode: Mode = Mode.STANDARD
    bonuses: bool = True  # the first-play, five-tile and one-colour bonuses (rules.md section 4)

    def __post_init__(self) -> None:
        for row in OPTIONS:
            value = getattr(self, row.name)
            problem = row.problem(value)
            if problem:
                raise ValueError(problem)
            choice = row.choice(value)
            if choice is not None:  # a text ("high") is kept as its member (Start.HIGH)
                object.__setattr__(self, row.name, choice.value)

    @property
    def solitaire(self) -> bool:
        return self.mode == Mode.SOLITAIRE

    def value(self, name: str) -> Value:
        """The value of the option `name`."""
        value: Value = getattr(self, name)
        return value

    def as_dict(self) -> dict[str, str]:
        """Every option as `--rules` writes it, in the order of rules.md (the fields'), but an option that
        is not `always_written` at its default. Written once for each set of options (a server writes
        them into every state it sends and every table it keeps)."""
        texts = _AS_DICT.get(self)
        if texts is None:
            texts = {
                f.name: BY_NAME[f.name].text_of(self.value(f.name))
                for f in fields(self)
                if BY_NAME[f.name].always_written or self.value(f.name) != f.default
            }
            if len(_AS_DICT) < 4096:
                _AS_DICT[self] = texts
        return dict(texts)

    def to_text(self) -> str:
        """Every option (`as_dict`'s), in the order of rules.md: `start=low,exchange=when-stuck,...`."""
        return ",".join(f"{k}={v}" for k, v in self.as_dict().items())

    @classmethod
    def parse(cls, text: str, base: RuleOptions | None = None) -> RuleOptions:
        """`start=high,exchange=any-time` -> options; unnamed options keep `base`'s (or the defaults)."""
        return (base or cls()).with_text(text)

    def with_text(self, text: str) -> RuleOptions:
        changes: dict[str, Value] = {}
        for item in text.replace(" ", "").split(","):
            if not item:
                continue
            name, eq, value = item.partition("=")
            if not eq:
                raise NotationError(f"{quoted(item)}: write options as name=value, like start=high")
            name, value = name.lower(), value.lower()
            row = BY_NAME.get(name)
            if row is None:
                names = ", ".join(f.name for f in fields(self))
                raise NotationError(f"there is no rule option {quoted(name)} ({names})")
            changes[name] = row.read(value)
        return self.with_values(changes)

    def with_values(self, changes: dict[str, Value]) -> RuleOptions:
        """These options with some changed, by name (`{"joker": True}`)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def unusual_words(text: str) -> tuple[list[str], list[str]]:
    """A table's rules (`--rules` text, as its creator sent it) in words, as a list of tables shows them:
    no variant (the tile game has one), and each rule that differs from the usual, in the words of the
    table's rules strip; text that is not rules comes back as it came (cut short).

    >>> unusual_words("start=high,exchange=any-time,joker=on,rounds=3,mode=standard")
    ([], ['Joker rule', 'exchange any time', 'highest tile starts', '3-round match'])
    >>> unusual_words("jokers=7")
    ([], ['jokers=7'])
    """
    try:
        chosen, usual = RuleOptions.parse(text), RuleOptions()
    except ValueError:  # NotationError among them
        return [], [text[:60]] if text else []
    said = []
    for option in OPTIONS:
        if chosen.value(option.name) != usual.value(option.name):
            choice = option.chosen(chosen)
            strip = choice.strip[0] if choice is not None else ""
            said.append(strip or option.words(chosen.value(option.name)).lower())
    return [], said
