"""The first-game tutorial's fixed game: Medium's opening on the board, your rack and the bag in a
fixed order, Medium's scripted replies, and the five steps that walk through them (lay a fifteen,
extend a run, meet a refusal, turn a 6 into a 9, read the bot's breakdown). Pure: no pygame.

The window shows one step at a time and asks `advance` after every frame; the steps hold the player
to the one play each asks for, so the board (and Medium's replies) are the same every time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.board import Square, parse_square
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState, PlayerView, new_game
from cribtiles.rules.match import Match
from cribtiles.rules.moves import Move, Play, parse_move, parse_rack
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.tiles import Colour, Tile, full_set, rack_counter

from ..seats import Seat
from .table import Table

YOU, BOT = 0, 1
BOT_LEVEL = "medium"
#: The seed of the tutorial's table: it decides nothing (the deal and the replies are fixed) but a
#: table needs one.
SEED = 1

#: Medium's opening, already played when the tutorial starts: J Q K across the middle of row 8.
OPENING = "g8=JD h8=QL i8=KD"
#: Medium's replies to your plays, in turn: each is legal on the board the steps lead to.
REPLIES = ("i10=5D", "h10=TD", "h9=JL j9=5D")
YOUR_RACK = "5L TL 6D 2L 3D"
BOT_RACK = "JD QL KD 5D TD"
#: The tiles drawn from the bag, in the order they are drawn (Medium after its opening, then turn by
#: turn); the rest of the bag follows in the set's own order.
DRAWS = ("JL", "5D", "8D", "AL", "4D", "7L", "2D", "QD", "3L", "AD", "8L")


class Kind(Enum):
    """What a step asks of the player."""

    PLAY = "play"  # lay the step's play and play it
    REFUSAL = "refusal"  # lay the step's play, which the rules refuse, and read why
    READ = "read"  # read the breakdown of the bot's reply


@dataclass(frozen=True)
class Hint:
    """What "Show me" lights: the rack tiles to use (in rack form) and the squares they go to."""

    tiles: tuple[Tile, ...]
    squares: tuple[Square, ...]
    words: str


@dataclass(frozen=True)
class Step:
    kind: Kind
    title: str
    text: str  # the instruction
    hint: Hint
    play: Play | None = None  # the play the step asks for (laid, not played, for a refusal)
    points: int = 0  # what the play scores (for READ: what the bot's reply scores)
    reason: str = ""  # the rules' words for a refusal, quoted to the player
    done: str = ""  # said once the step is done


def _play(text: str) -> Play:
    move = parse_move(text)
    assert isinstance(move, Play)
    return move


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(t.rack_form for t in parse_rack(text))


def _squares(text: str) -> tuple[Square, ...]:
    return tuple(parse_square(s) for s in text.split())


STEPS: tuple[Step, ...] = (
    Step(
        Kind.PLAY,
        "Lay a fifteen",
        "Medium opened with J Q K, a run of three. Tiles in a line that add up to 15 score 2, and a K "
        "counts 10: drag your 5 to the square just below the K (i9), then press Enter or click Play.",
        Hint(_tiles("5L"), _squares("i9"), "Your 5 goes just below the K: K + 5 = 15."),
        _play("i9=5L"),
        points=2,
        done="K + 5 = 15: a fifteen, 2 points.",
    ),
    Step(
        Kind.PLAY,
        "Extend a run",
        "Ranks in a row score one point a tile: J Q K is a run of three. Lay your 10 at the left end "
        "of row 8 (f8) to make 10 J Q K, a run of four, and play it.",
        Hint(_tiles("TL"), _squares("f8"), "Your 10 goes at the left end of row 8, before the J."),
        _play("f8=TL"),
        points=4,
        done="10 J Q K: a run of four, 4 points.",
    ),
    Step(
        Kind.REFUSAL,
        "A play the rules refuse",
        "Every tile of a line must be part of a fifteen, a pair or a run. Lay your 6 at the left end of "
        "row 8 (e8), before the 10, and see what the rules say.",
        Hint(_tiles("6D"), _squares("e8"), "Your 6 goes at the left end of row 8, before the 10."),
        _play("e8=6D"),
        reason="the 6 adds nothing to 6 10 J Q K in row 8",
        done="The 6 was refused: it adds nothing to the line.",
    ),
    Step(
        Kind.PLAY,
        "Turn a 6 into a 9",
        "Any 6 can be laid as a 9. Right-click your 6 (or roll the wheel over it, or press F) to turn it "
        "into a 9: 9 10 J Q K is a run of five. Then play it.",
        Hint(_tiles("6D"), _squares("e8"), "Turn the 6 on e8 over: as a 9 it runs on from the 10."),
        _play("e8=9D"),
        points=5,
        done="9 10 J Q K: a run of five, 5 points.",
    ),
    Step(
        Kind.READ,
        "Read the bot's breakdown",
        "Medium replied with a J and a 5 for 9 points. The side panel lists each line it scored and every "
        "fifteen, pair and run in it: point at a row to light its tiles on the board.",
        Hint((), _squares("h9 j9"), "Medium's tiles are on h9 and j9; its breakdown is in the side panel."),
        _play(REPLIES[-1]),
        points=9,
        done="That is how every play is scored.",
    ),
)

READY_TITLE = "You're ready"
READY_TEXT = (
    "Lay tiles in lines that score, keep every tile of a line useful, and turn a 6 into a 9 when it "
    "helps. Press Enter to close the tutorial."
)


# --- the fixed game ---


def _bag(racks: Sequence[tuple[Tile, ...]], board: Sequence[Tile], draws: Sequence[Tile]) -> tuple[Tile, ...]:
    """The bag holding every tile not on a rack or the board, `draws` drawn first (bags are drawn
    from the end)."""
    rest = rack_counter(full_set())
    rest -= rack_counter(t for rack in racks for t in rack)
    rest -= rack_counter(board)
    rest -= rack_counter(draws)
    if any(n < 0 for n in rest.values()):
        raise ValueError("the tutorial's deal uses a tile more often than the set holds it")
    return (*sorted(rest.elements()), *reversed(tuple(t.rack_form for t in draws)))


def start_state() -> GameState:
    """The tutorial's game before Medium's opening: you and Medium, Medium to play first (it drew the
    lower tile), the racks and the bag fixed."""
    names = ("You", BOT_LEVEL.capitalize())
    base = new_game(2, RuleOptions(), SEED, names)
    racks = (_tiles(YOUR_RACK), _tiles(BOT_RACK))
    draws = tuple(t for text in DRAWS for t in _tiles(text))
    draws_for_start = ((YOU, Tile(8, Colour.LIGHT)), (BOT, Tile(2, Colour.DARK)))
    return replace(
        base,
        racks=racks,
        bags=(_bag(racks, (), draws),),
        current=BOT,
        starter=BOT,
        start_draws=(draws_for_start,),
    )


def tutorial_table() -> Table:
    """The tutorial's table: you against Medium, with Medium's opening on the board, your turn."""
    state = start_state().apply(OPENING)
    seats = (Seat.person("You"), Seat.bot(BOT_LEVEL))
    return Table(seats, Match(state.options, state.seed, state.names, (), state))


def bot_move(view: PlayerView) -> Move:
    """Medium's move in the tutorial: its next scripted reply, or, should the board have left the
    script (it cannot while the steps hold the player to them), the best-scoring play."""
    done = sum(1 for t in view.turns if t.player == view.player)
    script = (OPENING, *REPLIES)
    if done < len(script):
        move = _play(script[done])
        try:
            view.scorer.score(view.board, move)
        except IllegalMove:
            pass
        else:
            if not rack_counter(move.tiles) - rack_counter(view.rack):
                return move
    return greedy_move(view, random.Random(SEED))


# --- progress through the steps ---


@dataclass(frozen=True)
class Progress:
    """Where the player is: the step (len(STEPS) once finished), and whether the refusal of a
    REFUSAL step has been shown."""

    index: int = 0
    seen: bool = False

    @property
    def finished(self) -> bool:
        return self.index >= len(STEPS)

    @property
    def step(self) -> Step | None:
        return None if self.finished else STEPS[self.index]

    @property
    def previous(self) -> Step | None:
        """The step just done (its `done` words are said above the next one)."""
        return STEPS[self.index - 1] if self.index > 0 else None

    def label(self) -> str:
        return READY_TITLE if self.finished else f"Step {self.index + 1} of {len(STEPS)}"


def played(table: Table, play: Play) -> bool:
    """`play` has been played at the table by you."""
    return any(r.player == YOU and r.turn.move == play for r in table.history)


def bot_replied(table: Table, step: Step) -> bool:
    """The bot's reply that a READ step reads is on the board."""
    return any(r.player == BOT and r.turn.move == step.play for r in table.history)


def is_refused(board_play: Play | None, table: Table, step: Step) -> bool:
    """What lies on the board unplayed is the refusal step's play, and the rules refuse it."""
    if step.play is None or board_play != step.play:
        return False
    try:
        table.state.scorer.score(table.state.board, board_play)
    except IllegalMove:
        return True
    return False


def ready(progress: Progress, table: Table, proposal: Play | None) -> bool:
    """The step waits only for the player's word: its play lies on the board unplayed (PLAY: Enter
    plays it), its refusal is shown (REFUSAL), or the bot's reply is there to read (READ)."""
    step = progress.step
    if step is None:
        return True
    if step.kind is Kind.PLAY:
        return proposal is not None and proposal == step.play and table.person_to_move
    if step.kind is Kind.REFUSAL:
        return progress.seen
    return bot_replied(table, step)


def may_play(progress: Progress, proposal: Play | None) -> bool:
    """Whether the player may play what lies on the board: only the play the step asks for."""
    step = progress.step
    return step is not None and step.kind is Kind.PLAY and proposal == step.play


def advance(progress: Progress, table: Table, proposal: Play | None, acknowledged: bool = False) -> Progress:
    """The progress after a frame: a PLAY step is done once its play is played; a REFUSAL step once
    its refusal has been shown and the player has said so (`acknowledged`); a READ step once the
    reply is there and the player has read it (pointed at a row, or said so)."""
    step = progress.step
    if step is None:
        return progress
    if step.kind is Kind.PLAY:
        return Progress(progress.index + 1) if step.play is not None and played(table, step.play) else progress
    if step.kind is Kind.REFUSAL:
        if not progress.seen:
            return replace(progress, seen=is_refused(proposal, table, step))
        return Progress(progress.index + 1) if acknowledged else progress
    return Progress(progress.index + 1) if acknowledged and bot_replied(table, step) else progress
