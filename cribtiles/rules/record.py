"""Game records: rule options, seed, players and every action, saved as JSON and replayed.

`replay(load(save(record_of(s)))) == s`. Anything that is not a record we can read (damaged JSON,
an unknown version, an action the rules refuse) raises `RecordError` with a plain reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from cribtiles.quoting import quoted

from .errors import IllegalMove, NotationError, RecordError
from .game import LOCK_RULE, GameState, LockRule, new_game
from .match import Match, round_seed
from .moves import parse_move
from .options import RuleOptions

FORMAT = "cribtiles-game"
_NUMBER = re.compile(r"[0-9]{1,6}")  # ASCII digits only: str.isdigit() also takes '²'
VERSION = 1
#: No action of a record is longer (five placements, a declared score): a longer one is damage, and
#: a message quotes at most QUOTE characters of what it found, so that it stays readable.
MAX_ACTION = 120
QUOTE = 40
#: The locked-board rule of a record, saved under "lock" (`LockRule`: rules.md 5). A record without it
#: was saved when any two rounds without a play locked the board; one with "stuck" when two rounds in
#: which nobody could play did, even if an exchange had just brought a play. Each replays by its rule,
#: so that a game that ended then still ends where it did.
LOCK_RULES = {rule.value: rule for rule in (LockRule.STUCK, LockRule.NOBODY_CAN_PLAY)}


def _quote(text: str) -> str:
    """`text` as a message quotes it: in quotes, cut short when long.

    >>> _quote("f7=4L"), _quote("x" * 100)
    ("'f7=4L'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (100 characters)")
    """
    return quoted(text, QUOTE) + (f" ({len(text):,} characters)" if len(text) > QUOTE else "")


@dataclass(frozen=True)
class GameRecord:
    options: RuleOptions
    seed: int
    names: tuple[str, ...]
    actions: tuple[str, ...]
    lock: LockRule = LOCK_RULE
    resigned: int | None = None  # the player who gave the game up after the actions (None: nobody)

    def to_json(self) -> str:
        return json.dumps(self.as_data(), indent=1)

    def as_data(self) -> dict[str, Any]:
        """The record as JSON values (what `to_json` writes): a table's save holds it as it is, rather
        than writing it out and reading it back."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "options": self.options.as_dict(),
            "seed": self.seed,
            "players": list(self.names),
            "actions": list(self.actions),
        }
        if self.lock is not LockRule.IDLE:
            data["lock"] = self.lock.value
        if self.resigned is not None:  # absent otherwise, as in every record written before it
            data["resigned"] = self.resigned
        return data

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"the saved game is damaged (not valid JSON: {e.msg} at line {e.lineno})") from None
        except RecursionError:
            raise RecordError("the saved game is damaged (its data is nested too deeply)") from None
        except (TypeError, ValueError) as e:  # bytes that are not text
            raise RecordError(f"the saved game is damaged ({e})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("this file is not a Crib Tiles game record")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(
                f"this game was saved in record version {quoted(version)}; this Crib Tiles reads version {VERSION}"
            )
        options, seed, names, actions = (data.get(k) for k in ("options", "seed", "players", "actions"))
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            raise RecordError("the saved game is damaged: its rule options are missing")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("the saved game is damaged: its seed is missing")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RecordError("the saved game is damaged: its players are missing")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("the saved game is damaged: its list of actions is missing")
        try:
            opts = RuleOptions().with_text(",".join(f"{k}={v}" for k, v in options.items()))
        except ValueError as e:
            raise RecordError(f"the saved game has rule options this version does not know: {e}") from None
        lock = data.get("lock")
        if lock is not None and (not isinstance(lock, str) or lock not in LOCK_RULES):
            raise RecordError(f"the saved game ends by a rule this version does not know ({_quote(str(lock))})")
        rule = LockRule.IDLE if lock is None else LOCK_RULES[lock]
        resigned = data.get("resigned")
        if resigned is not None and (type(resigned) is not int or not 0 <= resigned < len(names)):
            raise RecordError("the saved game is damaged: the player who gave it up is no player of it")
        return cls(opts, seed, tuple(names), tuple(actions), lock=rule, resigned=resigned)


def record_of(state: GameState) -> GameRecord:
    resigned = None if state.outcome is None else state.outcome.resigned
    return GameRecord(state.options, state.seed, state.names, state.log, state.lock, resigned)


def apply_text(state: GameState, action: str) -> GameState:
    """Apply one action as the record writes it: a move, `... declare N`, or `joker N`."""
    words = action.split()
    if len(words) == 2 and words[0] == "joker" and _NUMBER.fullmatch(words[1]):
        return state.call_joker(int(words[1]))
    declared = None
    if len(words) >= 3 and words[-2] == "declare" and _NUMBER.fullmatch(words[-1]):
        declared = int(words[-1])
        action = " ".join(words[:-2])
    return state.apply(parse_move(action), declared)


def start(record: GameRecord) -> GameState:
    """The game before the record's first action, under the record's locked-board rule."""
    try:
        state = new_game(len(record.names), record.options, record.seed, record.names)
    except ValueError as e:
        raise RecordError(f"the saved game cannot be set up: {e}") from None
    return state if record.lock is state.lock else replace(state, lock=record.lock)


def replay(record: GameRecord, upto: int | None = None) -> GameState:
    """The state after the record's actions (or its first `upto` of them).

    A whole record saved under an older locked-board rule and not finished goes on under today's:
    today's rule ends no game the older ones had not ended (it locks a board only when they would
    have, and nobody can play), so until the end both play a game alike."""
    state = start(record)
    for i, action in enumerate(record.actions[:upto]):
        if len(action) > MAX_ACTION:
            raise RecordError(f"the saved game is damaged: action {i + 1} is {_quote(action)}, too long to be a move")
        try:
            state = apply_text(state, action)
        except (IllegalMove, NotationError) as e:
            why = str(e) if len(str(e)) <= 4 * QUOTE else str(e)[: 4 * QUOTE - 1] + "…"
            raise RecordError(f"the saved game breaks off at action {i + 1} ({_quote(action)}): {why}") from None
    if upto is None and not state.is_over and state.lock is not LOCK_RULE:
        state = replace(state, lock=LOCK_RULE)
    if upto is None and record.resigned is not None:
        try:
            state = state.resign(record.resigned)
        except IllegalMove as e:
            raise RecordError(f"the saved game cannot have been given up: {e}") from None
    return state


def save(state: GameState) -> str:
    return record_of(state).to_json()


def load(text: str) -> GameState:
    return replay(GameRecord.from_json(text))


MATCH_FORMAT = "cribtiles-match"


def save_match(match: Match) -> str:
    """The match as JSON; a match whose seed is withheld is saved with a null seed (each round keeps its
    own, which deals no other round)."""
    return json.dumps(match_data(match), indent=1)


def match_data(match: Match) -> dict[str, Any]:
    """The match as JSON values (what `save_match` writes)."""
    rounds = [record_of(g).as_data() for g in (*match.finished, match.game)]
    seed = None if match.seed_withheld else match.seed
    return {"format": MATCH_FORMAT, "version": VERSION, "seed": seed, "rounds": rounds}


def load_match(text: str) -> Match:
    """A match from `save_match`; every round is replayed and checked against the match's seed."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"the saved match is damaged (not valid JSON: {e})") from None
    if not isinstance(data, dict) or data.get("format") != MATCH_FORMAT:
        raise RecordError("this file is not a Crib Tiles match")
    if data.get("version") != VERSION:
        raise RecordError(
            f"this match was saved in version {quoted(data.get('version'))}; this Crib Tiles reads {VERSION}"
        )
    told, rounds = data.get("seed"), data.get("rounds")
    withheld = "seed" in data and told is None  # a match still played, its seed kept back: no check by it
    if not (withheld or (isinstance(told, int) and not isinstance(told, bool))):
        raise RecordError("the saved match is damaged: its seed is not a number")
    seed: int = told or 0
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("the saved match is damaged: its rounds are missing")
    games = [replay(GameRecord.from_dict(r)) for r in rounds]
    for i, g in enumerate(games):
        dealt = withheld or g.seed == round_seed(seed, i)
        if not dealt or g.options != games[0].options or g.names != games[0].names:
            raise RecordError(f"the saved match is damaged: round {i + 1} does not belong to it")
        if i < len(games) - 1 and not g.is_over:
            raise RecordError(f"the saved match is damaged: round {i + 1} was never finished")
        if i < len(games) - 1 and g.outcome is not None and g.outcome.resigned is not None:
            raise RecordError(f"the saved match is damaged: round {i + 1} was given up, yet rounds follow it")
    if len(games) > games[0].options.rounds:
        raise RecordError("the saved match holds more rounds than it was set to play")
    match = Match(games[0].options, seed, games[0].names, tuple(games[:-1]), games[-1], seed_withheld=withheld)
    if withheld and match.is_over:
        raise RecordError("the saved match is damaged: it is over, yet its seed is missing")
    return match
